"""`tabletop-tui players --fair-play GAME [--json] [--records DIR]`: the fair-play figures of
a table's verified records (net.players.fairplay), for people and scripts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from net import records
from net.players import fairplay
from net.wire.text import clean, fit


def add_arguments(parser: argparse.ArgumentParser, game: Any) -> None:
    """The `players` command's fair-play options (`game` parses a game's id)."""
    parser.add_argument("--fair-play", type=game, default=None, metavar="GAME",
                        help="per player, how often their moves agreed with the expert's and "
                        "their mean loss of win chance; pairs who meet unusually often or "
                        "whose results are unlikely (docs/records.md)")
    parser.add_argument("--records", default=None, metavar="DIR",
                        help="with --fair-play: the records of this folder (default: the data "
                        "directory's)")


def run(args: argparse.Namespace) -> None:
    """Print the figures; exit 2 with one line if the records cannot be read."""
    folder = Path(args.records) if args.records else None
    if folder is not None and not folder.is_dir():
        print(f"tabletop-tui: {folder} is no folder of records", file=sys.stderr)
        raise SystemExit(2)
    found = [e.record for e in records.listing(folder) if e.record is not None]

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\rreviewing game {done}/{total}", end="", file=sys.stderr, flush=True)

    result = fairplay.figures(found, args.fair_play, progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        return
    print(f"Fair play at {args.fair_play}: {len(result.players)} people")
    if not result.players:
        print("  no verified games of people yet")
    for p in result.as_dict()["players"]:
        name = fit(clean(p["name"]), 20)
        print(f"  {p['ident']:<24} {name} {p['games']:>4} games {p['decisions']:>5} decisions"
              f"  agreed {p['agreement']:6.1%}  mean loss {p['mean_loss']:.3f}")
    flagged = result.flagged()
    print(f"Pairs flagged: {len(flagged)}")
    for pair in flagged:
        why = [w for w, on in (("meet often", pair.often), ("unlikely results", pair.unlikely))
               if on]
        print(f"  {pair.a} and {pair.b}: {pair.games} games, {pair.wins:g} won by the first "
              f"against {pair.expected:.1f} expected (z {pair.z:+.1f}): {', '.join(why)}")
