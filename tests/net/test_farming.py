"""Farming a rating with second keys is pointless: a result against a person new to the
ladder moves a rating little (nothing in their first game), and each repeated meeting of
the same pair less again; a result against a bot level counts in full."""

from __future__ import annotations

import itertools
from pathlib import Path

from net.players import ratings
from net.players.counted import Outcome, SeatOutcome
from net.players.sqlite import SqliteLadders


def game(store: SqliteLadders, key: str, winner: str, loser: str) -> float:
    """The winner's gain in the shown rating."""
    changes = store.add_game(Outcome(key, "schoko", 0.0, (
        SeatOutcome(winner, winner, 1, False), SeatOutcome(loser, loser, 2, False))))
    return changes[0].delta


def test_a_win_over_a_fresh_key_moves_nothing_and_over_the_strong_bot_in_full(
        tmp_path: Path) -> None:
    store = SqliteLadders(tmp_path / "l.sqlite")
    try:
        for n in range(50):  # a main that throws nothing: fifty fresh keys lose to it
            assert game(store, f"f{n}", "id:main", f"id:fresh{n}") == 0.0
        assert game(store, "b", "id:main", "bot:strong") > 1.0
        assert ratings.provisional(store.standing("schoko", "id:fresh3")[0].games)  # type: ignore[index]
    finally:
        store.close()


def test_the_same_pair_counts_less_every_time_they_meet(tmp_path: Path) -> None:
    store = SqliteLadders(tmp_path / "l.sqlite")
    try:
        for n in range(12):  # the second key gets established against the bots
            game(store, f"e{n}", "id:alt" if n % 2 else "bot:random",
                 "bot:random" if n % 2 else "id:alt")
        gains = [game(store, f"p{n}", "id:main", "id:alt") for n in range(4)]
        assert gains[0] > 0 and all(a > b for a, b in itertools.pairwise(gains))
    finally:
        store.close()


def test_a_provisional_rating_is_shown_with_a_question_mark() -> None:
    from tui.screens.ratings import rating_of

    assert rating_of(3.0, 1, "id:new") == "1800?"  # on the scale players see
    assert rating_of(3.0, ratings.PROVISIONAL_GAMES, "id:old") == "1800"
    assert rating_of(3.0, 0, "bot:strong") == "1800"
