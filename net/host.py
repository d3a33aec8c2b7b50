"""The hosting side of a networked table: the room's authority.

`NetHost` opens a room on a relay and runs the one `HostSession` of the game. Everything a
peer sends arrives here, is checked (who sent it, which seat, which state it was made on,
whether the rules allow it) and either applied or answered with an error frame. After every
applied move each connection gets only its own view; spectators get the public one. The host
also runs the lobby, the chat and the presence list, and writes the game record as it goes so
that `tabletop-tui host --resume` can continue after a crash.

It leaves the connection and the ordered, batched sending to `net.uplink`, the key exchanges
and the opening of sealed frames to `net.host_keys` (the relay reads none of it), the seating
rules to `net.seats` and the choice of bot and timer moves to `net.driver`. All state changes happen
in plain (non-async) methods on the event loop and only queue frames, so no two moves can
interleave their broadcasts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engines import IllegalMove, get_engine
from engines.base import TEST_OPTIONS, Move
from net import codes, fairness, host_record, signing, store
from net.audience import Audience, Listener
from net.driver import unmanned_move
from net.host_keys import Keyring
from net.link import Message, table_message
from net.protocol import (
    MAX_CHAT,
    MAX_NAME,
    PEER_FRAMES,
    PEER_SEALED,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
    is_plain,
)
from net.seats import Peer, Seat, bot_seat, clean_text, new_token, players, seat_for
from net.session import BOT_LEVELS, HostSession, SeatInfo, StaleMove
from net.uplink import Uplink

log = logging.getLogger("tabletop.host")

# Seconds the seated peers have to send their part of the seed once the host committed; a peer
# that misses it (an old client, a dead connection) is left out and the deal goes on.
CONTRIBUTION_WAIT = 10.0
# Seconds a reclaim by name waits for the host's yes before it is refused.
RECLAIM_WAIT = 120.0


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
        self.options = self._table_options(options or {})
        self.level = level
        self.seed = seed
        self.timer = timer
        self.takeover = takeover
        self.hints = False  # whether players may ask the expert for hints (the lobby's switch)
        self.bot_delay = bot_delay
        self.keep_record = keep_record
        self.seats = [Seat() for _ in range(num_seats)]
        if host_name is not None:
            self.seats[0] = Seat(name=clean_text(host_name, MAX_NAME) or "host", local=True)
        self.uplink = Uplink(relay_url, reconnect_for, spawn=self._spawn,
                             rejoin=self._rejoin, receive=self._from_relay,
                             report=self._connection)
        self.audience = Audience(self.uplink)
        self.keys = Keyring(self.uplink, self._sealed, self._wrong_code)
        self.session: HostSession | None = None
        self.secret = 0  # the host's part of the seed, committed to before the contributions
        self.salt = ""
        self.commitment: str | None = None
        self.contributions: list[list[Any]] = []
        self._collecting: dict[int, str] | None = None  # seat -> contribution, while dealing
        # A person at the host's terminal answers reclaims by name ({"type": "reclaim"} to the
        # listeners, then `answer_reclaim`); a headless host refuses them.
        self.attended = False
        self._reclaims: dict[int, tuple[int, str]] = {}  # cid -> (seat, name) awaiting a yes
        self._proving: dict[int, Frame] = {}  # cid -> its join frame, until it claims
        self._returning: set[int] = set()  # cids in the reopened room, until they "rejoin"
        self.autostart = False  # start as soon as every seat is taken (headless hosting)
        self.finished = asyncio.Event()
        self.chat_log: list[dict[str, Any]] = []
        self.chat_said = 0  # chat lines said in this room so far: the next line's "no"
        self.record_path: Path | None = None
        self._writer: store.RecordWriter | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._driver: asyncio.Task[None] | None = None

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
    def peers(self) -> dict[int, Peer]:
        return self.audience.peers

    @property
    def started(self) -> bool:
        """Dealing or playing: the lobby is closed."""
        return self.session is not None or self._collecting is not None

    @property
    def over(self) -> bool:
        return self.session is not None and self.session.over

    @property
    def display_code(self) -> str:
        return codes.display(self.code) if self.code else ""

    def seat_list(self) -> list[dict[str, Any]]:
        return [seat.public() for seat in self.seats]

    def lobby_state(self) -> dict[str, Any]:
        return {"engine": self.engine.id, "options": self.public_options(),
                "seats": self.seat_list(), "timer": self.timer, "takeover": self.takeover}

    def _table_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The lobby options, checked; the test options that fix the deal are refused, or a
        host could stack the deck and still pass every peer's shuffle check."""
        fixed = sorted(set(options) & set(TEST_OPTIONS))
        if fixed:
            raise ValueError(f"{', '.join(fixed)} would fix the deal: not at a networked table")
        return self.engine.resolve_options(options)

    def public_options(self) -> dict[str, Any]:
        return dict(self.options)

    def spectators(self) -> int:
        return self.audience.spectators()

    def add_listener(self, listener: Listener) -> None:
        """`listener(message)` hears what the host's own terminal should show: lobby changes,
        chat, presence, notices, and the table for local seats (see net.link)."""
        self.audience.add_listener(listener)

    def remove_listener(self, listener: Listener) -> None:
        self.audience.remove_listener(listener)

    # -- the room ----------------------------------------------------------------------------
    async def open(self) -> str:
        """Connect to the relay and open the room; returns the join code (normal form)."""
        await self.uplink.open()
        self.keys.prepare()  # the first joiner's exchange, started while nobody waits
        return self.code

    async def close(self, reason: str = "the host closed the room") -> None:
        """End the room: peers are told why; the record stays on disk."""
        await self.uplink.say_goodbye(reason)
        for task in list(self._tasks):
            task.cancel()
        await self.uplink.hang_up()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._writer is not None:
            self._writer.close()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _connection(self, state: str, message: str) -> None:
        self.audience.local({"type": "connection", "state": state, "message": message})
        if state == "closed":
            self.finished.set()

    def _rejoin(self, entries: list[dict[str, Any]]) -> None:
        """The room was (re)opened: whoever is still in it joins afresh. Their first join
        frames are old news (a seat's proof needs a fresh nonce), so each is kept until its
        peer, told `host_back`, says `rejoin`; seats are then matched by token as on a join."""
        for peer in list(self.peers.values()):
            self._drop(peer.cid)
        self._proving.clear()
        self._reclaims.clear()
        self.keys.forget_all()  # every peer runs a fresh exchange with its "rejoin"
        self._vouch()
        self._returning = {entry["cid"] for entry in entries if type(entry.get("cid")) is int}

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
            self._proving.pop(frame["cid"], None)
            self._returning.discard(frame["cid"])
            self._reclaims.pop(frame["cid"], None)
            self.keys.forget(frame["cid"])
            self._drop(frame["cid"])
        elif t == "error":
            log.warning("relay says: %s", frame.get("message"))

    def _error(self, cid: int, code: str, message: str, seq: int | None = None) -> None:
        """Tell `cid` a frame was refused: sealed once it has a channel, else in the clear."""
        if cid in self.uplink.channels:
            self.uplink.post([cid], "error", code=code, message=message, seq=seq)
        else:  # shaped like a relay error, which is what a peer expects in the clear
            self.uplink.post_plain([cid], "error", code=code, message=message, seq=seq,
                                   fatal=False)

    def _from_peer(self, cid: int, data: bytes) -> None:
        """A frame the relay forwarded: an exchange to answer, or a sealed frame to open."""
        try:
            frame = check(decode(data, WS_MAX_SIZE), PEER_FRAMES)
        except ProtocolError as exc:
            self._error(cid, exc.code, exc.message)
            return
        t, seq = frame["t"], frame["seq"]
        if t == "sealed":
            if not self.keys.receive(cid, frame):
                self._error(cid, "bad_order", "join first: no key exchange yet", seq)
            return
        known = cid in self.peers or cid in self._proving or cid in self._reclaims
        if t == "rejoin" and cid not in self._returning:
            self._error(cid, "bad_order", "'rejoin' answers 'host_back' only", seq)
        elif t == "join" and (known or self.keys.has(cid) or cid in self._returning):
            self._error(cid, "bad_order", "already joined", seq)
        else:
            self._returning.discard(cid)
            self.keys.answer(cid, frame["pake"])

    def _wrong_code(self, cid: int) -> None:
        self.audience.local({"type": "notice", "text": "someone tried to join with a wrong "
                                                       f"code ({self.keys.wrong_tries} so far)"})
        self._save_header()  # a resumed room must not grant a guesser fresh tries

    def _sealed(self, cid: int, payload: Frame, seq: int) -> None:
        """A payload a peer sealed (net.host_keys opened it): its hello first, then the game."""
        try:
            frame = check(payload, PEER_SEALED)
        except ProtocolError as exc:
            self._error(cid, exc.code, exc.message, seq)
            return
        frame["seq"] = seq  # errors name the envelope the refused payload came in
        t = frame["t"]
        peer = self.peers.get(cid)
        if t == "hello":
            if peer is None and cid not in self._proving and cid not in self._reclaims:
                self._hello(cid, frame)
            else:
                self._error(cid, "bad_order", "already joined", seq)
            return
        if t == "claim" and cid in self._proving:
            self._claim(cid, self._proving.pop(cid), frame["token"])
            return
        if peer is None:
            self._error(cid, "bad_order", "join first", seq)
        elif t == "move":
            self._peer_move(peer, frame)
        elif t == "contribute":
            self._contribute(peer, frame)
        elif t == "chat":
            self._chat(peer.name, peer.seat, frame["text"])
        elif t == "sync":
            self._sync_peer(peer)
        elif t == "echo":
            self.uplink.post([cid], "echo", data=frame["data"])

    # -- joining and leaving -----------------------------------------------------------------
    def _hello(self, cid: int, frame: Frame) -> None:
        """A join. One that names a seat (by the hash of its token) first gets the host's
        proof and sends the token only then (`claim`); see net.signing."""
        seat_id, nonce = frame.get("seat_id"), frame.get("nonce")
        token = next((t for s in self.seats for t in s.tokens if signing.seat_id(t) == seat_id),
                     None) if seat_id and nonce else None
        if token is None or self.uplink.host_token is None:
            self._join(cid, frame, None)
            return
        self._proving[cid] = frame
        key = signing.proof_key(self.uplink.host_token, token)
        self.uplink.post([cid], "proof", proof=signing.proof(key, str(nonce)))

    def _claim(self, cid: int, frame: Frame, token: str) -> None:
        if not any(seat.holds(token) for seat in self.seats):
            self.uplink.kick(cid, "that seat token is not valid here", code="refused")
            return
        self._join(cid, frame, token)

    def _join(self, cid: int, frame: Frame, token: str | None) -> None:
        name = clean_text(frame["name"], MAX_NAME) or "guest"
        seat_no, why = seat_for(self.seats, name, token, frame["watch"], self.started)
        if why == "name":
            assert seat_no is not None
            self._ask_reclaim(cid, seat_no, name)
            return
        if why == "full":
            reason = ("every seat is taken; join with --watch to watch" if self.started
                      else "the table is full")
            self.uplink.kick(cid, reason, code="table_full")
            return
        self._admit(cid, seat_no, name, token)

    def _admit(self, cid: int, seat_no: int | None, name: str, token: str | None) -> None:
        """Seat connection `cid` (or let it watch, `seat_no` None) and tell it everything.
        `token` is the one it proved; None: it gets a new one."""
        proof_key = None
        if seat_no is None:
            token = new_token()
        else:
            seat = self.seats[seat_no]
            if seat.cid is not None and seat.cid != cid:
                self.peers.pop(seat.cid, None)
                self.uplink.kick(seat.cid, "your seat was taken back with its token",
                                 code="replaced")
            if token is None and self.started:  # a reclaim by name the host said yes to
                token = new_token()
                seat.spare.append(token)
            seat.claim(cid, None if self.started else name)
            token, name = token or seat.token, seat.name
            proof_key = signing.proof_key(self.uplink.host_token or "", token)
            if self.started:
                self._save_header()
            self._vouch()
        self.peers[cid] = Peer(cid, name, seat_no)
        self.uplink.post([cid], "welcome", seat=seat_no, token=token, name=name,
                         code=self.code, engine=self.engine.id, options=self.public_options(),
                         commitment=self.commitment, proof_key=proof_key)
        if self.session is not None:
            self._sync_peer(self.peers[cid])
        else:
            self.uplink.post([cid], "lobby", **self.lobby_state())
        self._presence(lobby=True)
        for line in self.chat_log[-20:]:
            self.uplink.post([cid], "chat", **line)
        if seat_no is not None and self.started:
            self._notice(f"{name} is back")
            self._reschedule()
        if self.autostart and not self.started and not any(s.empty for s in self.seats):
            self.start()

    def _ask_reclaim(self, cid: int, seat_no: int, name: str) -> None:
        """Someone wants an away seat back by its name, without its token: only the host may
        say yes (anyone with the code can type a name); a headless host says no."""
        if not self.attended:
            # No name in a kick: its reason travels in the clear, through the relay.
            self.uplink.kick(cid, f"seat {seat_no + 1} is kept for its player: rejoin from "
                                  "the machine that played it (it keeps the seat's token)",
                             code="refused")
            return
        self._reclaims[cid] = (seat_no, name)
        self.uplink.post([cid], "notice", text=f"asking the host to give you seat {seat_no + 1} "
                                               "back; please wait")
        self.audience.local({"type": "reclaim", "cid": cid, "seat": seat_no, "name": name})
        self._spawn(self._reclaim_deadline(cid))

    async def _reclaim_deadline(self, cid: int) -> None:
        await asyncio.sleep(RECLAIM_WAIT)
        self.answer_reclaim(cid, False)

    def answer_reclaim(self, cid: int, yes: bool) -> None:
        """The host's answer to {"type": "reclaim", "cid", ...}. A yes seats the asker with a
        token of its own (the seat's old token stays valid: its owner can still come back)."""
        asked = self._reclaims.pop(cid, None)
        if asked is None:
            return
        seat_no, name = asked
        seat = self.seats[seat_no]
        if yes and seat.cid is None and seat.token and not seat.bot:
            self._notice(f"the host gave seat {seat_no + 1} back to {name}, by name")
            self._admit(cid, seat_no, name, None)
        else:
            self.uplink.kick(cid, "the host did not give you the seat back", code="refused")

    def _vouch(self) -> None:
        """Tell the relay which seat ids own a seat here: their people always get in."""
        ids = [signing.seat_id(t) for seat in self.seats for t in seat.tokens]
        self.uplink.vouch(ids)

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
        if self.over:
            return
        self._reschedule()  # an interrupt window's countdown stops while a seat is away
        if self.takeover is None:
            self._notice(f"{seat.name} is away; the table waits for them")
        else:
            self._notice(f"{seat.name} is away; a bot takes over in {self.takeover:g} s")
            self._spawn(self._take_over(peer.seat, seat.token))

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
        self.seats[seat_no] = bot_seat(seat_no, level)
        self._lobby_changed()
        return seat_no

    def kick(self, seat_no: int, reason: str = "the host gave your seat away") -> None:
        """Empty a seat in the lobby; in a running game its person is replaced by a bot."""
        seat = self.seats[seat_no]
        if seat.local:
            raise ValueError("that is your own seat")
        if seat.cid is not None:
            self.peers.pop(seat.cid, None)
            self.uplink.kick(seat.cid, reason)
        if self.started:
            seat.forget_tokens()
            seat.cid, seat.bot, seat.auto = None, self.level, False
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
        self.options = self._table_options({**self.options, name: value})
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

    def set_hints(self, allowed: bool) -> None:
        """Whether players may ask the expert bot for hints ("h"); off unless allowed."""
        self.hints = bool(allowed)
        if self.session is not None:
            self.session.hints = self.hints

    # -- the game and its record ---------------------------------------------------------------
    def start(self) -> None:
        """Close the lobby (empty seats get bots) and make the seed: commit to the host's
        secret, collect the seated peers' contributions, then deal (see net.fairness). With a
        fixed seed (`seed=`), or nobody to ask, it deals at once."""
        self._check_lobby()
        for i, seat in enumerate(self.seats):
            if seat.empty:
                self.seats[i] = bot_seat(i, self.level)
        self.secret = secrets.randbits(63) if self.seed is None else self.seed
        self.salt = fairness.new_salt()
        self.commitment = fairness.commitment(self.secret, self.salt)
        asked = {p.seat: cid for cid, p in self.peers.items() if p.seat is not None}
        if self.seed is not None or not asked:
            self._deal({})
            return
        self._collecting = {}
        self._presence()
        self.uplink.post(list(asked.values()), "commit", commitment=self.commitment,
                         seats=sorted(asked))
        self._spawn(self._contribution_deadline(set(asked)))

    def _contribute(self, peer: Peer, frame: Frame) -> None:
        value, got = frame["value"], self._collecting
        if got is None or peer.seat is None or peer.seat in got:
            self._error(peer.cid, "bad_order", "no contribution is wanted now", frame["seq"])
        elif not fairness.good_contribution(value):
            self._error(peer.cid, "bad_field", "a contribution is 1 to 64 letters and digits",
                        frame["seq"])
        else:
            got[peer.seat] = value
            seated = {p.seat for p in self.peers.values() if p.seat is not None}
            if seated <= set(got):
                self._deal(got)

    async def _contribution_deadline(self, asked: set[int]) -> None:
        await asyncio.sleep(CONTRIBUTION_WAIT)
        got = self._collecting
        if got is not None and self.session is None:
            missing = ", ".join(self.seats[s].name for s in sorted(asked - set(got)))
            self._notice(f"dealing without a contribution from {missing}")
            self._deal(got)

    def _deal(self, contributions: dict[int, str]) -> None:
        self._collecting = None
        self.contributions = [[s, v] for s, v in sorted(contributions.items())]
        seed = (self.seed if self.seed is not None
                else fairness.joint_seed(self.secret, self.salt, self.contributions))
        infos = [SeatInfo(s.name, s.bot) for s in self.seats]
        self.session = HostSession(self.engine.id, infos, seed, self.options)
        self.session.hints = self.hints
        if self.keep_record:
            self._record(self._open_record)
        table = self.session.players()
        self.uplink.post(list(self.peers), "start", engine=self.engine.id,
                         options=self.public_options(), players=table, commitment=self.commitment,
                         contributions=self.contributions, fixed_seed=self.seed)
        self.audience.local({"type": "start", "engine": self.engine.id, "players": table,
                             "commitment": self.commitment, "fixed_seed": self.seed})
        self._broadcast("sync")
        self._presence()
        self._reschedule()

    def reopen(self) -> None:
        """A rematch: after a game the same room goes back to its lobby with the same seats.
        People still here keep their seats (and tokens), bots stay, the seats of people who
        left are free again; everyone gets the lobby, which a guest's screen offers as "stay
        for the rematch, or leave". The next `start()` deals afresh with a new seed."""
        if not self.over:
            raise ValueError("the game is not over")
        self.session = None
        self.commitment, self.contributions, self.salt = None, [], ""
        self._writer, self.record_path = None, None
        self.finished = asyncio.Event()
        for line in self.chat_log:  # said before the next game: its lobby chat
            line["at"] = None
        for i, seat in enumerate(self.seats):
            if seat.local or seat.bot:
                continue
            if seat.cid is None:
                self.seats[i] = Seat()
            else:
                seat.auto = False
        self._presence(lobby=True)

    def _header(self) -> dict[str, Any]:
        assert self.session is not None
        return host_record.header(self.session, {
            "code": self.room, "join_secret": self.keys.secret,
            "host_token": self.uplink.host_token, "salt": self.salt,
            "commitment": self.commitment, "tokens": [s.token for s in self.seats],
            "spare": [s.spare for s in self.seats], "secret": self.secret,
            "contributions": self.contributions, "fixed": self.seed is not None,
            "local": [s.local for s in self.seats], "timer": self.timer,
            "takeover": self.takeover, "level": self.level, "hints": self.hints,
            "wrong_tries": self.keys.wrong_tries,
        })

    def _save_header(self) -> None:
        if self._writer is not None and self.session is not None:
            self._record(self._rewrite_record)

    def _open_record(self) -> None:
        self.record_path = host_record.new_path(self.room)
        self._writer = store.RecordWriter(self.record_path, self._header(), [])

    def _rewrite_record(self) -> None:
        assert self._writer is not None and self.session is not None
        self._writer = host_record.rewrite(self._writer, self._header(), self.session)

    def _record(self, write: Callable[[], None]) -> None:
        """One write to the game record. If the disk refuses (full, read-only, no such
        folder), the table is told and the game goes on without a record: losing it costs
        only `--resume`, while stopping would cost the game."""
        try:
            write()
        except OSError as exc:
            if self._writer is not None:
                with contextlib.suppress(OSError):
                    self._writer.close()
            self._writer, self.record_path = None, None
            self._notice(f"the game record cannot be written ({exc.strerror or exc}): "
                         "the game goes on, but cannot be resumed after a crash")

    @classmethod
    def resume(cls, path: Path, relay_url: str, **kwargs: Any) -> NetHost:
        """A host continuing the game recorded at `path`. ValueError if it cannot, also for a
        damaged record (a crash may have cut it short, or someone edited it)."""
        header, moves, net = host_record.load(path)
        try:
            host = cls(header["engine"], len(header["players"]), header["options"],
                       relay_url=relay_url, host_name=host_record.host_name(header, net),
                       level=net.get("level", "strong"), timer=net.get("timer"),
                       takeover=net.get("takeover"), **kwargs)
            host.session = HostSession.from_record({**header, "moves": moves})
            host.set_hints(bool(net.get("hints", False)))
            host.uplink.code, host.uplink.host_token = net["code"], net["host_token"]
            # A record from before protocol 3 has no secret: the room gets a new one.
            host.keys.secret = net.get("join_secret") or host.keys.secret
            host.keys.wrong_tries = int(net.get("wrong_tries", 0))
            host.salt, host.commitment = net["salt"], net["commitment"]
            host.secret = net.get("secret", host.session.seed)
            host.contributions = net.get("contributions", [])
            if net.get("fixed"):
                host.seed = host.session.seed
            host.seats[:] = host_record.seats(header, net)
        except (KeyError, TypeError, ValueError, AttributeError, IllegalMove) as exc:
            raise ValueError(f"the record {path.name} is damaged and cannot be resumed "
                             f"({type(exc).__name__}: {exc})") from None
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

    # -- moves ---------------------------------------------------------------------------------
    def local_move(self, seat_no: int, move: Move, state_no: int) -> None:
        """A move made at the host's own terminal."""
        seat = self.seats[seat_no] if 0 <= seat_no < len(self.seats) else None
        if seat is None or not seat.local:
            self.audience.local({"type": "error", "seat": seat_no,
                                 "message": "That seat is not yours"})
            return
        problem = self._try_move(seat_no, move, state_no)
        if problem is not None:
            self.audience.local({"type": "error", "seat": seat_no, "code": problem[0],
                                 "message": problem[1]})
            if problem[0] == "stale":
                self.audience.local(self.table_message(seat_no, "sync"))

    def _peer_move(self, peer: Peer, frame: Frame) -> None:
        seat = frame["seat"]
        if peer.seat is None:
            self._error(peer.cid, "spectator", "spectators watch; they cannot move",
                        frame["seq"])
            return
        if seat != peer.seat:
            self._error(peer.cid, "forged_seat",
                        f"you sit in seat {peer.seat}, not seat {seat}; move refused",
                        frame["seq"])
            return
        problem = self._try_move(seat, frame["move"], frame["state_no"])
        if problem is not None:
            self._error(peer.cid, *problem, seq=frame["seq"])
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
        if state_no != session.state_no and not session.windows.same_window(state_no):
            if (late := session.windows.too_late(state_no)) is not None:
                return ("late", late)  # an answer to an interrupt window that has closed
            # an old view, or one from the future: both stale
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
        writer = self._writer
        if writer is not None:
            recorded = self.session.moves[-1][1]  # the engine's copy, not the sender's dict
            self._record(lambda: writer.move(seat, recorded))
        self._broadcast("update", events)
        if self.session.over:
            if (ended := self._writer) is not None:
                result = self.session.result()
                self._record(lambda: ended.finish(result))
            self._writer = None
            self._presence()
            self.finished.set()
        self._reschedule()

    # -- moves nobody at a keyboard makes --------------------------------------------------------
    def _reschedule(self) -> None:
        """(Re)plan who moves without a person: bots, taken-over seats, expired timers."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current:
            self._driver.cancel()
        self._driver = None
        if self.session is None or self.session.over or self.uplink.closing:
            return
        self._driver = self._spawn(self._drive(self.session.state_no))

    async def _drive(self, state_no: int) -> None:
        assert self.session is not None
        due = await unmanned_move(self.session, self.seats, state_no, level=self.level,
                                  bot_delay=self.bot_delay, timer=self.timer)
        if due is None:
            return
        seat, move, timed_out = due
        if timed_out:
            self._notice(f"time ran out for {self.seats[seat].name}; a bot moved for them")
        self._apply(seat, move)

    async def _take_over(self, seat_no: int, token: str) -> None:
        await asyncio.sleep(self.takeover or 0)
        seat = self.seats[seat_no]
        if seat.cid is None and seat.token == token and not seat.auto and not self.over:
            seat.auto = True
            self._notice(f"{seat.name} did not come back; a bot plays for them until they do")
            self._presence()
            self._reschedule()

    # -- telling everybody -----------------------------------------------------------------------
    def table_message(
        self, seat: int | None, kind: str, events: list[Any] | None = None
    ) -> Message:
        """A sync or update for one seat (None: the public view), as the wire carries it:
        the local link's message plus who is connected and, at the end, the seed reveal."""
        session = self.session
        assert session is not None
        message = table_message(session, seat, kind, events)
        message["players"] = players(self.seats)
        message["reveal"] = (
            {"secret": self.secret, "salt": self.salt, "seed": session.seed,
             "contributions": self.contributions, "fixed": self.seed is not None,
             "record": session.record()}
            if session.over else None
        )
        return message

    def _broadcast(self, kind: str, events: list[Any] | None = None) -> None:
        self.audience.table(lambda seat: self.table_message(seat, kind, events),
                            (i for i, seat in enumerate(self.seats) if seat.local))

    def _sync_peer(self, peer: Peer) -> None:
        if self.session is None:
            self.uplink.post([peer.cid], "lobby", **self.lobby_state())
        else:
            self.audience.send([peer.cid], self.table_message(peer.seat, "sync"))

    def _presence(self, lobby: bool = False) -> None:
        self.audience.everyone("presence", players=self.seat_list(),
                               spectators=self.spectators())
        if lobby and not self.started:
            self.audience.everyone("lobby", **self.lobby_state())

    def _notice(self, text: str) -> None:
        self.audience.everyone("notice", text=text)

    def _chat(self, name: str, seat: int | None, text: str) -> None:
        text = clean_text(text, MAX_CHAT)
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

    def send_chat(self, text: str) -> None:
        """Chat from the host's own terminal."""
        local = next((i for i, s in enumerate(self.seats) if s.local), None)
        name = self.seats[local].name if local is not None else "host"
        self._chat(name, local, text)
