"""How strong each bot is: one bot of a level against a table of another, over seeded games.

A share of 1/players is what an equal bot would get; ties split the win. The hero's seat
rotates so no seat's advantage counts for it. `python -m bench.bots [--games N] [ids...]`

The expert (a search bot, under a second a move) is measured on its own: one expert against
strong bots, `--expert-games` games per game (default: the issue's targets, 400 or 200), and
the mean and slowest time it took a move. By default it plays on its game's own fixed budget
of iterations, the one a rated game plays it on, so the figure is the strength players meet;
`--expert-seconds` / `--expert-iterations` lend it another (`--expert-games 0` skips it: the
full sample takes an hour or more of a core for some games). `--first-seed` starts the deals
elsewhere, so two runs of disjoint seeds can share the work between cores.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import math
import random
import time
from collections.abc import Iterator
from typing import Any

from bench import bot_move, engines, print_table, table_size
from engines import ENGINE_IDS
from engines.base import Engine, Move
from engines.search import ExpertBot

# The sample sizes: table games 400, Scho K.O. (two players, seats swapped) 200.
EXPERT_GAMES = {"schoko": 200}
EXPERT_GAMES_DEFAULT = 400

MAX_MOVES = 100_000
# The bot level the expert plays under while `budgeted_expert` lends it another budget.
TIMED = "expert_timed"


def play(eng: Engine, levels: list[str], seed: int) -> dict[str, Any]:
    """The result of one game dealt from `seed`, each seat played by the bot of its level."""
    state = eng.new_game(len(levels), seed)
    for step in range(MAX_MOVES):
        if eng.is_over(state):
            return eng.result(state)
        state = eng.apply(state, *bot_move(eng, state, levels, random.Random(f"{seed}:{step}")))
    raise RuntimeError(f"{eng.id}: game {seed} did not end in {MAX_MOVES} moves")


def win_share(
    eng: Engine, hero: str, rest: str, players: int, games: int, first_seed: int = 0
) -> float:
    """The share of games (ties split) won by one `hero` bot against `players - 1` of `rest`,
    dealt from seeds `first_seed` on."""
    won = 0.0
    for seed in range(first_seed, first_seed + games):
        seat = seed % players
        levels = [rest] * players
        levels[seat] = hero
        winners = play(eng, levels, seed)["winners"]
        if seat in winners:
            won += 1 / len(winners)
    return won / games


class TimedBot:
    """A bot wrapper that counts its moves, the time they took and the slowest (the bound is
    on every move, not on the mean). It keeps the `KEEP` slowest decisions (state, seat and
    the rng as it was) so `retimed` can time them again: a decision that met a busy core
    looks slow once; its own cost is the best of a few repeats (the bot decides the same on
    its fixed budget, so each repeat does the same work)."""

    KEEP = 5

    def __init__(self, bot: Any) -> None:
        self.bot, self.name = bot, bot.name
        self.moves, self.seconds, self.slowest = 0, 0.0, 0.0
        self.slow: list[tuple[float, int, Engine, Any, int, Any]] = []  # a min-heap by time

    def decide(self, view: Any, legal: list[Move], rng: random.Random) -> Move | None:
        return self.bot.decide(view, legal, rng)

    def choose(self, eng: Engine, state: Any, seat: int, rng: random.Random) -> Move | None:
        was = rng.getstate()
        start = time.perf_counter()
        move = self.bot.choose(eng, state, seat, rng)
        took = time.perf_counter() - start
        self.seconds += took
        self.slowest = max(self.slowest, took)
        self.moves += 1
        kept = (took, self.moves, eng, state, seat, was)
        if len(self.slow) < self.KEEP:
            heapq.heappush(self.slow, kept)
        elif took > self.slow[0][0]:
            heapq.heapreplace(self.slow, kept)
        return move

    def retimed(self, repeats: int = 3) -> float:
        """The slowest of the kept decisions, each timed `repeats` times more (its best)."""
        worst = 0.0
        for _, _, eng, state, seat, was in self.slow:
            best = float("inf")
            for _ in range(repeats):
                rng = random.Random()
                rng.setstate(was)
                start = time.perf_counter()
                self.bot.choose(eng, state, seat, rng)
                best = min(best, time.perf_counter() - start)
            worst = max(worst, best)
        return worst


@contextlib.contextmanager
def budgeted_expert(
    eng: Engine, iterations: int | None, seconds: float | None
) -> Iterator[tuple[str, TimedBot]]:
    """The game's expert, timed, on another budget if one is given (else its own fixed one), as
    a bot level of its own for a while: (its level name, the timed bot)."""
    expert = eng.bots["expert"]
    assert isinstance(expert, ExpertBot)
    lent = iterations is not None or seconds is not None
    timed = TimedBot(expert.with_budget(iterations, seconds) if lent else expert)
    eng.bots[TIMED] = timed  # type: ignore[assignment]
    try:
        yield TIMED, timed
    finally:
        del eng.bots[TIMED]


def expert_share(
    eng: Engine,
    players: int,
    games: int,
    iterations: int | None,
    seconds: float | None,
    first_seed: int = 0,
) -> tuple[float, float, float, float]:
    """(win share of one expert against strong bots, mean seconds per expert decision, the
    slowest as played and the slowest re-timed: `TimedBot.retimed`)."""
    with budgeted_expert(eng, iterations, seconds) as (level, timed):
        share = win_share(eng, level, "strong", players, games, first_seed)
        retimed = timed.retimed()
    return share, timed.seconds / max(timed.moves, 1), timed.slowest, retimed


def _budget(eng: Engine, iterations: int | None, seconds: float | None) -> str:
    """The expert's budget in words, as the figure was measured."""
    if iterations is None and seconds is None:
        return f"its fixed {eng.bots['expert'].iterations} iterations"  # type: ignore[attr-defined]
    return " or ".join(
        part
        for part in (
            f"{iterations} iterations" if iterations is not None else "",
            f"{seconds} s" if seconds is not None else "",
        )
        if part
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__)
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS), help="engine ids")
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--players", type=int, default=None, help="table size (default 4)")
    parser.add_argument(
        "--expert-games", type=int, default=None, help="expert games per game (0: none)"
    )
    parser.add_argument("--expert-seconds", type=float, default=None, help="expert s/move")
    parser.add_argument("--expert-iterations", type=int, default=None, help="expert budget")
    parser.add_argument("--first-seed", type=int, default=0, help="the expert's first deal")
    parser.add_argument("--no-table", action="store_true", help="only the expert figures")
    args = parser.parse_args(argv)

    for eng in engines(args.ids):
        n = table_size(eng, args.players)
        games = args.expert_games
        if games is None:
            games = EXPERT_GAMES.get(eng.id, EXPERT_GAMES_DEFAULT)
        if games:
            start = time.perf_counter()
            share, per_move, slowest, retimed = expert_share(
                eng, n, games, args.expert_iterations, args.expert_seconds, args.first_seed
            )
            # Twice the standard error of the share (about a 95% interval).
            spread = 2 * math.sqrt(share * (1 - share) / games)
            budget = _budget(eng, args.expert_iterations, args.expert_seconds)
            print(
                f"\n{eng.title}: one expert ({budget}) vs {n - 1} strong, {games} games "
                f"(seeds {args.first_seed}-{args.first_seed + games - 1}): win share "
                f"{share:.3f} +- {spread:.3f} = {share * n:.2f}x +- {spread * n:.2f}x the fair "
                f"{1 / n:.2f}; {per_move * 1e3:.0f} ms per expert move, slowest "
                f"{slowest * 1e3:.0f} ms as played, {retimed * 1e3:.0f} ms re-timed; "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )
        if args.no_table:
            continue
        levels = [level for level in eng.bots if level != "expert"]
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
