"""Floor engines: each game's random playouts written as plainly as Python allows (one mutable
state, moves made in place, no contract, no checks, no views), to measure how close the
engines' own playout paths come. Same rules as the engines for what a random game touches;
nothing here is used by the product.

Where a game's legal moves come from a sizeable rules kernel (Skip-Bo Breakers' set generator
with its memo of each hand's plays, Scho K.O.'s table frontiers), the floor calls that kernel
rather than writing it a second time: its figure then bounds what the engine adds around the
kernel (states, moves, checks), which is what the playout path can win back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import sub
from typing import Any

from bench.floor_chez import chez_geek
from engines.schoko.engine import spots
from engines.schoko.geometry import Layout
from engines.schoko.rules import HAND_SIZE as SCHOKO_HAND
from engines.schoko.rules import PASSES_TO_END as SCHOKO_PASSES
from engines.schoko.tiles import DECK as SCHOKO_DECK
from engines.skipbo_breakers.engine import _offer_remembered
from engines.skipbo_breakers.rules import DECK as SKIPBO_DECK
from engines.skipbo_breakers.rules import HAND_SIZES as SKIPBO_HANDS
from engines.skipbo_breakers.rules import POINTS_TO_WIN, classify, counts_of

SCHOENE_CHIPS = {3: 11, 4: 11, 5: 11, 6: 9, 7: 7}


def schoene(n: int, seed: int, rng: random.Random) -> int:
    """One random game of Schöne Sch#!?e with lucky pigs; returns the moves made."""
    deck = list(range(3, 36))
    random.Random(seed).shuffle(deck)
    order = deck[:24]
    chips = [SCHOENE_CHIPS[n]] * n
    cards: list[list[int]] = [[] for _ in range(n)]
    pig = [True] * n
    won = [0] * n
    pos, centre, pot, pigs, turn, moves = 1, order[0], 0, [], seed % n, 0
    while True:
        kinds = ["take"]
        if chips[turn]:
            kinds.append("pay")
        if pig[turn]:
            kinds.append("pig")
        kind = rng.choice(kinds)
        moves += 1
        if kind == "pay":
            chips[turn] -= 1
            pot += 1
        elif kind == "pig":
            pig[turn] = False
            pigs.append(turn)
        if kind != "take" and len(pigs) < n:
            turn = (turn + 1) % n
            while turn in pigs:
                turn = (turn + 1) % n
            continue
        if kind == "take":
            chips[turn] += pot
            cards[turn].append(centre)
            won[turn] += len(pigs)
            pot = 0
        pigs = []
        if pos == len(order):
            return moves
        centre, pos = order[pos], pos + 1


ZWERG_DECK = [f for f in range(9) for _ in range(4)]  # faces: 5 is the amulet, 6-8 dwarves
ZWERG_POINTS = (11, 10, 4, 3, 2, 0, 0, 0, 0)
ZWERG_DWARVES = (0, 0, 0, 0, 0, 0, 1, 1, 2)
ZWERG_HAND = {2: 12, 3: 8, 4: 7, 5: 6, 6: 5}


def zwergenamulett(n: int, seed: int, rng: random.Random) -> int:
    """One random game of Das Zwergenamulett (nobody announces); returns the moves made."""
    deal = random.Random(seed)
    gold, pool, leader, moves = [0] * n, 13, seed % n, 0
    while True:
        deck = ZWERG_DECK[:]
        deal.shuffle(deck)
        size = ZWERG_HAND[n]
        hands = [deck[i * size : (i + 1) * size] for i in range(n)]
        won: list[list[int]] = [[] for _ in range(n)]
        turn = leader
        for _ in range(size):
            trick = []
            for _ in range(n):
                hand = hands[turn]
                trick.append(hand.pop(int(rng.random() * len(hand))))
                turn = (turn + 1) % n
                moves += 1
            taking = 5 if 5 in trick else trick[0]
            taker = (turn + len(trick) - 1 - trick[::-1].index(taking)) % n
            won[taker] += trick
            turn = taker
        points = [
            sum(ZWERG_POINTS[f] for f in pile)
            + (sum(ZWERG_DWARVES[f] for f in pile) if 5 in pile else 0)
            for pile in won
        ]
        best = max(points)
        for p in range(n):
            if points[p] == best and pool:
                gold[p] += 1
                pool -= 1
        if max(gold) >= 3 or not pool:
            return moves
        leader = (leader + 1) % n


