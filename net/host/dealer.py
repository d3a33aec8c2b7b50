"""Dealing a hosted game: the host commits to its secret and names the seats it asks for a
part of the seed, those peers send their parts, and only then is the game dealt
(net.table.fairness holds the arithmetic and the peers' checks). At the end the host reveals
everything, so every peer can check the shuffle was nobody's choice.

The list of parts the host deals with is fixed by its commit: one entry per seat named, in
that order, the seat's own part or nil when it did not answer in time. Nothing else ever goes
in (a part of the host's own would be a second secret, chosen after seeing everyone else's);
the host's only part is the secret it committed to.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from net.host.seats import Peer, bot_seat
from net.players import counted, identity
from net.table import fairness
from net.table.session import HostSession, SeatInfo
from net.wire.frames import Frame

if TYPE_CHECKING:
    from net.host.authority import NetHost

# Seconds the seated peers have to send their part of the seed once the host committed; a peer
# that misses it (an old client, a dead connection) is left out and the deal goes on.
CONTRIBUTION_WAIT = 10.0


class Dealer:
    """The seed of one `NetHost`'s game: commitment, contributions, deal and reveal."""

    def __init__(self, host: NetHost) -> None:
        self.host = host
        self.secret = 0  # the host's part of the seed, committed to before the contributions
        self.salt = ""
        self.commitment: str | None = None
        self.contributions: list[list[Any]] = []
        self.asked: list[int] = []  # the seats the commit named, in seat order
        self.collecting: dict[int, str] | None = None  # seat -> contribution, while dealing
        self.left: list[int] = []  # at the end: the seats whose person had left (a bot played)
        # The host's signed close, once it closed the room before the end (net.host.closing).
        self.closed: dict[str, Any] | None = None
        # Which deal of the room this is (1, then one more at each rematch): the frames that
        # belong to a deal name it, so a peer knows a new one began from the frames alone.
        self.number = 1

    def forget(self) -> None:
        """A rematch deals afresh."""
        self.commitment, self.contributions, self.salt, self.asked = None, [], "", []
        self.left, self.closed = [], None
        self.number += 1

    def start(self) -> None:
        """Close the lobby (empty seats get bots) and make the seed: commit to the host's
        secret, collect the seated peers' contributions, then deal. With a fixed seed, or
        nobody to ask, it deals at once."""
        host = self.host
        for i, seat in enumerate(host.seats):
            if seat.empty:
                host.seats[i] = bot_seat(i, host.level)
            seat.proof = None  # each game is proven afresh, against its own commitment
        self.secret = secrets.randbits(63) if host.seed is None else host.seed
        self.salt = fairness.new_salt()
        self.commitment = fairness.commitment(self.secret, self.salt)
        self.asked = sorted(p.seat for p in host.peers.values() if p.seat is not None)
        # A fixed seed deals at once; a tournament's duplicate table first asks its seated
        # guests for parts, not for the seed (the commit says it is fixed) but for the
        # identity proofs that come with them, so that its game counts for their ratings.
        if (host.seed is not None and host.duplicate is None) or not self.asked:
            self.asked = []
            self._deal({})
            return
        self.collecting = {}
        host.presence()
        # To every connection, spectators too: each of them checks the start against it.
        self._ask(list(host.peers))
        host.spawn(self._deadline())

    def _ask(self, cids: list[int]) -> None:
        self.host.uplink.post(cids, "commit", commitment=self.commitment, seats=self.asked,
                              deal=self.number, fixed=self.host.seed is not None or None)

    def ask_again(self, cid: int, seat_no: int | None) -> None:
        """A seat the open commit names whose person is back (a dropped connection, a re-key)
        before its part came: the commit again, so that part still counts. The commit it
        may have seen already is the same one: asking again draws nothing new."""
        got = self.collecting
        if got is not None and seat_no in self.asked and seat_no not in got:
            self._ask([cid])

    def contribute(self, peer: Peer, frame: Frame) -> None:
        """A peer's part of the seed: taken once, from a seat the commit named; with it, the
        proof of its person's identity for this game (kept only if it checks)."""
        value, got = frame["value"], self.collecting
        taken = got if got is not None else dict(self.contributions)
        if value is not None and taken.get(peer.seat) == value:
            return  # the same part again, to a commit sent again (`ask_again`): nothing new
        if got is None or peer.seat not in self.asked or peer.seat in got:
            self.host.error(peer.cid, "bad_order", "no contribution is wanted now", frame["seq"])
        elif not fairness.good_contribution(value):
            self.host.error(peer.cid, "bad_field", "a contribution is 1 to 64 letters and digits",
                            frame["seq"])
        else:
            got[peer.seat] = value
            self._prove(peer.seat, frame.get("proof"))
            here = {p.seat for p in self.host.peers.values() if p.seat is not None}
            if not (here & set(self.asked)) - set(got):  # nobody still here owes a part
                self._deal(got)

    async def _deadline(self) -> None:
        await asyncio.sleep(CONTRIBUTION_WAIT)
        got = self.collecting
        if got is not None and self.host.session is None:
            self._deal(got)

    def _deal(self, got: dict[int, str]) -> None:
        """Deal from the commit's seats and the parts that came in `got` (nil for the rest)."""
        host = self.host
        self.collecting = None
        self.contributions = [[s, got.get(s)] for s in self.asked]
        missing = [host.seats[s].name for s, value in self.contributions if value is None]
        if missing:
            host.notice(f"dealing without a part of the seed from {', '.join(missing)}")
        seed = (host.seed if host.seed is not None
                else fairness.joint_seed(self.secret, self.salt, self.contributions))
        mine = identity.mine() if any(s.local for s in host.seats) else None
        for i, seat in enumerate(host.seats):
            if seat.local and mine is not None and self.commitment is not None:
                seat.proof = mine.prove(self.commitment, i, seat.name)
        infos = [SeatInfo(s.name, s.bot, **(s.proof or {})) for s in host.seats]
        host.session = HostSession(host.engine.id, infos, seed, host.options,
                                   game_id=self.commitment, clock=host.clock)
        host.session.undo.enable([i for i, s in enumerate(host.seats) if s.bot is None])
        if host.keep_record:
            host.recorder.open()
        # A game that counts for a rating offers no hints, whatever the lobby's switch said:
        # the expert's moves would be rated as the person's.
        path = host.record_path
        host.rated = path is not None and counted.is_rated_file(path)
        host.session.hints = host.hints and not host.rated
        table = host.session.players()
        host.uplink.post(list(host.peers), "start", engine=host.engine.id,
                         options=dict(host.options), players=table, commitment=self.commitment,
                         contributions=self.contributions, fixed_seed=self._shown_seed(),
                         deal=self.number)
        host.audience.local({"type": "start", "engine": host.engine.id, "players": table,
                             "commitment": self.commitment, "fixed_seed": host.seed})
        host.play.broadcast("sync")
        host.presence()
        host.play.reschedule()

    def _shown_seed(self) -> int | None:
        """The fixed seed as `start` names it: a practice deal's, said at once; a duplicate
        table's stays the host's secret until the reveal (the commitment binds it), since
        whoever knows the seed of a game under way knows every hand in it."""
        return None if self.host.duplicate is not None else self.host.seed

    def _prove(self, seat_no: int, signature: object) -> None:
        """Keep seat `seat_no`'s identity proof if it checks against the key its person
        joined with (net.players.identity); a seat without one plays unrated."""
        seat = self.host.seats[seat_no]
        seat.proof = None
        if not (isinstance(signature, bytes) and seat.identity and self.commitment):
            return
        entry = {"name": seat.name, "key": seat.identity, "sig": signature.hex()}
        ident = identity.proven(entry, self.commitment, seat_no)
        if ident is not None:
            seat.proof = {"ident": ident, "key": seat.identity, "sig": signature.hex()}

    def reveal(self, session: HostSession) -> dict[str, Any] | None:
        """What every table message carries once the game is over, or its host closed it: all
        it takes to check the seed (and the record that replays to the result, or to the
        state the host closed at, with its signed `closed`); None before."""
        if not session.over and self.closed is None:
            return None
        reveal = {"secret": self.secret, "salt": self.salt, "seed": session.seed,
                  "contributions": self.contributions, "fixed": self.host.seed is not None,
                  "record": session.record(), "left": self.left}
        if self.closed is not None:
            reveal["closed"] = self.closed
        return reveal
