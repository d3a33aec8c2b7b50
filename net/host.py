"""The hosting side of a networked table: the room's authority.

`NetHost` connects to a relay as a room's host and runs the one `HostSession` of the game.
Everything a peer sends arrives here through the relay, is checked (who sent it, which seat,
which state it was made on, whether the rules allow it) and either applied or answered with an
error frame. After every applied move each connection gets only its own view; spectators get
the public one. The host also runs the lobby, the chat, the presence list, the turn timer, the
bot takeover of seats whose players went away, and writes the game record as it goes so that
`tabletop-tui host --resume` can continue after a crash.

All state changes happen in plain (non-async) methods on the event loop and queue their frames
in an outbox that one writer task sends in order, batched into "send" frames: no two moves can
interleave their broadcasts, and a move costs one relay frame however many peers there are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from engines import IllegalMove, get_engine
from engines.base import Move
from net import codes, fairness, store
from net.link import Message, TableLink, table_message
from net.protocol import (
    MAX_CHAT,
    MAX_NAME,
    PEER_FRAMES,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
    encode,
    is_plain,
)
from net.session import BOT_LEVELS, HostSession, SeatInfo, StaleMove

log = logging.getLogger("tabletop.host")

# A "send" frame is flushed once its payload passes this size (the relay takes 4x MAX_FRAME).
_BATCH_BYTES = 96 * 1024


def clean_text(text: str, limit: int) -> str:
    """Names and chat as one printable line: no terminal escapes reach anybody's screen."""
    return "".join(c for c in text if c.isprintable())[:limit].strip()


@dataclass
class Seat:
    """A seat at the table as the host keeps it."""

    name: str = ""
    bot: str | None = None  # bot level for a bot seat
    token: str = ""  # proves a person's claim to the seat when they come back
    cid: int | None = None  # the relay connection playing it now
    local: bool = False  # played at the host's own terminal
    auto: bool = False  # a bot plays it while its person is away

    @property
    def empty(self) -> bool:
        return not (self.bot or self.local or self.token)

    @property
    def connected(self) -> bool:
        return self.local or self.bot is not None or self.cid is not None

    def public(self) -> dict[str, Any]:
        kind = "empty" if self.empty else "bot" if self.bot else "host" if self.local else "person"
        return {"name": self.name, "bot": self.bot, "kind": kind,
                "connected": self.connected, "auto": self.auto}


