"""Choosing a play from a hand of tiles, apart from any widget so it can be tested alone.

The hand is shown grouped (equal tiles stacked). A cursor walks the groups; "take" adds one
more tile of the group under it to the selection (past the last one it drops them all again),
"drop" puts one back. Whatever is selected is read at once through the engine (`readings`):
the sets it can make, the ones that beat the table first, the highest of those chosen, the
other joker values one key away. For keyboard players there is also the list of legal plays of
one set type (the selection's, the table's, or one chosen with a key), walked with up/down:
each step selects that play's tiles and reading. The list offers first what keeps the hand
strong: plays without a joker before those that spend one, plays that leave a Breaker whole
before those that split it, each of them lowest first.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from engines import get_engine
from engines.base import Move

KINDS = ("single", "pair", "pairs", "straight", "breaker")
SB = "SB"
BREAKER_SIZE = 3  # equal tiles that make a Breaker


class Picker:
    def __init__(self) -> None:
        self.engine = get_engine("skipbo_breakers")
        self.groups: list[tuple[Any, int]] = []
        self.cursor = 0
        self.chosen: dict[Any, int] = {}
        self.table: dict[str, Any] | None = None
        self.legal: list[Move] = []
        self.readings: list[dict[str, Any]] = []
        self.at = 0  # which reading is on show
        self.kind = "single"  # the type walked with up/down when nothing says otherwise
        self._kinds: dict[int, str] = {}  # legal move index -> its set type

    # -- what is on the table ----------------------------------------------------------------
    def update(self, hand: list[Any], table: dict[str, Any] | None, legal: list[Move]) -> None:
        """A new view: keep the cursor on its tile and the selection within the hand."""
        old = self.groups[self.cursor][0] if self.groups else None
        self.groups = [(tile, len(list(same))) for tile, same in groupby(hand)]
        tiles = [tile for tile, _ in self.groups]
        self.cursor = tiles.index(old) if old in tiles else min(self.cursor, len(tiles) - 1)
        self.cursor = max(self.cursor, 0)
        counts = dict(self.groups)
        kept = {t: min(n, counts.get(t, 0)) for t, n in self.chosen.items()}
        if legal != self.legal:
            self._kinds = {}
        changed = kept != self.chosen or table != self.table
        self.table, self.legal = table, legal
        self.chosen = {t: n for t, n in kept.items() if n}
        if table is not None:
            self.kind = table["set"]
        if changed or not self.readings:
            self._read()

    # -- the selection -----------------------------------------------------------------------
    def tiles(self) -> list[Any]:
        return [tile for tile, _ in self.groups for _ in range(self.chosen.get(tile, 0))]

    def step(self, delta: int) -> None:
        if self.groups:
            self.cursor = (self.cursor + delta) % len(self.groups)

    def point(self, index: int) -> None:
        if 0 <= index < len(self.groups):
            self.cursor = index

    def take(self) -> None:
        """One more tile of the group under the cursor; past the last, none of them."""
        if not self.groups:
            return
        tile, count = self.groups[self.cursor]
        have = self.chosen.get(tile, 0)
        self.chosen[tile] = have + 1 if have < count else 0
        self._read()

    def drop(self) -> None:
        if not self.groups:
            return
        tile = self.groups[self.cursor][0]
        if self.chosen.get(tile):
            self.chosen[tile] -= 1
            self._read()

    def clear(self) -> None:
        self.chosen = {}
        self._read()

    def _read(self) -> None:
        """What the selection makes: readings that beat the table first, highest first."""
        self.chosen = {t: n for t, n in self.chosen.items() if n}
        found = self.engine.readings(self.tiles())
        beating = [r for r in found if self.beats(r)]
        self.readings = beating + [r for r in found if not self.beats(r)]
        self.at = 0

    # -- readings ----------------------------------------------------------------------------
    def beats(self, reading: dict[str, Any]) -> bool:
        return bool(self.engine.beats(reading, self.table))

    def reading(self) -> dict[str, Any] | None:
        return self.readings[self.at] if self.readings else None

    def others(self) -> list[dict[str, Any]]:
        """The other useful readings (those that beat the table, if the shown one does)."""
        shown = self.reading()
        if shown is None:
            return []
        useful = [r for r in self.readings if self.beats(r) == self.beats(shown)]
        return [r for r in useful if r is not shown]

    def next_reading(self) -> None:
        """The next joker value: among the readings that beat the table if any do."""
        if not self.readings:
            return
        useful = sum(1 for r in self.readings if self.beats(r)) or len(self.readings)
        self.at = (self.at + 1) % useful

    def move(self) -> Move | None:
        """The play to send, when the shown reading may be played now."""
        shown = self.reading()
        if shown is None or not self.beats(shown) or not self._may_play():
            return None
        return {"type": "play", "tiles": list(shown["tiles"]), "values": list(shown["values"])}

    def _may_play(self) -> bool:
        return any(m["type"] == "play" for m in self.legal)

    # -- the list of legal plays of one type -------------------------------------------------
    def kind_of(self, index: int) -> str:
        if index not in self._kinds:
            move = self.legal[index]
            found = self.engine.set_of(move["tiles"], move["values"])
            self._kinds[index] = found["set"] if found else ""
        return self._kinds[index]

    def walk_kind(self) -> str:
        shown = self.reading()
        return shown["set"] if shown is not None else self.kind

    def plays_of(self, kind: str) -> list[Move]:
        """The legal plays of `kind`, those that cost the hand least first (`cost`)."""
        plays = [
            m for i, m in enumerate(self.legal) if m["type"] == "play" and self.kind_of(i) == kind
        ]
        return sorted(plays, key=lambda m: cost(m, kind, dict(self.groups)))

    def position(self) -> tuple[int, int]:
        """(1-based place of the selection in its type's list or 0, length of that list)."""
        plays = self.plays_of(self.walk_kind())
        shown = self.reading()
        for index, move in enumerate(plays):
            if shown is not None and _same(move, shown):
                return index + 1, len(plays)
        return 0, len(plays)

    def walk(self, delta: int) -> None:
        """Select the next (or previous) legal play of the type in hand (when leading with
        none of that type, of the first type there is)."""
        plays = self.plays_of(self.walk_kind())
        if not plays:
            present = [k for k in KINDS if self.plays_of(k)]
            if self.table is None and present:
                self.kind = present[0]
                self.select(self.plays_of(self.kind)[0 if delta > 0 else -1])
            return
        at, _ = self.position()
        index = (at - 1 + delta) % len(plays) if at else (0 if delta > 0 else len(plays) - 1)
        self.select(plays[index])

    def next_kind(self) -> None:
        """Walk another set type (when leading: only types with plays in them)."""
        present = [k for k in KINDS if self.plays_of(k)]
        if not present:
            return
        current = self.walk_kind()
        after = present[(present.index(current) + 1) % len(present)] if current in present else None
        self.kind = after or present[0]
        self.select(self.plays_of(self.kind)[0])

    def select(self, move: Move) -> None:
        """Make `move` the selection, shown with its own joker values."""
        self.chosen = {}
        for tile in move["tiles"]:
            self.chosen[tile] = self.chosen.get(tile, 0) + 1
        self._read()
        for index, reading in enumerate(self.readings):
            if _same(move, reading):
                self.at = index
                break
        self.kind = self.walk_kind()


def cost(move: Move, kind: str, held: dict[Any, int]) -> tuple[int, int, int]:
    """What a play takes from the hand besides its tiles: the jokers it spends, the Breakers
    it breaks up (fewer than three of the number left) and those it makes smaller (four to
    three). A Breaker played whole breaks nothing."""
    tiles = move["tiles"]
    jokers = sum(1 for t in tiles if t == SB)
    broken = smaller = 0
    if kind != "breaker":
        for tile in set(tiles) - {SB}:
            have, left = held.get(tile, 0), held.get(tile, 0) - tiles.count(tile)
            broken += have >= BREAKER_SIZE > left
            smaller += have > left >= BREAKER_SIZE
    return jokers, broken, smaller


def _same(move: Move, reading: dict[str, Any]) -> bool:
    return sorted(move["values"]) == sorted(reading["values"]) and sorted(
        map(str, move["tiles"])
    ) == sorted(map(str, reading["tiles"]))
