"""A real browser for the web table's tests and its benchmark (tests/net/test_web_browser.py,
bench/web.py): Debian's headless Chromium, driven through its DevTools protocol over a
websocket (the `websockets` package), with nothing else installed.

The page's terminal (xterm.js inside textual-serve's script) draws on a canvas, so the screen
is read from xterm's own buffer: a script run before the page's (`CAPTURE`) keeps each
xterm `Terminal` the page makes, which `Tab.text()` then reads line by line. Keys are typed
as a person's are (`Input.dispatchKeyEvent`), taps too (`Input.dispatchTouchEvent`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import websockets

TIMEOUT = 30.0
START_TIMEOUT = 30.0


def executable() -> str:
    """Chromium's program (.ci/run installs Debian's `chromium` where it is missing)."""
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or \
        shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError("no chromium: install Debian's `chromium` package (.ci/run does)")
    return found


# Kept for the tests: every xterm Terminal the page assigns to a `terminal` property.
CAPTURE = """
(() => {
  const seen = [];
  window.__terminals = seen;
  Object.defineProperty(Object.prototype, 'terminal', {
    configurable: true,
    get() { return undefined; },
    set(value) {
      Object.defineProperty(this, 'terminal', {value, writable: true, configurable: true,
                                               enumerable: true});
      if (value && typeof value === 'object' && 'buffer' in value) seen.push(value);
    },
  });
})();
"""

READ_SCREEN = """
(() => {
  const term = (window.__terminals || []).find(t => t.element);
  if (!term) return null;
  const buffer = term.buffer.active;
  const lines = [];
  for (let row = 0; row < term.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    lines.push(line ? line.translateToString(true) : '');
  }
  return {cols: term.cols, rows: term.rows, text: lines.join('\\n')};
})()
"""

# What Chromium's key events need for the keys the tests press: key, code, key code, text.
KEYS = {
    "enter": ("Enter", "Enter", 13, "\r"), "tab": ("Tab", "Tab", 9, ""),
    "escape": ("Escape", "Escape", 27, ""), "space": (" ", "Space", 32, " "),
    "up": ("ArrowUp", "ArrowUp", 38, ""), "down": ("ArrowDown", "ArrowDown", 40, ""),
    "left": ("ArrowLeft", "ArrowLeft", 37, ""), "right": ("ArrowRight", "ArrowRight", 39, ""),
    "f5": ("F5", "F5", 116, ""),
}


class Browser:
    """One headless Chromium with a profile of its own, for one test."""

    def __init__(self, *flags: str) -> None:
        self.flags = flags  # more of Chromium's switches
        self.profile = Path(tempfile.mkdtemp(prefix="tabletop-chromium-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.conn: Any = None
        self._ids = itertools.count(1)
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [executable(), "--headless=new", "--no-sandbox", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
             "--disable-gpu", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--mute-audio", *self.flags,
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = self.profile / "DevToolsActivePort"
        async with asyncio.timeout(START_TIMEOUT):
            while not (port_file.exists() and len(port_file.read_text().split()) >= 2):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"chromium ended at once ({self.proc.returncode})")
                await asyncio.sleep(0.05)
        port, path = port_file.read_text().split()[:2]
        self.conn = await websockets.connect(f"ws://127.0.0.1:{port}{path}", max_size=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.conn:
            message = json.loads(raw)
            if "id" in message:
                answer = self._answers.pop(message["id"], None)
                if answer is not None and not answer.done():
                    answer.set_result(message)
            else:
                for listener in list(self._listeners):
                    listener(message)

    async def send(self, method: str, session: str | None = None, **params: Any) -> Any:
        ident = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[ident] = answer
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self.conn.send(json.dumps(message))
        reply = await asyncio.wait_for(answer, TIMEOUT)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def tab(self, width: int = 1440, height: int = 900, scale: float = 1,
                  mobile: bool = False) -> Tab:
        """A new tab of this browser, at that size (CSS pixels)."""
        target = await self.send("Target.createTarget", url="about:blank")
        attached = await self.send("Target.attachToTarget", targetId=target["targetId"],
                                   flatten=True)
        tab = Tab(self, target["targetId"], attached["sessionId"])
        await tab.send("Page.enable")
        await tab.send("Runtime.enable")
        await tab.send("Page.addScriptToEvaluateOnNewDocument", source=CAPTURE)
        await tab.resize(width, height, scale, mobile)
        return tab

    async def stop(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()
        if self._reader is not None:
            self._reader.cancel()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(asyncio.to_thread(self.proc.wait), 10)
            except TimeoutError:
                self.proc.kill()
                await asyncio.to_thread(self.proc.wait)
        shutil.rmtree(self.profile, ignore_errors=True)


class Tab:
    """One page of the browser."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser = browser
        self.target = target
        self.session = session
        self.events: list[dict[str, Any]] = []
        browser._listeners.append(self._heard)

    def _heard(self, message: dict[str, Any]) -> None:
        if message.get("sessionId") == self.session:
            self.events.append(message)

    async def send(self, method: str, **params: Any) -> Any:
        return await self.browser.send(method, self.session, **params)

    async def resize(self, width: int, height: int, scale: float = 1,
                     mobile: bool = False) -> None:
        await self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                        deviceScaleFactor=scale, mobile=mobile)
        if mobile:
            await self.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", url=url)
        await self.until(lambda: self.evaluate("document.readyState === 'complete'"),
                         "the page loaded")

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression,
                                 returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def screen(self) -> dict[str, Any] | None:
        return await self.evaluate(READ_SCREEN)

    async def text(self) -> str:
        screen = await self.screen()
        return screen["text"] if screen else ""

    async def until(self, check: Callable[[], Any], what: str,
                    timeout: float = TIMEOUT) -> Any:
        """The first true value of `check` (a coroutine function), polled."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    found = await check()
                    if found:
                        return found
                    await asyncio.sleep(0.1)
        except TimeoutError:
            raise AssertionError(f"gave up waiting for {what}; screen:\n"
                                 f"{await self.text()}") from None

    async def wait_for(self, text: str, what: str = "", timeout: float = TIMEOUT) -> str:
        async def seen() -> str | None:
            screen = await self.text()
            return screen if text in screen else None

        return await self.until(seen, what or repr(text), timeout)

    async def focus(self) -> None:
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")

    async def press(self, *keys: str) -> None:
        for name in keys:
            key, code, number, text = KEYS.get(name) or (name, f"Key{name.upper()}",
                                                          ord(name.upper()), name)
            down: dict[str, Any] = {"type": "keyDown", "key": key, "code": code,
                                    "windowsVirtualKeyCode": number}
            if text:
                down["text"] = text
            await self.send("Input.dispatchKeyEvent", **down)
            await self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                            windowsVirtualKeyCode=number)

    async def tap(self, x: float, y: float) -> None:
        """A finger's tap at (x, y) CSS pixels."""
        point = [{"x": x, "y": y}]
        await self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
        await self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def cell_centre(self, col: int, row: int) -> tuple[float, float]:
        """Where on the page the centre of the terminal's cell (col, row) is."""
        box = await self.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
        screen = await self.screen()
        assert screen is not None
        left, top, width, height = box
        return (left + (col + 0.5) * width / screen["cols"],
                top + (row + 0.5) * height / screen["rows"])

    async def screenshot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.browser.send("Target.closeTarget", targetId=self.target)
        with contextlib.suppress(ValueError):
            self.browser._listeners.remove(self._heard)
