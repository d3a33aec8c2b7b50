"""The scale players see: 1500 + 100 (mu - 3 sigma), whole points; a new player's first game,
however badly it goes, never shows a negative number (docs/records.md, "What players see")."""

from __future__ import annotations

from net.players import ratings
from tui.screens.ratings import change, points, rating_of


def test_a_first_game_lost_as_badly_as_it_can_be_still_shows_a_positive_rating() -> None:
    for seats in range(2, 8):  # every table size of every game
        # Last behind strangers and bots at full weight, and left early (the penalty too).
        after = ratings.rate([ratings.Skill()] * seats, list(range(1, seats + 1)),
                             [False] * (seats - 1) + [True])
        worst = after[-1]
        assert worst.rating < 0 < worst.shown, seats  # the stored figure is below 0
        assert int(rating_of(worst.rating, 1, "id:NEW")[:-1]) > 0


def test_the_scale_and_its_changes_in_words() -> None:
    assert points(0.0) == "1500" and ratings.Skill().shown == 1500
    assert rating_of(0.0, 0, "id:NEW") == "1500?"  # a person without ten games: provisional
    assert rating_of(0.0, ratings.PROVISIONAL_GAMES, "id:OLD") == "1500"
    assert rating_of(-2.83, 0, "bot:strong") == "1217"  # a bot level is known: never "?"
    assert change(0.264) == "+26" and change(-0.264) == "-26" and change(0.001) == "±0"
