"""A peer's side of a fair deal, and of who sits in it: the host's commitment, this seat's
part of the seed and its identity proof, the checks the start allows at once, and the verdict
at the end (net.table.fairness holds the rules, net.players.identity the proofs).

A check that fails before the end is said at once and stays the game's verdict: a host that
breaks its commit cannot mend it with a tidy reveal.

Which deal is checked is the host's frames' word, never a screen's: a host numbers the deals
of its room (`number`), and a frame naming another number begins that deal here, whatever this
peer missed on the way (a lobby lost in a re-key, a welcome back that comes before it).

What this peer checked so far is kept with its seat (`kept`, net.peer.tokens), so the player's
next process (a browser tab reloaded, an SSH session back after a drop) checks the same deal
to its end instead of playing the rest of it unverified, and so unrated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from net.players import closing, identity
from net.table import fairness

Emit = Callable[[dict[str, Any]], None]


class DealCheck:
    """One game's deal as this peer checks it; `reset` for the next game in the room."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        # This player's identity (none for a keyless SSH player).
        self.identity = identity.mine()
        self.reset()

    def reset(self) -> None:
        self.number: int | None = None  # which deal of the room this is (None: not said)
        self.carried = False  # the state came from an earlier process, not yet welcomed
        self.commitment: str | None = None
        self.contribution: list[Any] | None = None  # [seat, value] this peer gave the seed
        self.asked: list[int] | None = None  # the seats the host's commit named (None: unseen)
        # Whether the commit said the seed is fixed (a duplicate table: parts for the proofs).
        self.announced = False
        self.dealt: dict[str, Any] | None = None  # the start frame of the game (None: unseen)
        self.doubt: fairness.Verdict | None = None  # the first failed check before the end
        self.proven: list[str | None] = []  # each seat's identity as the start proves it

    def kept(self) -> dict[str, Any] | None:
        """What a later process of this player needs to go on checking this deal (None: no
        deal yet)."""
        if self.commitment is None:
            return None
        return {"commitment": self.commitment, "asked": self.asked,
                "contribution": self.contribution, "dealt": self.dealt, "deal": self.number,
                "announced": self.announced}

    def carry(self, kept: object) -> None:
        """Go on from what an earlier process of this player `kept`; what is not in the shape
        `kept` gives is ignored (this peer then checks as one that saw nothing)."""
        if not isinstance(kept, dict) or not isinstance(kept.get("commitment"), str):
            return
        asked, part, dealt = kept.get("asked"), kept.get("contribution"), kept.get("dealt")
        number, announced = kept.get("deal"), kept.get("announced")
        seats = asked is None or (isinstance(asked, list) and all(type(s) is int for s in asked))
        mine = part is None or (isinstance(part, list) and len(part) == 2
                                and type(part[0]) is int and fairness.good_contribution(part[1]))
        if not (seats and mine and (dealt is None or isinstance(dealt, dict))
                and (number is None or type(number) is int)
                and (announced is None or type(announced) is bool)):
            return
        self.commitment, self.asked, self.contribution, self.dealt, self.number = (
            kept["commitment"], asked, part, dealt, number)
        self.announced = announced is True
        self.carried = True

    def other_deal(self, number: object) -> bool:
        """Whether a host's frame naming deal `number` belongs to another deal than the one
        checked here (a frame that names none, or a first number, does not)."""
        return type(number) is int and self.number is not None and number != self.number

    def follow(self, number: object) -> None:
        """The deal the host's frames name is the one checked here (after `other_deal` said
        so and the last one was done with)."""
        if type(number) is int:
            self.number = number

    def welcomed(self, commitment: str | None) -> None:
        """The host's welcome names the deal in play. One other than the deal carried from an
        earlier process means that deal is over (a rematch began while the player was away):
        it is dropped, and this one is checked as far as a late arrival can."""
        if self.carried and commitment != self.commitment:
            self.reset()
        self.carried = False
        self.commit_to(commitment)

    def commit_to(self, commitment: str | None) -> None:
        """The host's commitment for this deal, from whichever frame names it first; one that
        names another later would let the host pick its secret after seeing our part."""
        if commitment is None:
            return
        if self.commitment is None:
            self.commitment = commitment
        elif commitment != self.commitment:
            self._fail(fairness.Verdict(False, "recommitted"))

    def committed(self, body: dict[str, Any], table: list[Any], seat: int | None,
                  name: str) -> dict[str, Any] | None:
        """The host closed the lobby and committed: check whom it asks for a part of the seed;
        the `contribute` fields to send if our seat is named. One commit per deal: a second is
        refused (a fresh draw, made after seeing the first round of parts); the same commit again
        (the host asks a seat that came back) gets the same part again, which gives the host
        no second seed to choose from."""
        if self.asked is not None:
            if body["commitment"] != self.commitment or body["seats"] != self.asked:
                self._fail(fairness.Verdict(False, "recommitted"))
                return None
            return self._part(seat, name)
        self.commit_to(body["commitment"])
        self.asked = body["seats"]
        self.announced = body.get("fixed") is True
        self._fail(fairness.check_commit(self.asked, table, seat))
        if seat is None or seat not in self.asked:
            return None
        self.contribution = [seat, fairness.new_contribution()]
        return self._part(seat, name)

    def _part(self, seat: int | None, name: str) -> dict[str, Any] | None:
        """The `contribute` fields for this seat's part (None: it gave none)."""
        if self.contribution is None or self.contribution[0] != seat:
            return None
        proof = None  # who sits here, signed for this very game
        if self.identity is not None and self.commitment is not None:
            proof = bytes.fromhex(self.identity.prove(self.commitment, seat, name)["sig"])
        return {"value": self.contribution[1], "proof": proof}

    def started(self, body: dict[str, Any], seat: int | None) -> None:
        """Say at once what the start tells: a seed the host fixed, a list of parts of the
        seed that breaks the commit (the final check fails then too), or an identity the host
        gives for a seat that its signature does not prove."""
        self.commit_to(body["commitment"])
        fixed = body["fixed_seed"]
        if fixed is not None:
            self._emit({"type": "notice", "text": f"the host chose the seed ({fixed})"
                                                  ": a practice deal, not a fair shuffle"})
        self.dealt = body
        self._fail(fairness.check_parts(self.asked, body["contributions"], body["players"],
                                        self.contribution, seat, fixed is not None,
                                        self.announced))
        players = body["players"]
        self.proven = [identity.proven(p, self.commitment, i) if isinstance(p, dict) else None
                       for i, p in enumerate(players)]
        forged = [str(p.get("name")) for i, p in enumerate(players)
                  if isinstance(p, dict) and p.get("sig") and self.proven[i] is None]
        if forged:
            self._emit({"type": "notice", "text": "WARNING: the identity the host gives for "
                                                  f"{', '.join(forged)} is not proven: this "
                                                  "game counts for nobody's rating there"})

    def verdict(self, result: dict[str, Any] | None, reveal: dict[str, Any] | None,
                seat: int | None, seen: dict[int, dict[str, Any]],
                present: bool = False) -> fairness.Verdict:
        """The game's verdict once it is over; `present`: this peer played its seat when the
        game ended (see `fairness.verify`)."""
        if self.doubt is not None:
            return self.doubt
        if not reveal:
            return fairness.Verdict(False, "no_reveal")
        return fairness.verify(self.commitment, reveal, seat, seen, result, self.contribution,
                               asked=self.asked, start=self.dealt, present=present,
                               announced=self.announced)

    def closed_verdict(self, reveal: dict[str, Any], seat: int | None,
                       seen: dict[int, dict[str, Any]]) -> fairness.Verdict:
        """The verdict on a game its host closed before the end (net.host.closing): the deal
        checked as at an end, the game replayed to the state the host closed at, and the close
        signed by the host's own seat for this game. This peer received it at its seat, so a
        `left` that names that seat is refused (`left_me`): closing never costs a guest."""
        verdict = self.verdict(None, reveal, seat, seen, present=seat is not None)
        if not verdict.ok:
            return verdict
        record = reveal["record"]
        left = reveal.get("left")
        if not (isinstance(left, list) and all(type(s) is int for s in left)
                and closing.check(reveal.get("closed"), record.get("players") or [],
                                  self.commitment, len(record.get("moves") or []),
                                  sorted(left))):
            return fairness.Verdict(False, "closed")
        return verdict

    def _fail(self, verdict: fairness.Verdict | None) -> None:
        """A failed check before the end (None: it passed): kept as this game's verdict and
        said at once, the first time."""
        if verdict is None or self.doubt is not None:
            return
        self.doubt = verdict
        self._emit({"type": "notice", "text": f"WARNING: this deal was NOT verified: "
                                              f"{verdict.reason}",
                    "verdict": {"code": verdict.code, "args": verdict.args}})
