"""How many turns a seat takes in a game, as the clocks count them (net.table.clocks): the
first number of each engine's `pace`. `python -m bench.clocks [--games N] [ids...]` plays
strong bots at every table size and prints the turns per seat (mean and 90th percentile) beside
the engine's `clock_turns` for that size. It asserts nothing.

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


def turns(eng: Engine, players: int, seed: int) -> list[int]:
    """The turns of each seat in one game of strong bots."""
    session = HostSession(eng.id, [SeatInfo(f"Bot {i}", "strong") for i in range(players)],
                          seed)
    setting = ClockSetting("normal", 1e9, 1.0, 0.0)
    clock = TableClock(session, setting, now=lambda: 0.0)
    counting = Counting(setting, players, 0.0)
    clock.clocks = counting
    clock.follow()
    session.run_bots()
    return counting.turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", default=list(ENGINE_IDS))
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    rows = []
    for eng in engines(args.ids):
        for players in range(eng.min_players, eng.max_players + 1):
            per_seat: list[int] = []
            for seed in range(args.games):
                per_seat.extend(turns(eng, players, seed))
            p90 = statistics.quantiles(per_seat, n=10)[-1]
            kept = eng.clock_turns.get(players, "-")
            rows.append((eng.id, players, statistics.mean(per_seat), p90, kept))
    print_table(("game", "seats", "turns/seat", "p90", "clock_turns"), rows)


if __name__ == "__main__":
    main()
