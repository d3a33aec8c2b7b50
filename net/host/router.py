"""What arrives from the relay, and where it goes: a peer's exchange to the keys, its sealed
frames (once opened) to the part of the room that deals with them: the door for joins, play
for moves, the dealer for parts of the seed. Every refusal is answered, sealed when it can be.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.wire.frames import (
    PEER_FRAMES,
    PEER_SEALED,
    WS_MAX_SIZE,
    Frame,
    ProtocolError,
    check,
    decode,
)

if TYPE_CHECKING:
    from net.host.authority import NetHost

log = logging.getLogger("tabletop.host")

# The longest source name a relay's `from` may carry (longer: taken as none).
MAX_SOURCE = 64


class Router:
    """The frames of one `NetHost`'s room, sorted to its parts."""

    def __init__(self, host: NetHost) -> None:
        self.host = host

    def from_relay(self, raw: bytes | str) -> None:
        try:
            frame = decode(raw, WS_MAX_SIZE)
        except ProtocolError as exc:
            log.warning("bad frame from the relay: %s", exc.message)
            return
        t = frame["t"]
        if t == "from" and type(frame.get("cid")) is int and isinstance(frame.get("data"), bytes):
            src = frame.get("src")
            self._from_peer(frame["cid"], frame["data"],
                            src if isinstance(src, str) and len(src) <= MAX_SOURCE else None)
        elif t == "left" and type(frame.get("cid")) is int:
            self.host.door.left(frame["cid"])
        elif t == "error" and frame.get("code") == "public_limit":
            self.host.billboard.refused(str(frame.get("message")))
        elif t == "error":
            log.warning("relay says: %s", frame.get("message"))

    def error(self, cid: int, code: str, message: str, seq: int | None = None) -> None:
        """Tell `cid` a frame was refused: sealed once it has a channel, else in the clear."""
        uplink = self.host.uplink
        if cid in uplink.channels:
            uplink.post([cid], "error", code=code, message=message, seq=seq)
        else:  # shaped like a relay error, which is what a peer expects in the clear
            uplink.post_plain([cid], "error", code=code, message=message, seq=seq, fatal=False)

    def _from_peer(self, cid: int, data: bytes, src: str | None = None) -> None:
        """A frame the relay forwarded: an exchange to answer (counted under the source the
        relay names, `src`), or a sealed frame to open."""
        host = self.host
        try:
            frame = check(decode(data, WS_MAX_SIZE), PEER_FRAMES)
        except ProtocolError as exc:
            self.error(cid, exc.code, exc.message)
            return
        t, seq = frame["t"], frame["seq"]
        if t == "sealed":
            if not host.keys.receive(cid, frame):
                self.error(cid, "bad_order", "join first: no key exchange yet", seq)
            return
        known = cid in host.peers or host.door.waiting(cid) or host.keys.has(cid)
        if t in ("join", "resume") and known:
            self.error(cid, "bad_order", "already joined", seq)
        elif t == "join":
            host.keys.answer(cid, frame["pake"], src)
        else:  # "resume" as a first frame, "rejoin" on an open connection (or to re-key)
            host.keys.resume(cid, frame)

    def wrong_code(self, cid: int) -> None:
        host = self.host
        host.audience.local({"type": "notice", "text": "someone tried to join with a wrong "
                                                       f"code ({host.keys.wrong_tries} so far)"})
        host.recorder.save_header()  # a resumed room must not grant a guesser fresh tries

    def sealed(self, cid: int, payload: Frame, seq: int) -> None:
        """A payload a peer sealed (net.host.keys opened it): its hello first, then the game."""
        host = self.host
        try:
            frame = check(payload, PEER_SEALED)
        except ProtocolError as exc:
            self.error(cid, exc.code, exc.message, seq)
            return
        frame["seq"] = seq  # errors name the envelope the refused payload came in
        t = frame["t"]
        peer = host.peers.get(cid)
        if t == "hello":
            # After a re-key the peer says hello again on its open connection.
            again = peer is not None and cid in host.keys.resumed
            if (peer is None or again) and not host.door.waiting(cid):
                host.door.hello(cid, frame)
            else:
                self.error(cid, "bad_order", "already joined", seq)
            return
        if t == "claim" and cid in host.door.proving:
            host.door.claim(cid, frame["token"])
            return
        if peer is None:
            self.error(cid, "bad_order", "join first", seq)
        elif t == "move":
            host.play.peer_move(peer, frame)
        elif t == "contribute":
            host.dealer.contribute(peer, frame)
        elif t == "chat":
            host.chat(peer.name, peer.seat, frame["text"])
        elif t == "sync":
            host.play.sync_peer(peer)
        elif t == "answering":
            host.play.answering(peer.seat, frame["state_no"])
        elif t == "extend":
            host.play.extend(peer.seat, frame["state_no"])
        elif t == "undo":
            host.play.undo(peer.seat, frame["state_no"], peer.cid, seq)
        elif t == "echo":
            host.uplink.post([cid], "echo", data=frame["data"])
