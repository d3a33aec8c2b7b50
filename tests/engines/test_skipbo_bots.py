"""Skip-Bo Breakers bots: always legal, and the strong one beats random bots clearly."""

from __future__ import annotations

import random

from engines import get_engine

ENG = get_engine("skipbo_breakers")
GAMES = 120


def test_bots_only_make_legal_moves() -> None:
    for level in ("random", "strong"):
        bot = ENG.bots[level]
        state = ENG.new_game(3, 11, {"points_to_win": 20})
        rng = random.Random(1)
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            move = bot.choose(ENG, state, seat, rng)
            assert move in ENG.legal_moves(state, seat)
            state = ENG.apply(state, seat, move)


def test_the_strong_bot_goes_out_when_it_can_and_keeps_its_breaker() -> None:
    strong = ENG.bots["strong"]
    view = {"seat": 0, "hand": [4, 4], "tiles_left": [2, 9], "played": [], "table": None}
    legal = [
        {"type": "play", "tiles": [4], "values": [4]},
        {"type": "play", "tiles": [4, 4], "values": [4, 4]},
    ]
    assert strong.decide(view, legal, random.Random(0)) == legal[1]
    view = {
        "seat": 0,
        "hand": [3, 7, 7, 7, 9, 10, 11, 12],
        "tiles_left": [8, 12, 12],
        "played": [],
        "table": {"seat": 1, "set": "single", "size": 1, "rank": 2, "tiles": [2], "values": [2]},
    }
    legal = [{"type": "play", "tiles": [7, 7, 7], "values": [7, 7, 7]}, {"type": "pass"}]
    legal.insert(0, {"type": "play", "tiles": [3], "values": [3]})
    assert strong.decide(view, legal, random.Random(0)) == legal[0]


def test_the_strong_bot_wins_well_over_its_share_against_random_bots() -> None:
    won = 0
    for seed in range(GAMES):
        hero = seed % 4
        levels = ["random"] * 4
        levels[hero] = "strong"
        state = ENG.new_game(4, seed)
        rng = random.Random(seed)
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            state = ENG.apply(state, seat, ENG.bots[levels[seat]].choose(ENG, state, seat, rng))
        won += ENG.result(state)["winners"] == [hero]
    assert won / GAMES > 0.6


def test_the_strong_bots_playout_step_plays_its_very_moves() -> None:
    """`step` (the expert's in-place playouts) makes exactly the move `choose` makes from the
    view, through whole games, and leaves the state it was copied from alone."""
    strong = ENG.bots["strong"]
    for seed in range(3):
        slow = ENG.new_game(2 + seed, seed, {"points_to_win": 25})
        fast = ENG.playout_copy(slow)
        start, origin = slow, ENG.view(slow, 0)
        steps = 0
        while not ENG.is_over(slow):
            seat = ENG.to_act(slow)[0]
            slow = ENG.apply(slow, seat, strong.choose(ENG, slow, seat, random.Random(0)))
            strong.step(fast, random.Random(0))
            assert [ENG.view(fast, p) for p in range(2 + seed)] == [
                ENG.view(slow, p) for p in range(2 + seed)
            ]
            steps += 1
        assert ENG.is_over(fast) and steps > 50
        assert ENG.view(start, 0) == origin
