"""What the test clients of the SSH table and the web table share: a terminal screen (pyte)
fed by the table, read as text, and waited on as it changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pyte

TIMEOUT = 30.0  # seconds a wait on a screen may take, on a loaded machine too


class WatchedScreen:
    """A screen the table draws on. A client feeds `stream` and sets `_changed` as bytes come,
    and says in `gone()` whether the table has closed it."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self._changed = asyncio.Event()

    def gone(self) -> str | None:
        """Why waiting on the screen is over: the table closed it (None: it is open)."""
        raise NotImplementedError

    def report(self) -> str:
        """What a failed wait shows besides the screen."""
        return ""

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def find(self, text: str) -> tuple[int, int] | None:
        """(column, row) where `text` starts on the screen."""
        for row, line in enumerate(self.screen.display):
            if (col := line.find(text)) >= 0:
                return col, row
        return None

    async def wait_for(self, check: Callable[[], Any] | str, what: str = "",
                       timeout: float = TIMEOUT) -> Any:
        """The first true value of `check` (or the position of a text) as the screen changes."""
        test: Callable[[], Any] = (lambda: self.find(check)) if isinstance(check, str) else check
        try:
            async with asyncio.timeout(timeout):
                while True:
                    self._changed.clear()
                    if found := test():
                        return found
                    if (why := self.gone()) is not None:
                        raise AssertionError(why)
                    await self._changed.wait()
        except (TimeoutError, AssertionError) as exc:
            raise AssertionError(f"gave up waiting for {what or check!r} ({exc or 'timeout'}); "
                                 f"screen:\n{self.text()}{self.report()}") from None
