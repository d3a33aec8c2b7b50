"""How many turns a seat takes in a game, as the clocks count them (net.table.clocks): the
first number of each engine's `pace`. `python -m bench.clocks [--games N] [ids...]` plays
strong bots at every table size and prints the turns per seat (mean and 90th percentile) and
the moves per turn. It asserts nothing.

A turn is what earns an increment: a seat's clock runs, the seat moves, and the clock stops
because somebody else must act (an interrupt window in between does not end it).
"""

from __future__ import annotations

import argparse
import statistics

from bench import engines, print_table
from engines import ENGINE_IDS
from engines.base import Engine
from net.table.clocks import Clocks, ClockSetting, TableClock
from net.table.session import HostSession, SeatInfo


class Counting(Clocks):
    """Clocks that count the increments each seat earns: its turns."""

    def __init__(self, setting: ClockSetting, seats: int, now: float) -> None:
        super().__init__(setting, seats, now)
        self.turns = [0] * seats

    def _credit(self, seat: int) -> None:
        self.turns[seat] += 1
        super()._credit(seat)


def turns(eng: Engine, players: int, seed: int) -> tuple[list[int], int]:
    """(turns of each seat, moves) in one game of strong bots."""
    session = HostSession(eng.id, [SeatInfo(f"Bot {i}", "strong") for i in range(players)],
                          seed)
    setting = ClockSetting("normal", 1e9, 1.0, 0.0)
    clock = TableClock(session, setting, now=lambda: 0.0)
    counting = Counting(setting, players, 0.0)
    clock.clocks = counting
    clock.follow()
    moves = session.run_bots()
    return counting.turns, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS))
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    rows = []
    for eng in engines(args.ids):
        for players in range(eng.min_players, eng.max_players + 1):
            per_seat: list[int] = []
            moves = 0
            for seed in range(args.games):
                counted, made = turns(eng, players, seed)
                per_seat.extend(counted)
                moves += made
            p90 = statistics.quantiles(per_seat, n=10)[-1]
            rows.append((eng.id, players, statistics.mean(per_seat), p90,
                         moves / max(1, sum(per_seat)), eng.pace[0]))
    print_table(("game", "seats", "turns/seat", "p90", "moves/turn", "pace"), rows)


if __name__ == "__main__":
    main()
