"""Bots for Scho K.O.

The random bot lays a uniformly random legal tile. The strong bot plays for the difference of
the two largest groups: it rates every legal placement by how it changes both largest groups,
then looks one move ahead for its best few, against a greedy reply from hands it samples out of
the tiles it cannot see (the other hand and the pile, which the view never shows). It works
from the view alone, rebuilding the layout from the view's list of tiles laid.

How a placement is rated without a flood fill per move: every colour's pieces in a tile hang
together (3 + 1, or two halves of 2), so a level-1 tile joins its pieces of a colour to every
group of that colour it touches, and nothing else changes; the new largest group of that colour
is the larger of the old largest and that sum. A level-2 tile also covers pieces, which can cut
a group in two, so the best few level-2 moves by that same estimate are rated again exactly.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Move, RandomBot, View, ViewBot
from engines.schoko.engine import SchokoEngine
from engines.schoko.geometry import CELLS, NEIGHBOURS, Layout, key
from engines.schoko.tiles import COLOUR_INDEX, COLOURS, DECK, PATTERNS, whites_in

# Tuned against the random bot (bench.bots).
EXACT_LEVEL2 = 6  # level-2 moves rated exactly, best estimates first
LOOKAHEAD = 3  # best moves looked at one reply deeper
SAMPLES = 2  # hands sampled for the other player per move looked ahead
GROWTH = 0.01  # tie-break: prefer a move whose own new group is bigger...
BLOCK = 0.005  # ...and whose pieces of the other colour join a smaller group
PIECES = len(CELLS)  # pieces per tile
EXPERT_CANDIDATES = 5  # placements the expert searches, best rated first


class Position:
    """A layout with its top-view groups labelled, to rate placements on."""

    __slots__ = ("label", "largest", "layout", "size")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.label: dict[int, int] = {}
        self.size: list[int] = []
        self.largest = [0, 0]
        for colour, groups in enumerate(layout.groups()):
            if groups:
                self.largest[colour] = len(groups[0])
            for group in groups:
                index = len(self.size)
                self.size.append(len(group))
                for cell in group:
                    self.label[cell] = index

    def joined(self, k: int, pattern: tuple[int, ...]) -> tuple[int, int]:
        """Per colour, the size of the group the tile's pieces of that colour would make with
        what they touch (both at once: rating every placement is most of a search)."""
        top, label = self.layout.top, self.label
        touched: tuple[set[int], set[int]] = (set(), set())
        for d, colour in _EDGES[pattern]:
            if top.get(k + d) == colour:
                touched[colour].add(label[k + d])
        size = self.size
        white, dark = _COUNTS[pattern]
        return (white + sum([size[g] for g in touched[0]]),
                dark + sum([size[g] for g in touched[1]]))

    def rate(self, move: Move, me: int) -> tuple[float, int]:
        """(estimated largest-group difference for colour `me` after `move`, with the
        tie-break terms; the plain difference)."""
        pattern = PATTERNS[move["tile"]][move["rot"]]
        sizes = self.joined(key(move["x"], move["y"]), pattern)
        mine, theirs = sizes[me], sizes[1 - me]
        diff = max(self.largest[me], mine) - max(self.largest[1 - me], theirs)
        return diff + GROWTH * mine - BLOCK * theirs, diff


# Per pattern: (offset, colour of the piece of the tile that cell meets) for each cell edge to
# edge with the tile, and the tile's pieces of each colour.
_EDGES = {
    p: tuple((d, p[piece]) for piece, d in NEIGHBOURS) for turns in PATTERNS.values()
    for p in turns
}
_COUNTS = {p: (p.count(0), p.count(1)) for p in _EDGES}


def exact_diff(layout: Layout, move: Move, me: int) -> int:
    """Largest-group difference for colour `me` after `move`, by a flood fill."""
    sizes = layout.sizes_after(move["tile"], move["x"], move["y"], move["rot"], move["level"])
    return (sizes[me][:1] or [0])[0] - (sizes[1 - me][:1] or [0])[0]


def ranked(position: Position, legal: list[Move], me: int) -> list[tuple[float, int, Move]]:
    """(score, index in legal, move) for every placement, best first: level-1 moves rated
    by the join estimate, the best level-2 ones exactly."""
    rows: list[tuple[float, int, Move]] = []
    level2: list[tuple[float, int, Move]] = []
    for i, move in enumerate(legal):
        score, _ = position.rate(move, me)
        (rows if move["level"] == 1 else level2).append((score, i, move))
    level2.sort(key=lambda r: -r[0])
    for score, i, move in level2[:EXACT_LEVEL2]:
        _, estimate = position.rate(move, me)
        rows.append((score - estimate + exact_diff(position.layout, move, me), i, move))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return rows


def unseen_tiles(view: View) -> list[str]:
    """The tiles the seat cannot see: all but those laid and its own hand."""
    rest = list(DECK)
    for tile in [t["tile"] for t in view["tiles"]] + list(view["hand"]):
        rest.remove(tile)
    return rest


def favoured_colour(hand: list[str] | tuple[str, ...]) -> int:
    """The colour (index) of most of the pieces in `hand`: white on a tie."""
    whites = sum(whites_in(t) for t in hand)
    return 0 if 2 * whites >= PIECES * len(hand) else 1


class StrongBot(ViewBot):
    name = "strong"

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        if not legal:
            return None
        if legal[0]["type"] == "colour":
            return {"type": "colour", "colour": COLOURS[favoured_colour(view["hand"])]}
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        me = COLOUR_INDEX[view["colours"][seat]]
        layout = SchokoEngine.layout_of(view)
        rows = ranked(Position(layout), legal, me)
        other_hand = view["hand_sizes"][1 - seat]
        if other_hand == 0 or len(rows) == 1:
            return rows[0][2]
        unseen = unseen_tiles(view)
        best: tuple[float, int] | None = None
        choice = rows[0][2]
        for score, i, move in rows[:LOOKAHEAD]:
            value = score + self._reply(layout, move, me, unseen, other_hand, rng)
            if best is None or (value, -i) > best:
                best, choice = (value, -i), move
        return choice

    @staticmethod
    def _reply(
        layout: Layout, move: Move, me: int, unseen: list[str], size: int, rng: random.Random
    ) -> float:
        """How much the other player's best greedy reply takes off the difference, on average
        over sampled hands (0 if it cannot place)."""
        after = layout.clone()
        after.place(move["tile"], move["x"], move["y"], move["rot"], move["level"])
        position = Position(after)
        base = position.largest[me] - position.largest[1 - me]
        total = 0.0
        for _ in range(SAMPLES):
            hand = rng.sample(unseen, size)
            replies = SchokoEngine.placements(after, hand)
            worst = 0.0
            for reply in replies:
                _, diff = position.rate(reply, me)
                worst = min(worst, diff - base)
            total += worst
        return total / SAMPLES


class GreedyBot(StrongBot):
    """The strong bot without its look-ahead: the best placement by the one-move rating. The
    expert's playouts are made of it (engines.search): cheap, and a fair model of a reply.
    `step` makes its move in place on a playout copy, rating the copy's own layout rather
    than one rebuilt from a view (which cost a third of a search)."""

    name = "greedy"

    def __init__(self, eng: SchokoEngine) -> None:
        self.eng = eng

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        if len(legal) <= 1 or legal[0]["type"] != "place":
            return super().decide(view, legal, rng)
        return expert_candidates(view, legal, 1)[0]

    def step(self, state: Any, rng: random.Random) -> int:
        eng, seat = self.eng, state.turn
        if state.colours is None:
            eng._colour_on(state, seat, favoured_colour(state.hands[seat]))
            return 1
        legal = eng.placements(state.layout, state.hands[seat])
        if not legal:
            eng._pass_on(state, seat)
            return 1
        move = legal[0]
        if len(legal) > 1:
            move = ranked(Position(state.layout), legal, state.colours[seat])[0][2]
        eng._place_on(state, seat, (move["tile"], move["x"], move["y"], move["rot"], move["level"]))
        return 1


def expert_candidates(view: View, legal: list[Move], count: int = 0) -> list[Move]:
    """The placements the expert searches (engines.search.Candidates): the strong bot's best
    few by its one-move rating; the search then weighs them against replies and the pile."""
    if not legal or legal[0]["type"] != "place":
        return legal
    me = COLOUR_INDEX[view["colours"][view["seat"]]]
    rows = ranked(Position(SchokoEngine.layout_of(view)), legal, me)
    return [move for _, _, move in rows[: count or EXPERT_CANDIDATES]]


BOTS: dict[str, Any] = {"random": RandomBot(), "strong": StrongBot()}
