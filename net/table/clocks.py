"""Game clocks, as Board Game Arena keeps them: every seat starts with a bank of time, gets an
increment each time its turn ends (never above the bank), and may once a game ask for a "let
me think" extension. A seat whose time runs out gets the table's choice: the strong bot moves
for it, or, where the game has a way to let a turn go by (`Engine.skip_moves`), it is skipped.
Either way it plays on with what the increment gives it; its first time-out is written in the
game record, and a rating counts that seat as the bot's from then on (docs/records.md).

Whose clock runs is public and follows the table alone:
- the seat whose regular turn it is, when it is among the seats to act; else every seat to
  act (a prompt another seat answers, a table where all act at once);
- in an interrupt window with a countdown (Chez Geek's cancels) nobody's: the window keeps
  its own short, capped countdown, and a clock that ran only for the seats who could answer
  would tell the table who holds an answer. The turn that the window interrupted goes on
  afterwards, so the increment waits for its end;
- in an untimed window (hot-seat, or a table without window countdowns) the clock of every
  seat still to answer: their passes show as they come anyway;
- nobody's once the game is over.

`Clocks` is the arithmetic alone (time in, deadlines out: no tasks, no sleeping), so tests
run it on a made-up time; `TableClock` follows one session with it; `next_timeout` is what
the local link and the host's driver await to make the move of a seat out of time.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from engines import get_engine
from engines.base import Engine, Move

if TYPE_CHECKING:
    from net.table.session import HostSession

# What the table does for a seat whose time ran out.
OUT_OF_TIME = ("bot", "skip")
# The clocks a lobby offers, in its order: none, three speeds of a bank plus an increment,
# and "move", the same time for every turn (the turn timer of old).
PRESETS = ("none", "fast", "normal", "slow", "move")
# How many times its normal pace a person thinks per turn at each preset.
SPEED = {"fast": 0.5, "normal": 1.0, "slow": 2.0}
# A bank holds this share of what the increments give a seat over a game, and at least
# BANK_TURNS increments: time saved up for the turns that need thought.
BANK_SHARE = 0.5
BANK_TURNS = 4
# The extension, in increments of the preset, and never less than EXTENSION_MIN seconds.
EXTENSION_TURNS = 6
EXTENSION_MIN = 30.0
# A "move" clock gives every turn this many times a person's normal pace (at least
# MOVE_MIN seconds); it has no bank to save up.
MOVE_TURNS = 4
MOVE_MIN = 20.0
# A bot's turn at a local table, in a person's normal seconds for one (at least a second):
# it pauses so people can follow it.
BOT_SHARE = 0.2
# Turns a seat takes in a game nobody measured (Engine.clock_turns).
TURNS_UNKNOWN = 30
# The strong bot moves for a seat out of time.
BOT_LEVEL = "strong"


@dataclass(frozen=True)
class ClockSetting:
    """A table's clocks, as the lobby chose them."""

    preset: str
    bank: float  # seconds each seat starts with; increments never take a clock above it
    increment: float  # seconds added to a seat's clock when its turn ends
    extension: float  # seconds the one "let me think" of a game adds (above the bank too)
    out_of_time: str = "bot"  # "bot": the strong bot moves for them; "skip": they are skipped

    def __post_init__(self) -> None:
        if self.preset not in PRESETS or self.preset == "none":
            raise ValueError(f"unknown clock {self.preset!r}; choose one of {', '.join(PRESETS)}")
        if self.out_of_time not in OUT_OF_TIME:
            raise ValueError(f"out of time, a seat is played by the bot or skipped, not "
                             f"{self.out_of_time!r}")
        numbers = (self.bank, self.increment, self.extension)
        if not all(isinstance(n, int | float) and not isinstance(n, bool) and math.isfinite(n)
                   for n in numbers):
            raise ValueError("a clock's times are numbers of seconds")
        if self.bank <= 0 or self.increment < 0 or self.extension < 0:
            raise ValueError("a clock needs some time in its bank, and no negative times")

    def public(self) -> dict[str, Any]:
        """As the lobby frame, every table message and the game record carry it."""
        return asdict(self)

    @classmethod
    def from_public(cls, data: Any) -> ClockSetting | None:
        """The setting a record or frame holds (None: no clock); ValueError if it is none."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise ValueError("a clock setting is a map")
        try:
            return cls(str(data["preset"]), data["bank"], data["increment"], data["extension"],
                       str(data.get("out_of_time", "bot")))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a clock setting lacks {exc}") from None


def can_skip(engine: Engine) -> bool:
    """Whether the game has a way to let a turn go by: else only the bot can move for a seat
    whose time ran out."""
    return bool(engine.skip_moves)


def turns(engine: Engine, seats: int) -> int:
    """The turns a seat takes in a game at a table of `seats` (the nearest size measured)."""
    measured = engine.clock_turns
    if not measured:
        return TURNS_UNKNOWN
    return measured[min(measured, key=lambda n: (abs(n - seats), n))]


def preset(engine_id: str, name: str, seats: int, out_of_time: str = "bot"
           ) -> ClockSetting | None:
    """The clock `name` of PRESETS for this game at a table of `seats` (None for "none"),
    sized by the game's pace: a person's normal seconds a turn and the turns a seat takes."""
    if name not in PRESETS:
        raise ValueError(f"unknown clock {name!r}; choose one of {', '.join(PRESETS)}")
    if name == "none":
        return None
    engine = get_engine(engine_id)
    if out_of_time == "skip" and not can_skip(engine):
        raise ValueError(f"{engine.title} has no way to skip a turn: the bot moves for a seat "
                         "out of time")
    think = engine.think_seconds
    if name == "move":
        return per_move(max(MOVE_MIN, _round(MOVE_TURNS * think, 5)), out_of_time)
    increment = _round(think * SPEED[name], 1)
    bank = _round(max(BANK_TURNS, BANK_SHARE * turns(engine, seats)) * increment, 30)
    extension = max(EXTENSION_MIN, _round(EXTENSION_TURNS * increment, 10))
    return ClockSetting(name, max(bank, increment), increment, extension, out_of_time)


def per_move(seconds: float, out_of_time: str = "bot") -> ClockSetting:
    """A "move" clock of `seconds` a turn: what the turn timer of old was."""
    return ClockSetting("move", seconds, seconds, seconds, out_of_time)


def _round(value: float, step: int) -> float:
    return float(max(step, round(value / step) * step))


def estimate_minutes(engine_id: str, people: int, bots: int, name: str = "none") -> int:
    """About how long a game takes: every seat's turns at a person's pace (at a clock's
    speed; a "move" clock or none at the normal one) or at a bot's."""
    engine = get_engine(engine_id)
    think = engine.think_seconds
    speed = SPEED.get(name, 1.0)
    bot = max(1.0, BOT_SHARE * think)
    seconds = turns(engine, people + bots) * (people * think * speed + bots * bot)
    return max(1, round(seconds / 60))


