"""`tabletop-tui review RECORD [--seat N] [--json]`: every decision of one seat of a recorded
game, judged by the expert (net.records.review), for people and scripts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engines import coach
from net import records
from net.records import review
from net.wire.text import clean


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "review", help="grade every decision of one seat of a recorded game",
        epilog="Each decision is judged from what the seat could see then: the expert's "
        "estimate of its share of the win with its own best move and with the move made, "
        f"graded good, inaccuracy (a loss of {coach.INACCURACY_LOSS:.0%} or more), mistake "
        f"({coach.MISTAKE_LOSS:.0%}) or blunder ({coach.BLUNDER_LOSS:.0%}). Finished rows are "
        "kept in the data directory, so a review asked again is at once.")
    parser.add_argument("record", help="a game record file (Past games, or one exported)")
    parser.add_argument("--seat", type=_seat, default=None,
                        help="the seat to review, 1 for the first (default: your own, else 1)")
    parser.add_argument("--json", action="store_true", help="one JSON object per decision")
    parser.add_argument("--seed", type=int, default=review.DEFAULT_SEED,
                        help="the seed of the expert's searches")
    parser.add_argument("--iterations", type=_positive, default=None,
                        help="searches a decision (default: the game's review budget)")


def _seat(text: str) -> int:
    return _positive(text, "seats count from 1") - 1


def _positive(text: str, below: str = "at least 1") -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(below)
    return value


def default_seat(record: records.Record) -> int:
    """The seat a review looks at unless told: the writer's own, else the first."""
    own = [s for s in record.own_seats() if s in review.seats_to_review(record)]
    return own[0] if own else 0


def move_text(move: Any) -> str:
    """A move in one short line: its type and its values."""
    if not isinstance(move, dict):
        return "let it pass"
    rest = " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in move.items()
                    if k != "type")
    return clean(f"{move.get('type')} {rest}".strip())


def run(args: argparse.Namespace) -> None:
    """Review the record's seat and print its rows; exit 2 with one line if it cannot."""
    try:
        record = records.load(Path(args.record))
        seat = args.seat if args.seat is not None else default_seat(record)
        review.check_seat(record, seat)
        replay = records.Replay(record)
    except records.RecordError as exc:
        print(f"tabletop-tui: {exc}", file=sys.stderr)
        raise SystemExit(2) from None

    def progress(done: int, total: int) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\rreviewing {done}/{total}", end="", file=sys.stderr, flush=True)

    rows = review.review(replay, seat, iterations=args.iterations, seed=args.seed,
                         progress=progress)
    if not args.json and sys.stderr.isatty():
        print(file=sys.stderr)
    if args.json:
        for row in rows:
            print(json.dumps({k: row[k] for k in ("state", "seat", "move", "best", "before",
                                                  "after", "loss", "sure_loss", "grade",
                                                  "agreed")},
                             ensure_ascii=False))
        return
    name = clean(str(record.players[seat]["name"]))
    print(f"{record.engine_id}: {name} (seat {seat + 1}), {len(rows)} decisions judged")
    for row in rows:
        best = "" if row["agreed"] else f"  best {move_text(row['best'])} {row['before']:.0%}"
        print(f"  {row['state']:>4}  {row['grade']:<10} {move_text(row['move'])} "
              f"{row['after']:.0%}{best}")
    tally = review.counts(rows)
    print("  " + ", ".join(f"{tally[g]} {g}" for g in coach.GRADES))
