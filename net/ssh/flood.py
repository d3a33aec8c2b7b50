"""Keeping one session's input from costing the others: a byte budget for what its client
sends (keys, pastes, mouse reports), and window sizes passed on at most every RESIZE_EVERY.

Over its budget a session is neither cut off nor robbed of bytes: it stops reading its channel
until the budget has refilled, so SSH's own flow control makes the client wait (what waits is
at most one channel window, in asyncssh's buffer). Dropping bytes would cut escape sequences in
half and turn their tails into key presses (a mouse report's "35;10;5M" typed as keys), and
closing the session would punish a long paste. A person stays below the rate: typing is a
few bytes a second, and a mouse is reported once for each cell it crosses (about a dozen bytes
each), which a quick sweep across the window sends within the burst. A flood at full speed,
though, queues events in the app faster than it handles them, and a Python process keeps the
memory of its largest queue: measured with mouse reports at the menu, 16 KiB a second still
grows the app without end, 8 KiB holds it level at about a quarter of a core, 4 KiB at a tenth.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

INPUT_RATE = 4 * 1024  # bytes a second a session's input passes on, sustained
INPUT_BURST = 16 * 1024  # bytes it may send at once (a paste, a sweep of the mouse)
RESIZE_EVERY = 0.1  # seconds between window sizes passed on to a session's app


class InputBudget:
    """A bucket of bytes that refills at `rate` a second up to `burst`."""

    def __init__(self, rate: float = INPUT_RATE, burst: float = INPUT_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.left = burst
        self._then = clock()

    def spend(self, size: int) -> float:
        """Spend `size` bytes: the seconds to stop reading for until the budget is back in
        credit (0: read on)."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self._then) * self.rate) - size
        self._then = now
        return 0.0 if self.left >= 0 else -self.left / self.rate


class Spaced:
    """Runs `apply` at most once every `every` seconds however often it is asked to: at once
    if the last run is that long ago, else once when it is, for everything asked meanwhile
    (a window dragged to a new size sends dozens of sizes; the last one is what counts)."""

    def __init__(self, apply: Callable[[], None], every: float = RESIZE_EVERY) -> None:
        self.apply, self.every = apply, every
        self._last = -every
        self._later: asyncio.TimerHandle | None = None

    def ask(self) -> None:
        if self._later is not None:
            return
        wait = self._last + self.every - time.monotonic()
        if wait <= 0:
            self._run()
        else:
            self._later = asyncio.get_running_loop().call_later(wait, self._run)

    def _run(self) -> None:
        self._later = None
        self._last = time.monotonic()
        self.apply()

    def cancel(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
