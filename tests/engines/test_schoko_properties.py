"""Scho K.O. properties over random seeded games: the tiles, the scores, the reasons, secrecy."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest

from engines import get_engine
from engines.schoko.tiles import DECK

ENG = get_engine("schoko")
SEEDS = range(6)


def random_game(seed: int) -> tuple[list[Any], list[tuple[int, dict[str, Any]]]]:
    """Every state of a game of uniform random legal moves, and the moves."""
    rng = random.Random(seed)
    state = ENG.new_game(2, seed)
    states, moves = [state], []
    while not ENG.is_over(state):
        seat = state.turn
        move = rng.choice(ENG.legal_moves(state, seat))
        state = ENG.apply(state, seat, move)
        states.append(state)
        moves.append((seat, move))
    return states, moves


def flood_fill_scores(cells: list[list[Any]], colour: str) -> list[int]:
    """Group sizes of `colour` in a top view given as [x, y, colour, level] rows, largest
    first: written here from scratch, apart from the engine's own."""
    mine = {(x, y) for x, y, c, _ in cells if c == colour}
    sizes = []
    while mine:
        todo = [mine.pop()]
        size = 0
        while todo:
            x, y = todo.pop()
            size += 1
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in mine:
                    mine.remove(n)
                    todo.append(n)
        sizes.append(size)
    return sorted(sizes, reverse=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_tile_is_laid_once_and_no_tile_is_lost(seed: int) -> None:
    states, _ = random_game(seed)
    for state in states:
        views = [ENG.view(state, s) for s in (0, 1)]
        laid = [t["tile"] for t in views[0]["tiles"]]
        held = Counter(laid + views[0]["hand"] + views[1]["hand"])
        assert not held - Counter(DECK)
        assert len(laid) + sum(views[0]["hand_sizes"]) + views[0]["pile_size"] == len(DECK)
    final = ENG.view(states[-1], None)
    assert Counter(t["tile"] for t in final["tiles"]) == Counter(DECK)
    assert len(final["cells"]) == len({(x, y) for x, y, _, _ in final["cells"]})


@pytest.mark.parametrize("seed", SEEDS)
def test_scores_match_a_flood_fill_of_the_top_view(seed: int) -> None:
    states, _ = random_game(seed)
    for state in states[2::5] + states[-1:]:
        view = ENG.view(state, None)
        for seat in (0, 1):
            sizes = flood_fill_scores(view["cells"], view["colours"][seat])
            assert view["groups"][seat] == sizes
            assert view["scores"][seat] == (sizes[0] if sizes else 0)
    result = ENG.result(states[-1])
    assert result["scores"] == ENG.view(states[-1], 0)["scores"]


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_the_reasons_agree_with_the_legal_moves_everywhere(seed: int) -> None:
    """For every tile in hand, every rotation, both levels and every cell around the layout:
    the board's explanation says "fine" exactly for the moves legal_moves lists."""
    states, _ = random_game(seed)
    for state in states[2::4]:
        if ENG.is_over(state):
            continue
        seat = state.turn
        view = ENG.view(state, seat)
        legal = {msgpack.packb(m) for m in ENG.legal_moves(state, seat)}
        layout = ENG.layout_of(view)
        xs = [c[0] for c in view["cells"]]
        ys = [c[1] for c in view["cells"]]
        for tile in set(view["hand"]):
            for x in range(min(xs) - 3, max(xs) + 3):
                for y in range(min(ys) - 3, max(ys) + 3):
                    for rot in range(4):
                        for level in (1, 2):
                            move = {
                                "type": "place",
                                "tile": tile,
                                "x": x,
                                "y": y,
                                "rot": rot,
                                "level": level,
                            }
                            fine = ENG.problem(layout, tile, x, y, rot, level) is None
                            assert fine == (msgpack.packb(move) in legal), move


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    states, moves = random_game(4)
    replay = ENG.new_game(2, 4)
    for (seat, move), state in zip(moves, states[1:], strict=True):
        replay = ENG.apply(replay, seat, move)
        assert msgpack.packb([ENG.view(replay, s) for s in (0, 1, None)]) == msgpack.packb(
            [ENG.view(state, s) for s in (0, 1, None)]
        )
    assert ENG.result(replay) == ENG.result(states[-1])


def test_a_view_never_shows_the_other_hand_or_the_pile_order() -> None:
    """Two games that differ only in seat 1's hand and the order of the pile look the same to
    seat 0, through the colour choice and seat 0's first tile."""
    deck = list(DECK)
    random.Random(9).shuffle(deck)
    # Same hand and first draw for seat 0; another hand for seat 1 and the rest reordered.
    other = deck[:4] + deck[-4:] + deck[8:9] + (deck[9:-4] + deck[4:8])[::-1]
    games = [ENG.new_game(2, 0, {"stack": d, "first": 0}) for d in (deck, other)]
    assert sorted(games[0].hands[1]) != sorted(games[1].hands[1])
    for step in range(3):
        views = [ENG.view(g, 0) for g in games]
        assert views[0] == views[1]
        assert not {"pile", "hands"} & set(views[0])
        if step < 2:
            move = ENG.legal_moves(games[0], 0)[0]
            games = [ENG.apply(g, 0, move) for g in games]
    spectator = ENG.view(games[0], None)
    assert spectator["hand"] == []


def test_determinize_keeps_the_seat_s_knowledge_and_redeals_the_rest() -> None:
    states, _ = random_game(2)
    state = states[6]
    samples = [ENG.determinize(state, 0, random.Random(i)) for i in range(5)]
    assert all(ENG.view(s, 0) == ENG.view(state, 0) for s in samples)
    assert len({(s.hands[1], s.pile) for s in samples}) > 1
    assert all(
        Counter(s.hands[1] + s.pile) == Counter(state.hands[1] + state.pile) for s in samples
    )
