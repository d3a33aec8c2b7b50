"""Interrupt windows at a table: the moments when several seats may answer at once (Chez Geek's
cancels), and the clock that keeps them short without telling anyone's hand.

What must stay hidden is who could have answered. So nobody sees a pass: in a timed window a
pass (a person's, a bot's, or the one the table makes for a seat that holds nothing that fits)
is kept back and applied only when the window closes, all together, in seat order. Until then
every seat stays in `to_act`, and the window closes at the same moment whoever held what:
- after a glance (`GLANCE_SHARE` of the countdown), if no person in it holds an answer that
  fits, or every person who does has passed;
- else when its countdown (`window_seconds`) runs out for the people still thinking; choosing
  an answer (`answering`) gives a person more time, capped, and everyone sees who is answering.
A window only a bot or nobody is in closes at once. What a long window tells the table is what
the rules' own ruling on auto-passing makes public: some person held a card that fits and took
their time over it (a person who passes within the glance tells nothing). The countdown stops
while a person who could answer is away. A move made on an older state of the same window
still counts: answers race each other, and the first one the host applies wins.

At a shared keyboard (hot-seat) nothing is timed: the keyboard goes only to the people who can
answer, one after the other behind the handoff screen, and the others pass at once. A table
without a countdown (`window_seconds` 0) waits for every person's own answer or pass.

A game has windows if its engine offers the lobby option `window_seconds` and its views say
`"window"` while one is open. Everything here reads the session; the host, the local link and
the driver only call in (see `WindowClock`, `next_unmanned_answer`, `next_local`).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engines.base import IllegalMove, Move
from net.table.clocks import next_timeout

if TYPE_CHECKING:
    from net.table.session import HostSession

PASS: Move = {"type": "pass"}
# How many closed windows are remembered, to tell a late answer from a merely stale one.
REMEMBERED = 64
TOO_LATE = "Too late: that window closed before your answer arrived, and nothing was played"
PASSED = "You let this window go already"
# The shortest a window with a person in it stays open, whoever holds what, as a share of its
# countdown (0.6 s of the usual 4): a person who holds an answer and passes at once then cannot
# be told from one who holds none. A share, so a table that chose short windows plays fast.
GLANCE_SHARE = 0.1
# Choosing an answer makes sure this many seconds are left on the countdown...
ANSWER_SECONDS = 10.0
# ...but adds no more than this to one window in all (a window must end).
ANSWER_CAP = 20.0


class SeatLike(Protocol):
    """What the driver knows of a seat (net.host.seats.Seat)."""

    bot: str | None
    auto: bool
    local: bool

    @property
    def connected(self) -> bool: ...


class WindowClock:
    """The open window of one session, the passes kept back in it, and its countdown. It
    follows the session's moves: a pass that leaves fewer seats to answer keeps the window
    (and the countdown) going; any other move that leaves a window open starts a new one."""

    def __init__(self, session: HostSession, now: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self._now = now
        engine = session.engine
        self.enabled = "window_seconds" in engine.options
        settings = engine.resolve_options(session.options) if self.enabled else {}
        self.seconds: float | None = float(settings.get("window_seconds", 0)) or None
        self.keyboard_answers = bool(settings.get("keyboard_answers", True))
        self.shared_keyboard = False  # hot-seat: see `untimed`
        self.number = 0  # windows opened so far: the board tells windows apart by it
        self.open = False
        self.pending: dict[int, Move] = {}  # seat -> its pass, kept until the window closes
        self._first = 0  # the state the open window opened at
        self._opened = 0.0  # when it opened
        self._closed: deque[tuple[int, int]] = deque(maxlen=REMEMBERED)  # (first, last) states
        self._waiting: frozenset[int] = frozenset()
        self._left = 0.0  # seconds left when the countdown last (re)started or stopped
        self._since: float | None = None  # when it last started running (None: stopped)
        self._paused = False
        self._granted = 0.0  # seconds added to this window for people choosing an answer
        self._answering: set[int] = set()
        self._shown: dict[str, Any] | None = None
        if self.enabled:
            session.subscribe(self._moved)
            self._look(None)

    @property
    def timed(self) -> bool:
        return self.seconds is not None

    def untimed(self) -> None:
        """No countdown: every window waits for each answer (hot-seat, where the keyboard goes
        round behind the handoff screen). Only the people who can answer get the keyboard:
        at one screen there is nothing to hide from each other."""
        self.seconds = None
        self.shared_keyboard = True
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
            self._opened = self._now()
            self._left = self.seconds or 0.0
            self._since = None if self._paused else self._opened
            self._granted = 0.0
            self._answering = set()
            self.pending = {}
        self.open = now_open
        self._waiting = waiting
        self.pending = {s: m for s, m in self.pending.items() if s in waiting}
        self._answering &= waiting
        self._shown = self._snapshot()

    def rewound(self) -> None:
        """The table went back (an undo): windows that opened after it are forgotten, and
        the window open now, if any, is a new one."""
        if self.enabled:
            back = self.session.state_no
            self._closed = deque(((f, last) for f, last in self._closed if last < back),
                                 maxlen=REMEMBERED)
            self.open = False
            self._look(None)

    # -- what people do in a window ----------------------------------------------------------
    def keeps(self, seat: int, move: Move, state_no: int | None = None) -> bool:
        """Whether this move waits for the window to close instead of being applied now: a
        pass in an open, timed window, so nobody sees who let it go, or when. IllegalMove for
        an answer from a seat that has let this window go already."""
        if not (self.open and self.timed and seat in self._waiting):
            return False
        if state_no is not None and not self.same_window(state_no):
            return False  # the session refuses it as late or stale
        if seat in self.pending:
            if move == PASS:
                return True
            raise IllegalMove(PASSED)
        if move != PASS:
            return False
        self.keep(seat)
        return True

    def keep(self, seat: int) -> None:
        """`seat` lets the open window go, unseen until it closes."""
        self.pending[seat] = PASS
        self._answering.discard(seat)

    def answering(self, seat: int, state_no: int | None = None) -> bool:
        """A person in the window is choosing an answer: the countdown keeps at least
        ANSWER_SECONDS for them (up to ANSWER_CAP added to the window in all), and everyone
        sees who is answering. False if nothing changed (no answer of theirs fits, or the
        window is not theirs to answer any more)."""
        if not (self.open and self.timed and seat in self._waiting and seat not in self.pending):
            return False
        if state_no is not None and not self.same_window(state_no):
            return False
        if not can_answer(self.session, seat):
            return False
        left = self._running_left()
        extra = min(max(0.0, ANSWER_SECONDS - left), ANSWER_CAP - self._granted)
        if extra <= 0 and seat in self._answering:
            return False
        self._granted += extra
        self._left += extra
        self._answering.add(seat)
        self._shown = self._snapshot()
        return True

    def pause(self, paused: bool) -> None:
        """Stop the countdown while a person who could answer is away; go on when they are
        back."""
        if paused == self._paused:
            return
        self._paused = paused
        if paused and self._since is not None:
            self._left -= self._now() - self._since
            self._since = None
        elif not paused:
            self._since = self._now()
        self._shown = self._snapshot()

    # -- reading -----------------------------------------------------------------------------
    def _running_left(self) -> float:
        elapsed = self._now() - self._since if self._since is not None else 0.0
        return max(0.0, self._left - elapsed)

    def left(self) -> float | None:
        """Seconds until the countdown lets the window go for the people still thinking;
        None: no countdown runs."""
        if not self.open or self.seconds is None or self._paused:
            return None
        return self._running_left()

    def glance_left(self) -> float:
        """Seconds until the shortest a window stays open has passed."""
        return max(0.0, self._opened + GLANCE_SHARE * (self.seconds or 0.0) - self._now())

    def _snapshot(self) -> dict[str, Any] | None:
        if not self.open:
            return None
        left = self._left if self._paused else self.left()
        return {
            "window": self.number,
            "seconds": self.seconds,
            "left": None if left is None else round(max(0.0, left), 1),
            "paused": self._paused,
            "answering": sorted(self._answering),
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


def can_answer(session: HostSession, seat: int) -> bool:
    """Whether `seat` holds anything but a pass for the open window."""
    return any(m != PASS for m in session.engine.legal_moves(session.state, seat))


# -- moves nobody at a keyboard makes -------------------------------------------------------------
Robot = Callable[[int], "str | None"]


async def _window_step(
    session: HostSession, state_no: int, robot: Robot, silent: Callable[[int], bool],
    away: Callable[[int], bool],
) -> tuple[int, Move] | None:
    """The next move of an open window that no person makes, once it is due. Bots decide at
    once: an answer is played, a pass kept back; people who cannot answer (or let every window
    go) are kept back as passes too. Then the window waits for a glance and for the people who
    could answer, and once it may close, its passes come out one by one, in seat order.
    None: nothing is due (a person is still to answer, or the table moved on)."""
    clock = session.windows
    to_act = session.engine.to_act(session.state)
    for seat in to_act:
        if seat in clock.pending:
            continue
        level = robot(seat)
        if level is not None:
            move = await asyncio.to_thread(session.choose_for, seat, level)
            if session.state_no != state_no:
                return None
            if move is not None and move != PASS:
                return seat, move
        elif not silent(seat) and (can_answer(session, seat)
                                   or not (clock.timed or clock.shared_keyboard)):
            continue  # a person decides
        if not clock.timed:
            return seat, PASS
        clock.keep(seat)
    if not clock.timed:
        return None  # hot-seat: the people who can answer are asked in turn
    people = [s for s in to_act if robot(s) is None]
    # Stopped while any person in the window is away, answer or not: stopping only for the
    # away people who could answer would tell the table that they could.
    paused = any(away(s) for s in people)
    clock.pause(paused)
    if paused:
        return None
    thinking = [s for s in to_act if s not in clock.pending]
    due = (clock.left() or 0.0) if thinking else 0.0
    if people:
        due = max(due, clock.glance_left())
    if due:
        await asyncio.sleep(due)
        if session.state_no != state_no:
            return None
    for seat in thinking:  # their countdown ran out: they pass with the others, in seat order
        clock.keep(seat)
    return min(clock.pending), PASS


async def next_unmanned_answer(
    session: HostSession, seats: Sequence[SeatLike], state_no: int, level: str
) -> tuple[int, Move, bool] | None:
    """For the networked driver, while a window is open: a bot's answer at once, else the
    window's passes once it may close (None: nothing is due)."""
    clock = session.windows

    def robot(seat: int) -> str | None:
        info = seats[seat]
        return (info.bot or level) if info.bot or info.auto else None

    due = await _window_step(
        session, state_no, robot,
        silent=lambda seat: seats[seat].local and not clock.keyboard_answers,
        away=lambda seat: not seats[seat].connected)
    return None if due is None else (*due, False)


