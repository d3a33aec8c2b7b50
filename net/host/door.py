"""Who comes in, to which seat, and who leaves: joins, seat claims by token, reclaims by name,
drops and bot takeovers, and the peers checking in again after the host came back.

A join that names a seat (by the hash of its token, net.wire.proofs) first gets the host's
proof and sends the token only then (`claim`), so a squatter on the room code learns nothing
usable. A peer that resumed (net.wire.resume) proved its key instead and comes straight back
to the seat (or the spectator's chair) that key belongs to. Everyone let in leaves with a
resumption key for next time, and a seat's person with a fresh one-time ticket for the relay.
The rules of who may sit where are net.host.seats; this is their door.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from net.host.seats import Peer, Seat, new_token, seat_for
from net.host.standing import Standing, percent
from net.players import identity
from net.players.reputation import Word
from net.wire import proofs, resume
from net.wire.frames import MAX_NAME, Frame
from net.wire.public import fingerprint
from net.wire.text import clean

if TYPE_CHECKING:
    from net.host.authority import NetHost

# Seconds a reclaim by name waits for the host's yes before it is refused.
RECLAIM_WAIT = 120.0
# Seconds a lobby seat stays its person's after the host's connection to the relay came back
# (a relay that died: its rooms' hosts and peers reach the next relay in any order, the peers
# waiting there for their host), before it is free again.
LOBBY_RETURN = 60.0
# Spectators' resumption keys a room keeps (the oldest go first).
MAX_WATCHER_KEYS = 256
# What a guest whose hello named a key it did not prove on its channel is told, once.
UNPROVEN = ("your identity key could not be proven at this table: you play here without an "
            "identity (unrated, and no finished share to show)")


class Door:
    """The comings and goings of one `NetHost`'s room."""

    def __init__(self, host: NetHost) -> None:
        self.host = host
        # A person at the host's terminal answers reclaims by name ({"type": "reclaim"} to the
        # listeners, then `answer_reclaim`); a headless host refuses them.
        self.attended = False
        self.reclaims: dict[int, tuple[int, str]] = {}  # cid -> (seat, name) awaiting a yes
        self.proving: dict[int, Frame] = {}  # cid -> its join frame, until it claims
        self.watchers: dict[str, bytes] = {}  # key id -> resumption key of a spectator
        self.looking: dict[int, Frame] = {}  # cid -> its hello, until the table's word came
        self._identities: dict[int, bytes] = {}  # cid -> the identity key its hello proved
        self._words: dict[int, Word] = {}  # cid -> the table's word on it (net.host.standing)
        self._unproven: set[int] = set()  # named a key it did not prove: to be told, once
        self._told: set[int] = set()  # ... and told

    def waiting(self, cid: int) -> bool:
        """Whether `cid` has said hello and waits for its word, a proof or a yes."""
        return cid in self.looking or cid in self.proving or cid in self.reclaims

    def key_for(self, rid: str) -> bytes | None:
        """The resumption key a resuming peer names by `rid`, if this room holds it."""
        for seat in self.host.seats:
            for key in seat.keys:
                if resume.key_id(bytes.fromhex(key)) == rid:
                    return bytes.fromhex(key)
        return self.watchers.get(rid)

    # -- coming in ---------------------------------------------------------------------------
    def hello(self, cid: int, frame: Frame) -> None:
        """A join: the key it names proven (or taken as no key at all), the table's word on it
        looked up, then straight in, or first the host's proof for a seat named by its hash."""
        host = self.host
        self._identities.pop(cid, None)
        self._words.pop(cid, None)
        named, channel = frame.get("identity"), host.uplink.channels.get(cid)
        if channel is not None and identity.hello_proven(named, frame.get("identity_sig"),
                                                         host.room, channel.binding):
            self._identities[cid] = named
        elif named is not None and cid not in self._told:
            self._unproven.add(cid)
        if cid in self._identities and host.standing.known:
            self.looking[cid] = frame
            host.spawn(self._look_up(cid, frame, fingerprint(named)))
            return
        self._hello(cid, frame)

    async def _look_up(self, cid: int, frame: Frame, ident: str) -> None:
        """The table's word on `cid`'s person, read off the event loop; then its hello goes on
        (unless it left meanwhile)."""
        word = await self.host.standing.of(ident)
        if self.looking.get(cid) is frame:
            del self.looking[cid]
            if word is not None:
                self._words[cid] = word
            self._hello(cid, frame)

    def _hello(self, cid: int, frame: Frame) -> None:
        host = self.host
        if (key := host.keys.resumed.pop(cid, None)) is not None:
            self._resumed(cid, frame, key)
            return
        seat_id, nonce = frame.get("seat_id"), frame.get("nonce")
        token = next((t for s in host.seats for t in s.tokens if proofs.seat_id(t) == seat_id),
                     None) if seat_id and nonce else None
        if token is None or host.uplink.host_token is None:
            self._join(cid, frame, None)
            return
        self.proving[cid] = frame
        key = proofs.proof_key(host.uplink.host_token, token)
        host.uplink.post([cid], "proof", proof=proofs.proof(key, str(nonce)))

    def claim(self, cid: int, token: str) -> None:
        """The token a proven join sends after the host's proof."""
        frame = self.proving.pop(cid)
        if not any(seat.holds(token) for seat in self.host.seats):
            self.host.uplink.kick(cid, "that seat token is not valid here", code="refused")
            return
        self._join(cid, frame, token)

    def _join(self, cid: int, frame: Frame, token: str | None) -> None:
        host = self.host
        name = clean(frame["name"], MAX_NAME) or "guest"
        seat_no, why = seat_for(host.seats, name, token, frame["watch"], host.started)
        if why == "name":
            assert seat_no is not None
            self._ask_reclaim(cid, seat_no, name)
            return
        if why == "full":
            reason = ("every seat is taken; join with --watch to watch" if host.started
                      else "the table is full")
            host.uplink.kick(cid, reason, code="table_full")
            return
        minimum = host.min_finished
        if why == "free" and minimum is not None and (
                refusal := self._below_minimum(cid, minimum)) is not None:
            # The reason, with the person's own share, goes sealed; the kick's travels in the
            # clear through the relay and says only what the listing says anyway.
            host.uplink.post([cid], "error", code="refused", message=refusal)
            host.uplink.kick(cid, f"this table asks for at least {percent(minimum)} finished "
                                  "games", code="refused")
            return
        self._admit(cid, seat_no, name, token)

    def _below_minimum(self, cid: int, minimum: float) -> str | None:
        """Why `cid` may not take a free seat at a table asking `minimum`, or None. Only a
        proven key has a share to hold against it: without one, nobody can tell a newcomer
        from someone wearing another's key or hiding their own."""
        if cid not in self._identities:
            return (f"this table asks for at least {percent(minimum)} finished games, and you "
                    "have no proven identity here: join with your identity key")
        return Standing.below(self._words.get(cid), minimum)

    def _resumed(self, cid: int, frame: Frame, key: bytes) -> None:
        """A peer that proved a resumption key: back to its seat, or to watching."""
        host = self.host
        seat_no = next((i for i, s in enumerate(host.seats) if key.hex() in s.keys), None)
        name = clean(frame["name"], MAX_NAME) or "guest"
        if seat_no is None:
            self._admit(cid, None, name, None)
            return
        self._admit(cid, seat_no, name, host.seats[seat_no].token)

    def _remember(self, cid: int, seat_no: int | None) -> None:
        """A first exchange's resumption key for where `cid` now sits (net.wire.resume)."""
        host = self.host
        channel = host.uplink.channels.get(cid)
        if channel is None or not channel.secret:
            return  # resumed: it came back with a key this room holds already
        key = resume.seat_key(channel.secret, host.room, seat_no)
        if seat_no is not None:
            host.seats[seat_no].add_key(key)
            return
        self.watchers[resume.key_id(key)] = key
        while len(self.watchers) > MAX_WATCHER_KEYS:
            del self.watchers[next(iter(self.watchers))]

    def _admit(self, cid: int, seat_no: int | None, name: str, token: str | None) -> None:
        """Seat connection `cid` (or let it watch, `seat_no` None) and tell it everything.
        `token` is the one it proved; None: it gets a new one."""
        host = self.host
        proof_key = ticket = None
        back = cid not in host.peers  # not a peer saying hello again after a re-key
        self._remember(cid, seat_no)
        if seat_no is None:
            token = new_token()
        else:
            seat = host.seats[seat_no]
            if seat.cid is not None and seat.cid != cid:
                host.peers.pop(seat.cid, None)
                host.uplink.kick(seat.cid, "your seat was taken back with its token",
                                 code="replaced")
            if token is None and host.started:  # a reclaim by name the host said yes to
                token = new_token()
                seat.spare.append(token)
            seat.claim(cid, None if host.started else name)
            if not host.started:  # who sits here, for the identity proof at the deal
                seat.identity = self._identities.get(cid, b"").hex()
                seat.word = self._words.get(cid)
            token, name = token or seat.token, seat.name
            proof_key = proofs.proof_key(host.uplink.host_token or "", token)
            seat.ticket = ticket = resume.new_ticket()  # the one it came with is spent
            if host.started:
                host.recorder.save_header()
            self.vouch()
        host.peers[cid] = Peer(cid, name, seat_no)
        host.uplink.post([cid], "welcome", seat=seat_no, token=token, name=name,
                         code=host.code, engine=host.engine.id, options=dict(host.options),
                         commitment=host.dealer.commitment, proof_key=proof_key, ticket=ticket,
                         deal=host.dealer.number)
        host.play.sync_peer(host.peers[cid])
        host.presence(lobby=True)
        host.dealer.ask_again(cid, seat_no)
        for line in host.chat_log[-20:]:
            host.uplink.post([cid], "chat", **line)
        if cid in self._unproven:  # once a connection: its key is no use here, say why
            self._unproven.discard(cid)
            self._told.add(cid)
            host.uplink.post([cid], "notice", text=UNPROVEN)
        if seat_no is not None and host.started and back:
            host.notice(f"{name} is back")
            host.play.reschedule()
        if host.autostart and not host.started and not any(s.empty for s in host.seats):
            host.start()

    def _ask_reclaim(self, cid: int, seat_no: int, name: str) -> None:
        """Someone wants an away seat back by its name, without its token: only the host may
        say yes (anyone with the code can type a name); a headless host says no."""
        host = self.host
        if not self.attended:
            # No name in a kick: its reason travels in the clear, through the relay.
            host.uplink.kick(cid, f"seat {seat_no + 1} is kept for its player: rejoin from "
                                  "the machine that played it (it keeps the seat's token)",
                             code="refused")
            return
        self.reclaims[cid] = (seat_no, name)
        host.uplink.post([cid], "notice", text=f"asking the host to give you seat {seat_no + 1} "
                                               "back; please wait")
        host.audience.local({"type": "reclaim", "cid": cid, "seat": seat_no, "name": name})
        host.spawn(self._reclaim_deadline(cid))

    async def _reclaim_deadline(self, cid: int) -> None:
        await asyncio.sleep(RECLAIM_WAIT)
        self.answer_reclaim(cid, False)

    def answer_reclaim(self, cid: int, yes: bool) -> None:
        """The host's answer to {"type": "reclaim", "cid", ...}. A yes seats the asker with a
        token of its own (the seat's old token stays valid: its owner can still come back)."""
        asked = self.reclaims.pop(cid, None)
        if asked is None:
            return
        host = self.host
        seat_no, name = asked
        seat = host.seats[seat_no]
        if yes and seat.cid is None and seat.token and not seat.bot:
            host.notice(f"the host gave seat {seat_no + 1} back to {name}, by name")
            self._admit(cid, seat_no, name, None)
        else:
            host.uplink.kick(cid, "the host did not give you the seat back", code="refused")

    def vouch(self) -> None:
        """Tell the relay the tickets (by their hashes) that let a seat's person past a full
        room: each is spent on use, and replaced on the next welcome."""
        ids = [resume.ticket_id(seat.ticket) for seat in self.host.seats if seat.ticket]
        self.host.uplink.vouch(ids)

    # -- going ---------------------------------------------------------------------------------
    def left(self, cid: int) -> None:
        """The relay says `cid` is gone."""
        self._identities.pop(cid, None)
        self._words.pop(cid, None)
        self._unproven.discard(cid)
        self._told.discard(cid)
        self.looking.pop(cid, None)
        self.proving.pop(cid, None)
        self.reclaims.pop(cid, None)
        self.host.keys.forget(cid)
        self.drop(cid)

    def drop(self, cid: int, keep: bool = False) -> None:
        """`cid` has gone. A lobby seat is free again at once, unless `keep`: the connection
        went with the host's (see `rejoin`), and its person is on the way back."""
        host = self.host
        peer = host.peers.pop(cid, None)
        if peer is None or peer.seat is None:
            if peer is not None:
                host.presence()
            return
        seat = host.seats[peer.seat]
        if seat.cid != cid:
            return
        seat.cid = None
        if not host.started and keep:
            host.presence(lobby=True)
            host.spawn(self._free_later(peer.seat, seat))
            return
        if not host.started:
            host.seats[peer.seat] = Seat()  # a seat left in the lobby is free again
            host.presence(lobby=True)
            return
        host.presence()
        if host.over:
            return
        host.play.reschedule()  # an interrupt window's countdown stops while a seat is away
        if host.takeover is None:
            host.notice(f"{seat.name} is away; the table waits for them")
        else:
            host.notice(f"{seat.name} is away; a bot takes over in {host.takeover:g} s")
            host.spawn(self.take_over(peer.seat, seat.token))

    async def _free_later(self, seat_no: int, seat: Seat) -> None:
        """A kept lobby seat is free again if its person has not come back in time."""
        await asyncio.sleep(LOBBY_RETURN)
        host = self.host
        if not host.started and host.seats[seat_no] is seat and seat.cid is None:
            host.seats[seat_no] = Seat()
            host.presence(lobby=True)

    async def take_over(self, seat_no: int, token: str) -> None:
        """A bot plays `seat_no` if its person has not come back in the takeover time."""
        host = self.host
        await asyncio.sleep(host.takeover or 0)
        seat = host.seats[seat_no]
        if seat.cid is None and seat.token == token and not seat.auto and not host.over:
            seat.auto = True
            host.notice(f"{seat.name} did not come back; a bot plays for them until they do")
            host.presence()
            host.play.reschedule()

    # -- the host came back ----------------------------------------------------------------
    def rejoin(self, entries: list[dict[str, Any]]) -> None:
        """The room was (re)opened: whoever is still in it comes back. Their first frames
        are old news (keys and nonces of another time), so each peer, told `host_back`, says
        `rejoin` with its resumption key and is let in again as on a resume."""
        for peer in list(self.host.peers.values()):
            self.drop(peer.cid, keep=True)
        self.looking.clear()
        self.proving.clear()
        self.reclaims.clear()
        self.host.keys.forget_all()
        self.vouch()
