"""How long a Swiss round takes to pair: `python -m bench.pairing [--players N] [--rounds R]`
plays R-1 rounds of random results for N players (two-player games, and tables of four), then
times the pairing of round R and prints it, with the repeat meetings it could not avoid. The
aim is under a second for 1,000 players. It asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections import Counter

from bench import print_table
from net.tournament.plan import next_round
from net.tournament.scoring import Outcome
from net.tournament.swiss import Table


def _played(tables: list[Table], rng: random.Random) -> list[Outcome]:
    out = []
    for table in tables:
        order = list(range(len(table)))
        rng.shuffle(order)
        out.append(Outcome(table, tuple(order.index(s) + 1 for s in range(len(table)))))
    return out


def measure(players: int, rounds: int, size: int, seed: int) -> tuple[float, int]:
    """Seconds to pair round `rounds`, and the repeat meetings in it."""
    rng = random.Random(seed)
    field = [f"p{i}" for i in range(players)]
    past: list[list[Outcome]] = []
    for _ in range(rounds - 1):
        past.append(_played(next_round("swiss", size, field, past), rng))
    began = time.perf_counter()
    tables = next_round("swiss", size, field, past)
    took = time.perf_counter() - began
    met = Counter(frozenset(pair) for games in past for game in games
                  for pair in itertools.combinations(game.players(), 2))
    repeats = sum(met[frozenset(pair)] > 0 for table in tables
                  for pair in itertools.combinations([p for p in table if p], 2))
    return took, repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for size in (2, 4):
        took, repeats = measure(args.players, args.rounds, size, args.seed)
        rows.append([f"{size}", f"{args.players}", f"{args.rounds}", f"{took * 1000:.0f} ms",
                     str(repeats)])
    print_table(["table", "players", "round", "pairing took", "repeat meetings"], rows)


if __name__ == "__main__":
    main()
