"""Joining a room, coming back to it, and re-keying a damaged channel.

The join code's secret part is short, so each exchange keyed by it is one online guess for
whoever answers. This peer runs one only when its player typed the code (`join` with
`by_code`): it finds the relay (net.discovery), runs SPAKE2 with the host through it
(net.wire.channel) and says hello sealed. That first session leaves a resumption key
(net.wire.resume); every reconnect, every return of an away host and every re-key after a
damaged frame proves that key instead, so no relay can make this peer guess again. A
resumption that fails is never followed by a code-keyed exchange unless the player joins
again by hand: the player is told plainly that the relay or the host is not the one joined.

A code-keyed join that reclaims a seat names it only by the hash of its token and a fresh
nonce; the token goes out only after the host proved it holds the room's host token
(net.wire.proofs), so a squatter on the room code learns nothing from a returning peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from net import discovery
from net.peer.pipe import Pipe
from net.wire import codes, proofs, resume
from net.wire.channel import Channel, Exchange, Refused
from net.wire.frames import (
    HOST_ENVELOPES,
    VERSION,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
)

if TYPE_CHECKING:
    from net.peer.remote import RemoteLink

# Relay/host refusals after which trying again cannot help.
FINAL = {"kicked", "room_full", "room_closed", "version", "bad_code", "flood", "replaced",
         "refused", "table_full", "unproven", "wrong_code", "unknown_resume", "not_proven",
         "no_key", "host_away"}
# What a resuming peer may fall back from to the code, when its player typed the code.
FORGOTTEN = ("unknown_resume", "not_proven")
# A "version" error in words: whoever is older, the cure is the same.
UPDATE = ("this table speaks another protocol version than your tabletop-tui (this one speaks "
          f"protocol {VERSION}): please update tabletop-tui; the host and the relay need it too")
# Seconds a join waits once the host said it is asking its player (a reclaim by name).
APPROVAL_WAIT = 150.0
# A room slowed down by wrong codes is tried again by itself this often, if it asks for less
# than SLOW_WAIT seconds (longer: the player is told and decides).
SLOW_TRIES, SLOW_WAIT = 3, 40.0
# Code-keyed exchanges one typed join runs at most, whatever it is told (each is a guess for
# whoever answers it): its own, and one more on a new connection when the host was away.
MAX_EXCHANGES = 2
SPENT = ("this join ran its key exchanges with the code already (each one is a guess for "
         "whoever answers it): join again by hand if you trust this relay")
# Re-keys after damaged frames: at most this many within REKEY_WINDOW seconds, then the relay
# is taken to be damaging frames on purpose and the peer stops.
MAX_REKEYS, REKEY_WINDOW = 5, 60.0
TAMPERING = ("the relay keeps damaging this table's frames, so the connection was closed: "
             "try another relay (--server), or join again later")


class JoinError(Exception):
    """Joining failed; `message` says why in words a player understands; `retry_after`:
    seconds after which trying again can succeed (a room slowed down by wrong codes)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


class _HostWasAway(Exception):
    """A code-keyed join reached a host that was away: its exchange is lost with it."""


def join_error(code: str, message: str, retry_after: object = None) -> JoinError:
    wait = float(retry_after) if isinstance(retry_after, int | float) else None
    return JoinError(code, UPDATE if code == "version" else message, wait)


