"""Properties of Schöne Sch#!?e that hold for any deal and any sequence of legal moves."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_engine
from engines.schoene.cards import CARD_IDS, PLAYED, STARTING_CHIPS

ENG = get_engine("schoene")


def internals(state: Any) -> tuple[Any, ...]:
    """Every field of the state, copied: to prove `apply` leaves its input alone."""
    return tuple(
        list(value) if isinstance(value, list) else value
        for value in (getattr(state, name) for name in type(state).__slots__)
    )


def step_bound(n: int) -> int:
    """No game can last longer: each card is taken or pigged out once, every pay spends one of
    the table's chips on the current card, and each pig is laid once."""
    return PLAYED * (n * STARTING_CHIPS[n] + n + 1)


games = st.fixed_dictionaries(
    {
        "n": st.integers(3, 7),
        "seed": st.integers(0, 2**32),
        "lucky_pig": st.booleans(),
        "moves": st.integers(0, 2**32),  # seeds the choice among the legal moves
        "take_weight": st.sampled_from([0.0, 0.05, 0.3, 1.0, 3.0]),
    }
)


def play(game: dict[str, Any], check: Any = None) -> list[tuple[int, dict[str, Any]]]:
    """Play one game by weighted random legal moves, calling `check(state)` after each move."""
    state = ENG.new_game(game["n"], game["seed"], {"lucky_pig": game["lucky_pig"]})
    rng = random.Random(game["moves"])
    record = []
    while not ENG.is_over(state):
        assert len(record) < step_bound(game["n"])
        (seat,) = ENG.to_act(state)
        legal = ENG.legal_moves(state, seat)
        weights = [game["take_weight"] if m["type"] == "take" else 1.0 for m in legal]
        if not any(weights):
            weights = [1.0] * len(legal)
        move = rng.choices(legal, weights)[0]
        before = internals(state)
        after = ENG.apply(state, seat, move)
        assert internals(state) == before
        state = after
        record.append((seat, move))
        if check:
            check(state)
    assert ENG.legal_moves(state, 0) == [] and ENG.to_act(state) == []
    return record


@settings(max_examples=150, deadline=None)
@given(games)
def test_games_end_and_conserve_cards_chips_and_pigs(game: dict[str, Any]) -> None:
    n = game["n"]
    total_chips = n * STARTING_CHIPS[n]

    def check(state: Any) -> None:
        chips = sum(state.chips) + state.centre_chips + state.chips_out
        assert chips == total_chips and min(state.chips) >= 0
        centre = [] if state.centre is None else [state.centre]
        cards = [
            *(c for hand in state.cards for c in hand),
            *centre,
            *state.order[state.pos :],
            *state.removed,
        ]
        assert len(set(cards)) == len(cards) and set(cards) <= set(CARD_IDS)
        # A pig is in hand, on the centre card, won, or gone with a card every pig lay on.
        pigs = sum(state.pig_in_hand) + len(state.centre_pigs) + sum(state.pigs_won)
        pigs_out = n * game["lucky_pig"] - pigs
        assert pigs_out % n == 0 and len(CARD_IDS) - len(cards) == pigs_out // n

    play(game, check)


@settings(max_examples=60, deadline=None)
@given(games)
def test_same_seed_and_moves_give_the_same_views(game: dict[str, Any]) -> None:
    record = play(game)
    states = []
    for _ in range(2):
        state = ENG.new_game(game["n"], game["seed"], {"lucky_pig": game["lucky_pig"]})
        seen = []
        for seat, move in record:
            state = ENG.apply(state, seat, move)
            seen.append([ENG.view(state, s) for s in [*range(game["n"]), None]])
        states.append((seen, ENG.result(state)))
    assert states[0] == states[1]
