"""The room before a game: its options, its seats, its clocks and the takeover time, as the
host's terminal sets them, and the rematch that brings a finished room back to this lobby.

Every change is told to everyone at once (`presence` plus `lobby`), so a guest's lobby screen
always shows what the host's shows.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from engines import Engine
from engines.base import TEST_OPTIONS
from net.host.seats import Seat, bot_seat
from net.table.clocks import ClockSetting, can_skip
from net.table.session import BOT_LEVELS

if TYPE_CHECKING:
    from net.host.authority import NetHost


def table_options(engine: Engine, options: dict[str, Any]) -> dict[str, Any]:
    """The lobby options, checked; the test options that fix the deal are refused, or a host
    could stack the deck and still pass every peer's shuffle check."""
    fixed = sorted(set(options) & set(TEST_OPTIONS))
    if fixed:
        raise ValueError(f"{', '.join(fixed)} would fix the deal: not at a networked table")
    return engine.resolve_options(options)


class Lobby:
    """The host terminal's lobby controls over one `NetHost`."""

    def __init__(self, host: NetHost) -> None:
        self.host = host

    def state(self) -> dict[str, Any]:
        host = self.host
        return {"engine": host.engine.id, "options": dict(host.options),
                "seats": host.seat_list(),
                "clock": None if host.clock is None else host.clock.public(),
                "takeover": host.takeover, "deal": host.dealer.number,
                **host.billboard.state()}

    def _changed(self) -> None:
        self.host.presence(lobby=True)

    def _check_open(self) -> None:
        if self.host.started:
            raise ValueError("the game has started")

    def add_bot(self, seat_no: int | None = None, level: str | None = None) -> int:
        """Put a bot in `seat_no` (default: the first free seat); returns the seat."""
        self._check_open()
        host = self.host
        level = level or host.level
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        if seat_no is None:
            free = [i for i, s in enumerate(host.seats) if s.empty]
            if not free:
                raise ValueError("every seat is taken")
            seat_no = free[0]
        self.kick(seat_no)
        host.seats[seat_no] = bot_seat(seat_no, level)
        self._changed()
        return seat_no

    def kick(self, seat_no: int, reason: str = "the host gave your seat away") -> None:
        """Empty a seat in the lobby; in a running game its person is replaced by a bot."""
        host = self.host
        seat = host.seats[seat_no]
        if seat.local:
            raise ValueError("that is your own seat")
        if seat.cid is not None:
            host.peers.pop(seat.cid, None)
            host.uplink.kick(seat.cid, reason)
        if host.started:
            seat.forget_tokens()
            seat.cid, seat.bot, seat.auto = None, host.level, False
            host.notice(f"{seat.name} was removed; a bot plays that seat")
            host.presence()
            host.play.reschedule()
        else:
            host.seats[seat_no] = Seat()
            self._changed()

    def set_seats(self, count: int) -> None:
        self._check_open()
        host = self.host
        host.engine.check_players(count)
        while len(host.seats) > count:
            if not host.seats[-1].empty:
                self.kick(len(host.seats) - 1, "the host made the table smaller")
            host.seats.pop()
        while len(host.seats) < count:
            host.seats.append(Seat())
        self._changed()

    def set_option(self, name: str, value: Any) -> None:
        self._check_open()
        host = self.host
        host.options = table_options(host.engine, {**host.options, name: value})
        self._changed()

    def set_clock(self, clock: ClockSetting | None) -> None:
        """The table's clocks (None: no clock); they start with the game."""
        self._check_open()
        if clock is not None and clock.out_of_time == "skip" and not can_skip(self.host.engine):
            raise ValueError(f"{self.host.engine.title} has no way to skip a turn: the bot "
                             "moves for a seat out of time")
        self.host.clock = clock
        self._changed()

    def set_takeover(self, seconds: float | None) -> None:
        """Seconds a dropped player has to come back before a bot plays for them."""
        if seconds is not None and seconds < 0:
            raise ValueError("the takeover time cannot be negative")
        self.host.takeover = seconds
        self._changed()

    def set_hints(self, allowed: bool) -> None:
        """Whether players may ask the expert bot for hints ("h"); off unless allowed, and
        always off in a rated game (docs/records.md: a rated game offers no hints)."""
        host = self.host
        host.hints = bool(allowed)
        if host.session is not None:
            host.session.hints = host.hints and not host.rated

    def reopen(self) -> None:
        """A rematch: after a game the same room goes back to its lobby with the same seats.
        People still here keep their seats (and tokens), bots stay, the seats of people who
        left are free again; everyone gets the lobby, which a guest's screen offers as "stay
        for the rematch, or leave". The next `start()` deals afresh with a new seed."""
        host = self.host
        if not host.over:
            raise ValueError("the game is not over")
        host.session = None
        host.dealer.forget()
        host.recorder.forget()
        host.finished = asyncio.Event()
        for line in host.chat_log:  # said before the next game: its lobby chat
            line["at"] = None
        for i, seat in enumerate(host.seats):
            if seat.local or seat.bot:
                continue
            if seat.cid is None:
                host.seats[i] = Seat()
            else:
                seat.auto = False
        host.presence(lobby=True)
