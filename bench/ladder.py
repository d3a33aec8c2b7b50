"""The bot levels on a ladder of their own: each level plays the one below it over duplicate
deals, and the games are rated exactly as the app rates people (net.players: OpenSkill's
Plackett-Luce, places from the engine, a bot level's several seats moving its rating once).

Duplicate deals: every seed is played once with the higher level in each seat in turn and
the lower level in all the others, so neither the deal nor a seat's advantage favours anyone.
Printed per game: each level's rating (mu - 3 sigma; mu and sigma beside it), and each step's
head-to-head margin, the higher level's win share (ties split) as a multiple of the fair share;
a level is worth its name when it beats the one below in at least 60 % of two-player games,
or gets at least 1.2 times the fair share at a larger table.

Beside them, two scenarios of rating arithmetic alone (no game is played): a player who
farms, winning `--farming` two-player games thrown by a fresh second key each time, and the
honest way up, winning half of as many games against the strong bot (an established entry);
the farmer's rating must stay at or below the honest one's.

`python -m bench.ladder [ids...]`: the default budget (a few deals, an expert of 60 iterations
a move) takes a few minutes on two cores; `--deals`, `--expert-deals`, `--expert-iterations`
and `--expert-seconds` make it bigger (`--expert-seconds 0.8` is the expert as the app plays).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench import engines, print_table, table_size
from bench.bots import budgeted_expert, play
from engines import ENGINE_IDS
from engines.base import Engine
from net.players import identity
from net.players.counted import Outcome, SeatOutcome
from net.players.sqlite import SqliteLadders

LEVELS = ("random", "strong", "expert")
# What makes a level worth its name against the one below it.
TWO_PLAYER_WINS = 0.60
FAIR_SHARE_TIMES = 1.2


def duplicate(eng: Engine, ladders: SqliteLadders, lower: str, upper: tuple[str, str],
              players: int, deals: int) -> float:
    """Play `deals` seeds with the `upper` level (its name, the bot level that plays it) in
    each seat in turn against `lower` everywhere else; rate every game; the upper level's
    win share, ties split."""
    name, level = upper
    won = 0.0
    for seed in range(deals):
        for seat in range(players):
            levels = [lower] * players
            levels[seat] = level
            result = play(eng, levels, seed)
            if seat in result["winners"]:
                won += 1 / len(result["winners"])
            idents = [identity.bot(lower)] * players
            idents[seat] = identity.bot(name)
            places = eng.places(result)
            ladders.add_game(Outcome(
                f"{eng.id} {lower}-{name} {seed} {seat}", eng.id, float(seed),
                tuple(SeatOutcome(ident, ident, place, False)
                      for ident, place in zip(idents, places, strict=True))))
    return won / (deals * players)


FARMER = "id:farmer"
HONEST = "id:honest"


def two_player(ladders: SqliteLadders, key: str, winner: str, loser: str) -> None:
    """One counted two-player game of Scho K.O. that `winner` won."""
    ladders.add_game(Outcome(key, "schoko", 0.0, (SeatOutcome(winner, winner, 1, False),
                                                   SeatOutcome(loser, loser, 2, False))))


def farming(games: int) -> list[tuple[int, float, float]]:
    """(games played, the farmer's rating, the honest player's) at 20 and at `games`: the
    farmer wins every game against a fresh key of their own; the honest player wins every
    other game against the strong bot, which has played many games before."""
    ladders = SqliteLadders(Path(":memory:"))
    try:
        for n in range(40):  # the strong bot is established: it has met others before
            two_player(ladders, f"bot {n}", identity.bot("strong") if n % 2 else f"id:o{n}",
                       f"id:o{n}" if n % 2 else identity.bot("strong"))
        shown = []
        for n in range(1, games + 1):
            two_player(ladders, f"farm {n}", FARMER, f"id:fresh{n}")
            if n % 2:
                two_player(ladders, f"honest {n}", HONEST, identity.bot("strong"))
            else:
                two_player(ladders, f"honest {n}", identity.bot("strong"), HONEST)
            if n in (20, games):
                rating = {s.ident: s.skill.rating for s in ladders.ladder("schoko")}
                shown.append((n, rating[FARMER], rating[HONEST]))
        return shown
    finally:
        ladders.close()


def verdict(share: float, players: int) -> str:
    """The head-to-head margin, and whether it makes the level worth its name."""
    if players == 2:
        worth = share >= TWO_PLAYER_WINS
        return f"wins {share:.0%} of the games ({'worth its name' if worth else 'NOT enough'}" \
               f": {TWO_PLAYER_WINS:.0%} needed)"
    times = share * players
    worth = times >= FAIR_SHARE_TIMES
    return (f"{times:.2f}x the fair share {1 / players:.2f} "
            f"({'worth its name' if worth else 'NOT enough'}: {FAIR_SHARE_TIMES}x needed)")


def some(text: str) -> int:
    """A count of deals: at least one (a share of no games is no figure)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS), help="engine ids")
    parser.add_argument("--players", type=int, default=None, help="table size (default 4)")
    parser.add_argument("--deals", type=some, default=12,
                        help="deals of strong against random (each played once per seat)")
    parser.add_argument("--expert-deals", type=some, default=5,
                        help="deals of the expert against strong (each once per seat)")
    parser.add_argument("--expert-iterations", type=int, default=None,
                        help="expert search budget a move (default 60, unless seconds given)")
    parser.add_argument("--expert-seconds", type=float, default=None, help="expert s/move")
    parser.add_argument("--farming", type=int, default=200,
                        help="games in the farming scenario (0: none)")
    args = parser.parse_args(argv)
    if args.farming:
        print(f"Farming: {args.farming} games thrown by a fresh second key each, beside "
              f"winning half of {args.farming} against the strong bot.")
        print_table(["games", "farmer", "honest (half vs strong)", "pointless"],
                    [[n, round(f, 2), round(h, 2), "yes" if f <= h else "NO"]
                     for n, f, h in farming(args.farming)])
    if args.expert_iterations is None and args.expert_seconds is None:
        args.expert_iterations = 60
    budget = (f"{args.expert_iterations} iterations" if args.expert_seconds is None
              else f"{args.expert_seconds:g} s" + (f" or {args.expert_iterations} iterations"
                                                   if args.expert_iterations else ""))
    print(f"Duplicate deals: strong vs random {args.deals}, expert vs strong "
          f"{args.expert_deals}, each played once per seat; the expert searches {budget} a "
          f"move.", flush=True)
    for eng in engines(args.ids):
        start = time.perf_counter()
        n = table_size(eng, args.players)
        ladders = SqliteLadders(Path(":memory:"))
        steps = []
        try:
            share = duplicate(eng, ladders, "random", ("strong", "strong"), n, args.deals)
            steps.append(("strong", "random", share))
            with budgeted_expert(eng, args.expert_iterations, args.expert_seconds) as (
                    level, timed):
                share = duplicate(eng, ladders, "strong", ("expert", level), n,
                                  args.expert_deals)
            steps.append(("expert", "strong", share))
            ranked = ladders.ladder(eng.id)
        finally:
            ladders.close()
        print(f"\n{eng.title} ({eng.id}), {n} players; {time.perf_counter() - start:.0f} s, "
              f"the expert {timed.seconds / max(timed.moves, 1) * 1e3:.0f} ms a move")
        print_table(["level", "rating", "mu", "sigma", "games"],
                    [[s.ident, round(s.skill.rating, 2), round(s.skill.mu, 2),
                      round(s.skill.sigma, 2), s.games] for s in ranked])
        for upper, lower, share in steps:
            print(f"  {upper} vs {lower}: {verdict(share, n)}")


if __name__ == "__main__":
    main()
