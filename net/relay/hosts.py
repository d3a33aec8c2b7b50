"""The relay's side of a room's host: opening (or reopening, with the signed host token) a
room, under the caps per address and in total, then carrying the host's "send", "seats",
"kick", "list", "unlist" and "close" frames until it goes."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from net.relay import addresses, tokens
from net.relay.conns import Conn
from net.relay.limits import guessing
from net.relay.rooms import Room
from net.wire import codes
from net.wire.frames import HOST_FRAMES, Frame, ProtocolError, encode

if TYPE_CHECKING:
    from net.relay.server import Relay

log = logging.getLogger("tabletop.relay")

# Error codes a host may close one of its peers with (docs/protocol.md, "Errors").
KICK_CODES = frozenset({"kicked", "table_full", "refused", "replaced", "wrong_code",
                        "slow_down", "unknown_resume", "not_proven", "timeout"})


class HostDesk:
    """Where hosts open their rooms on one `Relay`."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    async def serve(self, conn: Conn, frame: Frame) -> None:
        """A host's connection, from its 'open' to its last frame."""
        relay = self.relay
        conn.rate, conn.burst = relay.limits.host_rate, relay.limits.host_burst
        conn.tokens, conn.buffer = conn.burst, relay.limits.host_buffer
        room = self._open_room(conn, frame)
        if room is None:
            return
        peers = [{"cid": cid, "data": m.join_data} for cid, m in room.members.items()]
        relay.tell(conn, "opened", code=room.code, host_token=room.host_token, peers=peers)
        if peers:
            relay.push(room.members.values(), encode("host_back"))
        try:
            async for raw in relay.paced(conn):
                try:
                    frame = relay.accept(conn, raw, HOST_FRAMES, relay.limits.host_max_frame)
                    if room.host is not conn:
                        return  # replaced by a newer connection of the same host
                    room.last_active = time.monotonic()
                    t = frame["t"]
                    if t == "send":
                        self._deliver(room, frame["items"])
                    elif t == "seats":
                        ids = frame["ids"]
                        if len(ids) > 256 or not all(isinstance(i, str) for i in ids):
                            raise ProtocolError("bad_field", "'ids' must be at most 256 str")
                        room.seat_ids = frozenset(ids)
                    elif t == "kick":
                        self._kick(room, frame)
                    elif t == "list":
                        relay.billboard.put(room, frame)
                    elif t == "unlist":
                        relay.billboard.drop(room)
                    elif t == "close":
                        self.close_room(room, "room_closed",
                                        frame["reason"] or "the host closed the room")
                        return
                    else:
                        raise ProtocolError("unknown_type", f"a host cannot send {frame['t']!r}")
                except ProtocolError as exc:
                    relay.refuse(conn, exc, raw)
        finally:
            if room.host is conn:
                relay.rooms.detach(room)
                relay.billboard.drop(room)  # a host that comes back lists it again
                relay.push(room.members.values(), encode("host_gone"))

    def _kick(self, room: Room, frame: Frame) -> None:
        relay = self.relay
        code = frame.get("code") or "kicked"
        if code not in KICK_CODES:
            raise ProtocolError("bad_field", f"'code' must be one of {', '.join(KICK_CODES)}")
        member = room.members.get(frame["cid"])
        if member is not None:
            if code == "wrong_code":  # a guess at the secret: its address slows down
                relay.secret_guard.miss(guessing(member.addr, room.code))
            wait = frame.get("retry_after")
            relay.cut(member, code, frame["reason"] or "the host closed your connection",
                      **({} if wait is None else {"retry_after": wait}))

    def _open_room(self, conn: Conn, frame: Frame) -> Room | None:
        relay = self.relay
        book = relay.rooms
        wanted, token = frame.get("code"), frame.get("host_token")
        if wanted is None:
            if not self._room_for(conn):
                return None
            room = self._new_room(book.free_code(), conn)
        else:
            try:
                code = codes.normalise(wanted)
            except codes.BadCode as exc:
                relay.cut(conn, "bad_code", str(exc))
                return None
            if token is None:  # a new room under a code the host drew itself
                if book.get(code) is not None:
                    relay.cut(conn, "code_taken", "that room code is in use on this relay: a "
                                                  "new room needs a new code")
                    return None
                if not self._room_for(conn):
                    return None
                room = self._new_room(code, conn)
                conn.room = room
                log.info("room %s opened by %s", tokens.log_name(room.code), conn.addr)
                return room
            opened = tokens.owns(relay.secret, code, token)
            found = book.get(code)
            held = None if found is None else tokens.owns(relay.secret, code, found.host_token)
            if opened is None or (held is not None and held < opened):
                relay.cut(conn, "code_taken",
                          "that code belongs to another host: reopening a room needs its host "
                          "token, and a new room gets a new code")
                return None
            if found is not None:  # its host is back: the room is its own, whatever the caps
                if found.host is not None:
                    relay.cut(found.host, "replaced", "the host reconnected elsewhere")
                found.host_token = str(token)  # the oldest opening owns the code
                book.attach(found, conn)
                room = found
            else:  # the relay restarted, died, or closed the room meanwhile (net.relay.rooms)
                returning = book.returning(code)
                if not self._room_for(conn, capped=not returning, make_space=returning):
                    return None
                room = self._new_room(code, conn, str(token))
        conn.room = room
        log.info("room %s opened by %s", tokens.log_name(room.code), conn.addr)
        return room

    def _new_room(self, code: str, host: Conn, token: str | None = None) -> Room:
        """A room for `code`: a new one (a fresh token), or one coming back with `token`."""
        relay = self.relay
        return relay.rooms.add(code, token or tokens.host_token(relay.secret, code), host)

    def _room_for(self, conn: Conn, capped: bool = True, make_space: bool = True) -> bool:
        """Whether `conn` may open one more room: under its address's cap (if `capped`), and
        under the relay's, where a room not in play may give up its place (only one nobody
        is in, unless `make_space`). Refused with the true reason otherwise."""
        relay = self.relay
        book = relay.rooms
        if capped:
            name, used = book.address_load(conn.addr)
            if used >= relay.limits.rooms_per_address:
                relay.cut(conn, "busy", f"{addresses.describe(name)} has {used} rooms in use, "
                                        "the most one address may; close one or try later")
                return False
        if not book.full():
            return True
        now = time.monotonic()
        room = book.evictable(now, empty_only=not make_space)
        if room is None:
            relay.cut(conn, "busy", book.full_message(now))
            return False
        self.close_room(room, "evicted",
                        "this relay is full and this room had no game in play: it was closed "
                        "to make space")
        return True

    def _deliver(self, room: Room, items: list[Any]) -> None:
        relay = self.relay
        for item in items:
            if not (isinstance(item, dict) and isinstance(item.get("data"), bytes)):
                raise ProtocolError("bad_field", "each 'send' item must be {to, data: bin}")
            to, data = item.get("to"), item["data"]
            if to is None:
                relay.push(list(room.members.values()), data)
            elif isinstance(to, list) and all(type(c) is int for c in to):
                relay.push([m for c in to if (m := room.members.get(c)) is not None], data)
            else:
                raise ProtocolError("bad_field", "'to' must be a list of connection ids or nil")

    def close_room(self, room: Room, code: str, reason: str) -> None:
        relay = self.relay
        for member in list(room.members.values()):
            relay.cut(member, "room_closed", reason)
        if room.host is not None:
            host, room.host = room.host, None
            if code != "room_closed":
                relay.cut(host, code, reason)
        relay.rooms.remove(room)
        log.info("room %s closed: %s", tokens.log_name(room.code), reason)
