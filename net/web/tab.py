"""One browser tab: its app, forked by the table's fork server, and the websocket between them.

textual-serve's `AppService` speaks the app's side (Textual's web driver reads packets on its
stdin and writes them on its stdout); `TabApp` only changes how the app starts: forked by the
table's fork server (net.ssh.forks) on a socket pair, rather than by a shell per tab (a fresh
interpreter costs a third of a second and ~29 MiB of its own, see net.ssh.forkserver), and
ended as an SSH session's is when its player goes: a hangup, so a tab closed mid-game is a
dropped player whose seat waits, not one who left.

What the page sends is checked here, not in textual-serve (which trusts its page): one text
message of JSON a message, of the few kinds the page sends; anything else closes this tab
alone, with a line saying why. Input is counted against the SSH session's byte budget
(net.ssh.flood), every message at least MESSAGE_COST: a tab that overdraws it by more than
FLOOD_WAIT seconds of input is closed. A person never types, clicks or resizes that much (a
sweep of the mouse is a few kilobytes, within the burst); a page that does is broken or
hostile, and slowing it down would only keep its app busy for longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from net.ssh.flood import InputBudget, Spaced
from net.ssh.forks import Forked, Forks
from net.ssh.pty import HANGUP_GRACE
from net.web import words

# Every message costs at least this many bytes of the input budget (a stream of tiny pings
# or sizes is a flood too).
MESSAGE_COST = 32
# A tab whose input overdraws its budget by this many seconds' worth is closed.
FLOOD_WAIT = 5.0
# WebSocket close codes the page is sent (RFC 6455): a message of a kind it may not send,
# and a rule of the table's (a limit, the idle timeout).
UNSUPPORTED = 1003
POLICY = 1008


class BadMessage(ValueError):
    """A message from the page that is none of the kinds it sends."""


@dataclass
class Sent:
    """One message from the page, checked."""

    kind: str  # stdin, resize, ping, focus, blur
    text: str = ""
    width: int = 0
    height: int = 0


def parse(data: str) -> Sent:
    """A page's message (textual-serve's envelope: a JSON list, its kind first)."""
    try:
        envelope = json.loads(data)
    except ValueError:
        raise BadMessage("not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise BadMessage("not an envelope")
    kind, args = envelope[0], envelope[1:]
    if kind == "stdin" and len(args) == 1 and isinstance(args[0], str):
        return Sent(kind, text=args[0])
    if kind == "resize" and len(args) == 1 and isinstance(args[0], dict):
        width, height = args[0].get("width"), args[0].get("height")
        if type(width) is int and type(height) is int:
            return Sent(kind, width=width, height=height)
    if kind == "ping" and len(args) == 1 and isinstance(args[0], str) and len(args[0]) <= 64:
        return Sent(kind, text=args[0])
    if kind in ("focus", "blur") and not args:
        return Sent(kind)
    raise BadMessage(f"no {kind[:20]!r} message")


def utf8(text: str) -> bytes:
    """Keys as UTF-8 that Textual's web driver takes (it decodes strictly, and one bad byte
    would end its input): a lone surrogate, which JSON can carry, becomes U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


class _Child:
    """What AppService.run reads of a process: its output and its (here empty) stderr."""

    def __init__(self, forked: Forked, stdout: asyncio.StreamReader) -> None:
        self.forked = forked
        self.stdout = stdout
        self.stderr = asyncio.StreamReader()
        self.stderr.feed_eof()  # the app's stderr is its packet stream's; nothing comes here


