"""Interrupt windows at a table: the moments when several seats may answer at once (Chez Geek's
cancels), and the clock that keeps them short.

Why a clock: a window waits for every eligible seat, and a seat that could answer must not be
told apart from one that cannot (rules file §1.5). So nobody is passed early because they hold
nothing: every person in a window gets the same countdown, and when it runs out the host lets the
window go for whoever has not answered. Bots answer at once (their speed tells nothing about a
person's hand). The countdown stops while a person in the window is away, and a move made on an
older state of the same window still counts: answers race each other, and the first one the host
applies wins.

A game has windows if its engine offers the lobby option `window_seconds` and its views say
`"window"` while one is open. Everything here reads the session; the host, the local link and the
driver only call in (see `WindowClock`, `next_unmanned_answer`, `next_local`).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engines.base import Move

if TYPE_CHECKING:
    from net.table.session import HostSession

PASS: Move = {"type": "pass"}
# How many closed windows are remembered, to tell a late answer from a merely stale one.
REMEMBERED = 64
TOO_LATE = "Too late: that window closed before your answer arrived, and nothing was played"


class SeatLike(Protocol):
    """What the driver knows of a seat (net.host.seats.Seat)."""

    bot: str | None
    auto: bool
    local: bool

    @property
    def connected(self) -> bool: ...


class WindowClock:
    """The open window of one session and its countdown. It follows the session's moves: a
    pass that leaves fewer seats to answer keeps the window (and the countdown) going; any other
    move that leaves a window open starts a new one."""

    def __init__(self, session: HostSession, now: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self._now = now
        engine = session.engine
        self.enabled = "window_seconds" in engine.options
        settings = engine.resolve_options(session.options) if self.enabled else {}
        self.seconds: float | None = float(settings.get("window_seconds", 0)) or None
        self.keyboard_answers = bool(settings.get("keyboard_answers", True))
        self.number = 0  # windows opened so far: the board tells windows apart by it
        self.open = False
        self._first = 0  # the state the open window opened at
        self._closed: deque[tuple[int, int]] = deque(maxlen=REMEMBERED)  # (first, last) states
        self._waiting: frozenset[int] = frozenset()
        self._left = 0.0  # seconds left when the countdown last (re)started or stopped
        self._since: float | None = None  # when it last started running (None: stopped)
        self._held = False
        self._shown: dict[str, Any] | None = None
        if self.enabled:
            session.subscribe(self._moved)
            self._look(None)

    def untimed(self) -> None:
        """No countdown: every window waits for each answer (hot-seat, where the keyboard goes
        round behind the handoff screen)."""
        self.seconds = None
        self._shown = self._snapshot()

    # -- following the game ------------------------------------------------------------------
    def _moved(self, seat: int, move: Move, events: list[dict[str, Any]]) -> None:
        self._look(move)

    def _look(self, move: Move | None) -> None:
        session = self.session
        engine = session.engine
        state = session.state
        now_open = not engine.is_over(state) and bool(engine.view(state, None).get("window"))
        waiting = frozenset(engine.to_act(state)) if now_open else frozenset()
        same = self.open and now_open and move == PASS and waiting < self._waiting
        if self.open and not same:
            self._closed.append((self._first, session.state_no - 1))
        if now_open and not same:
            self.number += 1
            self._first = session.state_no
            self._left = self.seconds or 0.0
            self._since = None if self._held else self._now()
        self.open = now_open
        self._waiting = waiting
        self._shown = self._snapshot()

    def hold(self, held: bool) -> None:
        """Stop the countdown while a person in the window is away; go on when they are back."""
        if held == self._held:
            return
        self._held = held
        if held and self._since is not None:
            self._left -= self._now() - self._since
            self._since = None
        elif not held:
            self._since = self._now()
        self._shown = self._snapshot()

    # -- reading -----------------------------------------------------------------------------
    def left(self) -> float | None:
        """Seconds until the window closes for the silent seats; None: no countdown runs."""
        if not self.open or self.seconds is None or self._held:
            return None
        elapsed = self._now() - self._since if self._since is not None else 0.0
        return max(0.0, self._left - elapsed)

    def _snapshot(self) -> dict[str, Any] | None:
        if not self.open:
            return None
        left = self._left if self._held else self.left()
        return {
            "window": self.number,
            "seconds": self.seconds,
            "left": None if left is None else round(max(0.0, left), 1),
            "paused": self._held,
        }

    def public(self, fresh: bool = False) -> dict[str, Any] | None:
        """The countdown as every seat's table message carries it. One snapshot per move, so
        every seat of a broadcast reads the very same numbers; `fresh` for a lone sync."""
        if fresh and self.open:
            self._shown = self._snapshot()
        return None if self._shown is None else dict(self._shown)

    def same_window(self, state_no: int) -> bool:
        """Whether a move made on state `state_no` answers the window open now: states since
        then only took passes away, so the move still means what its sender meant."""
        return self.open and self._first <= state_no <= self.session.state_no

    def too_late(self, state_no: int) -> str | None:
        """Why a move made on state `state_no` is refused, if a window was open then that has
        closed since: the answer came too late and changes nothing."""
        if any(first <= state_no <= last for first, last in self._closed):
            return TOO_LATE
        return None


# -- moves nobody at a keyboard makes -------------------------------------------------------------
async def next_unmanned_answer(
    session: HostSession, seats: Sequence[SeatLike], state_no: int, level: str
) -> tuple[int, Move, bool] | None:
    """For the networked driver, while a window is open: a bot's answer at once, else a pass
    for the first silent person once the countdown has run out (None: nothing is due)."""
    clock = session.windows
    to_act = session.engine.to_act(session.state)
    for seat in to_act:
        info = seats[seat]
        if info.bot or info.auto:
            move = await asyncio.to_thread(session.choose_for, seat, info.bot or level)
            if session.state_no != state_no:
                return None
            return seat, move or PASS, False
        if info.local and not clock.keyboard_answers:
            return seat, PASS, False
    clock.hold(any(not seats[seat].connected for seat in to_act))
    due = clock.left()
    if due is None or not to_act:
        return None
    await asyncio.sleep(due)
    if session.state_no != state_no:
        return None
    return to_act[0], PASS, False


def _local_due(session: HostSession, bot_delay: float) -> tuple[tuple[int, Move], float] | None:
    """The next move no person here makes in a local game, and how long to wait before it."""
    clock = session.windows
    if not clock.open:
        pending = session.pending_bot()
        return None if pending is None else (pending, bot_delay)
    to_act = session.engine.to_act(session.state)
    for seat in to_act:
        level = session.seats[seat].bot
        if level is not None:
            return (seat, session.choose_for(seat, level) or PASS), 0.0
        if not clock.keyboard_answers:
            return (seat, PASS), 0.0
    due = clock.left()
    if due is None or not to_act:
        return None
    return (to_act[0], PASS), due


async def next_local(session: HostSession, bot_delay: float) -> tuple[int, Move] | None:
    """For a local game: the next move of a bot or of a window's countdown, once it is due
    (bots between turns wait `bot_delay` so people can follow them; in a window they answer
    at once). None when only the people at this keyboard can move the game on. A bot thinks
    in a worker thread (the expert searches for about a second), so the table stays live."""
    while True:
        state_no = session.state_no
        due = await asyncio.to_thread(_local_due, session, bot_delay)
        if due is None:
            return None
        move, delay = due
        if delay:
            await asyncio.sleep(delay)
        if session.state_no == state_no:
            return move


def seat_keyboard(session: HostSession, people: Sequence[int]) -> None:
    """A local table learns who sits at its keyboard: with several people (hot-seat) each is
    asked in turn behind the handoff screen, so no countdown runs."""
    if len(people) > 1:
        session.windows.untimed()
