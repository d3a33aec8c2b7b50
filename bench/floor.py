"""Floor engines: each game's random playouts written as plainly as Python allows (one mutable
state, moves made in place, no contract, no checks, no views), to measure how close the
engines' own playout paths come. Same rules as the engines for what a random game touches;
nothing here is used by the product.
"""

from __future__ import annotations

import random
from collections.abc import Callable

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


FLOORS: dict[str, Callable[[int, int, random.Random], int]] = {
    "schoene": schoene,
    "zwergenamulett": zwergenamulett,
}