class TabApp(AppService):
    """textual-serve's bridge to a tab's app, the app forked by the table's fork server (see
    the module's docstring for why this is a subclass: the start and the end differ)."""

    def __init__(self, forks: Forks, argv: list[str], env: dict[str, str], cwd: str | None,
                 websocket: web.WebSocketResponse) -> None:
        super().__init__("", write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                         close=websocket.close, download_manager=DownloadManager())
        self.forks = forks
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.child: _Child | None = None

    @property
    def pid(self) -> int | None:
        return self.child.forked.pid if self.child is not None else None

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        env = {**self.env, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
               "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor",
               "TERM_PROGRAM": "textual", "COLUMNS": str(width), "ROWS": str(height)}
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            forked = await self.forks.spawn(self.argv, env, self.cwd, theirs.fileno())
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        self.child = _Child(forked, reader)
        self._process = self.child  # type: ignore[assignment]
        self._stdin = writer
        return self.child

    async def stop(self) -> None:
        """The player is gone: a hangup, then SIGKILL if the app lingers (as net.ssh.pty)."""
        child = self.child
        if child is not None and child.forked.returncode is None:
            child.forked.send_signal(signal.SIGHUP)
            try:
                await asyncio.wait_for(child.forked.wait(), HANGUP_GRACE)
            except TimeoutError:
                child.forked.send_signal(signal.SIGKILL)
                await child.forked.wait()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
            self._task = None
        if self._stdin is not None:
            self._stdin.close()


class Tab:
    """One tab's websocket, checked and paced, and its app, until either side ends."""

    def __init__(self, websocket: web.WebSocketResponse, app: TabApp, max_cols: int,
                 max_rows: int, idle_minutes: float, lang: str = "en") -> None:
        self.websocket = websocket
        self.app = app
        self.lang = lang  # of the lines the page shows when this side closes the tab
        self.max_cols, self.max_rows = max_cols, max_rows
        self.idle_minutes = idle_minutes
        self.last_input = time.monotonic()
        self.ending = ""  # why this side closed the tab, for the log
        self._budget = InputBudget()
        self._size = (80, 24)
        self._resizes = Spaced(self._pass_size)
        self._sizing: asyncio.Task[bool] | None = None  # the last size on its way to the app

    def clamp(self, width: int, height: int) -> tuple[int, int]:
        return min(max(width, 1), self.max_cols), min(max(height, 1), self.max_rows)

    async def run(self, width: int, height: int) -> None:
        """Start the app at that size and carry messages until the page or the app goes."""
        self._size = self.clamp(width, height)
        await self.app.start(*self._size)
        idle = asyncio.get_running_loop().create_task(self._watch_idle())
        try:
            await self._pump()
        finally:
            idle.cancel()
            self._resizes.cancel()
            await self.app.stop()
            if not self.websocket.closed:
                await self.websocket.close()

    async def _pump(self) -> None:
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                await self.close(UNSUPPORTED, "unsupported")
                return
            wait = self._budget.spend(max(len(message.data), MESSAGE_COST))
            if wait > FLOOD_WAIT:
                await self.close(POLICY, "flood")
                return
            try:
                sent = parse(message.data)
            except BadMessage:
                await self.close(UNSUPPORTED, "unsupported")
                return
            await self._take(sent)

    async def _take(self, sent: Sent) -> None:
        if sent.kind == "stdin":
            self.last_input = time.monotonic()
            await self.app.send_bytes(utf8(sent.text))
        elif sent.kind == "resize":
            self._size = self.clamp(sent.width, sent.height)
            self._resizes.ask()
        elif sent.kind == "ping":
            await self.websocket.send_json(["pong", sent.text])
        elif sent.kind == "focus":
            await self.app.focus()
        elif sent.kind == "blur":
            await self.app.blur()

    def _pass_size(self) -> None:
        self._sizing = asyncio.get_running_loop().create_task(
            self.app.set_terminal_size(*self._size))

    async def _watch_idle(self) -> None:
        minutes = self.idle_minutes
        if not minutes:
            return
        while (left := self.last_input + minutes * 60 - time.monotonic()) > 0:
            await asyncio.sleep(left)
        await self.close(POLICY, "idle", took=minutes)

    async def close(self, code: int, why: str, took: float = 0.0) -> None:
        """Close the tab with the line `why` (a key of net.web.words; `took`: the minutes of
        the idle line), in the player's language; the log's is English."""
        def line(lang: str) -> str:
            return words.said(why, lang, took=words.took(took, lang))

        self.ending = line("en")
        await self.websocket.close(code=code, message=words.reason(line(self.lang)))
