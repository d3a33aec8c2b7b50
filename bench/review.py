"""How fast a game is reviewed and how stable its grades are (engines.coach, net.records.review).

For each game: bot games are played and recorded as the app records them, then one seat of
each (the expert's, and a random bot's) is reviewed twice, with two seeds of the searches, on
the coach's review budget (or `--factor` times the expert's). It prints the CPU seconds a
decision and a 40-decision game takes on one core, how often the two reviews gave the same
grade (stability), and each seat's grades and mean loss of win chance.

`python -m bench.review [--games N] [--factor F] [ids...]`; the records go to a temporary data
directory. Keep samples modest on a shared machine: each decision is a search of about a
second.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from bench import engines, print_table
from engines import ENGINE_IDS, coach
from net import home, records
from net.records import review
from net.table.session import HostSession, SeatInfo

# The seats of a bench game: the expert, a random bot, and strong bots for the rest.
HERO_LEVELS = ("expert", "random")


def played_record(game: str, levels: list[str], seed: int) -> Path:
    """A game of bots of `levels`, dealt from `seed`, recorded in the data directory as a
    local table records it; its path."""
    session = HostSession(game, [SeatInfo(f"{level.title()} {seat + 1}", level)
                                 for seat, level in enumerate(levels)], seed)
    recorder = records.LocalRecorder(session, [], fixed_seed=True)
    while not session.over:
        found = session.pending_bot()
        assert found is not None, "every bot passed"
        session.submit(*found)
    assert recorder.path is not None
    return recorder.path


def levels_for(game: str) -> list[str]:
    eng = next(engines([game]))
    players = max(eng.min_players, min(3, eng.max_players))
    return [*HERO_LEVELS, *["strong"] * (players - len(HERO_LEVELS))]


def measure(game: str, games: int, iterations: int | None) -> list[object]:
    eng = next(engines([game]))
    iterations = iterations or coach.budget(eng, coach.REVIEW)
    decisions = same = 0
    cpu = 0.0
    grades = {level: dict.fromkeys(coach.GRADES, 0) for level in HERO_LEVELS}
    loss = dict.fromkeys(HERO_LEVELS, 0.0)
    judged = dict.fromkeys(HERO_LEVELS, 0)
    for seed in range(games):
        replay = records.Replay(records.load(played_record(game, levels_for(game), seed)))
        for seat, level in enumerate(HERO_LEVELS):
            started = time.process_time()
            first = review.review(replay, seat, iterations=iterations, seed=1, cache=False)
            cpu += time.process_time() - started
            second = review.review(replay, seat, iterations=iterations, seed=2, cache=False)
            decisions += len(first)
            same += sum(a["grade"] == b["grade"] for a, b in zip(first, second, strict=True))
            for row in first:
                grades[level][row["grade"]] += 1
                loss[level] += row["loss"]
            judged[level] += len(first)
    per = cpu / max(decisions, 1)
    bad = {lv: grades[lv][coach.MISTAKE] + grades[lv][coach.BLUNDER] for lv in HERO_LEVELS}
    return [
        game, iterations, decisions, round(per, 2), round(per * 40, 1),
        f"{same / max(decisions, 1):.1%}",
        *(f"{bad[lv]}/{judged[lv]} ({loss[lv] / max(judged[lv], 1):.3f})" for lv in HERO_LEVELS),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS))
    parser.add_argument("--games", type=int, default=1, help="bot games reviewed a game")
    parser.add_argument("--factor", type=float, default=None,
                        help="review budget as this many times the expert's iterations")
    args = parser.parse_args()
    os.environ[home.HOME_ENV] = tempfile.mkdtemp(prefix="tabletop-review-")
    rows = []
    for game in args.ids:
        eng = next(engines([game]))
        iterations = (round(coach.expert_of(eng).iterations * args.factor)
                      if args.factor and coach.expert_of(eng).iterations else None)
        rows.append(measure(game, args.games, iterations))
    print_table(["game", "iterations", "decisions", "s/decision", "s/40 decisions",
                 "same grade", "expert bad (mean loss)", "random bad (mean loss)"], rows)


if __name__ == "__main__":
    main()
