"""Makes the puzzle set that ships with the package: bot games dealt from fixed seeds, each
decision screened and the promising ones checked on the large budget (net.puzzles.mine),
a few puzzles a game. Prints what it looked at and what it found.

`python -m bench.puzzles [--size N] [--games G] [--level strong] [--out FILE] [--add] [ids...]`
(by default it rewrites net/puzzles/shipped.json with 3 puzzles of each game; `--add` keeps
the other games' puzzles of the file and replaces only those of the games named). The machine
may be shared: keep the size modest; every figure it prints is per game.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench import engines, print_table
from engines import ENGINE_IDS
from net.puzzles import mine
from net.puzzles.puzzle import SHIPPED, Puzzle, dump_set, load_set
from net.records import Replay

# The first seed of the games; game k is dealt from FIRST_SEED + k.
FIRST_SEED = 39_000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS))
    parser.add_argument("--size", type=int, default=3, help="puzzles per game")
    parser.add_argument("--games", type=int, default=4, help="bot games to look at, at most")
    parser.add_argument("--per-game", type=int, default=2, help="puzzles from one bot game")
    parser.add_argument("--level", default="strong", help="the bots that play the games")
    parser.add_argument("--iterations", type=int, default=None,
                        help="the check's budget (default: the game's expert's, times "
                        f"{mine.BUDGET_FACTOR})")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--add", action="store_true",
                        help="keep the file's puzzles of the other games")
    args = parser.parse_args(argv)
    found: list[Puzzle] = []
    if args.add and args.out.exists():
        found = [p for p in load_set(args.out) if p.game not in args.ids]
    rows = []
    for eng in engines(args.ids):
        started = time.perf_counter()
        own: list[Puzzle] = []
        games = decisions = 0
        for k in range(args.games):
            if len(own) >= args.size:
                break
            record = mine.self_play(eng.id, eng.min_players if eng.min_players > 2 else 2,
                                    args.level, FIRST_SEED + k)
            replay = Replay(record)
            games += 1
            decisions += sum(1 for _ in mine.decisions(replay))
            own.extend(mine.mine_replay(replay, iterations=args.iterations,
                                        limit=min(args.per_game, args.size - len(own))))
        seconds = time.perf_counter() - started
        rows.append((eng.id, games, decisions, len(own), seconds,
                     sum(p.rating for p in own) / len(own) if own else 0.0))
        print(f"{eng.id}: {len(own)} puzzles from {games} games in {seconds:.0f} s", flush=True)
        found.extend(own)
    print_table(("game", "games", "decisions", "puzzles", "seconds", "mean rating"), rows)
    args.out.write_text(dump_set(found), encoding="utf-8")
    print(f"{len(found)} puzzles written to {args.out}")


if __name__ == "__main__":
    main()
