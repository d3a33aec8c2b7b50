"""Time over days, as pure arithmetic of seconds: each game gives every seat some days per
move, a seat's unspent time is banked (capped), and a player's vacation freezes every game
of theirs at once. Nothing here reads a clock: callers pass `now` (the table's keeper its
injectable clock, tests a fake one), so the rules are testable in microseconds.

Rulings (where BGA and Lichess differ, ours):
- A seat starts with `days` on its bank. Its turn may last as long as its bank; moving
  spends what it used and adds `days` again, never beyond `BANK_MOVES` moves' worth
  (BGA's bank: quick players build a reserve, nobody builds a month).
- Vacation: `VACATION_DAYS` days a calendar year (UTC), taken whole days at a time from now;
  while it lasts the player's clocks stand still in every game. Coming back early gives the
  days not used back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

DAY = 86400.0
DAYS_CHOICES = (1, 2, 3, 5, 7, 14)
BANK_MOVES = 2  # a bank holds at most this many moves' worth of days
VACATION_DAYS = 21
# A last warning goes out when this share of a turn's time is left (and at most once a turn).
WARN_SHARE = 0.25


def check_days(days: int) -> int:
    """`days` per move if it is one of the choices; ValueError naming them otherwise."""
    if days not in DAYS_CHOICES:
        raise ValueError(f"days per move must be one of {', '.join(map(str, DAYS_CHOICES))}")
    return days


def first_bank(days: int) -> float:
    return days * DAY


def after_move(bank: float, used: float, days: int) -> float:
    """A seat's bank after a move that took `used` seconds of its clock."""
    return min(max(bank - used, 0.0) + days * DAY, BANK_MOVES * days * DAY)


@dataclass(frozen=True)
class Away:
    """A player's latest vacation, [start, end) in seconds since the epoch; None: never."""

    start: float | None = None
    end: float | None = None

    def at(self, now: float) -> bool:
        return self.start is not None and self.end is not None and self.start <= now < self.end

    def overlap(self, since: float, now: float) -> float:
        if self.start is None or self.end is None:
            return 0.0
        return max(0.0, min(now, self.end) - max(since, self.start))


def used(since: float, now: float, away: Away) -> float:
    """The seconds of a turn begun at `since` that count against the seat by `now`: the time
    its player was on vacation does not."""
    return max(0.0, now - since - away.overlap(since, now))


def left(bank: float, since: float, now: float, away: Away) -> float:
    """Seconds left on a seat's turn."""
    return bank - used(since, now, away)


def year_of(now: float) -> int:
    return time.gmtime(now).tm_year


def vacation_left(year: int, taken: float, now: float) -> float:
    """Days of vacation left this year, given `taken` days recorded for `year`."""
    return float(VACATION_DAYS) - (taken if year == year_of(now) else 0.0)
