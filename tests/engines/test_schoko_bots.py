"""Scho K.O. bots: legal, from the view alone, and the strong one beats the random one."""

from __future__ import annotations

import random

from engines import get_engine
from engines.schoko.bots import GreedyBot

ENG = get_engine("schoko")
GAMES = 12  # per seat: a modest fixed-seed sample (bench.bots prints the full figure)


def play(levels: list[str], seed: int) -> dict[str, object]:
    state = ENG.new_game(2, seed)
    rng = random.Random(seed)
    while not ENG.is_over(state):
        seat = state.turn
        move = ENG.bots[levels[seat]].choose(ENG, state, seat, rng)
        assert move in ENG.legal_moves(state, seat)
        state = ENG.apply(state, seat, move)
    return ENG.result(state)


def test_the_strong_bot_beats_the_random_bot_from_both_seats() -> None:
    for seat in (0, 1):
        levels = ["random", "random"]
        levels[seat] = "strong"
        won = 0.0
        for seed in range(GAMES):
            winners = play(levels, 1000 + seed)["winners"]
            won += (seat in winners) / len(winners)  # type: ignore[operator, arg-type]
        assert won >= 0.8 * GAMES, f"strong won {won} of {GAMES} from seat {seat}"


def test_the_strong_bot_picks_the_colour_its_hand_favours() -> None:
    bot = ENG.bots["strong"]
    for hand, colour in ((["w3", "w3s", "w2", "w1"], "white"), (["w1", "w1s", "w1", "w2"], "dark")):
        view = {"seat": 0, "hand": hand, "tiles": [], "colours": [None, None]}
        legal = [{"type": "colour", "colour": "white"}, {"type": "colour", "colour": "dark"}]
        assert bot.decide(view, legal, random.Random(0)) == {"type": "colour", "colour": colour}


def test_the_strong_bot_takes_an_obvious_join() -> None:
    """Dark to move beside W W / D D: laying its dark pieces against the dark row (and its
    lone white away from the white row) beats every other placement."""
    state = ENG.new_game(2, 3, {"first": 0})
    state = ENG.apply(state, 0, {"type": "colour", "colour": "white"})
    state = ENG.apply(state, 0, next(m for m in ENG.legal_moves(state, 0) if m["rot"] == 0))
    move = ENG.bots["strong"].choose(ENG, state, 1, random.Random(1))
    after = ENG.apply(state, 1, move)
    before_dark = ENG.view(state, 1)["scores"][1]
    assert ENG.view(after, 1)["scores"][1] > before_dark


def test_the_greedy_playout_step_plays_its_very_moves() -> None:
    """The expert's playouts (`GreedyBot.step`, in place on a playout copy) make exactly the
    moves its `choose` makes from the view, through whole games, colour choice included, and
    leave the state they were copied from alone."""
    greedy = GreedyBot(ENG)
    for seed in range(2):
        slow = ENG.new_game(2, seed)
        fast = ENG.playout_copy(slow)
        start, origin = slow, ENG.view(slow, 0)
        steps = 0
        while not ENG.is_over(slow):
            seat = slow.turn
            slow = ENG.apply(slow, seat, greedy.choose(ENG, slow, seat, random.Random(0)))
            greedy.step(fast, random.Random(0))
            assert [ENG.view(fast, p) for p in (0, 1)] == [ENG.view(slow, p) for p in (0, 1)]
            steps += 1
        assert ENG.is_over(fast) and steps > 20
        assert ENG.view(start, 0) == origin


def test_a_rating_by_the_top_view_alone_matches_laying_the_tile() -> None:
    """`Layout.sizes_after` (rating without the frontiers) gives the group sizes a real
    placement gives, on both levels, for every legal placement along a game."""
    state = ENG.new_game(2, 3)
    rng = random.Random(3)
    checked = {1: 0, 2: 0}
    while not ENG.is_over(state):
        seat = state.turn
        for move in ENG.legal_moves(state, seat):
            if move["type"] != "place":
                continue
            placement = (move["tile"], move["x"], move["y"], move["rot"], move["level"])
            laid = state.layout.clone()
            laid.place(*placement)
            assert state.layout.sizes_after(*placement) == laid.group_sizes()
            checked[move["level"]] += 1
        state = ENG.apply(state, seat, ENG.bots["strong"].choose(ENG, state, seat, rng))
    assert checked[1] > 100 and checked[2] > 0
