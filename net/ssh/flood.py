"""Keeping one session's input from costing the others: a byte budget for what its client
sends (keys, pastes, mouse reports), passed on no faster than the app's terminal takes it, and
window sizes passed on at most every RESIZE_EVERY, once a second while a storm of them lasts.

Over its budget a session is neither cut off nor robbed of bytes: it stops reading its channel
until what it holds has gone on, so SSH's own flow control makes the client wait. Dropping
bytes would cut escape sequences in half and turn their tails into key presses (a mouse
report's "35;10;5M" typed as keys), and closing the session would punish a long paste. A
person stays below the rate: typing is a few bytes a second, and a mouse is reported once for
each cell it crosses (about a dozen bytes each), which a quick sweep across the window sends
within the burst.

What waits is bounded: the session's own queue (`Inflow`) and asyncssh's buffer of the channel
(at most its window, INPUT_WINDOW). asyncssh opens the whole window again on the first packet
it hands over after a pause, however much it still holds, so a channel paused and resumed one
packet at a time buffered without end (a client sending arrow keys as fast as it could had
26 MB waiting after ten seconds): the session therefore pauses only once asyncssh has handed
over all it holds, and reads again only once its own queue is empty. The app's terminal is
written only when it has taken the last write, and the app reads it only as fast as it
handles what it read (tui.input_gate): a slow app makes the client wait, not the memory grow.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

INPUT_RATE = 4 * 1024  # bytes a second a session's input passes on, sustained
INPUT_BURST = 16 * 1024  # bytes it may send at once (a paste, a sweep of the mouse)
RESIZE_EVERY = 0.1  # seconds between window sizes passed on to a session's app...
RESIZE_MOST = 1.0  # ...growing to this while sizes keep coming (Spaced)
INPUT_WINDOW = 64 * 1024  # bytes a client may send ahead of what the table has read (SSH)
CHUNK = 4096  # the most passed on to the app at once (about what its terminal holds)
# An escape sequence this close to the end of a chunk is held for the next, whole: the app
# would take a lone ESC that waited for its tail as the Escape key.
LONGEST_SEQUENCE = 32


class InputBudget:
    """A bucket of bytes that refills at `rate` a second up to `burst`."""

    def __init__(self, rate: float = INPUT_RATE, burst: float = INPUT_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.left = burst
        self._then = clock()

    def room(self) -> float:
        """The bytes that may go on now."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self._then) * self.rate)
        self._then = now
        return self.left

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
    (a window dragged to a new size sends dozens of sizes; the last one is what counts). While
    the asking goes on the spacing doubles, up to `most` seconds, and it is back to `every`
    once nothing was asked for `most`: a window dragged for a moment is redrawn ten times a
    second, a storm of sizes once a second (each costs the app a layout of its whole screen:
    a storm at ten a second took a quarter of a core at a game, once a second 7 %, bots'
    play included; `python -m bench.ssh_input --game`)."""

    def __init__(self, apply: Callable[[], None], every: float = RESIZE_EVERY,
                 most: float = RESIZE_MOST) -> None:
        self.apply, self.every, self.most = apply, every, most
        self._gap = every
        self._last = -most
        self._later: asyncio.TimerHandle | None = None

    def ask(self) -> None:
        if self._later is not None:
            return
        now = time.monotonic()
        wait = self._last + self._gap - now
        if wait <= 0:
            if now - self._last >= self.most:
                self._gap = self.every
            self._run()
        else:
            self._gap = min(self.most, 2 * self._gap)
            self._later = asyncio.get_running_loop().call_later(wait, self._run)

    def _run(self) -> None:
        self._later = None
        self._last = time.monotonic()
        self.apply()

    def cancel(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None


def cut(queue: bytes | bytearray, most: int) -> int:
    """How many of `queue`'s first bytes to pass on when at most `most` may go: never the
    head of an escape sequence without its tail, if that can be helped."""
    if len(queue) <= most:
        return len(queue)
    head = queue.rfind(b"\x1b", max(0, most - LONGEST_SEQUENCE), most)
    return head if head > 0 else most


class Inflow:
    """What one session's client typed, on its way to the app: kept here, passed on within
    the budget and only when the app's terminal has taken the last of it (`ready`; `drained`
    says when it has); while anything is kept, the channel is not read (`pause`, `resume`)."""

    def __init__(self, deliver: Callable[[bytes], None], ready: Callable[[], bool],
                 pause: Callable[[], None], resume: Callable[[], None],
                 budget: InputBudget | None = None) -> None:
        self.deliver, self.ready, self.pause, self.resume = deliver, ready, pause, resume
        self.budget = budget or InputBudget()
        self.kept = bytearray()
        self.paused = False
        self._loop = asyncio.get_running_loop()
        self._later: asyncio.TimerHandle | None = None
        self._turn: asyncio.Handle | None = None

    def take(self, data: bytes) -> None:
        self.kept += data
        self._pump()
        if self.kept and not self.paused and self._turn is None:
            # Not now: asyncssh may be in the middle of handing over what it holds.
            self._turn = self._loop.call_soon(self._pause)

    def drained(self) -> None:
        """The app's terminal has taken everything written to it."""
        self._pump()

    def close(self) -> None:
        for timer in (self._later, self._turn):
            if timer is not None:
                timer.cancel()
        self._later = self._turn = None
        self.kept.clear()

    def _pause(self) -> None:
        self._turn = None
        if self.kept and not self.paused:
            self.paused = True
            self.pause()

    def _resume(self) -> None:
        self._turn = None
        if not self.kept and self.paused:
            self.paused = False
            self.resume()

    def _wake(self) -> None:
        self._later = None
        self._pump()

    def _pump(self) -> None:
        while self.kept and self._later is None and self.ready():
            room = int(self.budget.room())
            if room < 1:
                wait = min(len(self.kept), CHUNK) / self.budget.rate
                self._later = self._loop.call_later(wait, self._wake)
                return
            size = cut(self.kept, min(room, CHUNK))
            chunk = bytes(self.kept[:size])
            del self.kept[:size]
            self.budget.spend(size)
            self.deliver(chunk)
        if not self.kept and self.paused and self._turn is None:
            self._turn = self._loop.call_soon(self._resume)
