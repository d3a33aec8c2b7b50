"""A table's word on a player, for strangers deciding whom to sit down with: their rating at a
game and the share of their counted games they played to the end (Board Game Arena shows the
same "finished" beside every name, because leaving early is what spoils a public table).

It is read from the table's own ladder (net.players.ladder), so it is only what the table saw:
a player is as reputable as the games they finished *here*. The relay asks for it for every
row of its open tables, and anybody may ask for those, as often as they like: answers are kept
for a while, so a stranger refreshing the list costs no more than one look per player a
minute.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from net.players import ladder
from net.players.store import Ladders, StoreError, Summary

Word = dict[str, float | None]  # {"rating": ..., "finished": ...}: None where nothing is known
KEEP = 60.0  # seconds an answer is kept
MOST_KEPT = 4096  # answers kept at most (then the oldest half goes)


def word(summaries: list[Summary], game: str) -> Word:
    """The rating at `game` and the finished share over every game, from a player's summary."""
    rating = next((s.skill.rating for s in summaries if s.engine == game), None)
    games = sum(s.games for s in summaries)
    finished = sum(s.finished for s in summaries) / games if games else None
    return {"rating": rating, "finished": finished}


def of(store: Ladders, ident: str, game: str) -> Word:
    """A player's word in an open store."""
    return word(store.summary(ident), game)


class TableWord:
    """The word of the table's store at `where` (a file or a database URL, as
    net.players.ladder takes them) on each player, kept for `KEEP` seconds; a store that cannot
    be read says nothing (and is asked again next time)."""

    def __init__(self, where: str | Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.where = where
        self.clock = clock
        self.kept: dict[tuple[str, str], tuple[float, Word]] = {}

    def __call__(self, ident: str, game: str) -> Word:
        now = self.clock()
        kept = self.kept.get((ident, game))
        if kept is not None and now - kept[0] < KEEP:
            return kept[1]
        try:
            store = ladder.open_store(self.where)
            try:
                found = of(store, ident, game)
            finally:
                store.close()
        except (StoreError, OSError, sqlite3.Error):
            return {"rating": None, "finished": None}
        if len(self.kept) >= MOST_KEPT:
            for key in sorted(self.kept, key=lambda k: self.kept[k][0])[:MOST_KEPT // 2]:
                del self.kept[key]
        self.kept[(ident, game)] = (now, found)
        return found
