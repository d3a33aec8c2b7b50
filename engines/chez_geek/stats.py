"""Chez Geek's end-of-game statistics (engines.stats): where each player's slack came from
(persons, things, activities, and the rest: anytime cards lying in the room and the bonus
pool), the cards they cancelled and had cancelled, the persons who were not home, and turns."""

from __future__ import annotations

from engines.chez_geek.deck import CARDS
from engines.stats import Played, Stat, by_seat, column

KINDS = ("person", "thing", "activity")


def statistics(game: Played) -> list[list[Stat]]:
    n = game.seats
    slack = {kind: [0] * n for kind in (*KINDS, "other")}
    for seat, player in enumerate(game.view()["players"]):
        slack["other"][seat] += player["bonus_pool"]
        for entry in player["room"]:
            kind = CARDS[entry["card"]].type
            slack[kind if kind in KINDS else "other"][seat] += entry["slack"]
    cancelled_own = [0] * n
    for _, cancel in game.each("cancelled"):
        cancelled_own[cancel["item"]["seat"]] += 1
    turns = game.per_seat("turn")
    turns[game.view(0)["turn"]] += 1  # the first turn began with the deal, not with a move
    return by_seat(
        *(column(f"slack_{kind}", values, "points") for kind, values in slack.items()),
        column("cancelled", game.per_seat("cancelled", "by")),
        column("cancelled_own", cancelled_own),
        column("not_home", game.per_seat("not_home")),
        column("turns", turns),
    )
