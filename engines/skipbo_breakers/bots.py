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
from collections.abc import Sequence
from operator import sub
from typing import Any

from engines.base import Move, RandomBot, View, ViewBot
from engines.skipbo_breakers.engine import SkipBoBreakersEngine, as_move
from engines.skipbo_breakers.rules import COPIES, JOKER, SB, TOP, counts_of
from engines.skipbo_breakers.sets import Play

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


def _used(tiles: tuple[int | str, ...]) -> tuple[int, ...]:
    """The tiles of a play as counts, remembered: the same few thousand plays recur."""
    found = _USED.get(tiles)
    if found is None:
        if len(_USED) > 100_000:
            _USED.clear()
        found = _USED[tiles] = counts_of(tiles)
    return found


_USED: dict[tuple[int | str, ...], tuple[int, ...]] = {}
_RULES = SkipBoBreakersEngine()  # its in-place path, for `StrongBot.step`


class StrongBot(ViewBot):
    """Sheds its hand in as few sets as it can; keeps Breakers and jokers for when they
    matter; counts the tiles still out.

    It decides on plays as (tiles, values) tuples (`pick`), so that the expert's playouts can
    ask it straight from a state's offered plays (`step`, in place on a playout copy) without
    building a view or a single move; `decide` asks it the same from a view."""

    name = "strong"

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        if len(legal) <= 1:
            return legal[0] if legal else None
        plays = [(tuple(m["tiles"]), tuple(m["values"])) for m in legal if m["type"] == "play"]
        table = view["table"]
        play = self.pick(
            counts_of(view["hand"]),
            plays,
            None if table is None else table["seat"],
            view["seat"],
            view["tiles_left"],
            counts_of(view["played"]),
        )
        return as_move(play)

    def step(self, state: Any, rng: random.Random) -> int:
        """This bot's move on a playout copy (engines.search), made in place: one move."""
        seat = state.turn
        offered = _RULES.offered(state, seat)
        plays = [p for p in offered if p is not None]
        if len(offered) <= 1:
            play = offered[0] if offered else None
        else:
            table = None if state.table is None else state.top
            play = self.pick(state.hands[seat], plays, table, seat, state.sizes, state.played)
        _RULES.play_in_place(state, seat, play)
        return 1

    def pick(
        self,
        hand: tuple[int, ...],
        plays: list[Play],
        table_seat: int | None,
        seat: int,
        tiles_left: Sequence[int],
        played: tuple[int, ...],
    ) -> Play | None:
        """The play to make (None: pass) among `plays`, the legal ones in `legal_moves`
        order, holding `hand` (counts) on a table last played by `table_seat` (None: a
        lead), with `played` (counts) gone this hand."""
        size = sum(hand)
        for play in plays:
            if len(play[0]) == size:
                return play  # going out wins the hand
        danger = any(0 < left <= DANGER_TILES for p, left in enumerate(tiles_left) if p != seat)
        costs = self.costs(hand, plays, table_seat is not None, played, danger)
        if not costs:
            return None
        cost, best = min(zip(costs, plays, strict=True), key=lambda pair: pair[0])
        if table_seat is None or (danger and table_seat != seat):
            return best
        return best if cost - hand_cost(hand) <= FOLLOW_SLACK else None

    def costs(
        self,
        hand: tuple[int, ...],
        plays: list[Play],
        following: bool,
        played: tuple[int, ...],
        danger: bool,
    ) -> list[float]:
        """The cost of the hand each play leaves (lower is better), with its extras."""
        unseen = [COPIES - h - p for h, p in zip(hand, played, strict=True)]
        out = []
        for tiles, values in plays:
            after = tuple(map(sub, hand, _used(tiles)))
            cost = hand_cost(after) + LEAD_LOW * max(values)
            if not danger and (SB in tiles or _is_breaker(values)):
                cost += RESERVE_COST
            if following and _boss(values, unseen):
                cost -= BOSS_BONUS
            out.append(cost)
        return out


def _boss(values: tuple[int, ...], unseen: list[int]) -> bool:
    """A single or pair nothing still out can beat, Breakers aside."""
    if len(values) > 2 or values[0] != values[-1]:
        return False
    need = len(values)
    jokers = unseen[JOKER]
    return all(unseen[v] + jokers < need for v in range(values[0] + 1, TOP + 1))


def _is_breaker(values: tuple[int, ...]) -> bool:
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
    moves = [m for m in legal if m["type"] == "play"]
    out = [m for m in moves if len(m["tiles"]) == sum(hand)]
    if out:
        return out[:1]
    plays = [(tuple(m["tiles"]), tuple(m["values"])) for m in moves]
    following = view["table"] is not None
    costs = BOTS["strong"].costs(hand, plays, following, counts_of(view["played"]), True)
    ranked = sorted(zip(costs, range(len(moves)), strict=False), key=lambda pair: pair[0])
    chosen = [moves[i] for _, i in ranked[:EXPERT_CANDIDATES]]
    return chosen + [m for m in legal if m["type"] == "pass"]