# -- the arithmetic ----------------------------------------------------------------------------
class Clocks:
    """Every seat's clock at one table. Time comes in (`now`), deadlines go out: nothing here
    waits. `follow` after every change at the table says whose clocks run from then on."""

    def __init__(self, setting: ClockSetting, seats: int, now: float) -> None:
        self.setting = setting
        self.left = [float(setting.bank)] * seats
        self.extended = [False] * seats
        self.timeouts = [0] * seats  # how often each seat's time ran out
        self.skips = [0] * seats  # how many of those times it was skipped (else the bot moved)
        self.running: frozenset[int] = frozenset()
        self._since = now
        self._owed: set[int] = set()  # seats whose turn ended in a window: increment after it

    def _charge(self, now: float) -> None:
        spent = max(0.0, now - self._since)
        for seat in self.running:
            self.left[seat] = max(0.0, self.left[seat] - spent)
        self._since = now

    def follow(self, running: Iterable[int], now: float, mover: int | None = None,
               held: bool = False) -> None:
        """The table changed: `mover` made a move (None: no move), `running` are the seats
        whose clock runs now. `held`: an interrupt window holds every clock, and a turn it
        interrupted goes on after it, so its increment waits for the window to close."""
        self._charge(now)
        running = frozenset(running)
        if mover is not None and mover in self.running:
            self._owed.add(mover)
        if not held:
            for seat in self._owed - running:
                self._credit(seat)
            self._owed.clear()
        self.running = running

    def _credit(self, seat: int) -> None:
        """The increment, never above the bank (an extension above it stays)."""
        left = self.left[seat]
        self.left[seat] = max(left, min(self.setting.bank, left + self.setting.increment))

    def left_of(self, seat: int, now: float) -> float:
        if seat in self.running:
            return max(0.0, self.left[seat] - max(0.0, now - self._since))
        return self.left[seat]

    def deadline(self) -> tuple[float, int] | None:
        """When the first running clock runs out, and whose (None: no clock runs)."""
        if not self.running:
            return None
        seat = min(self.running, key=lambda s: (self.left[s], s))
        return self._since + self.left[seat], seat

    def extend(self, seat: int, now: float) -> bool:
        """The one "let me think" of `seat`'s game, while its clock runs: the extension on
        top, the bank no limit. False if it had it already or is not thinking now."""
        if not 0 <= seat < len(self.left) or self.extended[seat] or seat not in self.running:
            return False
        self._charge(now)
        self.left[seat] += self.setting.extension
        self.extended[seat] = True
        return True

    def ran_out(self, seat: int, skipped: bool = False) -> None:
        self.timeouts[seat] += 1
        self.skips[seat] += skipped

    def public(self, now: float) -> dict[str, Any]:
        """Every seat's clock as every seat's table message carries it."""
        return {
            **self.setting.public(),
            "left": [round(self.left_of(s, now), 1) for s in range(len(self.left))],
            "running": sorted(self.running),
            "extended": list(self.extended),
            "timeouts": list(self.timeouts),
            "skips": list(self.skips),
        }


