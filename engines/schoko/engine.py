"""Scho K.O.: the game as we play it (numbers and rulings in rules.py).

The start player first chooses a colour, then lays the first tile; after that the players
alternate laying one tile from a hand of four and drawing one. The table itself (where a tile
may go, why not, the groups) lives in geometry.Layout; this module adds hands, turns, the pile
and the end.

Moves
-----
``{"type": "colour", "colour": "white" | "dark"}``  the start player, once, before the first tile
``{"type": "place", "tile": ID, "x": int, "y": int, "rot": 0..3, "level": 1 | 2}``
``{"type": "pass"}``                                 only when no placement is legal

``legal_moves`` lists each distinct tile id of the hand once (two w3 in hand lay alike) and
each distinct pattern of it once (tiles.VARIANTS), at every spot of the frontiers.

View shape (``view(state, seat)``; ``seat=None`` is a spectator), every value msgpack-safe::

    game        "schoko"
    seat        int | None
    turn        int | None        who moves next (None once over)
    to_act      [int]             [turn], or [] once over
    over        bool
    num_players 2
    first       int               the start player (who chooses the colour)
    colours     [str | None] * 2  "white" / "dark" per seat once chosen
    hand        [tile id]         own hand in display order ([] for a spectator)
    hand_sizes  [int] * 2
    pile_size   int
    tiles       [{"tile", "x", "y", "rot", "level", "smartie": bool, "seat"}]  every tile laid,
                                  in order, with who laid it
    cells       [[x, y, "white" | "dark", level]]   every cell seen from above, row by row
    groups      [[int], [int]]    each seat's group sizes, largest first ([] before colours)
    scores      [int] * 2         each seat's largest group (0 before colours)
    passes      int               passes in a row just now
    winners     [int]             once over

Events (all public): {"kind": "colour", "seat", "colour"}, {"kind": "place", "seat", "tile",
"x", "y", "rot", "level"}, {"kind": "draw", "seat"} (never which tile), {"kind": "pass",
"seat"}, {"kind": "game_over", "winners", "scores"}.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any, ClassVar

from engines.base import (
    IllegalMove,
    Move,
    OneSeatAtATime,
    View,
    check_seat,
    check_stack,
    check_viewer,
    move_type,
    unseen,
)
from engines.schoko import geometry, stats
from engines.schoko.geometry import Layout, Placement, coords
from engines.schoko.rules import (
    HAND_SIZE,
    MISSING_GROUP_COUNTS,
    PASS_DRAWS,
    PASSES_TO_END,
    RANDOM_FIRST_PLAYER,
)
from engines.schoko.tiles import (
    COLOUR_INDEX,
    COLOURS,
    DECK,
    PATTERNS,
    SMARTIE,
    TILE_IDS,
    VARIANTS,
    sort_tiles,
)
from engines.stats import Played, Stat

PLAYERS = 2

# What each geometry.problem code means, as a player reads it.
REASONS: dict[str, str] = {
    geometry.FIRST: "The first tile lies on the table with its top-left piece at (0, 0)",
    geometry.TAKEN: "That spot is taken: only a Smartie tile on level 2 may lie on other tiles",
    geometry.CORNER: "The tile touches the layout only at a corner: it must touch two pieces "
    "edge to edge",
    geometry.APART: "The tile must touch two pieces of the layout edge to edge",
    geometry.ONE_CONTACT: "The tile touches only one piece: it must touch two",
    geometry.COLOUR: "The tile needs a same-colour contact: one of its pieces must meet a "
    "piece of its own colour",
    geometry.NOT_SMARTIE: "Only Smartie tiles may lie on level 2",
    geometry.GAP: "A tile on level 2 must lie over tiles with all four pieces, not over a gap",
    geometry.SMARTIE_BELOW: "That would cover a Smartie tile: Smartie tiles are never covered",
    geometry.ONE_TILE: "A tile on level 2 must rest on two tiles, not exactly on one",
}

_PLACE_KEYS = frozenset(("type", "tile", "x", "y", "rot", "level"))
_PASS: Move = {"type": "pass"}


class SState:
    """One moment of a game. The layout is copied on every placement (`clone`), never edited
    in a state that was handed out."""

    __slots__ = (
        "by",
        "colours",
        "ev",
        "first",
        "hands",
        "layout",
        "passes",
        "pile",
        "seed",
        "sizes",
        "turn",
    )

    seed: int
    first: int
    turn: int | None  # None once the game is over
    colours: tuple[int, int] | None  # colour index per seat, None until chosen
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # display order
    pile: tuple[str, ...]  # top first
    layout: Layout
    by: tuple[int, ...]  # who laid each tile of `layout.placed`
    passes: int
    sizes: tuple[list[int], list[int]] | None  # group sizes per colour, worked out on demand
    ev: tuple[tuple[Any, ...], ...]  # what the move that made this state did

    def clone(self) -> SState:
        c = SState.__new__(SState)
        c.seed = self.seed
        c.first = self.first
        c.turn = self.turn
        c.colours = self.colours
        c.hands = self.hands
        c.pile = self.pile
        c.layout = self.layout  # shared until a placement, which clones it
        c.by = self.by
        c.passes = self.passes
        c.sizes = None
        c.ev = ()
        return c

    def colour_sizes(self) -> tuple[list[int], list[int]]:
        if self.sizes is None:
            self.sizes = self.layout.group_sizes()
        return self.sizes

    def seat_groups(self) -> list[list[int]]:
        """Group sizes per seat, largest first; [] for both before the colours are chosen."""
        if self.colours is None:
            return [[], []]
        sizes = self.colour_sizes()
        return [list(sizes[c]) for c in self.colours]


def ranking_key(groups: list[int], length: int) -> list[int]:
    """A seat's groups as the tie-break compares them: largest first, missing ones counting
    MISSING_GROUP_COUNTS, padded to `length`."""
    return groups + [MISSING_GROUP_COUNTS] * (length - len(groups))


def winners_of(groups: list[list[int]]) -> list[int]:
    """Who wins with these group sizes (largest first): the larger largest group, then the
    second and so on; all equal is a draw (both win)."""
    length = max(len(g) for g in groups)
    keys = [ranking_key(g, length) for g in groups]
    best = max(keys)
    return [seat for seat, k in enumerate(keys) if k == best]


class SchokoEngine(OneSeatAtATime):
    id = "schoko"
    title = "Scho K.O."
    min_players = PLAYERS
    max_players = PLAYERS
    options: ClassVar[dict[str, Any]] = {}
    test_options = ("stack", "first")
    # Clocks: a pass is only for a seat with no placement, so nothing skips a turn.
    clock_turns: ClassVar[dict[int, int]] = {2: 16}
    think_seconds = 20.0

    # -- setup -------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        rng = random.Random(seed)
        if "stack" in opts:
            stack = check_stack(opts["stack"], DECK, "stack of tiles")
        else:
            stack = list(DECK)
            rng.shuffle(stack)
        first = opts.get("first")
        if first is None:
            first = rng.randrange(PLAYERS) if RANDOM_FIRST_PLAYER else 0
        elif type(first) is not int or not 0 <= first < PLAYERS:
            raise ValueError(f"first must be a seat from 0 to {PLAYERS - 1}, not {first!r}")
        s = SState.__new__(SState)
        s.seed = seed
        s.first = first
        s.turn = first
        s.colours = None
        s.hands = (sort_tiles(stack[:HAND_SIZE]), sort_tiles(stack[HAND_SIZE : 2 * HAND_SIZE]))
        s.pile = tuple(stack[2 * HAND_SIZE :])
        s.layout = Layout()
        s.by = ()
        s.passes = 0
        s.sizes = None
        s.ev = ()
        return s

    # -- reading -----------------------------------------------------------------------------
    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        s: SState = state
        if s.turn is None or seat != s.turn or type(seat) is not int:
            return []
        if s.colours is None:
            return [{"type": "colour", "colour": c} for c in COLOURS]
        moves = self.placements(s.layout, s.hands[seat])
        return moves or [_PASS]

    @staticmethod
    def placements(layout: Layout, hand: tuple[str, ...] | list[str]) -> list[Move]:
        """Every legal placement of these tiles on this layout: per distinct tile id, per
        distinct pattern, per frontier spot."""
        return [
            {"type": "place", "tile": t, "x": x, "y": y, "rot": rot, "level": level}
            for t, x, y, rot, level in spots(layout, hand)
        ]

    def view(self, state: Any, seat: int | None) -> View:
        s: SState = state
        check_viewer(PLAYERS, seat)
        over = s.turn is None
        groups = s.seat_groups()
        return {
            "game": self.id,
            "seat": seat,
            "turn": s.turn,
            "to_act": [] if over else [s.turn],
            "over": over,
            "num_players": PLAYERS,
            "first": s.first,
            "colours": [None, None] if s.colours is None else [COLOURS[c] for c in s.colours],
            "hand": [] if seat is None else list(s.hands[seat]),
            "hand_sizes": [len(h) for h in s.hands],
            "pile_size": len(s.pile),
            "tiles": laid(s),
            "cells": [[x, y, COLOURS[c], lv] for x, y, c, lv in s.layout.cells()],
            "groups": groups,
            "scores": [g[0] if g else 0 for g in groups],
            "passes": s.passes,
            "winners": winners_of(groups) if over else [],
        }

    def result(self, state: Any) -> dict[str, Any]:
        s: SState = state
        groups = s.seat_groups()
        return {
            "scores": [g[0] if g else 0 for g in groups],
            "winners": winners_of(groups),
            "groups": groups,
            "colours": [None, None] if s.colours is None else [COLOURS[c] for c in s.colours],
            "tiles_laid": len(s.layout.placed),
            "tiles": laid(s),  # the final table, for the results screen
        }

    # -- the board's questions, answered from a view ------------------------------------------
    @staticmethod
    def layout_of(view: View) -> Layout:
        """The layout a view shows, rebuilt, to ask `problem` and `groups` of (the TUI and the
        bots never see a state)."""
        return Layout.replay(
            [(t["tile"], t["x"], t["y"], t["rot"], t["level"]) for t in view["tiles"]]
        )

    @staticmethod
    def problem(layout: Layout, tile: str, x: int, y: int, rot: int, level: int) -> str | None:
        """Why this placement is illegal on `layout` (a geometry code, REASONS words it), or
        None. The same judgement `apply` makes, hand and turn aside."""
        return layout.problem(tile, x, y, rot, level)

    @staticmethod
    def pieces(tile: str, rot: int) -> list[str]:
        """The colours of a tile's pieces (top-left, top-right, bottom-left, bottom-right)
        after `rot` quarter turns clockwise, for drawing one that is not laid yet."""
        return [COLOURS[c] for c in PATTERNS[tile][rot]]

    @staticmethod
    def largest_group(layout: Layout, colour: str) -> list[tuple[int, int]]:
        """The cells of the largest group of `colour` seen from above (the first found of
        equal ones), to highlight."""
        groups = layout.groups()[COLOUR_INDEX[colour]]
        return [coords(k) for k in groups[0]] if groups else []

    # -- acting ------------------------------------------------------------------------------
    def apply(self, state: Any, seat: int, move: Move) -> Any:
        s: SState = state
        check_seat(PLAYERS, seat)
        kind = move_type(move)
        if s.turn is None:
            raise IllegalMove("The game is over: no more moves")
        if seat != s.turn:
            raise IllegalMove(f"It is not your turn: seat {s.turn} moves next")
        if kind == "colour":
            return self._choose(s, seat, move)
        if kind == "place":
            return self._place(s, seat, move)
        if kind == "pass":
            return self._pass(s, seat, move)
        raise IllegalMove(f"Unknown move {kind!r}: choose a colour, place a tile or pass")

    def _choose(self, s: SState, seat: int, move: Move) -> SState:
        if set(move) != {"type", "colour"}:
            raise IllegalMove('Choosing is {"type": "colour", "colour": "white" or "dark"}')
        if s.colours is not None:
            raise IllegalMove("The colours are already chosen")
        colour = move["colour"]
        if not isinstance(colour, str) or colour not in COLOUR_INDEX:
            raise IllegalMove(f"There is no colour {colour!r}: choose white or dark")
        t = s.clone()
        self._colour_on(t, seat, COLOUR_INDEX[colour])
        return t

    @staticmethod
    def _colour_on(t: SState, seat: int, mine: int) -> None:
        """Give `seat` the colour of index `mine` in place (`_choose` on a clone, the playout
        steps on a playout copy)."""
        t.colours = (mine, 1 - mine) if seat == 0 else (1 - mine, mine)
        t.ev = (("colour", seat, COLOURS[mine]),)

    def _place(self, s: SState, seat: int, move: Move) -> SState:
        if set(move) != _PLACE_KEYS:
            raise IllegalMove(
                'Placing is {"type": "place", "tile", "x", "y", "rot", "level"} and nothing more'
            )
        if s.colours is None:
            raise IllegalMove("Choose your colour (white or dark) before the first tile")
        tile, x, y, rot, level = (move[k] for k in ("tile", "x", "y", "rot", "level"))
        if not isinstance(tile, str) or tile not in PATTERNS:
            raise IllegalMove(f"There is no tile {tile!r}: tiles are {', '.join(TILE_IDS)}")
        if tile not in s.hands[seat]:
            raise IllegalMove(f"You have no {tile} tile in your hand")
        if type(x) is not int or type(y) is not int:
            raise IllegalMove("x and y must be whole numbers (grid cells)")
        if abs(x) > geometry.OFFSET // 2 or abs(y) > geometry.OFFSET // 2:
            raise IllegalMove("That is far off the table: the tile must touch the layout")
        if type(rot) is not int or not 0 <= rot <= 3:
            raise IllegalMove("rot must be 0, 1, 2 or 3 quarter turns clockwise")
        if level not in (1, 2) or type(level) is not int:
            raise IllegalMove("level must be 1 (on the table) or 2 (on top of tiles)")
        code = s.layout.problem(tile, x, y, rot, level)
        if code is not None:
            raise IllegalMove(REASONS[code])
        t = s.clone()
        t.layout = s.layout.clone()
        self._place_on(t, seat, (tile, x, y, rot, level))
        return t

    def _place_on(self, t: SState, seat: int, placement: Placement) -> None:
        """Lay a checked tile in place, `t.layout` being `t`'s own (`_place` makes it on a
        clone, `random_step` on a playout copy)."""
        tile = placement[0]
        t.layout.place(*placement)
        t.by = (*t.by, seat)
        t.sizes = None
        hand = list(t.hands[seat])
        hand.remove(tile)
        ev: list[tuple[Any, ...]] = [("place", seat, *placement)]
        if t.pile:
            hand.append(t.pile[0])
            t.pile = t.pile[1:]
            ev.append(("draw", seat))
        hands = list(t.hands)
        hands[seat] = sort_tiles(hand)
        t.hands = (hands[0], hands[1])
        t.passes = 0
        t.turn = 1 - seat
        if not t.pile and not t.hands[0] and not t.hands[1]:
            self._end(t, ev)
        t.ev = tuple(ev)

    def _pass(self, s: SState, seat: int, move: Move) -> SState:
        if len(move) != 1:
            raise IllegalMove("Passing takes no other fields")
        if s.colours is None:
            raise IllegalMove("Choose your colour (white or dark) first")
        if self.placements(s.layout, s.hands[seat]):
            raise IllegalMove("You can still place a tile: you may pass only when none fits")
        t = s.clone()
        self._pass_on(t, seat)
        return t

    def _pass_on(self, t: SState, seat: int) -> None:
        ev: list[tuple[Any, ...]] = [("pass", seat)]
        if PASS_DRAWS and t.pile:
            hands = list(t.hands)
            hands[seat] = sort_tiles([*t.hands[seat], t.pile[0]])
            t.hands = (hands[0], hands[1])
            t.pile = t.pile[1:]
            ev.append(("draw", seat))
        t.passes += 1
        t.turn = 1 - seat
        if t.passes >= PASSES_TO_END:
            self._end(t, ev)
        t.ev = tuple(ev)

    # -- the private fast path of search playouts (engines.search) --------------------------
    def playout_copy(self, state: Any) -> SState:
        """A private copy that `random_step` may change in place (its own layout)."""
        c = state.clone()
        c.layout = state.layout.clone()
        return c

    def random_step(self, state: Any, rng: random.Random) -> int:
        """The move the random bot would make (the same draw from `rng` as its `choose` on
        `legal_moves`), made in place on a `playout_copy`, without building any move."""
        seat = state.turn
        if state.colours is None:
            self._colour_on(state, seat, COLOUR_INDEX[rng.choice(COLOURS)])
            return 1
        options = list(spots(state.layout, state.hands[seat]))
        placement = rng.choice(options or [None])
        if placement is None:
            self._pass_on(state, seat)
        else:
            self._place_on(state, seat, placement)
        return 1

    def _end(self, t: SState, ev: list[tuple[Any, ...]]) -> None:
        t.turn = None
        groups = t.seat_groups()
        ev.append(("game_over", winners_of(groups), [g[0] if g else 0 for g in groups]))

    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for e in after.ev:
            kind = e[0]
            if kind == "place":
                _, who, tile, x, y, rot, level = e
                out.append(
                    {
                        "kind": "place",
                        "seat": who,
                        "tile": tile,
                        "x": x,
                        "y": y,
                        "rot": rot,
                        "level": level,
                    }
                )
            elif kind == "colour":
                out.append({"kind": "colour", "seat": e[1], "colour": e[2]})
            elif kind in ("draw", "pass"):
                out.append({"kind": kind, "seat": e[1]})
            else:
                out.append({"kind": "game_over", "winners": list(e[1]), "scores": list(e[2])})
        return out

    def statistics(self, game: Played) -> list[list[Stat]]:
        return stats.statistics(game)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The other hand and the pile re-dealt among themselves, sizes kept."""
        s: SState = state
        other = 1 - seat
        unseen = [*s.hands[other], *s.pile]
        rng.shuffle(unseen)
        t = s.clone()
        t.sizes = s.sizes
        n = len(s.hands[other])
        hands = list(s.hands)
        hands[other] = sort_tiles(unseen[:n])
        t.hands = (hands[0], hands[1])
        t.pile = tuple(unseen[n:])
        t.ev = s.ev
        return t

    def from_view(self, view: View, rng: random.Random) -> SState:
        """A state agreeing with everything `view` shows, the rest drawn at random: the other
        hand (size kept) and the pile from the tiles the seat has not seen; the table rebuilt
        by laying the view's tiles again in order."""
        seat = view["seat"]
        s = SState.__new__(SState)
        s.seed = 0  # read only when a game is set up
        s.first = view["first"]
        s.turn = view["turn"]
        colours = view["colours"]
        s.colours = (
            None
            if colours[0] is None
            else (COLOUR_INDEX[colours[0]], COLOUR_INDEX[colours[1]])
        )
        s.layout = self.layout_of(view)
        s.by = tuple(t["seat"] for t in view["tiles"])
        s.passes = view["passes"]
        s.sizes = None
        s.ev = ()
        mine = view["hand"] if seat is not None else []
        rest = unseen(DECK, mine, [t["tile"] for t in view["tiles"]])
        rng.shuffle(rest)
        hands: list[tuple[str, ...]] = []
        for p in range(PLAYERS):
            if p == seat:
                hands.append(tuple(mine))
                continue
            size = view["hand_sizes"][p]
            hands.append(sort_tiles(rest[:size]))
            del rest[:size]
        s.hands = (hands[0], hands[1])
        s.pile = tuple(rest)
        return s


