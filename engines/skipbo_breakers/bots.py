"""Bots for Skip-Bo Breakers. They read only the seat's view and the legal moves.

Only the player who goes out first scores, so the strong bot plays to empty its hand in as few
sets as it can. It prices a hand by a quick greedy split into sets (`hand_cost`): Breakers first
(kept whole), then the longest straights, runs of pairs, pairs, and what is left as singles,
the low singles costing extra because nobody lets them win a trick; each joker takes a set off
the count. A lead is the play that leaves the cheapest hand, low sets before high ones; a follow
is played when it costs the hand nothing (the play is one of the hand's own sets), otherwise the
bot passes. Breakers and jokers are kept for when they matter: going out, or stopping a player
who is about to go out. It counts the tiles still out (the view's `played` and its own hand) to
know when a single or a pair can no longer be beaten except by a Breaker, and then spends it to
take the lead.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Move, RandomBot, View, ViewBot
from engines.skipbo_breakers.engine import SkipBoBreakersEngine, as_move
from engines.skipbo_breakers.rules import COPIES, JOKER, TOP, counts_of

# Heuristic weights, tuned with `python -m bench.bots skipbo_breakers`.
JOKER_WORTH = 0.9  # sets a joker saves in the hand it stays in
BREAKER_WORTH = 0.4  # a Breaker kept: a sure trick for later
LOW_SINGLE = 0.6  # extra cost of a single 1, falling to 0 at SINGLE_SAFE
SINGLE_SAFE = 11
LEAD_LOW = 0.02  # per number of a lead's rank: lead low sets first, keep high ones
FOLLOW_SLACK = 0.35  # a follow may cost the hand this much and still be played
DANGER_TILES = 3  # an opponent with this few tiles left may go out soon: stop them
BOSS_BONUS = 0.5  # a play nobody can beat but with a Breaker wins the lead back
RESERVE_COST = 1.0  # spending a joker or a Breaker while nobody is about to go out


def hand_cost(counts: tuple[int, ...]) -> float:
    """About how many plays it takes to shed this hand (see the module docstring)."""
    found = _COSTS.get(counts)
    if found is not None:
        return found
    c = list(counts)
    cost = 0.0
    for v in range(1, TOP + 1):
        if c[v] >= 3:
            cost += 1 - BREAKER_WORTH
            c[v] = 0
    for need, shortest in ((1, 3), (2, 2)):
        while True:
            best_len, best_start, run = 0, 0, 0
            for v in range(1, TOP + 2):
                if v <= TOP and c[v] >= need:
                    run += 1
                    continue
                if run > best_len:
                    best_len, best_start = run, v - run
                run = 0
            if best_len < shortest:
                break
            for v in range(best_start, best_start + best_len):
                c[v] -= need
            cost += 1
    for v in range(1, TOP + 1):
        if c[v] == 2:
            cost += 1
        elif c[v] == 1:
            cost += 1 + LOW_SINGLE * max(0, SINGLE_SAFE - v) / (SINGLE_SAFE - 1)
    cost = max(0.0, cost - JOKER_WORTH * c[JOKER])
    if len(_COSTS) > 100_000:
        _COSTS.clear()
    _COSTS[counts] = cost
    return cost


_COSTS: dict[tuple[int, ...], float] = {}


def _minus(hand: tuple[int, ...], tiles: list[Any]) -> tuple[int, ...]:
    used = counts_of(tiles)
    return tuple(h - u for h, u in zip(hand, used, strict=True))


class StrongBot(ViewBot):
    """Sheds its hand in as few sets as it can; keeps Breakers and jokers for when they
    matter; counts the tiles still out."""

    name = "strong"

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        if len(legal) <= 1:
            return legal[0] if legal else None
        hand = counts_of(view["hand"])
        plays = [m for m in legal if m["type"] == "play"]
        for move in plays:
            if len(move["tiles"]) == sum(hand):
                return move  # going out wins the hand
        seat = view["seat"]
        danger = any(
            0 < left <= DANGER_TILES for p, left in enumerate(view["tiles_left"]) if p != seat
        )
        before = hand_cost(hand)
        table = view["table"]
        scored = self.scored(view, plays, hand, danger)
        if not scored:
            return legal[-1]
        cost, best = min(scored, key=lambda pair: pair[0])
        if table is None:
            return best
        if danger and table["seat"] != seat:
            return best
        return best if cost - before <= FOLLOW_SLACK else {"type": "pass"}

    def scored(
        self, view: View, plays: list[Move], hand: tuple[int, ...], danger: bool
    ) -> list[tuple[float, Move]]:
        """(cost of the hand it leaves, play) for every play: lower is better."""
        unseen = self._unseen(view, hand)
        table = view["table"]
        scored = []
        for move in plays:
            after = _minus(hand, move["tiles"])
            cost = hand_cost(after) + LEAD_LOW * max(move["values"])
            uses_reserve = "SB" in move["tiles"] or _is_breaker(move)
            if uses_reserve and not danger:
                cost += RESERVE_COST
            if table is not None and self._boss(move, unseen):
                cost -= BOSS_BONUS
            scored.append((cost, move))
        return scored

    @staticmethod
    def _unseen(view: View, hand: tuple[int, ...]) -> list[int]:
        """Tiles of each number (index 0: jokers) neither in this hand nor played yet."""
        played = counts_of(view["played"])
        return [COPIES - h - p for h, p in zip(hand, played, strict=True)]

    @staticmethod
    def _boss(move: Move, unseen: list[int]) -> bool:
        """A single or pair nothing still out can beat, Breakers aside."""
        values = move["values"]
        if len(values) > 2 or values[0] != values[-1]:
            return False
        need = len(values)
        jokers = unseen[JOKER]
        return all(unseen[v] + jokers < need for v in range(values[0] + 1, TOP + 1))


def _is_breaker(move: Move) -> bool:
    values = move["values"]
    return len(values) >= 3 and values[0] == values[-1]


class FastRandomBot(RandomBot):
    """Uniform among the legal moves, as `RandomBot`, but picks from the engine's `offered`
    plays and builds only the move it picks: random playouts call it for every move. The
    same rng call on a list of the same length picks the same index, so it chooses exactly
    what `RandomBot.decide` would from the view."""

    def choose(
        self, eng: SkipBoBreakersEngine, state: Any, seat: int, rng: random.Random
    ) -> Move | None:
        offered = eng.offered(state, seat)
        return as_move(rng.choice(offered)) if offered else None


BOTS = {"random": FastRandomBot(), "strong": StrongBot()}
EXPERT_CANDIDATES = 3  # plays the expert searches, cheapest first (and a pass where legal)


def expert_candidates(view: View, legal: list[Move]) -> list[Move]:
    """The moves the expert searches (engines.search.Candidates): the strong bot's cheapest
    few plays by the hand they leave, a pass where one is legal, or going out where it can."""
    hand = counts_of(view["hand"])
    plays = [m for m in legal if m["type"] == "play"]
    out = [m for m in plays if len(m["tiles"]) == sum(hand)]
    if out:
        return out[:1]
    ranked = sorted(BOTS["strong"].scored(view, plays, hand, True), key=lambda pair: pair[0])
    moves = [move for _, move in ranked[:EXPERT_CANDIDATES]]
    return moves + [m for m in legal if m["type"] == "pass"]