@dataclass
class Peer:
    cid: int
    name: str
    seat: int | None  # None: a spectator


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
        timer: float | None = None,
        takeover: float | None = None,
        bot_delay: float = 0.5,
        keep_record: bool = True,
        reconnect_for: float = 30.0,
    ) -> None:
        self.engine = get_engine(engine_id)
        self.engine.check_players(num_seats)
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        self.options = self.engine.resolve_options(options)
        self.relay_url = relay_url
        self.level = level
        self.seed = seed
        self.timer = timer
        self.takeover = takeover
        self.bot_delay = bot_delay
        self.keep_record = keep_record
        self.reconnect_for = reconnect_for
        self.seats = [Seat() for _ in range(num_seats)]
        if host_name is not None:
            self.seats[0] = Seat(name=clean_text(host_name, MAX_NAME) or "host", local=True)
        self.peers: dict[int, Peer] = {}
        self.code = ""
        self.host_token: str | None = None
        self.session: HostSession | None = None
        self.salt = ""
        self.commitment: str | None = None
        self.autostart = False  # start as soon as every seat is taken (headless hosting)
        self.finished = asyncio.Event()
        self.chat_log: list[dict[str, Any]] = []
        self.record_path: Path | None = None
        self._writer: store.RecordWriter | None = None
        self._listeners: list[Callable[[Message], None]] = []
        self._ws: ClientConnection | None = None
        self._seq = 0
        self._outbox: list[tuple[str, Any]] = []
        self._wake = asyncio.Event()
        self._opened: asyncio.Future[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._driver: asyncio.Task[None] | None = None
        self._closing = False

    # -- reading -----------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def display_code(self) -> str:
        return codes.display(self.code) if self.code else ""

    def seat_list(self) -> list[dict[str, Any]]:
        return [seat.public() for seat in self.seats]

    def lobby_state(self) -> dict[str, Any]:
        return {"engine": self.engine.id, "options": self.public_options(),
                "seats": self.seat_list(), "timer": self.timer, "takeover": self.takeover}

    def public_options(self) -> dict[str, Any]:
        return {k: v for k, v in self.options.items() if k in self.engine.options}

    def spectators(self) -> int:
        return sum(1 for p in self.peers.values() if p.seat is None)

    def add_listener(self, listener: Callable[[Message], None]) -> None:
        """`listener(message)` hears what the host's own terminal should show: lobby changes,
        chat, presence, notices, and the table for local seats (see net.link)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[Message], None]) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def _local(self, message: Message) -> None:
        for listener in list(self._listeners):
            listener(message)

    # -- the relay connection ----------------------------------------------------------------
    async def open(self) -> str:
        """Connect to the relay and open the room; returns the join code (normal form)."""
        self._opened = asyncio.get_running_loop().create_future()
        self._spawn(self._run())
        self._spawn(self._write())
        await self._opened
        return self.code

    async def _connect(self) -> ClientConnection:
        ws = await connect(self.relay_url, max_size=WS_MAX_SIZE, compression=None,
                           open_timeout=10)
        self._seq += 1
        await ws.send(encode("open", seq=self._seq, code=self.code or None,
                             host_token=self.host_token))
        frame = decode(await ws.recv(), WS_MAX_SIZE)
        if frame["t"] == "error":
            await ws.close()
            raise ProtocolError(str(frame.get("code")), str(frame.get("message")))
        if frame["t"] != "opened":
            raise ProtocolError("bad_order", "the relay did not answer 'open' with 'opened'")
        self.code, self.host_token = frame["code"], frame["host_token"]
        self._ws = ws
        # Whoever is still (or already) in the room joins afresh: seats are matched by token.
        for peer in list(self.peers.values()):
            self._drop(peer.cid)
        for entry in frame.get("peers", []):
            self._from_peer(entry["cid"], entry["data"])
        self._wake.set()
        return ws

    async def _run(self) -> None:
        """Keep the room open: read relay frames, reconnect if the relay connection drops."""
        assert self._opened is not None
        give_up = 0.0
        delay = 0.2
        while not self._closing:
            try:
                ws = await self._connect()
            except Exception as exc:  # refused, reset, timed out, refused by the relay
                if not self._opened.done():
                    self._opened.set_exception(
                        exc if isinstance(exc, OSError)
                        else OSError(f"cannot open a room on {self.relay_url}: {exc}")
                    )
                    return
                if give_up and time.monotonic() > give_up:
                    log.error("lost the relay: %s", exc)
                    self._local({"type": "connection", "state": "closed",
                                 "message": f"lost the relay: {exc}"})
                    self.finished.set()
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 3.0)
                continue
            if not self._opened.done():
                self._opened.set_result(None)
            delay, give_up = 0.2, 0.0
            try:
                async for raw in ws:
                    try:
                        self._from_relay(raw)
                    except Exception:  # one bad frame must not take the whole room down
                        log.exception("failed to handle a frame")
            except ConnectionClosed:
                pass
            self._ws = None
            if not self._closing:
                give_up = time.monotonic() + self.reconnect_for
                self._local({"type": "connection", "state": "reconnecting",
                             "message": "lost the relay; reconnecting"})

    async def _write(self) -> None:
        """The one sender: flushes the outbox in order, batching frames into "send"s."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            ws = self._ws
            if ws is None or not self._outbox:
                continue
            batch, self._outbox = self._outbox, []
            items: list[dict[str, Any]] = []
            size = 0
            try:
                for kind, payload in batch:
                    if kind == "item":
                        items.append(payload)
                        size += len(payload["data"])
                        if size < _BATCH_BYTES:
                            continue
                    if items:
                        await self._send_frame(ws, "send", items=items)
                        items, size = [], 0
                    if kind == "kick":
                        await self._send_frame(ws, "kick", cid=payload[0], reason=payload[1])
                    elif kind == "close":
                        await self._send_frame(ws, "close", reason=payload)
                if items:
                    await self._send_frame(ws, "send", items=items)
            except ConnectionClosed:
                continue  # _run reconnects; peers get synced when they rejoin

    async def _send_frame(self, ws: ClientConnection, t: str, **fields: Any) -> None:
        self._seq += 1
        await ws.send(encode(t, seq=self._seq, **fields))

    def _post(self, to: list[int] | None, t: str, **fields: Any) -> None:
        """Queue frame `t` for connections `to` (None: everyone in the room)."""
        if to is not None and not to:
            return
        self._outbox.append(("item", {"to": to, "data": encode(t, **fields)}))
        self._wake.set()

    def _kick(self, cid: int, reason: str) -> None:
        self._outbox.append(("kick", (cid, reason)))
        self._wake.set()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self, reason: str = "the host closed the room") -> None:
        """End the room: peers are told why; the record stays on disk."""
        if self._ws is not None and not self._closing:
            self._outbox.append(("close", reason))
            self._wake.set()
            for _ in range(50):  # give the writer a moment to deliver the goodbye
                await asyncio.sleep(0.01)
                if not self._outbox:
                    break
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._writer is not None:
            self._writer.close()

    # -- frames from the relay ---------------------------------------------------------------
    def _from_relay(self, raw: bytes | str) -> None:
        try:
            frame = decode(raw, WS_MAX_SIZE)
        except ProtocolError as exc:
            log.warning("bad frame from the relay: %s", exc.message)
            return
        t = frame["t"]
        if t == "from" and type(frame.get("cid")) is int and isinstance(frame.get("data"), bytes):
            self._from_peer(frame["cid"], frame["data"])
        elif t == "left" and type(frame.get("cid")) is int:
            self._drop(frame["cid"])
        elif t == "error":
            log.warning("relay says: %s", frame.get("message"))

    def _error(self, cid: int, code: str, message: str) -> None:
        self._post([cid], "error", code=code, message=message)

    def _from_peer(self, cid: int, data: bytes) -> None:
        try:
            frame = check(decode(data, WS_MAX_SIZE), PEER_FRAMES)
        except ProtocolError as exc:
            self._error(cid, exc.code, exc.message)
            return
        t = frame["t"]
        peer = self.peers.get(cid)
        if t == "join":
            if peer is None:
                self._join(cid, frame)
            else:
                self._error(cid, "bad_order", "already joined")
            return
        if peer is None:
            self._error(cid, "bad_order", "join first")
        elif t == "move":
            self._peer_move(peer, frame)
        elif t == "chat":
            self._chat(peer.name, peer.seat, frame["text"])
        elif t == "sync":
            self._sync_peer(peer)
        elif t == "echo":
            self._post([cid], "echo", data=frame["data"])

    # -- joining and leaving -----------------------------------------------------------------
    def _join(self, cid: int, frame: Frame) -> None:
        name = clean_text(frame["name"], MAX_NAME) or "guest"
        token = frame["token"]
        seat_no = self._seat_for(name, token, frame["watch"])
        if seat_no is None and not frame["watch"]:
            if self.started:
                self._kick(cid, "every seat is taken; join with --watch to watch")
            else:
                self._kick(cid, "the table is full")
            return
        if seat_no is not None:
            seat = self.seats[seat_no]
            if seat.cid is not None and seat.cid != cid:
                old = seat.cid
                self.peers.pop(old, None)
                self._kick(old, "you joined again from another connection")
            seat.cid, seat.auto = cid, False
            if not self.started:
                seat.name = name
            seat.token = seat.token or secrets.token_urlsafe(16)
            token = seat.token
            name = seat.name
            if self.started:
                self._save_header()
        else:
            token = secrets.token_urlsafe(16)
        self.peers[cid] = Peer(cid, name, seat_no)
        self._post([cid], "welcome", seat=seat_no, token=token, name=name, code=self.code,
                   engine=self.engine.id, options=self.public_options(),
                   commitment=self.commitment)
        if self.started:
            self._sync_peer(self.peers[cid])
        else:
            self._post([cid], "lobby", **self.lobby_state())
        self._presence(lobby=True)
        for line in self.chat_log[-20:]:
            self._post([cid], "chat", **line)
        if seat_no is not None and self.started:
            self._notice(f"{name} is back")
            self._reschedule()
        if self.autostart and not self.started and not any(s.empty for s in self.seats):
            self.start()

    def _seat_for(self, name: str, token: str | None, watch: bool) -> int | None:
        """Which seat a joining connection gets: its own (by token), an away seat with its
        name once the game runs, else the first free seat in the lobby."""
        if token:
            for i, seat in enumerate(self.seats):
                if seat.token and secrets.compare_digest(seat.token, token):
                    return i
        if watch:
            return None
        if self.started:
            for i, seat in enumerate(self.seats):
                if seat.token and seat.cid is None and seat.name.casefold() == name.casefold():
                    return i
            return None
        for i, seat in enumerate(self.seats):
            if seat.empty:
                return i
        return None

    def _drop(self, cid: int) -> None:
        peer = self.peers.pop(cid, None)
        if peer is None or peer.seat is None:
            if peer is not None:
                self._presence()
            return
        seat = self.seats[peer.seat]
        if seat.cid != cid:
            return
        seat.cid = None
        if not self.started:
            self.seats[peer.seat] = Seat()  # a seat left in the lobby is free again
            self._presence(lobby=True)
            return
        self._presence()
        if self.session is not None and self.session.over:
            return
        if self.takeover is None:
            self._notice(f"{seat.name} is away; the table waits for them")
        else:
            self._notice(f"{seat.name} is away; a bot takes over in {self.takeover:g} s")
            self._spawn(self._take_over(peer.seat, seat.token))

    async def _take_over(self, seat_no: int, token: str) -> None:
        await asyncio.sleep(self.takeover or 0)
        seat = self.seats[seat_no]
        if seat.cid is None and seat.token == token and not seat.auto and not self.over:
            seat.auto = True
            self._notice(f"{seat.name} did not come back; a bot plays for them until they do")
            self._presence()
            self._reschedule()

    # -- lobby (host's terminal) ---------------------------------------------------------------
    def _lobby_changed(self) -> None:
        self._presence(lobby=True)

    def _check_lobby(self) -> None:
        if self.started:
            raise ValueError("the game has started")

    def add_bot(self, seat_no: int | None = None, level: str | None = None) -> int:
        """Put a bot in `seat_no` (default: the first free seat); returns the seat."""
        self._check_lobby()
        level = level or self.level
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        if seat_no is None:
            free = [i for i, s in enumerate(self.seats) if s.empty]
            if not free:
                raise ValueError("every seat is taken")
            seat_no = free[0]
        self.kick(seat_no)
        self.seats[seat_no] = Seat(name=f"bot {seat_no + 1}", bot=level)
        self._lobby_changed()
        return seat_no

    def kick(self, seat_no: int, reason: str = "the host gave your seat away") -> None:
        """Empty a seat in the lobby; in a running game its person is replaced by a bot."""
        seat = self.seats[seat_no]
        if seat.local:
            raise ValueError("that is your own seat")
        if seat.cid is not None:
            self.peers.pop(seat.cid, None)
            self._kick(seat.cid, reason)
        if self.started:
            seat.cid, seat.token, seat.bot, seat.auto = None, "", self.level, False
            self._notice(f"{seat.name} was removed; a bot plays that seat")
            self._presence()
            self._reschedule()
        else:
            self.seats[seat_no] = Seat()
            self._lobby_changed()

    def set_seats(self, count: int) -> None:
        self._check_lobby()
        self.engine.check_players(count)
        while len(self.seats) > count:
            if not self.seats[-1].empty:
                self.kick(len(self.seats) - 1, "the host made the table smaller")
            self.seats.pop()
        while len(self.seats) < count:
            self.seats.append(Seat())
        self._lobby_changed()

    def set_option(self, name: str, value: Any) -> None:
        self._check_lobby()
        self.options = self.engine.resolve_options({**self.options, name: value})
        self._lobby_changed()

    def set_timer(self, seconds: float | None) -> None:
        """Seconds per move before a bot moves for a person (None: no timer)."""
        if seconds is not None and seconds <= 0:
            raise ValueError("a turn timer needs some time")
        self.timer = seconds
        self._lobby_changed()
        self._reschedule()

    def set_takeover(self, seconds: float | None) -> None:
        """Seconds a dropped player has to come back before a bot plays for them."""
        if seconds is not None and seconds < 0:
            raise ValueError("the takeover time cannot be negative")
        self.takeover = seconds
        self._lobby_changed()

    # -- the game ----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.session is not None and self.session.over

    def start(self) -> None:
        """Deal: empty seats get bots, the seed is committed to, everyone gets a sync."""
        self._check_lobby()
        for i, seat in enumerate(self.seats):
            if seat.empty:
                self.seats[i] = Seat(name=f"bot {i + 1}", bot=self.level)
        seed = secrets.randbits(63) if self.seed is None else self.seed
        self.salt = fairness.new_salt()
        self.commitment = fairness.commitment(seed, self.salt)
        infos = [SeatInfo(s.name, s.bot) for s in self.seats]
        self.session = HostSession(self.engine.id, infos, seed, self.options)
        if self.keep_record:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.record_path = store.records_dir() / f"{stamp}-{self.code}.jsonl"
            self._writer = store.RecordWriter(self.record_path, self._header(), [])
        players = self.session.players()
        self._post(None, "start", engine=self.engine.id, options=self.public_options(),
                   players=players, commitment=self.commitment)
        self._local({"type": "start", "engine": self.engine.id, "players": players,
                     "commitment": self.commitment})
        self._broadcast("sync")
        self._presence()
        self._reschedule()

    def _header(self) -> dict[str, Any]:
        assert self.session is not None
        record = self.session.record()
        del record["moves"]
        record["net"] = {
            "code": self.code, "host_token": self.host_token, "salt": self.salt,
            "commitment": self.commitment, "tokens": [s.token for s in self.seats],
            "local": [s.local for s in self.seats], "timer": self.timer,
            "takeover": self.takeover, "level": self.level,
        }
        return record

    def _save_header(self) -> None:
        """Rewrite the record (a new token was handed out); moves are kept."""
        if self._writer is None or self.session is None:
            return
        self._writer.close()
        moves = [[seat, move] for seat, move in self.session.moves]
        self._writer = store.RecordWriter(self._writer.path, self._header(), moves)

    @classmethod
    def resume(cls, path: Path, relay_url: str, **kwargs: Any) -> NetHost:
        """A host continuing the game recorded at `path`. ValueError if it cannot."""
        header, moves, over = store.read_record(path)
        if over:
            raise ValueError("the last hosted game is already over; nothing to resume")
        net = header.get("net") or {}
        local = net.get("local") or []
        host_name = next((p["name"] for p, mine in zip(header["players"], local, strict=False)
                          if mine), None)
        host = cls(header["engine"], len(header["players"]), header["options"],
                   relay_url=relay_url, host_name=host_name, level=net.get("level", "strong"),
                   timer=net.get("timer"), takeover=net.get("takeover"), **kwargs)
        session = HostSession.from_record({**header, "moves": moves})
        host.session = session
        host.code, host.host_token = net["code"], net["host_token"]
        host.salt, host.commitment = net["salt"], net["commitment"]
        tokens = net.get("tokens") or [""] * len(header["players"])
        for i, (player, token) in enumerate(zip(header["players"], tokens, strict=True)):
            host.seats[i] = Seat(name=player["name"], bot=player["bot"], token=token or "",
                                 local=bool(local[i]) if i < len(local) else False)
        host.record_path = path
        if host.keep_record:
            host._writer = store.RecordWriter(path, host._header(), moves)
        return host

    async def begin_resumed(self) -> None:
        """After `open()` on a resumed host: wait for players, with takeover timers running."""
        for i, seat in enumerate(self.seats):
            if seat.token and seat.cid is None and self.takeover is not None:
                self._spawn(self._take_over(i, seat.token))
        self._broadcast("sync")
        self._presence()
        self._reschedule()

    def local_move(self, seat_no: int, move: Move, state_no: int) -> None:
        """A move made at the host's own terminal."""
        seat = self.seats[seat_no] if 0 <= seat_no < len(self.seats) else None
        if seat is None or not seat.local:
            self._local({"type": "error", "seat": seat_no, "message": "That seat is not yours"})
            return
        problem = self._try_move(seat_no, move, state_no)
        if problem is not None:
            self._local({"type": "error", "seat": seat_no, "code": problem[0],
                         "message": problem[1]})
            if problem[0] == "stale":
                self._local(self.table_message(seat_no, "sync"))

    def _peer_move(self, peer: Peer, frame: Frame) -> None:
        seat = frame["seat"]
        if peer.seat is None:
            self._error(peer.cid, "spectator", "spectators watch; they cannot move")
            return
        if seat != peer.seat:
            self._error(peer.cid, "forged_seat",
                        f"you sit in seat {peer.seat}, not seat {seat}; move refused")
            return
        problem = self._try_move(seat, frame["move"], frame["state_no"])
        if problem is not None:
            self._error(peer.cid, *problem)
            if problem[0] == "stale":
                self._sync_peer(peer)

    def _try_move(self, seat: int, move: Move, state_no: int) -> tuple[str, str] | None:
        """Apply a person's move; (code, reason) if it is refused (nothing changes then)."""
        session = self.session
        if session is None:
            return ("not_started", "the game has not started yet")
        if session.over:
            return ("over", "the game is over")
        if not is_plain(move) or not isinstance(move.get("type"), str):
            return ("bad_move", "a move is a map with a 'type' and plain values")
        if state_no != session.state_no:
            return ("stale", f"the table moved on (your view was state {state_no}, it is at "
                             f"{session.state_no}); here is the current table")
        if seat not in self.engine.to_act(session.state):
            return ("not_your_turn", "it is not your turn")
        try:
            self._apply(seat, move)
        except (IllegalMove, StaleMove) as exc:
            return ("illegal", getattr(exc, "reason", str(exc)))
        return None

    def _apply(self, seat: int, move: Move) -> None:
        assert self.session is not None
        events = self.session.submit(seat, move)
        if self._writer is not None:
            self._writer.move(seat, move)
        self._broadcast("update", events)
        if self.session.over:
            if self._writer is not None:
                self._writer.finish()
                self._writer = None
            self._presence()
            self.finished.set()
        self._reschedule()

    # -- sending the table ---------------------------------------------------------------------
    def table_message(
        self, seat: int | None, kind: str, events: list[Any] | None = None
    ) -> Message:
        """A sync or update for one seat (None: the public view), as the wire carries it:
        the local link's message plus who is connected and, at the end, the seed reveal."""
        session = self.session
        assert session is not None
        message = table_message(session, seat, kind, events)
        message["players"] = self._players()
        message["reveal"] = (
            {"seed": session.seed, "salt": self.salt, "record": session.record()}
            if session.over else None
        )
        return message

    def _players(self) -> list[dict[str, Any]]:
        return [{"name": s.name, "bot": s.bot, "connected": s.connected, "auto": s.auto}
                for s in self.seats]

    def _broadcast(self, kind: str, events: list[Any] | None = None) -> None:
        seated: dict[int, list[int]] = {}
        watchers: list[int] = []
        for peer in self.peers.values():
            if peer.seat is None:
                watchers.append(peer.cid)
            else:
                seated.setdefault(peer.seat, []).append(peer.cid)
        for seat, cids in seated.items():
            self._post_table(cids, self.table_message(seat, kind, events))
        if watchers:
            self._post_table(watchers, self.table_message(None, kind, events))
        for i, seat_info in enumerate(self.seats):
            if seat_info.local:
                self._local(self.table_message(i, kind, events))

    def _post_table(self, cids: list[int], message: Message) -> None:
        t = message.pop("type")
        self._post(cids, t, **message)

    def _sync_peer(self, peer: Peer) -> None:
        if self.session is None:
            self._post([peer.cid], "lobby", **self.lobby_state())
        else:
            self._post_table([peer.cid], self.table_message(peer.seat, "sync"))

    def _presence(self, lobby: bool = False) -> None:
        players, watching = self.seat_list(), self.spectators()
        self._post(None, "presence", players=players, spectators=watching)
        self._local({"type": "presence", "players": players, "spectators": watching})
        if lobby and not self.started:
            state = self.lobby_state()
            self._post(None, "lobby", **state)
            self._local({"type": "lobby", **state})

    def _notice(self, text: str) -> None:
        self._post(None, "notice", text=text)
        self._local({"type": "notice", "text": text})

    def _chat(self, name: str, seat: int | None, text: str) -> None:
        text = clean_text(text, MAX_CHAT)
        if not text:
            return
        line = {"name": name, "text": text, "seat": seat}
        self.chat_log.append(line)
        del self.chat_log[:-100]
        self._post(None, "chat", **line)
        self._local({"type": "chat", **line})

    def send_chat(self, text: str) -> None:
        """Chat from the host's own terminal."""
        local = next((i for i, s in enumerate(self.seats) if s.local), None)
        name = self.seats[local].name if local is not None else "host"
        self._chat(name, local, text)

    # -- bots and the turn timer -------------------------------------------------------------
    def _reschedule(self) -> None:
        """(Re)plan who moves without a person: bots, taken-over seats, expired timers."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current:
            self._driver.cancel()
        self._driver = None
        if self.session is None or self.session.over or self._closing:
            return
        self._driver = self._spawn(self._drive(self.session.state_no))

    async def _drive(self, state_no: int) -> None:
        session = self.session
        assert session is not None
        to_act = self.engine.to_act(session.state)
        robots = [s for s in to_act if self.seats[s].bot or self.seats[s].auto]
        people = [s for s in to_act if s not in robots]
        if robots:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            for seat in robots:
                level = self.seats[seat].bot or self.level
                move = await asyncio.to_thread(session.choose_for, seat, level)
                if session.state_no != state_no:
                    return
                if move is not None:
                    self._apply(seat, move)
                    return
        if self.timer and people:
            await asyncio.sleep(self.timer)
            for seat in people:
                move = await asyncio.to_thread(session.choose_for, seat, self.level)
                if session.state_no != state_no:
                    return
                if move is not None:
                    self._notice(f"time ran out for {self.seats[seat].name}; a bot moved for them")
                    self._apply(seat, move)
                    return


class HostLink(TableLink):
    """The table as the host's own terminal sees it: its local seats, no network in between."""

    def __init__(self, host: NetHost) -> None:
        super().__init__()
        self.host = host
        self.seats = [i for i, seat in enumerate(host.seats) if seat.local]

    async def start(self) -> None:
        self.host.add_listener(self.emit)
        if self.host.session is not None:
            for seat in self.seats or [None]:
                self.emit(self.host.table_message(seat, "sync"))

    async def send_move(self, seat: int, move: Move, state_no: int) -> None:
        self.host.local_move(seat, move, state_no)

    async def send_chat(self, text: str) -> None:
        self.host.send_chat(text)

    async def close(self) -> None:
        self.host.remove_listener(self.emit)
