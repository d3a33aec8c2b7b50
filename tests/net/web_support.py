"""A player at a web table without a browser, for tests: aiohttp's client on 127.0.0.1 loads
the page (for its cookie) and opens the tab's websocket as textual-serve's page does, feeding
what comes back into a `pyte` terminal, so a test reads the screen the browser would draw.
The same client plays the attacker: any Origin, any message, any cookie."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from watched import TIMEOUT, WatchedScreen

from net.web.server import WebTable

OpenWeb = Callable[..., Awaitable[WebTable]]  # the `open_web` fixture (conftest.py)
KEYS = {"enter": "\r", "tab": "\t", "escape": "\x1b", "down": "\x1b[B", "up": "\x1b[A",
        "right": "\x1b[C", "left": "\x1b[D", "f5": "\x1b[15~"}


class WebPlayer(WatchedScreen):
    """One browser: its cookies, and its tab's websocket once `open` is called."""

    def __init__(self, port: int, cols: int = 100, rows: int = 30) -> None:
        super().__init__(cols, rows)
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.size = (cols, rows)
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.closed: aiohttp.WSMessage | None = None  # the close frame, once it came
        self.texts: list[str] = []  # text messages from the table (a pong)
        self._reader: asyncio.Task[None] | None = None

    async def load(self, headers: dict[str, str] | None = None) -> aiohttp.ClientResponse:
        async with self.http.get(self.base + "/", headers=headers) as response:
            await response.read()
            return response

    async def open(self, origin: str | None = "same", headers: dict[str, str] | None = None,
                   ) -> aiohttp.ClientWebSocketResponse:
        sent = dict(headers or {})
        if origin == "same":
            sent["Origin"] = self.base
        elif origin is not None:
            sent["Origin"] = origin
        cols, rows = self.size
        self.ws = await self.http.ws_connect(
            f"{self.base}/ws?width={cols}&height={rows}", headers=sent, autoclose=False)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self.ws

    async def _read(self) -> None:
        assert self.ws is not None
        while True:
            message = await self.ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(message.data)
            else:  # the close frame (its line in `extra`), or the connection gone
                self.closed = message
                if not self.ws.closed:
                    await self.ws.close()
                self._changed.set()
                return
            self._changed.set()

    def reason(self) -> str:
        """The line the table closed the tab with."""
        return str(self.closed.extra or "") if self.closed is not None else ""

    def gone(self) -> str | None:
        return "the tab closed" if self.closed is not None else None

    async def wait_closed(self, timeout: float = TIMEOUT) -> int | None:
        """The close code the table closed the tab with."""
        async with asyncio.timeout(timeout):
            while self.closed is None:
                self._changed.clear()
                await self._changed.wait()
        assert self.ws is not None
        return self.ws.close_code

    async def send(self, *envelope: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(list(envelope)))

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.send("stdin", KEYS.get(key, key))

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        await self.http.close()