# -- one session's clocks ----------------------------------------------------------------------
def running_seats(session: HostSession) -> tuple[frozenset[int], bool]:
    """(the seats whose clock runs now, whether an interrupt window holds every clock): the
    rules of the module docstring."""
    engine, state = session.engine, session.state
    if engine.is_over(state):
        return frozenset(), False
    to_act = engine.to_act(state)
    windows = session.windows
    if windows.open:
        if windows.timed:
            return frozenset(), True
        return frozenset(to_act), False
    turn = engine.turn(state)
    return frozenset([turn] if turn in to_act else to_act), False


class TableClock:
    """One session's clocks (None of them when the table has none): it follows the session's
    moves and keeps which seats ran out of time, and when, for the record."""

    def __init__(self, session: HostSession, setting: ClockSetting | None,
                 out_of_time: Iterable[Iterable[int]] = (),
                 now: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.setting = setting
        self.now = now
        # seat -> the state number at which its clock first ran out (a resumed game keeps it)
        self.out_of_time: dict[int, int] = {int(s): int(n) for s, n in out_of_time}
        self.clocks = None if setting is None else Clocks(setting, len(session.seats), now())
        if self.clocks is not None:
            session.subscribe(self._moved)
            self.follow()

    def _moved(self, seat: int, move: Move, events: list[dict[str, Any]]) -> None:
        self.follow(seat)

    def follow(self, mover: int | None = None) -> None:
        """Whose clocks run, afresh (after a move, or when a window's countdown changes)."""
        if self.clocks is not None:
            running, held = running_seats(self.session)
            self.clocks.follow(running, self.now(), mover, held)

    def deadline(self) -> tuple[float, int] | None:
        return None if self.clocks is None else self.clocks.deadline()

    def extend(self, seat: int) -> bool:
        return self.clocks is not None and self.clocks.extend(seat, self.now())

    def timeout_move(self, seat: int) -> Move | None:
        """What the table plays for `seat`, whose time ran out: the first of the game's skip
        moves it may make (when the table skips), else the strong bot's move. Runs a bot: call
        it in a worker thread."""
        session = self.session
        legal = session.engine.legal_moves(session.state, seat)
        if self.setting is not None and self.setting.out_of_time == "skip":
            for kind in session.engine.skip_moves:
                skip = next((m for m in legal if m.get("type") == kind), None)
                if skip is not None:
                    return skip
        move = session.choose_for(seat, BOT_LEVEL)
        if move is None:  # the bot lets an optional answer pass
            move = next((m for m in legal if m.get("type") == "pass"), None)
        return move

    def skips(self, move: Move) -> bool:
        """Whether `move` skips a turn at this table (out of time, it would be the skip)."""
        return (self.setting is not None and self.setting.out_of_time == "skip"
                and move.get("type") in self.session.engine.skip_moves)

    def ran_out(self, seat: int, move: Move) -> None:
        """`seat`'s time ran out, and the table plays `move` for it now."""
        if self.clocks is not None:
            self.clocks.ran_out(seat, self.skips(move))
            self.out_of_time.setdefault(seat, self.session.state_no)
            self.session.undo.by_table()

    def marks(self) -> list[list[int]]:
        """[seat, state number] of each seat's first time-out, as the record keeps them."""
        return [[seat, at] for seat, at in sorted(self.out_of_time.items())]

    def public(self) -> dict[str, Any] | None:
        return None if self.clocks is None else self.clocks.public(self.now())


async def next_timeout(session: HostSession, state_no: int,
                       pace: float = 0.0) -> tuple[int, Move] | None:
    """Once the first running clock runs out: (its seat, the move the table makes for it).
    A seat already out of time in this turn waits `pace` between such moves, so people can
    follow them. None if no clock runs, or the table moved on meanwhile (plan again then:
    an extension or a move changes every deadline)."""
    clock = session.clocks
    paced = False
    while True:
        if session.state_no != state_no:
            return None
        due = clock.deadline()
        if due is None:
            return None
        seat = due[1]
        wait = due[0] - clock.now()
        if wait <= 0 and (paced or not pace):
            break
        await asyncio.sleep(wait if wait > 0 else pace)  # then look again: an extension
        paced = True  # may have come in, or the table moved on
    move = await asyncio.to_thread(clock.timeout_move, seat)
    if move is None or session.state_no != state_no:
        return None
    clock.ran_out(seat, move)
    return seat, move