def laid(s: SState) -> list[dict[str, Any]]:
    """The tiles on the table as a view shows them, in the order they were laid."""
    return [
        {"tile": t, "x": x, "y": y, "rot": r, "level": lv, "smartie": t in SMARTIE, "seat": by}
        for (t, x, y, r, lv), by in zip(s.layout.placed, s.by, strict=True)
    ]


def spots(layout: Layout, hand: tuple[str, ...] | list[str]) -> Iterator[Placement]:
    """The legal placements of `SchokoEngine.placements` as (tile, x, y, rot, level), in the
    same order: per distinct tile id, per distinct pattern, per frontier spot."""
    kinds = list(dict.fromkeys(hand))
    if layout.spots1:
        variants = [(t, rot, need) for t in kinds for rot, need in VARIANTS[t]]
        for k, mask in layout.spots1.items():
            x, y = coords(k)
            for t, rot, need in variants:
                if mask & need:
                    yield t, x, y, rot, 1
    smarties = [(t, rot, need) for t in kinds if t in SMARTIE for rot, need in VARIANTS[t]]
    if smarties and layout.spots2:
        for k, mask in layout.spots2.items():
            x, y = coords(k)
            for t, rot, need in smarties:
                if mask & need:
                    yield t, x, y, rot, 2


# Plies the expert's playouts run before the table is judged (engines.search.Cutoff), and how
# many pieces of difference between the largest groups make a near-certain win.
EXPERT_PLIES = 3
EXPERT_SCALE = 4.0


def group_cutoff(start: SState, state: SState, n: int) -> list[float] | None:
    """Judge a playout EXPERT_PLIES tiles after its start by the difference of the two
    largest groups (the game's first ranking), as a win chance for each seat."""
    if state.turn is None or state.colours is None:
        return None
    if len(state.layout.placed) - len(start.layout.placed) < EXPERT_PLIES:
        return None
    groups = state.seat_groups()
    diff = (groups[0][0] if groups[0] else 0) - (groups[1][0] if groups[1] else 0)
    first = 0.5 + 0.5 * math.tanh(diff / EXPERT_SCALE)
    return [first, 1.0 - first]
