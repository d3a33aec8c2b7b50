"""Joining a room, and checking in again when its host comes back.

A join finds the relay (net.discovery), runs a SPAKE2 exchange keyed by the join code with
the host through it (net.wire.channel), and sends its hello sealed. A join that reclaims a
seat names it only by the hash of its token and a fresh nonce; the token itself goes out
only after the host answered with the proof that it holds the room's host token
(net.wire.proofs), so a squatter on the room code learns nothing from a returning peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import TYPE_CHECKING

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from net import discovery
from net.peer.pipe import Pipe
from net.wire import codes, proofs
from net.wire.channel import Exchange, Refused
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
         "refused", "table_full", "unproven", "wrong_code"}
# A "version" error in words: whoever is older, the cure is the same.
UPDATE = ("this table speaks another protocol version than your tabletop-tui (this one speaks "
          f"protocol {VERSION}): please update tabletop-tui; the host and the relay need it too")
# Seconds a join waits once the host said it is asking its player (a reclaim by name).
APPROVAL_WAIT = 150.0


class JoinError(Exception):
    """Joining failed; `message` says why in words a player understands."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def join_error(code: str, message: str) -> JoinError:
    return JoinError(code, UPDATE if code == "version" else message)


class Joiner:
    """The key exchanges and seat proofs of one `RemoteLink`."""

    def __init__(self, link: RemoteLink) -> None:
        self.link = link
        self._nonce: str | None = None  # the last join's nonce, for the host's proof
        self._pending: Exchange | None = None  # an exchange our rejoin began
        self._ids: dict[str, str | None] = {}  # the seat id and nonce of that rejoin

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
    async def join(self, open_timeout: float | None = None) -> tuple[Pipe, Frame]:
        """Connect, exchange keys, say hello: the pipe and the host's welcome; JoinError if
        the relay or the host refuses, or nobody answers."""
        link = self.link
        # The exchange's first half costs a few ms: it runs while the room is looked up (a
        # slow hash, see net.discovery) and the connection opens.
        starting = asyncio.ensure_future(asyncio.to_thread(self._exchange))
        ws = await self._connect(open_timeout or link.join_timeout)
        pipe = link.pipe = Pipe(ws, link.spawn_send)
        exchange = await starting
        ids = self._seat_ids()
        await pipe.send_clear("join", code=link.room, watch=link.watch, pake=exchange.message,
                              **ids)
        try:
            async with asyncio.timeout(link.join_timeout) as deadline:
                while True:
                    frame = decode(await ws.recv(), WS_MAX_SIZE)
                    t = frame["t"]
                    if t == "error":
                        raise join_error(str(frame.get("code")), str(frame.get("message")))
                    if t == "pake":  # the host's half: our keys, then our hello, sealed
                        msg = check(frame, HOST_ENVELOPES)["msg"]
                        pipe.rekey(await asyncio.to_thread(exchange.finish, msg))
                        await pipe.seal("hello", name=link.name, watch=link.watch, **ids)
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
                    elif t == "host_back":  # our join reached a host that was away
                        exchange = await asyncio.to_thread(self._exchange)
                        pipe.rekey(None)
                        ids = self._seat_ids()
                        await pipe.send_clear("rejoin", pake=exchange.message, **ids)
                    # host_gone while we wait: the host will see our join when it is back.
        except TimeoutError:
            await ws.close()
            raise JoinError("timeout", "the host did not answer; try again later") from None
        except ConnectionClosed as exc:
            raise JoinError("closed", f"the relay closed the connection ({exc})") from None
        except ProtocolError as exc:
            await ws.close()
            raise join_error(exc.code, f"the host sent something odd: {exc.message}") from None

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
            return await connect(link.url, max_size=WS_MAX_SIZE, compression=None,
                                 open_timeout=open_timeout)
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

    # -- the host came back ----------------------------------------------------------------
    async def rejoin(self, pipe: Pipe) -> None:
        """The host came back to the room: run a fresh exchange with it and tell it again
        which seat is ours (by its hash and a fresh nonce, as on a join); it answers with its
        half of the exchange, our hello goes sealed, then come its proof and a welcome."""
        self._pending = await asyncio.to_thread(self._exchange)
        self._ids = self._seat_ids()
        with contextlib.suppress(ConnectionClosed):
            await pipe.send_clear("rejoin", pake=self._pending.message, **self._ids)

    async def rekeyed(self, pipe: Pipe, msg: bytes) -> None:
        """The host's half of the exchange our rejoin began: new keys, then our hello."""
        link = self.link
        exchange, self._pending = self._pending, None
        if exchange is None:
            link.emit({"type": "error", "seat": link.seat, "code": "bad_order",
                       "message": "ignored a key exchange nobody asked for"})
            return
        try:
            pipe.rekey(await asyncio.to_thread(exchange.finish, msg))
        except ProtocolError as exc:
            link.finish(exc.message)
            return
        with contextlib.suppress(ConnectionClosed):
            await pipe.seal("hello", name=link.name, watch=link.watch, **self._ids)

    async def proof_again(self, pipe: Pipe, proof: str) -> None:
        try:
            await self._answer_proof(pipe, proof)
        except JoinError as exc:
            self.link.finish(exc.message)
