"""Dealing a hosted game: the host commits to its secret, the seated peers send their parts of
the seed, and only then is the game dealt (net.table.fairness holds the arithmetic). At the end
the host reveals everything, so every peer can check the shuffle was nobody's choice.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from net.host.seats import Peer, bot_seat
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
        self.collecting: dict[int, str] | None = None  # seat -> contribution, while dealing

    def forget(self) -> None:
        """A rematch deals afresh."""
        self.commitment, self.contributions, self.salt = None, [], ""

    def start(self) -> None:
        """Close the lobby (empty seats get bots) and make the seed: commit to the host's
        secret, collect the seated peers' contributions, then deal. With a fixed seed, or
        nobody to ask, it deals at once."""
        host = self.host
        for i, seat in enumerate(host.seats):
            if seat.empty:
                host.seats[i] = bot_seat(i, host.level)
        self.secret = secrets.randbits(63) if host.seed is None else host.seed
        self.salt = fairness.new_salt()
        self.commitment = fairness.commitment(self.secret, self.salt)
        asked = {p.seat: cid for cid, p in host.peers.items() if p.seat is not None}
        if host.seed is not None or not asked:
            self._deal({})
            return
        self.collecting = {}
        host.presence()
        host.uplink.post(list(asked.values()), "commit", commitment=self.commitment,
                         seats=sorted(asked))
        host.spawn(self._deadline(set(asked)))

    def contribute(self, peer: Peer, frame: Frame) -> None:
        value, got = frame["value"], self.collecting
        if got is None or peer.seat is None or peer.seat in got:
            self.host.error(peer.cid, "bad_order", "no contribution is wanted now", frame["seq"])
        elif not fairness.good_contribution(value):
            self.host.error(peer.cid, "bad_field", "a contribution is 1 to 64 letters and digits",
                            frame["seq"])
        else:
            got[peer.seat] = value
            seated = {p.seat for p in self.host.peers.values() if p.seat is not None}
            if seated <= set(got):
                self._deal(got)

    async def _deadline(self, asked: set[int]) -> None:
        await asyncio.sleep(CONTRIBUTION_WAIT)
        got = self.collecting
        if got is not None and self.host.session is None:
            missing = ", ".join(self.host.seats[s].name for s in sorted(asked - set(got)))
            self.host.notice(f"dealing without a contribution from {missing}")
            self._deal(got)

    def _deal(self, contributions: dict[int, str]) -> None:
        host = self.host
        self.collecting = None
        self.contributions = [[s, v] for s, v in sorted(contributions.items())]
        seed = (host.seed if host.seed is not None
                else fairness.joint_seed(self.secret, self.salt, self.contributions))
        infos = [SeatInfo(s.name, s.bot) for s in host.seats]
        host.session = HostSession(host.engine.id, infos, seed, host.options)
        host.session.hints = host.hints
        if host.keep_record:
            host.recorder.open()
        table = host.session.players()
        host.uplink.post(list(host.peers), "start", engine=host.engine.id,
                         options=dict(host.options), players=table, commitment=self.commitment,
                         contributions=self.contributions, fixed_seed=host.seed)
        host.audience.local({"type": "start", "engine": host.engine.id, "players": table,
                             "commitment": self.commitment, "fixed_seed": host.seed})
        host.play.broadcast("sync")
        host.presence()
        host.play.reschedule()

    def reveal(self, session: HostSession) -> dict[str, Any] | None:
        """What every table message carries once the game is over: all it takes to check the
        seed (and the record that replays to the result); None before."""
        if not session.over:
            return None
        return {"secret": self.secret, "salt": self.salt, "seed": session.seed,
                "contributions": self.contributions, "fixed": self.host.seed is not None,
                "record": session.record()}
