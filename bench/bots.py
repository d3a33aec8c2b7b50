"""How strong each bot is: one bot of a level against a table of another, over seeded games.

A share of 1/players is what an equal bot would get; ties split the win. The hero's seat
rotates so no seat's advantage counts for it. `python -m bench.bots [--games N] [ids...]`
"""

from __future__ import annotations

import argparse
import random
import time

from bench import bot_move, engines, print_table, table_size
from engines import ENGINE_IDS
from engines.base import Engine

MAX_MOVES = 100_000


def win_share(eng: Engine, hero: str, rest: str, players: int, games: int) -> float:
    """The share of games (ties split) won by one `hero` bot against `players - 1` of `rest`."""
    won = 0.0
    for seed in range(games):
        seat = seed % players
        levels = [rest] * players
        levels[seat] = hero
        state = eng.new_game(players, seed)
        for step in range(MAX_MOVES):
            if eng.is_over(state):
                break
            state = eng.apply(state, *bot_move(eng, state, levels, random.Random(f"{seed}:{step}")))
        else:
            raise RuntimeError(f"{eng.id}: game {seed} did not end in {MAX_MOVES} moves")
        winners = eng.result(state)["winners"]
        if seat in winners:
            won += 1 / len(winners)
    return won / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__)
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS), help="engine ids")
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--players", type=int, default=None, help="table size (default 4)")
    args = parser.parse_args(argv)

    for eng in engines(args.ids):
        n = table_size(eng, args.players)
        levels = list(eng.bots)
        rows = []
        for hero in levels:
            start = time.perf_counter()
            shares = [win_share(eng, hero, rest, n, args.games) for rest in levels]
            ms = (time.perf_counter() - start) / (args.games * len(levels)) * 1e3
            rows.append([hero, *shares, ms])
        print(f"\n{eng.title} ({eng.id}), {n} players, {args.games} games per pairing")
        print(
            f"win share of one bot (row) against {n - 1} of another (column); equal = {1 / n:.2f}"
        )
        print_table(["one of", *[f"vs {rest}" for rest in levels], "ms/game"], rows)


if __name__ == "__main__":
    main()
