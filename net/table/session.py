"""The authoritative table: one engine state, the move record, the public event log.

A local game and a networked game both run exactly this object on the hosting machine; only
what carries its messages differs (see `net.table.link`). Keeping the record (engine, options, seed,
players, moves) here is what makes replays, crash recovery and the fair-shuffle check possible.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from engines import Engine, IllegalMove, get_engine
from engines.base import Move, check_seat
from net.table.clocks import ClockSetting, TableClock
from net.table.undo import UndoBook, undo_note
from net.table.windows import WindowClock

BOT_LEVELS = ("random", "strong", "expert")


@dataclass
class SeatInfo:
    """Who sits in a seat. `bot` is the bot level for bot seats, None for people; a person's
    identity, when proven for this game, is its fingerprint, key and signature
    (net.players.identity)."""

    name: str
    bot: str | None = None
    ident: str | None = None
    key: str | None = None
    sig: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class StaleMove(Exception):
    """A move made on a view that is no longer current; the sender needs a fresh sync."""


Listener = Callable[[int, Move, list[dict[str, Any]]], None]


class HostSession:
    """Runs one game: checks and applies moves, numbers states, logs public events."""

    def __init__(
        self,
        engine_id: str,
        seats: list[SeatInfo],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        clock: ClockSetting | None = None,
        out_of_time: list[list[int]] | None = None,
        game_id: str | None = None,
    ) -> None:
        """`clock`: the table's clocks (None: no clock); `out_of_time`: the seats whose time
        ran out earlier in this game (a game taken up again from its record)."""
        self.engine: Engine = get_engine(engine_id)
        self.seats = list(seats)
        self.seed = secrets.randbits(63) if seed is None else seed
        # What names this game in the players' identity proofs: the host's shuffle commitment
        # at a networked table, the deal itself at a local one.
        self.game_id = game_id or f"local {engine_id} {self.seed}"
        self.options = dict(options or {})
        self.state = self.engine.new_game(len(self.seats), self.seed, self.options)
        self.state_no = 0
        self.moves: list[tuple[int, Move]] = []
        self.log: list[dict[str, Any]] = []
        self._listeners: list[Listener] = []
        self._rewound: list[Callable[[], None]] = []  # told after an undo (net.table.undo)
        self.windows = WindowClock(self)  # interrupt windows and their countdown, if any
        # Every seat's clock, if the table has them (after the windows: it reads them).
        self.clocks = TableClock(self, clock, out_of_time or ())
        # The moves that may be taken back (net.table.undo); off until a table offers undo.
        self.undo = UndoBook(self)
        # Whether the host lets players ask the expert for hints ("h"); None: the table decides
        # (a local one allows them). Sent in every sync when set.
        self.hints: bool | None = None

    # -- reading -----------------------------------------------------------------------------
    def players(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in asdict(s).items() if v is not None or k == "bot"}
                for s in self.seats]

    def sync(self, seat: int | None) -> dict[str, Any]:
        """Everything a seat (None: a spectator) needs to draw the table from scratch."""
        eng = self.engine
        return {
            "state_no": self.state_no,
            "view": eng.view(self.state, seat),
            # A seat whose pass waits for its window to close has nothing more to play there.
            "legal": (eng.legal_moves(self.state, seat)
                      if seat is not None and seat not in self.windows.pending else []),
            "players": self.players(),
            **({} if self.hints is None else {"hints": self.hints}),
        }

    @property
    def over(self) -> bool:
        return self.engine.is_over(self.state)

    def result(self) -> dict[str, Any]:
        return self.engine.result(self.state)

    def record(self) -> dict[str, Any]:
        """The game record: enough to rebuild every state by replaying it, and the table's
        clocks with the seats whose time ran out (docs/records.md)."""
        clocks = self.clocks
        return {
            "engine": self.engine.id,
            "options": self.options,
            "seed": self.seed,
            "players": self.players(),
            "game_id": self.game_id,
            "moves": [[seat, move] for seat, move in self.moves],
            **({} if clocks.setting is None else {"clock": clocks.setting.public(),
                                                  "out_of_time": clocks.marks()}),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> HostSession:
        """Rebuild a session by replaying a record; IllegalMove if the record is corrupt,
        ValueError if its clock is. Its clocks start afresh from their bank: a record keeps
        the moves, not the seconds."""
        seats = [SeatInfo(**p) for p in record["players"]]
        session = cls(record["engine"], seats, record["seed"], record["options"],
                      ClockSetting.from_public(record.get("clock")),
                      out_of_time_marks(record.get("out_of_time")), record.get("game_id"))
        for seat, move in record["moves"]:
            session.submit(seat, move)
        return session

    # -- acting ------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """`listener(seat, move, events)` runs after every applied move."""
        self._listeners.append(listener)

    def on_rewind(self, listener: Callable[[], None]) -> None:
        """`listener()` runs after every undo, once the table is back (a record rewrites its
        moves)."""
        self._rewound.append(listener)

    def submit(self, seat: int, move: Move, state_no: int | None = None) -> list[dict[str, Any]]:
        """Apply `seat`'s move. StaleMove if it was made on an old state; IllegalMove if the
        rules forbid it. Either way nothing changes."""
        if state_no is not None and state_no != self.state_no:
            late = self.windows.too_late(state_no)  # an answer to a window that has closed
            if late is not None:
                raise IllegalMove(late)
            if not self.windows.same_window(state_no):
                raise StaleMove(f"move made on state {state_no}, the table is at {self.state_no}")
        check_seat(len(self.seats), seat)
        before = self.state
        after = self.engine.apply(before, seat, move)
        # Keep the engine's own copy of the move: the record is written to disk and sent to
        # every peer at the end, so nothing a sender added to a legal move may ride along.
        canonical = next((m for m in self.engine.legal_moves(before, seat) if m == move), None)
        if canonical is None:
            raise IllegalMove("That is not one of the moves you can make now")
        move = canonical
        events = self.engine.events(before, seat, move, after)
        self.state = after
        self.state_no += 1
        self.moves.append((seat, move))
        self.undo.moved(before, seat, move, after, len(self.log))
        for event in events:
            event["n"] = self.state_no
        self.log.extend(events)
        for listener in list(self._listeners):
            listener(seat, move, events)
        return events

    def take_back(self, seat: int) -> dict[str, Any]:
        """`seat` takes its last move back (net.table.undo): the table as it was before it,
        the moves and events since dropped, and one public event saying so (returned).
        IllegalMove with a sentence for the player if it may not; nothing changes then."""
        back_to = self.undo.undo(seat)
        event = undo_note(seat, back_to)
        event["n"] = back_to
        self.log.append(event)
        for listener in list(self._rewound):
            listener()
        return event

    def rewind(self, state_no: int, state: Any, log_len: int) -> None:
        """Put the table back to state `state_no` (`state`, the log's first `log_len`
        events), as `UndoBook.undo` found it; the parts that follow the game look afresh."""
        self.state, self.state_no = state, state_no
        del self.moves[state_no:]
        del self.log[log_len:]
        self.windows.rewound()
        self.clocks.follow()

    def choose_for(self, seat: int, level: str = "strong") -> Move | None:
        """What a bot of `level` would play for `seat` now (also used when a clock runs
        out or a bot takes over a dropped player's seat). Deterministic per seed and state."""
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}")
        if seat not in self.engine.to_act(self.state):
            return None
        rng = random.Random(f"{self.seed}:{self.state_no}:{seat}")
        return self.engine.bots[level].choose(self.engine, self.state, seat, rng)

    def pending_bot(self) -> tuple[int, Move] | None:
        """The next move some bot seat wants to make now, if any."""
        for seat in self.engine.to_act(self.state):
            info = self.seats[seat]
            if info.bot is not None:
                move = self.choose_for(seat, info.bot)
                if move is not None:
                    return seat, move
        return None

    def run_bots(self) -> int:
        """Let bots move until a person must act or the game ends; returns moves made."""
        made = 0
        while (pending := self.pending_bot()) is not None:
            self.submit(*pending)
            made += 1
        return made


def out_of_time_marks(value: Any) -> list[list[int]]:
    """A record's `out_of_time` ([seat, state number] pairs); ValueError if it is broken."""
    if value is None:
        return []
    if not (isinstance(value, list) and all(
            isinstance(mark, list) and len(mark) == 2
            and all(type(n) is int and n >= 0 for n in mark) for mark in value)):
        raise ValueError("its list of clocks that ran out is broken")
    return value


__all__ = ["BOT_LEVELS", "HostSession", "IllegalMove", "SeatInfo", "StaleMove"]