# Skip-Bo Breakers: what each offered play does (tiles used per number, set, tile count),
# remembered per play; which plays a hand offers is the engine's own remembered kernel.
_SKIPBO_PLAYS: dict[Any, Any] = {}
CACHE_LIMIT = 200_000


def _skipbo_play(play: Any) -> Any:
    found = _SKIPBO_PLAYS.get(play)
    if found is None:
        if len(_SKIPBO_PLAYS) >= CACHE_LIMIT:
            _SKIPBO_PLAYS.clear()
        tiles, values = play
        found = _SKIPBO_PLAYS[play] = (counts_of(tiles), classify(tiles, values), len(tiles))
    return found


def skipbo_breakers(n: int, seed: int, rng: random.Random) -> int:
    """One random game of Skip-Bo Breakers to 50 points; returns the moves made."""
    size = SKIPBO_HANDS[n]
    scores, leader, moves, hand_no = [0] * n, seed % n, 0, 1
    while True:
        tiles = list(SKIPBO_DECK)
        random.Random(f"{seed}:hand {hand_no}").shuffle(tiles)
        hands = [counts_of(tiles[i * size : (i + 1) * size]) for i in range(n)]
        left = [size] * n
        winner = None
        turn = top = leader
        table = None
        passes = 0
        while True:
            offers = _offer_remembered(hands[turn], table)
            pick = offers[int(rng.random() * len(offers))]
            moves += 1
            if pick is None:
                passes += 1
            else:
                used, table, count = _skipbo_play(pick)
                hands[turn] = tuple(map(sub, hands[turn], used))
                left[turn] -= count
                top, passes = turn, 0
                if not left[turn] and winner is None:
                    winner = turn
            if passes >= n - left.count(0) - (left[top] > 0):  # the others all passed
                table, passes = None, 0
                if winner is not None:
                    break
                turn = top
                continue
            turn = (turn + 1) % n
            while not left[turn]:
                turn = (turn + 1) % n
        scores[winner] += sum(left)
        if scores[winner] >= POINTS_TO_WIN:
            return moves
        leader, hand_no = winner, hand_no + 1


def schoko(n: int, seed: int, rng: random.Random) -> int:
    """One random game of Scho K.O. (two players; the table is geometry.Layout, laid in
    place); returns the moves made."""
    pile = list(SCHOKO_DECK)
    random.Random(seed).shuffle(pile)
    hands = [pile[:SCHOKO_HAND], pile[SCHOKO_HAND : 2 * SCHOKO_HAND]]
    del pile[: 2 * SCHOKO_HAND]
    layout = Layout()
    turn, passes, moves = seed % 2, 0, 1  # the first move chooses a colour
    rng.random()
    while passes < SCHOKO_PASSES and (pile or hands[0] or hands[1]):
        options = list(spots(layout, hands[turn]))
        moves += 1
        if not options:
            passes += 1
        else:
            placement = options[int(rng.random() * len(options))]
            layout.place(*placement)
            hands[turn].remove(placement[0])
            if pile:
                hands[turn].append(pile.pop())
            passes = 0
        turn = 1 - turn
    return moves


FLOORS: dict[str, Callable[[int, int, random.Random], int]] = {
    "schoene": schoene,
    "zwergenamulett": zwergenamulett,
    "skipbo_breakers": skipbo_breakers,
    "schoko": schoko,
    "chez_geek": chez_geek,
}