async def next_local(session: HostSession, bot_delay: float) -> tuple[int, Move] | None:
    """For a local game: the next move of a bot, of a window or of a clock that ran out
    (net.table.clocks), once it is due (bots between turns wait `bot_delay` so people can
    follow them; in a window they answer at once). None when only the people at this
    keyboard can move the game on, and no clock runs. A bot thinks in a worker
    thread (the expert searches for about a second), so the table stays live."""
    while True:
        state_no = session.state_no
        if session.windows.open:
            due = await _window_step(
                session, state_no, lambda seat: session.seats[seat].bot,
                silent=lambda seat: not session.windows.keyboard_answers,
                away=lambda seat: False)
            if due is None and session.state_no == state_no:  # people answer, on the clock
                return await next_timeout(session, state_no, bot_delay)
            if due is None or session.state_no == state_no:
                return due
            continue
        pending = await asyncio.to_thread(session.pending_bot)
        if pending is None:  # people move, or their clock runs out
            return await next_timeout(session, state_no, bot_delay)
        if bot_delay:
            await asyncio.sleep(bot_delay)
        if session.state_no == state_no:
            return pending


def seat_keyboard(session: HostSession, people: Sequence[int]) -> None:
    """A local table learns who sits at its keyboard: with several people (hot-seat) each is
    asked in turn behind the handoff screen, so no countdown runs."""
    if len(people) > 1:
        session.windows.untimed()
        session.clocks.follow()  # an open window's answers are on the clock now
