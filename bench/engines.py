"""How fast each engine plays: random playouts per second and the cost of each contract call.

Search bots live on playouts, so these are the figures that bound how strong a bot can get in
the time a player will wait. `python -m bench.engines [--seconds S] [--players N] [ids...]`

Three playout figures side by side: through the contract (`apply`, the random bots' `choose`),
through the engine's private in-place path that search playouts take (`playout_copy` and
`random_step`, where the engine has one), and through a floor engine (bench/floor.py: the same
game written as plainly as Python allows). The ratio is floor / playout path in moves per
second (1.0 is the floor): random games of Skip-Bo Breakers vary in length too much for a few
seconds of games to compare per game.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from bench import bot_move, engines, print_table, table_size
from bench.floor import FLOORS
from bench.worst import WORST_CASES
from engines import ENGINE_IDS, get_engine
from engines.base import Engine, Move

# The playout figures are taken in turns, each path a slice of every round: on a shared machine
# the speed wanders by a quarter within seconds, and a ratio of two figures taken one after
# the other measured that as much as the paths.
ROUNDS = 10

Game = Callable[[int, random.Random], int]  # plays game number N, returns the moves made


def contract_game(eng: Engine, players: int) -> Game:
    """A game between the game's random bots through the contract. The random bot, not a
    uniform pick among legal moves, because in a game where anyone may interrupt at any time
    (Zwergenamulett's "7 Zwerge") a uniform pick would interrupt at random and never finish a
    game the way players do."""
    levels = ["random"] * players

    def play(game: int, rng: random.Random) -> int:
        state = eng.new_game(players, game)
        moves = 0
        while not eng.is_over(state):
            state = eng.apply(state, *bot_move(eng, state, levels, rng))
            moves += 1
        return moves

    return play


def fast_game(eng: Engine, players: int) -> Game | None:
    """The same game through the engine's in-place path (None: it has none)."""
    if not hasattr(eng, "random_step"):
        return None
    step, copy = eng.random_step, eng.playout_copy  # type: ignore[attr-defined]

    def play(game: int, rng: random.Random) -> int:
        state = copy(eng.new_game(players, game))
        moves = 0
        while not eng.is_over(state):
            moves += step(state, rng)
        return moves

    return play


def floor_game(engine_id: str, players: int) -> Game | None:
    """A random game of the floor engine (None: there is none for this game)."""
    floor = FLOORS.get(engine_id)
    if floor is None:
        return None
    return lambda game, rng: floor(players, game, rng)


def rates(paths: list[Game], seconds: float, rounds: int = ROUNDS) -> list[tuple[float, float]]:
    """(games, moves) per second of each path, each given `seconds` in all, in `rounds` turns."""
    games, moves, spent = [0] * len(paths), [0] * len(paths), [0.0] * len(paths)
    rngs = [random.Random(0) for _ in paths]
    for _ in range(rounds):
        for i, play in enumerate(paths):
            start = now = time.perf_counter()
            while now - start < seconds / rounds:
                moves[i] += play(games[i], rngs[i])
                games[i] += 1
                now = time.perf_counter()
            spent[i] += now - start
    return [(g / t, m / t) for g, m, t in zip(games, moves, spent, strict=True)]


def playouts(eng: Engine, players: int, seconds: float) -> tuple[float, float]:
    """Games between the game's random bots for `seconds`: (games per second, mean moves per
    game)."""
    games, moves = rates([contract_game(eng, players)], seconds, rounds=1)[0]
    return games, moves / games


def playout_paths(ids: list[str], players: int | None, seconds: float) -> None:
    """Contract, in-place path and floor side by side (see the module docstring)."""
    rows = []
    for eng in engines(ids):
        n = table_size(eng, players)
        paths = [contract_game(eng, n), fast_game(eng, n), floor_game(eng.id, n)]
        found = iter(rates([p for p in paths if p is not None], seconds))
        contract, fast, floor = (None if p is None else next(found) for p in paths)
        assert contract is not None
        path = contract if fast is None else fast
        rows.append(
            [
                eng.id,
                contract[0],
                "-" if fast is None else fast[0],
                "-" if floor is None else floor[0],
                "-" if floor is None else floor[1] / contract[1],
                "-" if floor is None else floor[1] / path[1],
            ]
        )
    print("\nRandom playouts per second: contract, search's in-place path, floor engine")
    print(f"(taken in turns over {ROUNDS} rounds; the ratios compare moves per second)")
    print_table(
        ["engine", "contract", "in-place", "floor", "floor/contract", "floor/in-place"], rows
    )


def positions(eng: Engine, players: int, count: int) -> list[tuple[Any, int, Move]]:
    """(state, seat to move, a legal move) taken from random games, to time calls on."""
    rng = random.Random(1)
    levels = ["random"] * players
    found: list[tuple[Any, int, Move]] = []
    game = 0
    while len(found) < count:
        state = eng.new_game(players, 10_000 + game)
        game += 1
        while not eng.is_over(state) and len(found) < count:
            seat, move = bot_move(eng, state, levels, rng)
            found.append((state, seat, move))
            state = eng.apply(state, seat, move)
    return found


def per_call(sample: list[tuple[Any, int, Move]], call: Callable[[Any, int, Move], Any]) -> float:
    """Mean microseconds of `call` over the sample positions (best of three passes)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for state, seat, move in sample:
            call(state, seat, move)
        best = min(best, time.perf_counter() - start)
    return best / len(sample) * 1e6


def worst_legal_moves(sample: list[tuple[Any, int, Move]], eng: Engine) -> float:
    """The slowest `legal_moves` call in the sample, in microseconds (best of three)."""
    worst = 0.0
    for state, seat, _ in sample:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            eng.legal_moves(state, seat)
            best = min(best, time.perf_counter() - start)
        worst = max(worst, best)
    return worst * 1e6


def time_worst_cases(ids: list[str]) -> None:
    """`legal_moves` on each game's hand-built worst position (bench/worst.py)."""
    rows = []
    for engine_id in ids:
        if engine_id not in WORST_CASES:
            continue
        state, seat, what = WORST_CASES[engine_id]()
        eng = get_engine(engine_id)
        moves = len(eng.legal_moves(state, seat))
        rows.append([engine_id, what, moves, worst_legal_moves([(state, seat, {})], eng) / 1e3])
    if rows:
        print("\nlegal_moves on hand-built worst cases")
        print_table(["engine", "position", "moves", "ms"], rows)


def call_costs(eng: Engine, sample: list[tuple[Any, int, Move]]) -> list[float]:
    """Mean microseconds of to_act, legal_moves, apply, view and determinize."""
    rng = random.Random(2)
    calls: list[Callable[[Any, int, Move], Any]] = [
        lambda s, seat, m: eng.to_act(s),
        lambda s, seat, m: eng.legal_moves(s, seat),
        lambda s, seat, m: eng.apply(s, seat, m),
        lambda s, seat, m: eng.view(s, seat),
        lambda s, seat, m: eng.determinize(s, seat, rng),
    ]
    return [per_call(sample, call) for call in calls]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__)
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS), help="engine ids")
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per engine")
    parser.add_argument("--players", type=int, default=None, help="table size (default 4)")
    args = parser.parse_args(argv)

    rows = []
    for eng in engines(args.ids):
        n = table_size(eng, args.players)
        rate, length = playouts(eng, n, args.seconds)
        sample = positions(eng, n, 5_000)
        rows.append(
            [eng.id, n, rate, length, *call_costs(eng, sample), worst_legal_moves(sample, eng)]
        )
    print("Random playouts (one core) and mean microseconds per call")
    print_table(
        [
            "engine",
            "players",
            "playouts/s",
            "moves/game",
            "to_act us",
            "legal_moves us",
            "apply us",
            "view us",
            "determinize us",
            "legal_moves max us",
        ],
        rows,
    )
    time_worst_cases(args.ids)
    playout_paths(args.ids, args.players, args.seconds)


if __name__ == "__main__":
    main()
