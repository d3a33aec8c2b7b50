"""The peer side: a table on another machine, behind the relay, as a `TableLink`.

`RemoteLink` delivers exactly the messages `LocalLink` does (sync, update, error, chat,
presence; see net.link), so a game screen cannot tell a remote table from a local one. It adds
what only networked play has:
  {"type": "welcome", "seat", "name", "code", "engine", "options", "commitment"}
  {"type": "lobby", "engine", "options", "seats", "timer", "takeover"}
  {"type": "start", "engine", "options", "players", "commitment"}
  {"type": "notice", "text"}                          e.g. a bot moved when time ran out
  {"type": "connection", "state", "message"}          state: reconnecting, connected,
                                                      host_away, host_back, closed
and, once the game is over, result["verified"] (bool) and result["verify_note"] (a sentence)
from the fair-shuffle check (net.fairness).

Everything between this peer and the host travels sealed (net.e2e): the join code's secret
part keys a SPAKE2 exchange on every join, rejoin and reconnect, and the relay sees only the
room code. A frame the relay tampered with, replayed or reordered is refused and reported. A
dropped connection is retried for a while with the seat token (kept in the user's data
directory per join code), and the host answers a rejoin with a fresh sync. The token itself is
sent only once the host has proved it holds the room's host token (net.signing): a squatter on
the code learns nothing from a rejoining peer. When the host deals, this peer adds its own
random part to the seed (net.fairness) and checks at the end that it went in.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import deque
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from engines.base import Move
from net import codes, discovery, fairness, records, signing, store
from net.e2e import CRYPTO, WRONG_CODE, Channel, Crypto, Exchange, Refused
from net.link import Message, TableLink
from net.protocol import (
    HOST_ENVELOPES,
    HOST_TO_PEER,
    RELAY_FRAMES,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
    encode,
)

# Relay/host refusals after which trying again cannot help.
_FINAL = {"kicked", "room_full", "room_closed", "version", "bad_code", "flood", "replaced",
          "refused", "table_full", "unproven", "wrong_code"}
# Sealed frames kept after sending, to send again (same counter) if the relay drops one.
_KEEP_SENT = 64
# A "version" error in words: whoever is older, the cure is the same.
_UPDATE = ("this table speaks another protocol version than your tabletop-tui (this one speaks "
           "protocol 3): please update tabletop-tui; the host and the relay need it too")
# Seconds a join waits once the host said it is asking its player (a reclaim by name).
_APPROVAL_WAIT = 150.0


class JoinError(Exception):
    """Joining failed; `message` says why in words a player understands."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _join_error(code: str, message: str) -> JoinError:
    return JoinError(code, _UPDATE if code == "version" else message)


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
        self.room, self._secret = codes.split(self.code)
        self.name = name
        self.server = server
        self.watch = watch
        self.remember = remember
        self.token, self.proof_key = token, proof_key
        if token is None and remember and (saved := store.load_token(self.code, name)):
            self.token, self.name, self.proof_key = saved
        self.reconnect_for = reconnect_for
        self.join_timeout = join_timeout
        self.seats: list[int] = []
        self.seat: int | None = None
        self.engine = ""  # the game's engine id, from the host's welcome
        self.commitment: str | None = None
        self.lobby: Message | None = None
        self.players: list[dict[str, Any]] = []
        self.table: Message | None = None  # the latest sync/update, re-sent by start()
        self.result: dict[str, Any] | None = None
        self.seen: dict[int, dict[str, Any]] = {}
        self.event_log: list[dict[str, Any]] = []
        self.chat: list[Message] = []  # recent chat, for screens that open later
        self.closed = asyncio.Event()
        self.close_reason = ""
        self.url = ""
        self._ws: ClientConnection | None = None
        self._seq = 0
        self._reader: asyncio.Task[None] | None = None
        self._echoes: deque[asyncio.Future[Any]] = deque()
        self._closing = False
        self._sending: set[asyncio.Task[Any]] = set()
        self._nonce: str | None = None  # the last join's nonce, for the host's proof
        self.contribution: list[Any] | None = None  # [seat, value] this peer gave the seed
        self.record_path: Path | None = None  # where this peer kept the finished game (net.records)
        self._channel: Channel | None = None  # the sealed channel to the host, once exchanged
        self._pending: Exchange | None = None  # an exchange our rejoin began
        self._ids: dict[str, str | None] = {}  # the seat id and nonce of that rejoin
        self._sent: dict[int, tuple[int, bytes]] = {}  # seq -> sealed (n, data), to resend
        self._held: list[tuple[int, bytes]] | None = None  # waiting to be sent again, in order
        self._resent: set[int] = set()  # seqs sent again: the host's "reordered" is expected

    # -- connecting ----------------------------------------------------------------------------
    async def connect(self) -> None:
        """Find the room, join it and wait for the host's welcome; JoinError if refused."""
        ws, welcome = await self._join_once()
        self._ws = ws
        self._welcome(welcome)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _join_once(self, open_timeout: float | None = None) -> tuple[ClientConnection, Frame]:
        # The exchange's first half costs a few ms of pure Python: it runs while the room is
        # looked up (a slow hash, see net.discovery) and the connection opens.
        starting = asyncio.ensure_future(asyncio.to_thread(self._exchange))
        if self.server:
            try:
                self.url = discovery.server_url(self.server)
            except ValueError as exc:
                raise JoinError("bad_server", str(exc)) from None
        else:
            self.url = await discovery.resolve(self.code)
        try:
            ws = await connect(self.url, max_size=WS_MAX_SIZE, compression=None,
                               open_timeout=open_timeout or self.join_timeout)
        except Exception as exc:  # refused, reset mid-handshake, bad URL, timeout: unreachable
            if not self.server and self.url == discovery.DEFAULT_URL:
                raise JoinError(
                    "no_room",
                    f"no room {codes.display(self.code)} found on this machine or the LAN: "
                    "check the code, or name the relay with --server HOST:PORT",
                ) from None
            raise JoinError("unreachable", f"cannot reach the relay at {self.url}: {exc}") from None
        self._seq = 1
        self._channel, self._held = None, None
        self._sent.clear()
        self._resent.clear()
        # With a seat to reclaim, name it only by its hash plus a fresh nonce; the token goes
        # out after the host's proof (net.signing).
        exchange = await starting
        ids = self._seat_ids()
        await ws.send(encode("join", seq=self._seq, code=self.room, watch=self.watch,
                             pake=exchange.message, **ids))
        try:
            async with asyncio.timeout(self.join_timeout) as deadline:
                while True:
                    frame = decode(await ws.recv(), WS_MAX_SIZE)
                    t = frame["t"]
                    if t == "error":
                        raise _join_error(str(frame.get("code")), str(frame.get("message")))
                    if t == "pake":  # the host's half: our keys, then our hello, sealed
                        msg = check(frame, HOST_ENVELOPES)["msg"]
                        self._channel = await asyncio.to_thread(exchange.finish, msg)
                        await self._seal_to(ws, "hello", name=self.name, watch=self.watch,
                                            **ids)
                    elif t == "sealed":
                        payload = self._open_first(frame)
                        t = payload["t"]
                        if t == "error":
                            raise _join_error(payload["code"], payload["message"])
                        if t == "welcome":
                            return ws, payload
                        if t == "proof":
                            await self._answer_proof(ws, payload["proof"])
                        elif t == "notice":  # the host asks its player for a yes: wait longer
                            deadline.reschedule(asyncio.get_running_loop().time()
                                                + _APPROVAL_WAIT)
                    elif t == "host_back":  # our join reached a host that was away
                        exchange = await asyncio.to_thread(self._exchange)
                        self._channel = None
                        ids = self._seat_ids()
                        self._seq += 1
                        await ws.send(encode("rejoin", seq=self._seq, pake=exchange.message,
                                             **ids))
                    # host_gone while we wait: the host will see our join when it is back.
        except TimeoutError:
            await ws.close()
            raise JoinError("timeout", "the host did not answer; try again later") from None
        except ConnectionClosed as exc:
            raise JoinError("closed", f"the relay closed the connection ({exc})") from None
        except ProtocolError as exc:
            await ws.close()
            raise _join_error(exc.code, f"the host sent something odd: {exc.message}") from None

    def _exchange(self) -> Exchange:
        return self.crypto.peer_exchange(self.room, self._secret)

    def _seat_ids(self) -> dict[str, str | None]:
        """A fresh nonce and the seat's id, when this peer has a seat to reclaim; nils else."""
        proving = self.token is not None and self.proof_key is not None
        self._nonce = secrets.token_hex(16) if proving else None
        return {"nonce": self._nonce,
                "seat_id": signing.seat_id(self.token or "") if proving else None}

    def _open_first(self, frame: Frame) -> Frame:
        """A sealed frame while joining; JoinError if the host's first one shows a wrong code."""
        try:
            return self._open(check(frame, HOST_ENVELOPES))
        except Refused as exc:
            if exc.code == "wrong_code":
                raise JoinError(exc.code, exc.message) from None
            raise

    async def _seal_to(self, ws: ClientConnection, t: str, **fields: Any) -> None:
        """Seal frame `t` for the host and send it, keeping it in case the relay drops it."""
        assert self._channel is not None
        n, data = self._channel.seal({"t": t, **fields})
        self._seq += 1
        self._sent[self._seq] = (n, data)
        for old in list(self._sent)[:-_KEEP_SENT]:
            del self._sent[old]
        if self._held is not None:  # an earlier frame waits to go again: keep the order
            self._held.append((n, data))
            return
        await ws.send(encode("sealed", seq=self._seq, n=n, data=data))

    async def _answer_proof(self, ws: ClientConnection, proof: str) -> None:
        """Send the seat token if, and only if, the host proved it holds the room."""
        if not (self._nonce and self.proof_key and self.token
                and signing.proves(self.proof_key, self._nonce, proof)):
            await ws.close()
            raise JoinError("unproven", "this room's host could not prove it is the host that "
                                        "gave you your seat; your seat token was not sent")
        await self._seal_to(ws, "claim", token=self.token)

    def _welcome(self, frame: Frame) -> None:
        self.seat = frame["seat"]
        self.engine = frame["engine"]
        self.seats = [] if self.seat is None else [self.seat]
        self.token = frame["token"]
        self.proof_key = frame.get("proof_key")
        self.name = frame["name"]
        self.commitment = frame["commitment"] or self.commitment
        if self.remember and self.seat is not None:
            store.save_token(self.code, self.token, self.name, self.proof_key)
        self.emit({"type": "welcome", **{k: v for k, v in frame.items() if k not in ("v", "t")}})

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
            self._ws = None
            if not await self._reconnect():
                return

    async def _reconnect(self) -> bool:
        self.emit({"type": "connection", "state": "reconnecting",
                   "message": "connection lost; reconnecting"})
        deadline = time.monotonic() + self.reconnect_for
        delay = 0.1
        last = "gave up reconnecting"
        while time.monotonic() < deadline and not self._closing:
            try:
                # A short opening timeout: a dead relay on a port in the ephemeral range can
                # make the kernel connect the socket to itself, which then never answers.
                ws, welcome = await self._join_once(open_timeout=3.0)
            except JoinError as exc:
                last = exc.message
                if exc.code in _FINAL:
                    break
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self._ws = ws
            self._welcome(welcome)
            self.emit({"type": "connection", "state": "connected", "message": "reconnected"})
            return True
        self._finish(last)
        return False

    def _finish(self, reason: str) -> None:
        self.close_reason = reason
        self.closed.set()
        self.emit({"type": "connection", "state": "closed", "message": reason})

    def _frame(self, raw: bytes | str) -> None:
        try:
            frame = decode(raw, WS_MAX_SIZE)
            t = frame["t"]
            if t in ("host_gone", "host_back", "error"):  # the relay's (or a clear error)
                check(frame, RELAY_FRAMES)
            elif t == "pake":
                self._spawn_send(self._rekeyed(check(frame, HOST_ENVELOPES)["msg"]))
                return
            else:
                frame = self._open(check(frame, HOST_ENVELOPES))
                t = frame["t"]
        except ProtocolError as exc:
            self.emit({"type": "error", "seat": self.seat, "code": exc.code,
                       "message": f"ignored a bad frame from the host: {exc.message}"})
            if exc.code == "wrong_code":  # after a rejoin: not our host; nothing more goes
                self._finish(exc.message)
                self._spawn_send(self.close())
            return
        body = {k: v for k, v in frame.items() if k not in ("v", "t")}
        if t in ("sync", "update"):
            self._table(t, body)
        elif t == "error":
            if body["code"] in ("rate_limit", "reordered") and self._dropped(body):
                return
            message = _UPDATE if body["code"] == "version" else body["message"]
            self.emit({"type": "error", "seat": self.seat, "code": body["code"],
                       "message": message})
            if body.get("fatal"):
                self._finish(message)
        elif t == "proof":  # the host came back and checks in the peers still in the room
            self._spawn_send(self._proof_again(body["proof"]))
        elif t == "commit":
            self.commitment = body["commitment"]
            if self.seat in body["seats"]:
                self.contribution = [self.seat, fairness.new_contribution()]
                self._spawn_send(self._send("contribute", value=self.contribution[1]))
        elif t == "host_gone":
            self.emit({"type": "connection", "state": "host_away",
                       "message": "the host is away; waiting for them to come back"})
        elif t == "host_back":
            self._channel = None  # the host forgot our keys: a fresh exchange
            self._spawn_send(self._rejoin())
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
                self.lobby = {"type": "lobby", **body}
                if self.table is not None:
                    self._rematch()
            elif t == "start":
                self.commitment = body["commitment"]
                if self.remember:  # listed in Past games; replayable once the seed is revealed
                    self.record_path = records.start_peer(body, self.seat, self.room)
                self._started(body)
            elif t == "presence":
                self.players = body["players"]
            elif t == "chat":
                self.chat.append({"type": "chat", **body})
                del self.chat[:-100]
            self.emit({"type": t, **body})

    def _rematch(self) -> None:
        """A lobby after a game: the host offers a rematch in this room. The last game's table,
        result and seed check are done with; the next game starts from the lobby again."""
        self.table, self.result, self.contribution = None, None, None
        self.record_path = None
        self.seen.clear()
        self.event_log.clear()
        for line in self.chat:  # said before the next game: its lobby chat (see NetHost._chat)
            line["at"] = None
        self.emit({"type": "rematch"})

    def _table(self, t: str, body: dict[str, Any]) -> None:
        reveal = body.pop("reveal", None)
        if t == "sync":
            self.event_log[:] = body["log"]
        else:
            self.event_log.extend(body["events"])
        if body["seat"] == self.seat:
            self.seen[body["state_no"]] = body["view"]
        if body["result"] is not None:
            body["result"] = self._verified(body["result"], reveal)
        message = {"type": t, **body}
        self.table = message
        self.emit(message)

    def _started(self, body: dict[str, Any]) -> None:
        """Say at once what the start tells: a seed the host fixed, or a contribution of ours
        the host left out (the final check will fail then too)."""
        if body["fixed_seed"] is not None:
            self.emit({"type": "notice", "text": f"the host chose the seed ({body['fixed_seed']})"
                                                 ": a practice deal, not a fair shuffle"})
        elif self.contribution is not None and self.contribution not in body["contributions"]:
            self.emit({"type": "notice", "text": "WARNING: the host left your part of the "
                                                 "seed out of the deal"})

    def _verified(self, result: dict[str, Any], reveal: dict[str, Any] | None) -> dict[str, Any]:
        if self.result is None:
            verdict = (fairness.verify(self.commitment, reveal, self.seat, self.seen, result,
                                       self.contribution)
                       if reveal else fairness.Verdict(False, "the host did not reveal the seed"))
            self.result = {**result, "verified": verdict.ok, "verify_note": verdict.reason,
                           "fixed_seed": bool(reveal and reveal.get("fixed"))}
            if reveal and self.remember:  # this peer's own record of the game (Past games)
                self.record_path = records.save_peer(reveal, self.seat, self.room,
                                                     (verdict.ok, verdict.reason),
                                                     self.record_path)
        return self.result

    # -- sending ---------------------------------------------------------------------------------
    def _open(self, frame: Frame) -> Frame:
        """A sealed frame from the host, opened and checked; Refused (nothing changes) if it
        was tampered with, replayed or reordered on the way. If a channel's very first frame
        does not open, host and peer hold different keys: the code was wrong (or whoever
        answered is not the room's host): Refused("wrong_code")."""
        if self._channel is None:
            raise ProtocolError("bad_order", "a sealed frame came before the key exchange")
        first = self._channel.expected == 0
        try:
            return check(self._channel.open(frame["n"], frame["data"]), HOST_TO_PEER)
        except Refused as exc:
            if first and exc.code == "tampered":
                raise Refused("wrong_code", WRONG_CODE) from None
            raise Refused(exc.code,
                          f"refused a frame the relay passed on: {exc.message}") from None

    async def _send(self, t: str, **fields: Any) -> bool:
        ws = self._ws
        if ws is None or self._channel is None:
            self.emit({"type": "error", "seat": self.seat, "code": "offline",
                       "message": "not connected to the table right now"})
            return False
        try:
            await self._seal_to(ws, t, **fields)
        except ConnectionClosed:
            return False
        return True

    def _dropped(self, error: dict[str, Any]) -> bool:
        """The relay dropped sealed frame `seq` for our rate (or the host refused a frame
        sent after one the relay dropped): send it, and every sealed frame after it, again,
        with their counters, once we may. True if the error is dealt with that way."""
        seq = error.get("seq")
        if seq in self._resent:
            return True  # already on its way again
        if error["code"] != "rate_limit" or seq not in self._sent:
            return False
        again = [s for s in self._sent if s >= seq]
        self._resent.update(again)
        frames = [self._sent[s] for s in again]
        if self._held is None:
            self._held = frames
            self._spawn_send(self._send_held(float(error.get("retry_after") or 0.1)))
        else:  # merged in counter order, each once
            self._held = sorted(set(self._held) | set(frames), key=lambda frame: frame[0])
        return True

    async def _send_held(self, after: float) -> None:
        await asyncio.sleep(min(after, 5.0))
        held, self._held = self._held or [], None
        ws = self._ws
        for n, data in held:
            if ws is None:
                return
            self._seq += 1
            self._sent[self._seq] = (n, data)
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode("sealed", seq=self._seq, n=n, data=data))

    async def _rejoin(self) -> None:
        """The host came back to the room: run a fresh exchange with it and tell it again
        which seat is ours (by its hash and a fresh nonce, as on a join); it answers with its
        half of the exchange, our hello goes sealed, then come its proof and a welcome."""
        ws = self._ws
        if ws is None:
            return
        self._pending = await asyncio.to_thread(self._exchange)
        self._ids = self._seat_ids()
        self._seq += 1
        with contextlib.suppress(ConnectionClosed):
            await ws.send(encode("rejoin", seq=self._seq, pake=self._pending.message,
                                 **self._ids))

    async def _rekeyed(self, msg: bytes) -> None:
        """The host's half of the exchange our rejoin began: new keys, then our hello."""
        exchange, self._pending = self._pending, None
        ws = self._ws
        if exchange is None or ws is None:
            self.emit({"type": "error", "seat": self.seat, "code": "bad_order",
                       "message": "ignored a key exchange nobody asked for"})
            return
        try:
            self._channel = await asyncio.to_thread(exchange.finish, msg)
        except ProtocolError as exc:
            self._finish(exc.message)
            return
        self._held = None
        self._sent.clear()
        self._resent.clear()
        with contextlib.suppress(ConnectionClosed):
            await self._seal_to(ws, "hello", name=self.name, watch=self.watch, **self._ids)

    async def _proof_again(self, proof: str) -> None:
        ws = self._ws
        if ws is None:
            return
        try:
            await self._answer_proof(ws, proof)
        except JoinError as exc:
            self._finish(exc.message)

    def _spawn_send(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def send_move(self, seat: int, move: Move, state_no: int) -> None:
        await self._send("move", seat=seat, state_no=state_no, move=move)

    async def send_chat(self, text: str) -> None:
        await self._send("chat", text=text)

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

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
