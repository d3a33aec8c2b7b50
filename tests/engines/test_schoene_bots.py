"""The Schöne Sch#!?e bots: legal, blind to hidden information, and the strong one is strong."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import get_engine

ENG = get_engine("schoene")
GAMES = 1000


def play_game(levels: list[str], seed: int, lucky_pig: bool = True, check: Any = None) -> Any:
    """One game between bots of the given levels (one per seat); returns the final state."""
    state = ENG.new_game(len(levels), seed, {"lucky_pig": lucky_pig})
    step = 0
    while not ENG.is_over(state):
        (seat,) = ENG.to_act(state)
        rng = random.Random(f"{seed}:{step}")
        move = ENG.bots[levels[seat]].choose(ENG, state, seat, rng)
        if check:
            check(state, seat, move)
        state = ENG.apply(state, seat, move)
        step += 1
    return state


def win_share(hero: str, others: str, games: int, players: int = 4) -> float:
    """Share of wins (ties split) of one `hero` bot against `others`, its seat rotating."""
    won = 0.0
    for seed in range(games):
        seat = seed % players
        levels = [others] * players
        levels[seat] = hero
        winners = ENG.result(play_game(levels, seed))["winners"]
        if seat in winners:
            won += 1 / len(winners)
    return won / games


def test_strong_beats_three_random_bots_clearly() -> None:
    # Measured 0.98 over these seeds; a random seat would win about 0.25.
    assert win_share("strong", "random", GAMES) > 0.9


def test_random_does_not_beat_three_strong_bots() -> None:
    # Measured 0.00 over these seeds.
    assert win_share("random", "strong", GAMES // 4) < 0.05


@pytest.mark.parametrize("lucky_pig", [True, False])
@pytest.mark.parametrize("level", ["random", "strong"])
def test_bots_always_choose_a_fresh_legal_move(level: str, lucky_pig: bool) -> None:
    def check(state: Any, seat: int, move: Any) -> None:
        legal = ENG.legal_moves(state, seat)
        assert move in legal
        move["mark"] = True  # a bot must not hand out a dict the engine or bot keeps
        assert all("mark" not in m for m in ENG.legal_moves(state, seat))
        del move["mark"]

    for n in range(ENG.min_players, ENG.max_players + 1):
        play_game([level] * n, seed=n, lucky_pig=lucky_pig, check=check)


def test_strong_bot_decides_from_the_view_alone() -> None:
    """Its choice is the same on any state the seat cannot tell apart from the real one."""
    decided = 0

    def check(state: Any, seat: int, move: Any) -> None:
        nonlocal decided
        for i in range(3):
            sample = ENG.determinize(state, seat, random.Random(i))
            again = ENG.bots["strong"].choose(ENG, sample, seat, random.Random(i))
            assert again == move
        decided += 1

    for seed in range(10):
        play_game(["strong"] * 5, seed, check=check)
    assert decided > 300


def test_strong_bot_uses_its_pig_sometimes() -> None:
    pigs_laid = 0
    for seed in range(40):
        state = play_game(["strong"] * 4, seed)
        pigs_laid += sum(not p["pig_in_hand"] for p in ENG.view(state, None)["players"])
    assert 0 < pigs_laid < 40 * 4
