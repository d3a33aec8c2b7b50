"""The hosting side of a networked table: the room's authority.

`NetHost` opens a room on a relay and runs the one `HostSession` of the game. Everything a
peer sends arrives here, is checked (who sent it, which seat, which state it was made on,
whether the rules allow it) and either applied or answered with an error frame. After every
applied move each connection gets only its own view; spectators get the public one.

This class holds what the room's parts share (the seats, the session, the connection); each
part can be read alone:
- `net.host.router`: what arrives, sent to the part that deals with it;
- `net.host.lobby`: options, seats, clocks and takeover before the game, and the rematch;
- `net.host.door`: joins, seat claims and reclaims, drops, takeovers, the host coming back;
- `net.host.dealer`: the fair seed (commit, contributions, deal, reveal);
- `net.host.play`: moves, their broadcast, and the moves bots and clocks that ran out make;
- `net.host.resume`: the record on disk, and taking the room over again from it.
Below them: `net.host.uplink` (the relay connection and its one ordered writer),
`net.host.keys` (key exchanges and sealed frames), `net.host.audience` (who hears what).
All state changes happen in plain (non-async) methods on the event loop and only queue
frames, so no two moves can interleave their broadcasts.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from engines import get_engine
from engines.base import Move
from net.host import closing, resume
from net.host.audience import Audience, Listener
from net.host.billboard import Billboard
from net.host.dealer import Dealer
from net.host.door import Door
from net.host.keys import Keyring
from net.host.lobby import Lobby, table_options
from net.host.play import Play
from net.host.router import Router
from net.host.seats import Peer, Seat
from net.host.standing import Standing, table_word
from net.host.uplink import Uplink
from net.players import identity
from net.table.clocks import ClockSetting
from net.table.link import Message
from net.table.session import BOT_LEVELS, HostSession
from net.wire import codes
from net.wire.frames import (
    MAX_CHAT,
    MAX_NAME,
)
from net.wire.text import clean

# What the peers read when the host's app crashes mid-game. No command in it: how the host
# resumes depends on where it plays (`host --resume`, Past games, `ssh ... resume`).
CRASHED = ("the host's app crashed; the game is kept for the host to resume: stay, or join "
           "again with the same code later to get your seat back")


class NetHost:
    """One room's authority. Use `open()`, the lobby methods, `start()`, then await
    `finished`; `close()` ends the room."""

    def __init__(
        self,
        engine_id: str,
        num_seats: int,
        options: dict[str, Any] | None = None,
        *,
        relay_url: str,
        host_name: str | None = None,
        level: str = "strong",
        seed: int | None = None,
        clock: ClockSetting | None = None,
        takeover: float | None = None,
        bot_delay: float = 0.5,
        keep_record: bool = True,
        reconnect_for: float = 30.0,
    ) -> None:
        self.engine = get_engine(engine_id)
        self.engine.check_players(num_seats)
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        self.options = table_options(self.engine, options or {})
        self.level = level
        self.seed = seed
        # A tournament's duplicate table: the round its fixed seed comes from, kept in the
        # host's record so that its game counts (net.players.counted); None: any other room.
        self.duplicate: dict[str, Any] | None = None
        self.clock = clock  # the table's clocks (net.table.clocks); None: no clock
        self.takeover = takeover
        self.hints = False  # whether players may ask the expert for hints (the lobby's switch)
        self.rated = False  # whether the game dealt counts for a rating (then: never hints)
        self.standing = Standing(self.engine.id, table_word())  # the table's word on people
        self.min_finished: float | None = None  # the finished share a free seat asks (0..1)
        self.bot_delay = bot_delay
        self.keep_record = keep_record
        self.seats = [Seat() for _ in range(num_seats)]
        if host_name is not None:
            self.seats[0] = Seat(name=clean(host_name, MAX_NAME) or "host", local=True)
        self.session: HostSession | None = None
        self.autostart = False  # start as soon as every seat is taken (headless hosting)
        self.finished = asyncio.Event()
        self.chat_log: list[dict[str, Any]] = []
        self.chat_said = 0  # chat lines said in this room so far: the next line's "no"
        self._tasks: set[asyncio.Task[Any]] = set()
        self.lobby = Lobby(self)
        self.billboard = Billboard(self)
        self.door = Door(self)
        self.dealer = Dealer(self)
        self.play = Play(self)
        self.recorder = resume.Recorder(self)
        self.router = Router(self)
        self.uplink = Uplink(relay_url, reconnect_for, spawn=self.spawn,
                             rejoin=self.door.rejoin, receive=self.router.from_relay,
                             report=self._connection)
        self.audience = Audience(self.uplink)
        self.keys = Keyring(self.uplink, self.router.sealed, self.router.wrong_code,
                            self.door.key_for)

    # -- reading -----------------------------------------------------------------------------
    @property
    def code(self) -> str:
        """The join code players type: the relay's room code, then the secret part."""
        return self.uplink.code + self.keys.secret if self.uplink.code else ""

    @property
    def room(self) -> str:
        """The room code alone: all the relay knows."""
        return self.uplink.code

    @property
    def display_code(self) -> str:
        return codes.display(self.code) if self.code else ""

    @property
    def peers(self) -> dict[int, Peer]:
        return self.audience.peers

    @property
    def started(self) -> bool:
        """Dealing or playing: the lobby is closed."""
        return self.session is not None or self.dealer.collecting is not None

    @property
    def over(self) -> bool:
        return self.session is not None and self.session.over

    @property
    def attended(self) -> bool:
        """Whether a person at this terminal answers reclaims by name (else they are refused)."""
        return self.door.attended

    @attended.setter
    def attended(self, value: bool) -> None:
        self.door.attended = value

    @property
    def commitment(self) -> str | None:
        return self.dealer.commitment

    @property
    def contributions(self) -> list[list[Any]]:
        return self.dealer.contributions

    @property
    def record_path(self) -> Path | None:
        return self.recorder.path

    def seat_list(self) -> list[dict[str, Any]]:
        return [seat.public() for seat in self.seats]

    def lobby_state(self) -> dict[str, Any]:
        return self.lobby.state()

    def spectators(self) -> int:
        return self.audience.spectators()

    def table_message(
        self, seat: int | None, kind: str, events: list[Any] | None = None
    ) -> Message:
        return self.play.table_message(seat, kind, events)

    def add_listener(self, listener: Listener) -> None:
        """`listener(message)` hears what the host's own terminal should show: lobby changes,
        chat, presence, notices, and the table for local seats (see net.table.link)."""
        self.audience.add_listener(listener)

    def remove_listener(self, listener: Listener) -> None:
        self.audience.remove_listener(listener)

    # -- what the host's terminal does -----------------------------------------------------------
    def add_bot(self, seat_no: int | None = None, level: str | None = None) -> int:
        return self.lobby.add_bot(seat_no, level)

    def kick(self, seat_no: int, reason: str = "the host gave your seat away") -> None:
        self.lobby.kick(seat_no, reason)

    def set_seats(self, count: int) -> None:
        self.lobby.set_seats(count)

    def set_option(self, name: str, value: Any) -> None:
        self.lobby.set_option(name, value)

    def set_clock(self, clock: ClockSetting | None) -> None:
        self.lobby.set_clock(clock)

    def set_takeover(self, seconds: float | None) -> None:
        self.lobby.set_takeover(seconds)

    def set_min_finished(self, share: float | None) -> None:
        """The finished share (0..1; None: any) a person must have proven to take a free seat
        (net.host.door), shown in the room's listing. ValueError away from a table: only a
        table's ladder knows anybody's share."""
        if share is not None and not 0 <= share <= 1:
            raise ValueError("the minimum finished share is 0 to 100%")
        if share is not None and not self.standing.known:
            raise ValueError("a minimum finished share needs a public table's ladder: host "
                             "from a table's session (tabletop-tui serve)")
        self.min_finished = share
        self.billboard.update()

    def set_hints(self, allowed: bool) -> None:
        self.lobby.set_hints(allowed)

    def start(self) -> None:
        """Close the lobby (empty seats get bots), make the seed with the peers, then deal."""
        if self.started:
            raise ValueError("the game has started")
        self.dealer.start()

    def reopen(self) -> None:
        self.lobby.reopen()

    def answer_reclaim(self, cid: int, yes: bool) -> None:
        self.door.answer_reclaim(cid, yes)

    def local_move(self, seat_no: int, move: Move, state_no: int) -> None:
        self.play.local_move(seat_no, move, state_no)

    def local_answering(self, seat_no: int, state_no: int) -> None:
        if 0 <= seat_no < len(self.seats) and self.seats[seat_no].local:
            self.play.answering(seat_no, state_no)

    def local_undo(self, seat_no: int, state_no: int) -> None:
        if 0 <= seat_no < len(self.seats) and self.seats[seat_no].local:
            self.play.undo(seat_no, state_no)

    def local_extend(self, seat_no: int, state_no: int) -> None:
        if 0 <= seat_no < len(self.seats) and self.seats[seat_no].local:
            self.play.extend(seat_no, state_no)

    def send_chat(self, text: str) -> None:
        """Chat from the host's own terminal."""
        local = next((i for i, s in enumerate(self.seats) if s.local), None)
        name = self.seats[local].name if local is not None else "host"
        self.chat(name, local, text)

    # -- the room ----------------------------------------------------------------------------
    async def open(self) -> str:
        """Connect to the relay and open the room; returns the join code (normal form)."""
        await self.uplink.open()
        self.keys.prepare()  # the first joiner's exchange, started while nobody waits
        if self.standing.known and any(seat.local for seat in self.seats):
            self.spawn(self._host_word())
        self.billboard.update()  # a room set public before it had a code goes up now
        return self.code

    async def close(self, reason: str = "the host closed the room") -> None:
        """End the room: peers are told why; the record stays on disk. A game under way ends
        there as the host's leaving (net.host.closing)."""
        if not self.uplink.closing:
            closing.close_mid_game(self)
        await self.uplink.say_goodbye(reason)
        for task in list(self._tasks):
            task.cancel()
        await self.uplink.hang_up()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.recorder.close()

    async def crash(self) -> None:
        """This app died with the room open: the peers hear that the host can come back, the
        room stays on the relay (no goodbye) and the record on disk, for `host --resume`."""
        if self.session is not None and not self.over:
            self.notice(CRASHED)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.uplink.flushed(), 1.0)
        self.uplink.closing = True  # no reconnecting: this process is going
        for task in list(self._tasks):
            task.cancel()
        await self.uplink.hang_up()
        self.recorder.close()

    @classmethod
    def resume(cls, path: Path, relay_url: str, **kwargs: Any) -> NetHost:
        """A host continuing the game recorded at `path`. ValueError if it cannot, also for a
        damaged record (a crash may have cut it short, or someone edited it)."""
        header, moves, net = resume.load(path)
        try:
            host = cls(header["engine"], len(header["players"]), header["options"],
                       relay_url=relay_url, host_name=resume.host_name(header, net),
                       level=net.get("level", "strong"),
                       clock=ClockSetting.from_public(header.get("clock")),
                       takeover=net.get("takeover"), **kwargs)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"the record {path.name} is damaged and cannot be resumed "
                             f"({type(exc).__name__}: {exc})") from None
        resume.restore(host, path, header, moves, net)
        return host

    async def begin_resumed(self) -> None:
        """After `open()` on a resumed host: wait for players, with takeover timers running."""
        for i, seat in enumerate(self.seats):
            if seat.token and seat.cid is None and self.takeover is not None:
                self.spawn(self.door.take_over(i, seat.token))
        self.play.broadcast("sync")
        self.presence()
        self.play.reschedule()

    async def _host_word(self) -> None:
        """The table's word on the host's own seat, for the lobby beside its name."""
        me = identity.mine()
        if me is None:
            return
        word = await self.standing.of(me.fingerprint)
        seat = next((s for s in self.seats if s.local), None)
        if seat is not None and word is not None:
            seat.word = word
            self.presence(lobby=True)

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """A task of this room's, cancelled when it closes."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _connection(self, state: str, message: str) -> None:
        self.audience.local({"type": "connection", "state": state, "message": message})
        if state == "closed":
            self.finished.set()

    def error(self, cid: int, code: str, message: str, seq: int | None = None) -> None:
        """Tell `cid` a frame was refused (net.host.router)."""
        self.router.error(cid, code, message, seq)

    # -- telling everybody -----------------------------------------------------------------------
    def presence(self, lobby: bool = False) -> None:
        """Who sits where and who is connected, to everyone (and the lobby, before a game)."""
        self.audience.everyone("presence", players=self.seat_list(),
                               spectators=self.spectators())
        if lobby and not self.started:
            self.audience.everyone("lobby", **self.lobby.state())
        self.billboard.update()

    def notice(self, text: str) -> None:
        self.audience.everyone("notice", text=text)

    def chat(self, name: str, seat: int | None, text: str) -> None:
        text = clean(text, MAX_CHAT)
        if not text:
            return
        # Numbered, and placed at the state it was said at (None: in the lobby), so a table's
        # log can put lobby chat first and every line where it was said, once, however often
        # it is sent again (a rejoin gets the last lines anew).
        self.chat_said += 1
        at = None if self.session is None else self.session.state_no
        line = {"name": name, "text": text, "seat": seat, "no": self.chat_said, "at": at}
        self.chat_log.append(line)
        del self.chat_log[:-100]
        self.audience.everyone("chat", **line)