class Joiner:
    """The key exchanges and seat proofs of one `RemoteLink`."""

    def __init__(self, link: RemoteLink) -> None:
        self.link = link
        self._nonce: str | None = None  # the last join's nonce, for the host's proof
        self._pending: resume.Resumption | None = None  # a rejoin or re-key under way
        self._rekeys: deque[float] = deque()
        self._exchanges = 0  # code-keyed exchanges this typed join ran (MAX_EXCHANGES)

    @property
    def pending(self) -> bool:
        """A rejoin or re-key is under way: frames sealed under the old keys are expected."""
        return self._pending is not None

    def _exchange(self) -> Exchange:
        link = self.link
        return link.crypto.peer_exchange(link.room, link.secret)

    def _seat_ids(self) -> dict[str, str | None]:
        """A fresh nonce and the seat's id, when this peer has a seat to reclaim; nils else."""
        link = self.link
        proving = link.token is not None and link.proof_key is not None
        self._nonce = secrets.token_hex(16) if proving else None
        return {"nonce": self._nonce,
                "seat_id": proofs.seat_id(link.token or "") if proving else None}

    # -- a join ------------------------------------------------------------------------------
    async def join_patiently(self) -> tuple[Pipe, Frame]:
        """`join`, waiting out by itself a room that takes new players slowly (wrong codes were
        tried in it) when the wait it names is short; a longer one is the player's to wait.
        A host says `slow_down` before any exchange: one that comes after an exchange is not
        waited out (a relay would win a guess with each), and the whole join runs
        `MAX_EXCHANGES` code-keyed exchanges at most."""
        self._exchanges = 0
        for _ in range(SLOW_TRIES - 1):
            ran = self._exchanges
            try:
                return await self.join()
            except JoinError as exc:
                if (exc.code != "slow_down" or self._exchanges > ran
                        or (exc.retry_after or SLOW_WAIT) >= SLOW_WAIT):
                    raise
                await asyncio.sleep(exc.retry_after or 0)
        return await self.join()

    async def come_back(self, giving_up: Callable[[], bool]) -> tuple[Pipe, Frame] | None:
        """After a lost connection: resume, retrying for the link's `reconnect_for` seconds
        (never by the code); None once it gave up (the link is finished, saying why)."""
        link = self.link
        deadline = time.monotonic() + link.reconnect_for
        delay = 0.1
        last = JoinError("closed", "gave up reconnecting")
        while time.monotonic() < deadline and not giving_up():
            try:
                # A short opening timeout: a dead relay on a port in the ephemeral range can
                # make the kernel connect the socket to itself, which then never answers.
                return await self.join(open_timeout=3.0, by_code=False)
            except JoinError as exc:
                last = exc
                if exc.code in FINAL:
                    break
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
        link.finish(last.message, last.code)
        return None

    async def join(self, open_timeout: float | None = None, by_code: bool = True
                   ) -> tuple[Pipe, Frame]:
        """Connect and get the host's welcome: by resumption if this peer holds a key, else
        (or when the host no longer knows the key) by the code, but only with `by_code`: the
        player typed it. JoinError if the relay or the host refuses, or nobody answers."""
        link = self.link
        if link.key is not None:
            try:
                return await self._attempt(open_timeout, resuming=True)
            except JoinError as exc:
                if not by_code or exc.code not in FORGOTTEN:
                    raise
                link.key = link.ticket = None
        if not by_code:
            raise JoinError("no_key", "this seat can only come back by joining with the code")
        try:
            return await self._attempt(open_timeout, resuming=False)
        except _HostWasAway:  # once more, on a new connection: the player's join still stands
            try:
                return await self._attempt(open_timeout, resuming=False)
            except _HostWasAway:
                raise JoinError("host_away",
                                "the host keeps going away; join again later") from None

    async def _attempt(self, open_timeout: float | None, resuming: bool) -> tuple[Pipe, Frame]:
        link = self.link
        # The code's exchange costs a few ms: it runs while the room is looked up (a slow
        # hash, see net.discovery) and the connection opens.
        starting = None if resuming else asyncio.ensure_future(asyncio.to_thread(self._exchange))
        ws = await self._connect(open_timeout or link.join_timeout)
        pipe = link.pipe = Pipe(ws, link.spawn_send)
        proof: resume.Resumption | None = None
        exchange: Exchange | None = None
        ids: dict[str, str | None] = {}
        if starting is None:
            assert link.key is not None
            proof = resume.Resumption(link.room, link.key)
            ticket, link.ticket = link.ticket, None  # spent, whatever happens next
            await pipe.send_clear("resume", code=link.room, watch=link.watch, ticket=ticket,
                                  **proof.fields())
        else:
            exchange = await starting
            ids = self._seat_ids()
            await pipe.send_clear("join", code=link.room, watch=link.watch,
                                  pake=exchange.message, **ids)
        try:
            async with asyncio.timeout(link.join_timeout) as deadline:
                while True:
                    frame = decode(await ws.recv(), WS_MAX_SIZE)
                    t = frame["t"]
                    if t == "error":
                        raise join_error(str(frame.get("code")), str(frame.get("message")),
                                         frame.get("retry_after"))
                    if t == "pake" and exchange is not None:  # the host's half, then hello
                        msg = check(frame, HOST_ENVELOPES)["msg"]
                        if self._exchanges >= MAX_EXCHANGES:
                            await ws.close()
                            raise JoinError("exchanges", SPENT)
                        self._exchanges += 1
                        ours, exchange = exchange, None  # a second "pake" is no one's answer
                        pipe.rekey(await asyncio.to_thread(ours.finish, msg))
                        await pipe.seal("hello", name=link.name, watch=link.watch,
                                        **link.hello_identity(pipe.channel), **ids)
                    elif t == "resumed" and proof is not None:
                        pipe.rekey(self._proven(proof, check(frame, HOST_ENVELOPES)))
                        await pipe.seal("hello", name=link.name, watch=link.watch,
                                        **link.hello_identity(pipe.channel))
                    elif t == "sealed":
                        payload = self._open_first(frame)
                        t = payload["t"]
                        if t == "error":
                            raise join_error(payload["code"], payload["message"])
                        if t == "welcome":
                            return pipe, payload
                        if t == "proof":
                            await self._answer_proof(pipe, payload["proof"])
                        elif t == "notice":  # the host asks its player for a yes: wait longer
                            deadline.reschedule(asyncio.get_running_loop().time()
                                                + APPROVAL_WAIT)
                            if link.on_asking is not None:
                                link.on_asking()
                    elif t == "host_back":  # our first frame reached a host that was away
                        if proof is None:
                            await ws.close()
                            raise _HostWasAway
                        proof = resume.Resumption(link.room, proof.key)
                        pipe.rekey(None)
                        await pipe.send_clear("rejoin", **proof.fields())
                    # host_gone while we wait: the host will see our frame when it is back.
        except TimeoutError:
            await ws.close()
            raise JoinError("timeout", "the host did not answer; try again later") from None
        except ConnectionClosed as exc:
            raise JoinError("closed", f"the relay closed the connection ({exc})") from None
        except ProtocolError as exc:
            await ws.close()
            raise join_error(exc.code, f"the host sent something odd: {exc.message}") from None

    @staticmethod
    def _proven(proof: resume.Resumption, frame: Frame) -> Channel:
        try:
            return proof.finish(frame["epub"], frame["proof"])
        except ProtocolError as exc:
            raise JoinError("not_proven", exc.message) from None

    async def _connect(self, open_timeout: float) -> ClientConnection:
        link = self.link
        if link.server:
            try:
                link.url = discovery.server_url(link.server)
            except ValueError as exc:
                raise JoinError("bad_server", str(exc)) from None
        else:
            link.url = await discovery.resolve(link.code)
        try:
            return await connect(link.url + codes.room_path(link.room), max_size=WS_MAX_SIZE,
                                 compression=None, open_timeout=open_timeout)
        except Exception as exc:  # refused, reset mid-handshake, bad URL, timeout: unreachable
            if not link.server and link.url == discovery.DEFAULT_URL:
                raise JoinError(
                    "no_room",
                    f"no room {codes.display(link.code)} found on this machine or the LAN: "
                    "check the code, or name the relay with --server HOST:PORT",
                ) from None
            raise JoinError("unreachable", f"cannot reach the relay at {link.url}: {exc}") from None

    def _open_first(self, frame: Frame) -> Frame:
        """A sealed frame while joining; JoinError if the host's first one shows a wrong code."""
        try:
            return self.link.open_sealed(check(frame, HOST_ENVELOPES))
        except Refused as exc:
            if exc.code == "wrong_code":
                raise JoinError(exc.code, exc.message) from None
            raise

    async def _answer_proof(self, pipe: Pipe, proof: str) -> None:
        """Send the seat token if, and only if, the host proved it holds the room."""
        link = self.link
        if not (self._nonce and link.proof_key and link.token
                and proofs.proves(link.proof_key, self._nonce, proof)):
            await pipe.ws.close()
            raise JoinError("unproven", "this room's host could not prove it is the host that "
                                        "gave you your seat; your seat token was not sent")
        await pipe.seal("claim", token=link.token)

    # -- coming back on an open connection ---------------------------------------------------
    async def rejoin(self, pipe: Pipe) -> None:
        """The host came back to the room (or our channel took a damaged frame): prove our
        resumption key with fresh keys; the host answers `resumed`, our hello goes sealed,
        then comes a welcome and the whole table."""
        link = self.link
        if link.key is None:
            link.finish("this table cannot be rejoined without the code: join again", "no_key")
            return
        self._pending = resume.Resumption(link.room, link.key)
        link.in_room = False  # until the welcome that follows
        pipe.rekey(None)
        with contextlib.suppress(ConnectionClosed):
            await pipe.send_clear("rejoin", **self._pending.fields())

    async def rekey(self, pipe: Pipe) -> None:
        """A damaged frame: start afresh by resumption, unless the relay keeps at it."""
        now = time.monotonic()
        while self._rekeys and self._rekeys[0] < now - REKEY_WINDOW:
            self._rekeys.popleft()
        if len(self._rekeys) >= MAX_REKEYS:
            self.link.finish(TAMPERING, "tampered")
            await self.link.close()
            return
        self._rekeys.append(now)
        await self.rejoin(pipe)

    async def resumed(self, pipe: Pipe, frame: Frame) -> None:
        """The host's answer to our rejoin: new keys, then our hello."""
        link = self.link
        proof, self._pending = self._pending, None
        if proof is None:
            link.emit({"type": "error", "seat": link.seat, "code": "bad_order",
                       "message": "ignored a key exchange nobody asked for"})
            return
        try:
            channel = proof.finish(frame["epub"], frame["proof"])
        except ProtocolError as exc:
            link.finish(exc.message, exc.code)
            return
        pipe.rekey(channel)
        with contextlib.suppress(ConnectionClosed):
            await pipe.seal("hello", name=link.name, watch=link.watch,
                            **link.hello_identity(pipe.channel))

    async def proof_again(self, pipe: Pipe, proof: str) -> None:
        try:
            await self._answer_proof(pipe, proof)
        except JoinError as exc:
            self.link.finish(exc.message, exc.code)
