"""Scho K.O.: every placement rule, the scoring and the tie-breaks, played through the engine.

Coordinates are grid cells of pieces, x to the right and y down. Seat 0 starts and takes white
in these games, so seat 1 is dark. Unrotated, w2 is W W / D D; a quarter turn clockwise makes
it D W / D W, two make D D / W W, three W D / W D.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest

from engines import IllegalMove, get_engine
from engines.schoko import engine as schoko_engine
from engines.schoko import geometry, tiles
from engines.schoko.rules import HAND_SIZE
from engines.schoko.tiles import DECK

ENG = get_engine("schoko")

Lay = tuple[str, int, int, int, int]  # tile, x, y, rot, level


def stack_for(seq0: list[str], seq1: list[str], first: int = 0) -> list[str]:
    """A whole stack, top first, from which each seat holds (or draws in time) the tiles it
    lays, in order, when the seats alternate from `first` without passing."""
    rest = Counter(DECK)
    rest.subtract(Counter(seq0 + seq1))
    assert min(rest.values()) >= 0, "more of a tile than the game has"
    spare = sorted(rest.elements(), key=DECK.index)
    seqs = [list(seq0), list(seq1)]

    def take(seat: int, i: int) -> str:
        return seqs[seat][i] if i < len(seqs[seat]) else spare.pop()

    hands = [[take(s, i) for i in range(HAND_SIZE)] for s in (0, 1)]
    pile, drawn = [], [HAND_SIZE, HAND_SIZE]
    seat = first
    while len(pile) < len(DECK) - 2 * HAND_SIZE:
        pile.append(take(seat, drawn[seat]))
        drawn[seat] += 1
        seat = 1 - seat
    return hands[0] + hands[1] + pile


def game(
    lays: list[Lay],
    colour: str = "white",
    extra0: tuple[str, ...] = (),
    extra1: tuple[str, ...] = (),
) -> Any:
    """A game where seat 0 chooses `colour` and the seats lay `lays` in turn (seat 0 first);
    `extra0`/`extra1` are tiles each seat holds besides (laid after, if at all)."""
    seqs: list[list[str]] = [[], []]
    for i, lay in enumerate(lays):
        seqs[i % 2].append(lay[0])
    state = ENG.new_game(
        2, 1, {"stack": stack_for(seqs[0] + list(extra0), seqs[1] + list(extra1)), "first": 0}
    )
    state = ENG.apply(state, 0, {"type": "colour", "colour": colour})
    for lay in lays:
        state = ENG.apply(state, state.turn, place(*lay))
    return state


def place(tile: str, x: int, y: int, rot: int = 0, level: int = 1) -> dict[str, Any]:
    return {"type": "place", "tile": tile, "x": x, "y": y, "rot": rot, "level": level}


def refused(state: Any, move: dict[str, Any], words: str) -> None:
    """`move` by the seat on turn raises IllegalMove saying `words` and changes nothing."""
    before = msgpack.packb([ENG.view(state, s) for s in (0, 1, None)])
    legal = ENG.legal_moves(state, state.turn)
    with pytest.raises(IllegalMove, match=words):
        ENG.apply(state, state.turn, move)
    assert msgpack.packb(move) not in [msgpack.packb(m) for m in legal]
    assert msgpack.packb([ENG.view(state, s) for s in (0, 1, None)]) == before


def allowed(state: Any, move: dict[str, Any]) -> Any:
    assert move in ENG.legal_moves(state, state.turn)
    return ENG.apply(state, state.turn, move)


def top(state: Any) -> dict[tuple[int, int], tuple[str, int]]:
    return {(x, y): (c, lv) for x, y, c, lv in ENG.view(state, None)["cells"]}


# Two w2 side by side: W W W W / D D D D over x 0..3, y 0..1.
PAIR: list[Lay] = [("w2", 0, 0, 0, 1), ("w2", 2, 0, 0, 1)]


# -- setup and the first tile ---------------------------------------------------------------
def test_the_start_player_chooses_a_colour_before_the_first_tile() -> None:
    state = ENG.new_game(2, 5, {"first": 1})
    assert ENG.to_act(state) == [1]
    assert ENG.legal_moves(state, 1) == [
        {"type": "colour", "colour": "white"},
        {"type": "colour", "colour": "dark"},
    ]
    refused(state, place(ENG.view(state, 1)["hand"][0], 0, 0), "colour")
    state = ENG.apply(state, 1, {"type": "colour", "colour": "dark"})
    view = ENG.view(state, 0)
    assert view["colours"] == ["white", "dark"] and view["turn"] == 1
    refused(state, {"type": "colour", "colour": "white"}, "already chosen")


def test_the_first_tile_lies_at_the_origin_in_any_rotation() -> None:
    state = game([], extra0=("w3", "w3s"))
    refused(state, place("w3", 1, 0), r"\(0, 0\)")
    refused(state, place("w3s", 0, 0, level=2), r"\(0, 0\)")
    moves = [m for m in ENG.legal_moves(state, 0) if m["tile"] == "w3"]
    assert sorted((m["x"], m["y"], m["rot"], m["level"]) for m in moves) == [
        (0, 0, r, 1) for r in range(4)
    ]
    state = allowed(state, place("w3", 0, 0, rot=1))
    # w3 = W W / W D turned once: W W / D W
    assert top(state) == {
        (0, 0): ("white", 1),
        (1, 0): ("white", 1),
        (0, 1): ("dark", 1),
        (1, 1): ("white", 1),
    }


def test_hands_of_four_and_a_draw_after_each_placement() -> None:
    state = game([("w2", 0, 0, 0, 1)], extra1=("w2",))
    view = ENG.view(state, 0)
    assert view["hand_sizes"] == [4, 4] and view["pile_size"] == 32 - 8 - 1
    events = ENG.events(state, 1, place("w2", 2, 0), ENG.apply(state, 1, place("w2", 2, 0)))
    assert [e["kind"] for e in events] == ["place", "draw"]
    assert events[0] == {
        "kind": "place",
        "seat": 1,
        "tile": "w2",
        "x": 2,
        "y": 0,
        "rot": 0,
        "level": 1,
    }


# -- level 1 ---------------------------------------------------------------------------------
def test_two_contacts_with_a_same_colour_contact_are_enough() -> None:
    state = game(PAIR[:1], extra1=("w2",))
    state = allowed(state, place("w2", 2, 0))
    assert top(state)[(2, 0)] == ("white", 1)


def test_one_contact_is_not_enough() -> None:
    state = game(PAIR[:1], extra1=("w2",))
    refused(state, place("w2", 2, 1), "touches only one piece")


def test_touching_only_at_a_corner_does_not_connect() -> None:
    state = game(PAIR[:1], extra1=("w2",))
    refused(state, place("w2", 2, 2), "only at a corner")
    refused(state, place("w2", 5, 5), "must touch two pieces")


def test_a_same_colour_contact_is_needed() -> None:
    state = game(PAIR[:1], extra1=("w2",))
    # D D / W W beside W / D: white meets dark and dark meets white.
    refused(state, place("w2", 2, 0, rot=2), "same-colour contact")
    # D W / D W: the left dark pieces meet W and D; one same-colour contact is enough.
    allowed(state, place("w2", 2, 0, rot=1))


def test_offset_by_half_a_tile_and_gaps_remain() -> None:
    state = game(PAIR, extra0=("w1",))
    # Under both tiles, shifted one piece right: touches (1,1) and (2,1), leaves (0,2) and
    # (3,2) open.
    state = allowed(state, place("w1", 1, 2, rot=3))
    cells = top(state)
    assert (1, 2) in cells and (2, 3) in cells
    assert (0, 2) not in cells and (3, 2) not in cells


def test_a_covered_cell_cannot_take_a_level_one_tile() -> None:
    state = game(PAIR, extra0=("w1",))
    refused(state, place("w1", 1, 0), "taken")


# -- level 2 ---------------------------------------------------------------------------------
def test_a_smartie_tile_may_lie_on_two_tiles() -> None:
    state = game(PAIR, extra0=("w2s",))
    state = allowed(state, place("w2s", 1, 0, rot=2, level=2))
    cells = top(state)
    assert cells[(1, 0)] == ("dark", 2) and cells[(2, 1)] == ("white", 2)
    assert cells[(0, 0)] == ("white", 1)
    assert [t["smartie"] for t in ENG.view(state, 0)["tiles"]] == [False, False, True]


def test_only_smartie_tiles_go_to_level_two() -> None:
    state = game(PAIR, extra0=("w2",))
    refused(state, place("w2", 1, 0, level=2), "Only Smartie tiles")


def test_level_two_never_exactly_on_one_tile() -> None:
    state = game(PAIR, extra0=("w2s",))
    refused(state, place("w2s", 0, 0, level=2), "not exactly on one")


def test_level_two_never_over_a_gap() -> None:
    state = game(PAIR, extra0=("w2s",))
    refused(state, place("w2s", 1, 1, level=2), "over a gap")
    refused(state, place("w2s", -1, 0, level=2), "over a gap")


def test_a_smartie_tile_on_level_one_is_never_covered() -> None:
    state = game([("w2", 0, 0, 0, 1), ("w2s", 2, 0, 0, 1)], extra0=("w3s",))
    refused(state, place("w3s", 1, 0, level=2), "cover a Smartie")


def test_a_level_two_tile_is_not_covered_by_even_one_piece() -> None:
    lays: list[Lay] = [*PAIR, ("w2", 4, 0, 0, 1), ("w2", 6, 0, 0, 1), ("w2s", 1, 0, 2, 2)]
    state = game(lays, extra1=("w3s",))
    assert state.turn == 1
    refused(state, place("w3s", 2, 0, level=2), "cover a Smartie")
    allowed(state, place("w3s", 3, 0, level=2))


def test_contacts_beside_a_level_two_tile_count_its_colour() -> None:
    # The level-2 tile turns (1,1) and (2,1) white on top of the dark pieces below.
    state = game([*PAIR, ("w2s", 1, 0, 2, 2)], extra1=("w2",))
    assert top(state)[(1, 1)] == ("white", 2)
    # Dark on top meets the white level-2 pieces (though dark lies beneath): refused.
    refused(state, place("w2", 1, 2, rot=2), "same-colour contact")
    # White on top meets them edge to edge: two contacts, both white.
    allowed(state, place("w2", 1, 2, rot=0))


def test_a_level_two_tile_needs_no_contact_rule() -> None:
    # D D / W W on level 2 over W W / D D: no piece meets its own colour anywhere.
    state = game(PAIR, extra0=("w2s",))
    allowed(state, place("w2s", 1, 0, rot=2, level=2))


# -- moves and errors ------------------------------------------------------------------------
def test_bad_moves_say_what_is_wrong_and_change_nothing() -> None:
    state = game(PAIR[:1], extra1=("w2",))
    hand = state.hands[1]
    missing = next(t for t in ("w1s", "w3s", "w2s", "w1", "w3") if t not in hand)
    refused(state, place(missing, 2, 0), "no .* tile in your hand")
    refused(state, place("w9", 2, 0), "no tile")
    refused(state, place("w2", 2, 0, rot=4), "rot")
    refused(state, place("w2", 2, 0, level=3), "level")
    refused(state, {**place("w2", 2, 0), "x": 2.0}, "whole numbers")
    refused(state, {**place("w2", 2, 0), "x": True}, "whole numbers")
    refused(state, {"type": "pass"}, "still place")
    with pytest.raises(IllegalMove, match="not your turn"):
        ENG.apply(state, 0, place("w2", 2, 0))


def test_two_w3_in_hand_give_each_move_once() -> None:
    state = game([], extra0=("w3", "w3", "w1", "w1"))
    moves = ENG.legal_moves(state, 0)
    assert len(moves) == len({msgpack.packb(m) for m in moves})
    assert sorted(m["tile"] for m in moves) == ["w1"] * 4 + ["w3"] * 4


def test_turns_that_look_alike_are_listed_once() -> None:
    # Every mix shows four different turns, so each is a move of its own...
    assert [len(tiles.VARIANTS[t]) for t in tiles.TILE_IDS] == [4] * 6
    # ...while a tile that looked the same turned (all one colour, or a checkerboard) would
    # be offered once, or twice.
    plain = (0, 0, 0, 0)
    checker = (0, 1, 1, 0)
    assert [rot for rot, _ in tiles.distinct_turns((plain,) * 4)] == [0]
    checkers = (checker, tiles.rotate(checker), checker, tiles.rotate(checker))
    assert [rot for rot, _ in tiles.distinct_turns(checkers)] == [0, 1]


def test_the_reasons_the_board_shows_are_the_ones_apply_gives() -> None:
    state = game(PAIR, extra0=("w2s",))
    layout = ENG.layout_of(ENG.view(state, 0))
    code = ENG.problem(layout, "w2s", 0, 0, 0, 2)
    with pytest.raises(IllegalMove) as info:
        ENG.apply(state, 0, place("w2s", 0, 0, level=2))
    assert info.value.reason == schoko_engine.REASONS[code]
    assert code == geometry.ONE_TILE


def test_passing_only_with_nothing_to_place_and_without_a_draw() -> None:
    """With every tile showing both colours a tile in hand always fits somewhere, so a pass
    comes only from an empty hand; the hands are emptied here by hand to reach it."""
    state = game(PAIR)
    stuck = state.clone()
    stuck.hands = (state.hands[0], ())
    stuck.turn = 1
    assert ENG.legal_moves(stuck, 1) == [{"type": "pass"}]
    after = ENG.apply(stuck, 1, {"type": "pass"})
    assert ENG.events(stuck, 1, {"type": "pass"}, after) == [{"kind": "pass", "seat": 1}]
    assert ENG.view(after, 0)["pile_size"] == ENG.view(stuck, 0)["pile_size"]
    assert ENG.view(after, 0)["hand_sizes"] == [4, 0] and after.turn == 0
    both = after.clone()
    both.hands = ((), ())
    end = ENG.apply(both, 0, {"type": "pass"})
    assert ENG.is_over(end)
    assert ENG.events(both, 0, {"type": "pass"}, end)[-1]["kind"] == "game_over"


def test_the_table_says_who_laid_each_tile_even_after_a_pass() -> None:
    """Views and the result name who laid each tile (a board marks each player's last one):
    after a pass one seat lays twice in a row, which no alternation could tell."""
    state = game(PAIR)
    stuck = state.clone()
    stuck.hands = (state.hands[0], ())
    stuck.turn = 1
    after = ENG.apply(stuck, 1, {"type": "pass"})
    again = ENG.apply(after, 0, ENG.legal_moves(after, 0)[0])
    for seat in (0, 1, None):
        assert [t["seat"] for t in ENG.view(again, seat)["tiles"]] == [0, 1, 0]
    assert ENG.result(again)["tiles"] == ENG.view(again, None)["tiles"]
    rebuilt = ENG.from_view(ENG.view(again, 1), random.Random(1))
    assert ENG.view(rebuilt, 1)["tiles"] == ENG.view(again, 1)["tiles"]


# -- scoring ---------------------------------------------------------------------------------
def test_covered_pieces_no_longer_count_and_levels_connect() -> None:
    # W W W W / D D D D, then w3s (W W / W D) on level 2 over x 1..2: the top view is
    # W W W W / D W D D. White: 4 in row 0 + (1,1) = 5, across levels. Dark: (0,1) alone, and
    # (2,1) on level 2 joined to (3,1) on level 1; the covered dark (1,1) is gone.
    state = game([*PAIR, ("w3s", 1, 0, 0, 2)])
    result = ENG.result(state)
    assert result["groups"] == [[5], [2, 1]]
    assert result["scores"] == [5, 2] and result["winners"] == [0]
    assert ENG.view(state, 1)["scores"] == [5, 2]


@pytest.mark.parametrize(
    ("groups", "winners"),
    [
        ([[5, 1], [4, 4]], [0]),  # the larger largest group wins
        ([[4, 2], [4, 3]], [1]),  # equal largest: the second decides
        ([[4, 3, 1], [4, 3, 2]], [1]),  # then the third
        ([[4, 3, 1, 1], [4, 3, 1]], [0]),  # a missing group counts 0
        ([[4], [4, 1]], [1]),
        ([[4, 2], [4, 2]], [0, 1]),  # all equal: a draw
        ([[], []], [0, 1]),
    ],
)
def test_tie_breaks(groups: list[list[int]], winners: list[int]) -> None:
    assert schoko_engine.winners_of(groups) == winners


def test_ties_on_the_table() -> None:
    # Top view (x -2..1): W W D D / D W W D / D D . . / D W. White 4 + 1, dark 4 + 3: equal
    # largest groups, dark's second is larger.
    state = game([("w1", 0, 0, 3, 1), ("w3", -2, 0, 1, 1), ("w1", -2, 2, 2, 1)])
    assert ENG.result(state)["groups"] == [[4, 1], [4, 3]]
    assert ENG.result(state)["winners"] == [1]
    # A column: white 5 in one group, dark 5 and 2: white's missing second group counts 0.
    state = game([("w1", 0, 0, 1, 1), ("w2", 0, -2, 1, 1), ("w2", 0, -4, 2, 1)])
    assert ENG.result(state)["groups"] == [[5], [5, 2]]
    assert ENG.result(state)["winners"] == [1]
    tied = game([("w2", 0, 0, 0, 1)])
    assert ENG.result(tied)["groups"] == [[2], [2]] and ENG.result(tied)["winners"] == [0, 1]


def test_a_full_game_ends_when_all_32_tiles_are_laid() -> None:
    state = ENG.new_game(2, 11)
    bot = ENG.bots["random"]
    rng = random.Random(11)
    while not ENG.is_over(state):
        before = state
        move = bot.choose(ENG, state, state.turn, rng)
        state = ENG.apply(state, state.turn, move)
    assert ENG.result(state)["tiles_laid"] == 32
    events = ENG.events(before, 0, move, state)
    assert events[-1]["kind"] == "game_over"
    assert events[-1]["scores"] == ENG.result(state)["scores"]


def test_a_bad_stack_or_first_seat_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="32"):
        ENG.new_game(2, 0, {"stack": ["w3"] * 32})
    with pytest.raises(ValueError, match="first"):
        ENG.new_game(2, 0, {"first": 2})
    with pytest.raises(ValueError):
        ENG.new_game(3, 0)
