"""Skip-Bo Breakers: properties that hold over whole random games (seeded loops)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engines import get_engine
from engines.skipbo_breakers import rules

ENG = get_engine("skipbo_breakers")
BAG = Counter(rules.DECK)
MOVE_LIMIT = 20_000
SEEDS = range(12)


def random_game(players: int, seed: int) -> Iterator[tuple[Any, int, dict[str, Any], Any]]:
    """(before, seat, move, after) for every move of a game of uniform random legal moves."""
    rng = random.Random(seed)
    state = ENG.new_game(players, seed, {"points_to_win": 30})
    for _ in range(MOVE_LIMIT):
        if ENG.is_over(state):
            return
        seat = ENG.to_act(state)[0]
        move = rng.choice(ENG.legal_moves(state, seat))
        after = ENG.apply(state, seat, move)
        yield state, seat, move, after
        state = after
    raise AssertionError(f"no end after {MOVE_LIMIT} moves")


def everywhere(state: Any) -> Counter[Any]:
    """Every tile of the hand wherever it is: in hands, dealt to nobody, or played."""
    tiles: Counter[Any] = Counter()
    for counts in (*state.hands, state.out, state.played):
        tiles.update(rules.tiles_of(counts))
    return tiles


def test_tiles_are_conserved_and_scores_only_grow() -> None:
    for seed in SEEDS:
        players = 2 + seed % 3
        for before, _, move, after in random_game(players, seed):
            assert everywhere(after) == BAG
            assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
            view = ENG.view(after, None)
            assert view["tiles_left"] == [sum(h) for h in after.hands]
            if move["type"] == "play" and view["hand_no"] == ENG.view(before, None)["hand_no"]:
                played = Counter(ENG.view(after, 0)["played"])
                played.subtract(ENG.view(before, 0)["played"])
                assert +played == Counter(move["tiles"])


def test_every_hand_ends_and_the_winner_scores_the_tiles_left() -> None:
    for seed in SEEDS:
        hands_ended = 0
        for before, seat, move, after in random_game(3, seed):
            for event in ENG.events(before, seat, move, after):
                if event["kind"] == "hand_end":
                    hands_ended += 1
                    winner = event["winner"]
                    assert event["points"] == sum(event["tiles_left"])
                    assert event["tiles_left"][winner] == 0
                    gained = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
                    assert gained == [event["points"] if p == winner else 0 for p in range(3)]
        assert hands_ended >= 1
        assert ENG.result(after)["winners"] == [winner]
        assert max(after.scores) >= 30


def test_same_seed_and_moves_give_the_same_game() -> None:
    record = [(seat, move) for _, seat, move, _ in random_game(4, 99)]
    finals = []
    for _ in range(2):
        state = ENG.new_game(4, 99, {"points_to_win": 30})
        views = []
        for seat, move in record:
            state = ENG.apply(state, seat, move)
            views.append(ENG.view(state, seat))
        finals.append((views, ENG.result(state)))
    assert finals[0] == finals[1]


def test_views_hold_no_other_hand() -> None:
    """A seat's view is the same whatever the other hands and the unused tiles are, and
    a spectator sees no hand at all."""
    for seed in range(4):
        for n, (state, _, _, _) in enumerate(random_game(4, seed)):
            if n % 7:
                continue
            for seat in range(4):
                other = ENG.determinize(state, seat, random.Random(n))
                assert ENG.view(other, seat) == ENG.view(state, seat)
                assert ENG.view(state, seat)["hand"] == rules.tiles_of(state.hands[seat])
            assert ENG.view(state, None)["hand"] == []


def test_events_name_only_public_facts() -> None:
    """The events of a move are the same whichever way the tiles the mover cannot see lie:
    they name plays, passes and counts that everyone saw, never a hidden tile."""
    for n, (before, seat, move, after) in enumerate(random_game(3, 5)):
        shuffled = ENG.determinize(before, seat, random.Random(n))
        assert ENG.events(shuffled, seat, move, ENG.apply(shuffled, seat, move)) == ENG.events(
            before, seat, move, after
        )
