"""The table's word on the people in a room: their finished share and their rating at this game,
for the lobby to show beside their names and for the host's minimum to hold against (Board Game
Arena shows the same, because leaving early is what spoils a public table).

Only a host running at a public table has a word to give: the table names its ladder in
`TABLE_ENV` for every session (net.players.ladder), and only the people who proved their key in
their hello (net.players.identity) get one. The store is read in a worker thread, so a slow
disk or database never holds up a frame, and the table's answers are kept a minute
(net.players.reputation.TableWord), so a busy lobby costs one look per player.
"""

from __future__ import annotations

import asyncio
import math
import os

from net.players import ladder
from net.players.reputation import TableWord, Word


def at_table() -> bool:
    """Whether this app runs in a public table's session, which names the table's ladder."""
    return bool(os.environ.get(ladder.TABLE_ENV))


def table_word() -> TableWord | None:
    """The word of the table this app runs at (None: it runs at home, and knows nobody)."""
    return TableWord(os.environ[ladder.TABLE_ENV]) if at_table() else None


def percent(share: float) -> str:
    """A finished share as people read it, never rounded up past a minimum: 0.647 -> "64%"."""
    return f"{math.floor(share * 100 + 1e-9)}%"


class Standing:
    """A room's view of its table's word; `word` is None for a host away from any table."""

    def __init__(self, game: str, word: TableWord | None = None) -> None:
        self.game = game
        self.word = word
        self._one_at_a_time = asyncio.Lock()  # TableWord's cache is no place for two threads

    @property
    def known(self) -> bool:
        """Whether this room can know anybody's word."""
        return self.word is not None

    async def of(self, ident: str) -> Word | None:
        """The table's word on the player `ident` (a fingerprint); None away from a table."""
        if self.word is None:
            return None
        async with self._one_at_a_time:
            return await asyncio.to_thread(self.word, ident, self.game)

    @staticmethod
    def below(word: Word | None, minimum: float | None) -> str | None:
        """Why a person of `word` may not sit at a table asking `minimum`, or None. A person
        with no counted games yet (or no word at all) is let in: they have not left anything."""
        finished = word.get("finished") if word else None
        if minimum is None or finished is None or finished >= minimum:
            return None
        return (f"this table asks for at least {percent(minimum)} finished games; you have "
                f"{percent(finished)}")
