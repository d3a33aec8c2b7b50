"""The peer side: a table on another machine, behind the relay, as a `TableLink`.

`RemoteLink` delivers exactly the messages `LocalLink` does (sync, update, error, chat,
presence; see net.table.link), so a game screen cannot tell a remote table from a local one. It adds
what only networked play has:
  {"type": "welcome", "seat", "name", "code", "engine", "options", "commitment"}
  {"type": "lobby", "engine", "options", "seats", "clock", "takeover"}
  {"type": "start", "engine", "options", "players", "commitment"}
  {"type": "notice", "text"}                          e.g. somebody is away
  {"type": "connection", "state", "message"}          state: reconnecting, connected,
                                                      host_away, host_back, closed
  {"type": "notice", "text", "verdict": {"code", "args"}}
                                                      this peer's own finding that the deal
                                                      cannot be verified (at the commit or the
                                                      start already), once per game
and, once the game is over, result["verified"] (bool), result["verify_note"] (a sentence) and
result["verify_code"], result["verify_args"] (the same as a `fairness.REASONS` key and its
arguments, for screens that say it in another language) from the fair-shuffle check
(net.table.fairness).

Everything between this peer and the host travels sealed (net.peer.pipe): the join code's
secret part keys a SPAKE2 exchange on every join, rejoin and reconnect (net.peer.joining), and
the relay sees only the room code. A frame the relay tampered with, replayed or reordered is
refused and reported. A dropped connection is retried for a while with the seat token (kept
in the user's data directory per join code), and the host answers a rejoin with a fresh sync.
When the host deals, this peer adds its own random part to the seed (net.table.fairness) and
checks the host's list of parts against the commit as soon as it sees it, at the start, and
again at the end with everything the host reveals. A failed check sticks for the game: the
final verdict says the deal was not verified, whatever the reveal shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from engines.base import Move
from net import records
from net.peer import tokens
from net.peer.deal import DealCheck
from net.peer.joining import UPDATE, Joiner, JoinError
from net.peer.pipe import Pipe
from net.players import closing
from net.records import store as record_store
from net.table.link import Message, TableLink
from net.wire import codes, resume
from net.wire.channel import CRYPTO, Channel, Crypto
from net.wire.frames import (
    HOST_ENVELOPES,
    RELAY_FRAMES,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
)
from net.wire.text import clean_tree

__all__ = ["JoinError", "RemoteLink"]

# A frame the relay damaged, or sent out of order: the channel starts afresh.
DAMAGED = ("tampered", "reordered")
# What a guest reads when its host closes the room before the end (net.host.closing).
HOST_CLOSED = ("the host closed the game before its end: it counts as the host's leaving, and "
               "everyone else's place stands as the game stood")
REKEYING = "a frame was damaged on the way; renewing this table's keys and catching up"
HOLDING = "the table is being reached again: what you do goes to it once you are back"
# Frames made while the link is not in the room, kept to send once it is (at most so many).
MAX_HELD = 32


class RemoteLink(TableLink):
    """A seat (or a spectator's chair) at a table hosted elsewhere."""

    crypto: Crypto = CRYPTO  # what seals the channel (a benchmark swaps in a null one)

    def __init__(
        self,
        code: str,
        name: str = "",
        *,
        server: str | None = None,
        watch: bool = False,
        token: str | None = None,
        proof_key: str | None = None,
        remember: bool = True,
        reconnect_for: float = 120.0,
        join_timeout: float = 15.0,
    ) -> None:
        super().__init__()
        self.code = codes.normalise_join(code)  # BadCode for text that is no join code
        self.room, self.secret = codes.split(self.code)
        self.name = name
        self.server = server
        self.watch = watch
        self.remember = remember
        self.token, self.proof_key = token, proof_key
        self.key: bytes | None = None  # the resumption key (net.wire.resume), once joined
        self.ticket: str | None = None  # the one-time ticket for a full room, if any
        saved = tokens.load_token(self.code, name) if token is None and remember else None
        if saved is not None:
            self.token, self.name, self.proof_key = saved.token, saved.name, saved.proof_key
            self.key = bytes.fromhex(saved.key) if saved.key else None
            self.ticket = saved.ticket
        self.reconnect_for = reconnect_for
        self.join_timeout = join_timeout
        self.seats: list[int] = []
        self.seat: int | None = None
        self.engine = ""  # the game's engine id, from the host's welcome
        self.lobby: Message | None = None
        self.players: list[dict[str, Any]] = []
        self.table: Message | None = None  # the latest sync/update, re-sent by start()
        self.result: dict[str, Any] | None = None
        self.seen: dict[int, dict[str, Any]] = {}
        self.event_log: list[dict[str, Any]] = []
        self.chat: list[Message] = []  # recent chat, for screens that open later
        self.closed = asyncio.Event()
        self.close_reason = ""
        self.close_code = ""  # its error code (docs/protocol.md, Errors)
        # Called while joining when the host asks its player whether to give this peer an
        # away seat back by name: the wait that follows can be long, and is worth a word.
        self.on_asking: Callable[[], None] | None = None
        self.url = ""
        self.pipe: Pipe | None = None  # the latest connection's frames, once it is made
        self.deal = DealCheck(self.emit)  # the fair deal and who sits in it, as checked here
        self.record_path: Path | None = None  # where this peer kept the finished game (net.records)
        if saved is not None and saved.deal:
            self._carry(saved.deal)
        self.revealed: dict[str, Any] | None = None  # the finished game's record, from the reveal
        # This peer's check of a game its host closed before the end (None: it did not).
        self.host_closed: dict[str, Any] | None = None
        self._ws: ClientConnection | None = None  # the connection in use, once joined
        self._reader: asyncio.Task[None] | None = None
        self._echoes: deque[asyncio.Future[Any]] = deque()
        self._closing = False
        self._sending: set[asyncio.Task[Any]] = set()
        # In the room: welcomed on the connection in use. Until then (a first join, a drop, a
        # re-key or the host coming back) the host would refuse or never see a move, so what
        # the player does meanwhile waits in `_held`, in order, for the welcome.
        self.in_room = False
        self._held: list[tuple[str, dict[str, Any]]] = []
        self._joiner = Joiner(self)

    # -- connecting ----------------------------------------------------------------------------
    async def connect(self) -> None:
        """Find the room, join it and wait for the host's welcome; JoinError if refused. A
        room that takes new players slowly (wrong codes were tried in it) is tried again
        after the wait it names, if that is short."""
        pipe, welcome = await self._joiner.join_patiently()
        self._ws = pipe.ws
        self._welcome(welcome)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    def _welcome(self, frame: Frame) -> None:
        self.seat = frame["seat"]
        self.engine = frame["engine"]
        self.seats = [] if self.seat is None else [self.seat]
        self.token = frame["token"]
        self.proof_key = frame.get("proof_key")
        self.ticket = frame.get("ticket")
        self.name = frame["name"]
        self._follow_deal(frame)
        self.deal.welcomed(frame["commitment"])
        channel = self.pipe.channel if self.pipe is not None else None
        if channel is not None and channel.secret:  # a code-keyed session: its key is new
            self.key = resume.seat_key(channel.secret, self.room, self.seat)
        self._keep()
        self.in_room = True
        self.emit({"type": "welcome", **{k: v for k, v in frame.items() if k not in ("v", "t")}})
        if self._held:  # after the welcome's own frames: sent in the order they were made
            held, self._held = self._held, []
            self.spawn_send(self._send_all(held))

    def _keep(self) -> None:
        """Remember this seat for coming back, with the deal as far as it was checked here and
        this game's record (see DealCheck.kept)."""
        if not self.remember or self.seat is None:
            return
        deal = self.deal.kept()
        if deal is not None and self.record_path is not None:
            # By its name in the records folder: the table's store holds no machine's paths.
            deal["record"] = self.record_path.name
        try:
            kept = None if deal is None else json.dumps(deal)
        except (TypeError, ValueError):  # a start frame JSON cannot hold: checked here only
            kept = None
        tokens.save_token(self.code, tokens.Saved(
            self.token, self.name, self.proof_key, self.key.hex() if self.key else None,
            self.ticket, kept))

    def _carry(self, kept: str) -> None:
        """Go on with the deal an earlier process of this player kept, and its record."""
        with contextlib.suppress(ValueError):
            deal = json.loads(kept)
            self.deal.carry(deal)
            record = deal.get("record") if isinstance(deal, dict) else None
            if self.deal.carried and isinstance(record, str):
                # Looked for in this machine's records folder only (the name may come from
                # the table's store, written by another node; an older entry is a path).
                here = record_store.records_dir() / Path(record).name
                if here.is_file():
                    self.record_path = here

    async def start(self) -> None:
        """Connect if not yet connected, then hand the latest table to the (new) listener."""
        if self._ws is None and self._reader is None:
            await self.connect()
        elif self.table is not None:
            self.emit(dict(self.table, type="sync") if self.table["type"] == "sync"
                      else self._as_sync(self.table))
        elif self.lobby is not None:
            self.emit(self.lobby)

    def _as_sync(self, update: Message) -> Message:
        message = {k: v for k, v in update.items() if k != "events"}
        message["type"] = "sync"
        message["log"] = list(self.event_log)
        return message

    def emit(self, message: Message) -> None:
        """Every string a host or a relay sent is cleaned (net.wire.text) before a screen sees
        it: a modified host need not clean its chat, names or notices, and a screen must never
        draw a terminal escape. The link's own copy stays as it came (the deal is checked
        against what the host sent)."""
        super().emit(clean_tree(message))

    # -- reading -----------------------------------------------------------------------------
    async def _read(self) -> None:
        while not self._closing:
            ws = self._ws
            assert ws is not None
            try:
                async for raw in ws:
                    self._frame(raw)
            except ConnectionClosed:
                pass
            if self._closing or self.closed.is_set():
                return
            self._ws, self.in_room = None, False
            self.emit({"type": "connection", "state": "reconnecting",
                       "message": "connection lost; reconnecting"})
            back = await self._joiner.come_back(lambda: self._closing)
            if back is None:
                return
            self._ws = back[0].ws
            self._welcome(back[1])
            self.emit({"type": "connection", "state": "connected", "message": "reconnected"})

    def hello_identity(self, channel: Channel | None) -> dict[str, bytes | None]:
        """What this peer's hello on `channel` says of who it is: its public key and the
        signature proving it on that channel alone (both None: it plays without an identity)."""
        mine = self.deal.identity
        if mine is None or channel is None:
            return {"identity": None, "identity_sig": None}
        return {"identity": mine.public,
                "identity_sig": mine.sign_hello(self.room, channel.binding)}

    def finish(self, reason: str, code: str = "closed") -> None:
        """The table is gone for this peer: say why, once (`code` as the error codes of
        docs/protocol.md, for a screen to say it in its player's language)."""
        self.close_reason, self.close_code = reason, code
        self.closed.set()
        self.emit({"type": "connection", "state": "closed", "message": reason, "code": code})

    def open_sealed(self, frame: Frame) -> Frame:
        """A sealed frame from the host, opened (net.peer.pipe.Pipe.open)."""
        if self.pipe is None:
            raise ProtocolError("bad_order", "a sealed frame came before the key exchange")
        return self.pipe.open(frame)

    def _frame(self, raw: bytes | str) -> None:
        pipe = self.pipe
        try:
            frame = decode(raw, WS_MAX_SIZE)
            t = frame["t"]
            if t in ("host_gone", "host_back", "error"):  # the relay's (or a clear error)
                check(frame, RELAY_FRAMES)
            elif t == "resumed":
                resumed = check(frame, HOST_ENVELOPES)
                if pipe is not None:
                    self.spawn_send(self._joiner.resumed(pipe, resumed))
                return
            else:
                frame = self.open_sealed(check(frame, HOST_ENVELOPES))
                t = frame["t"]
        except ProtocolError as exc:
            if exc.code == "bad_order" and self._joiner.pending:
                return  # sealed under the keys our rejoin is replacing: the sync catches up
            if exc.code in DAMAGED and pipe is not None:  # keys afresh, then the whole table
                self.emit({"type": "notice", "text": REKEYING})
                self.spawn_send(self._joiner.rekey(pipe))
                return
            self.emit({"type": "error", "seat": self.seat, "code": exc.code,
                       "message": f"ignored a bad frame from the host: {exc.message}"})
            if exc.code == "wrong_code":  # not our host; nothing more goes
                self.finish(exc.message, exc.code)
                self.spawn_send(self.close())
            return
        body = {k: v for k, v in frame.items() if k not in ("v", "t")}
        if t in ("sync", "update"):
            self._table(t, body)
        elif t == "error":
            if (body["code"] in ("rate_limit", "reordered") and pipe is not None
                    and pipe.dropped(body)):
                return
            if body["code"] in DAMAGED and pipe is not None:  # our frame reached it damaged
                self.emit({"type": "notice", "text": REKEYING})
                self.spawn_send(self._joiner.rekey(pipe))
                return
            message = UPDATE if body["code"] == "version" else body["message"]
            self.emit({"type": "error", "seat": self.seat, "code": body["code"],
                       "message": message})
            if body.get("fatal"):
                self.finish(message, body["code"])
        elif t == "proof":  # the host came back and checks in the peers still in the room
            if pipe is not None:
                self.spawn_send(self._joiner.proof_again(pipe, body["proof"]))
        elif t == "commit":
            self._follow_deal(frame)
            table = self.players or (self.lobby or {}).get("seats") or []
            if (part := self.deal.committed(body, table, self.seat, self.name)) is not None:
                self._keep()  # before it goes: a later process checks the seed with it
                self.spawn_send(self._send("contribute", **part))
        elif t == "host_gone":
            self.emit({"type": "connection", "state": "host_away",
                       "message": "the host is away; waiting for them to come back"})
        elif t == "host_back":
            if pipe is not None:  # the host forgot our keys: we prove our resumption key
                self.spawn_send(self._joiner.rejoin(pipe))
            self.emit({"type": "connection", "state": "host_back", "message": "the host is back"})
        elif t == "echo":
            if self._echoes:
                waiting = self._echoes.popleft()
                if not waiting.done():  # its caller may have given up waiting
                    waiting.set_result(body["data"])
        elif t == "welcome":
            self._welcome(frame)
        else:
            if t == "lobby":
                self._follow_deal(frame)
                self.lobby = {"type": "lobby", **body}
            elif t == "start":
                self._follow_deal(frame)
                if self.remember:  # listed in Past games; replayable once the seed is revealed
                    self.record_path = records.start_peer(body, self.seat, self.room)
                self.deal.started(body, self.seat)
                self._keep()
            elif t == "presence":
                self.players = body["players"]
            elif t == "chat":
                self.chat.append({"type": "chat", **body})
                del self.chat[:-100]
            self.emit({"type": t, **body})

    def _follow_deal(self, frame: Frame) -> None:
        """A frame that names the room's deal (`welcome`, `lobby`, `commit`, `start`) and names
        another than the one checked here begins that deal: the host offers a rematch, or
        dealt one while this peer was away. So the order of "new game" and "commit" is the
        one the host's frames have, whatever this peer missed or its screens are doing. A host
        that numbers no deals says a rematch by a `lobby` after a game."""
        number = frame.get("deal")
        if self.deal.other_deal(number) or (
                number is None and frame.get("t") == "lobby" and self.table is not None):
            self._rematch()
        self.deal.follow(number)

    def _rematch(self) -> None:
        """The host began another deal in this room (a rematch). The last game's table, result
        and seed check are done with; the next game starts from the lobby again."""
        was_played = self.table is not None
        self.table, self.result = None, None
        self.deal.reset()
        self.record_path, self.revealed, self.host_closed = None, None, None
        self._keep()
        self.seen.clear()
        self.event_log.clear()
        for line in self.chat:  # said before the next game: its lobby chat (see NetHost.chat)
            line["at"] = None
        if was_played:
            self.emit({"type": "rematch"})

    def _table(self, t: str, body: dict[str, Any]) -> None:
        reveal = body.pop("reveal", None)
        if t == "sync":
            self.event_log[:] = body["log"]
            # After an undo the table is back at an earlier state: what this seat saw past
            # it never happened (the deal check replays only the moves that stand).
            for gone in [n for n in self.seen if n > body["state_no"]]:
                del self.seen[gone]
        else:
            self.event_log.extend(body["events"])
        if body["seat"] == self.seat:
            self.seen[body["state_no"]] = body["view"]
        if body["result"] is not None:  # an update: this peer played on to the last move
            present = t == "update" and self.seat is not None and body["seat"] == self.seat
            body["result"] = self._verified(body["result"], reveal, present)
        elif isinstance(reveal, dict) and "closed" in reveal:
            self._closed_by_host(reveal)
        message = {"type": t, **body}
        self.table = message
        self.emit(message)

    def _verified(self, result: dict[str, Any], reveal: dict[str, Any] | None,
                  present: bool) -> dict[str, Any]:
        """The end, checked: `present` says this peer was at its seat when the game ended
        (it refuses a reveal that says it left, and its record says when it was away)."""
        if self.result is None:
            verdict = self.deal.verdict(result, reveal, self.seat, self.seen, present)
            self.result = {**result, "verified": verdict.ok, "verify_note": verdict.reason,
                           "verify_code": verdict.code, "verify_args": verdict.args,
                           "fixed_seed": bool(reveal and reveal.get("fixed"))}
            record = reveal.get("record") if reveal else None
            self.revealed = record if isinstance(record, dict) else None
            if reveal and self.remember:  # this peer's own record of the game (Past games)
                self.record_path = records.save_peer(
                    reveal, self.seat, self.room, (verdict.ok, verdict.reason, verdict.code),
                    self.record_path, result, away=self.seat is not None and not present)
        return self.result

    def _closed_by_host(self, reveal: dict[str, Any]) -> None:
        """The host closed the room before the end and revealed the deal (net.host.closing):
        checked here as an end is, and kept as this peer's record of the game, which counts
        the host as having left and this seat as the game stood."""
        if self.host_closed is not None or self.result is not None:
            return
        verdict = self.deal.closed_verdict(reveal, self.seat, self.seen)
        self.host_closed = {"verified": verdict.ok, "verify_note": verdict.reason,
                            "verify_code": verdict.code, "verify_args": verdict.args}
        record = reveal.get("record")
        self.revealed = record if isinstance(record, dict) else None
        if self.remember:  # only the close's own fields: anything else of it is the host's
            closed = reveal.get("closed")
            kept = ({k: closed[k] for k in ("state", "seat", "sig")}
                    if closing.well_formed(closed) and isinstance(closed, dict) else {})
            self.record_path = records.save_peer(
                reveal, self.seat, self.room, (verdict.ok, verdict.reason, verdict.code),
                self.record_path, None, closed=kept)
        self.emit({"type": "notice", "text": HOST_CLOSED, "closed": verdict.ok,
                   **({} if verdict.ok else {"verdict": {"code": verdict.code,
                                                         "args": verdict.args}})})

    def finished_record(self) -> dict[str, Any] | None:
        return self.revealed

    # -- sending ---------------------------------------------------------------------------------
    async def _send(self, t: str, **fields: Any) -> bool:
        pipe = self.pipe
        if not self.in_room or self._ws is None or pipe is None or pipe.channel is None:
            if self.closed.is_set() or self._closing or len(self._held) >= MAX_HELD:
                self.emit({"type": "error", "seat": self.seat, "code": "offline",
                           "message": "not connected to the table right now"})
                return False
            if not self._held:
                self.emit({"type": "notice", "text": HOLDING})
            self._held.append((t, fields))
            return True
        try:
            await pipe.seal(t, **fields)
        except ConnectionClosed:
            return False
        return True

    async def _send_all(self, frames: list[tuple[str, dict[str, Any]]]) -> None:
        for t, fields in frames:
            await self._send(t, **fields)

    def spawn_send(self, coro: Coroutine[Any, Any, Any]) -> None:
        """A sending task of this link's, kept until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def send_move(self, seat: int, move: Move, state_no: int) -> None:
        await self._send("move", seat=seat, state_no=state_no, move=move)

    async def send_chat(self, text: str) -> None:
        await self._send("chat", text=text)

    async def answering(self, seat: int, state_no: int) -> None:
        await self._send("answering", state_no=state_no)

    async def extend(self, seat: int, state_no: int) -> None:
        await self._send("extend", state_no=state_no)

    async def undo(self, seat: int, state_no: int) -> None:
        await self._send("undo", state_no=state_no)

    async def request_sync(self) -> None:
        await self._send("sync")

    async def echo(self, data: bytes | str | int | None = None) -> Any:
        """Round trip through relay and host (latency probes)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._echoes.append(future)
        await self._send("echo", data=data)
        return await future

    async def drop(self) -> None:
        """Cut the connection as a crash would (tests): the link then tries to reconnect."""
        if self._ws is not None:
            await self._ws.close()

    async def close(self, crashed: bool = False) -> None:
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
