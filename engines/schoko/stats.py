"""Scho K.O.'s end-of-game statistics (engines.stats): the groups that decide the game, the
tiles each player laid (on level 2 and with a Smartie) and how much of their colour, seen from
above, their largest group holds."""

from __future__ import annotations

from engines.schoko.tiles import SMARTIE
from engines.stats import Played, Stat, by_seat, column, percent


def statistics(game: Played) -> list[list[Stat]]:
    end = game.view()
    n = game.seats
    groups = end["groups"]
    laid, level2, smarties = [0] * n, [0] * n, [0] * n
    for _, place in game.each("place"):
        seat = place["seat"]
        laid[seat] += 1
        level2[seat] += place["level"] == 2
        smarties[seat] += place["tile"] in SMARTIE
    cells = end["cells"]
    pieces = [sum(cell[2] == colour for cell in cells) if colour else 0
              for colour in end["colours"]]
    largest = [g[0] if g else 0 for g in groups]
    return by_seat(
        column("largest_group", largest, "max"),
        column("second_group", [g[1] if len(g) > 1 else 0 for g in groups], "max"),
        column("groups", [len(g) for g in groups]),
        column("level2_tiles", level2),
        column("smarties_laid", smarties),
        column("tiles_laid", laid),
        column("group_share", [percent(g, p) for g, p in zip(largest, pieces, strict=True)],
               "percent"),
        column("passes", game.per_seat("pass")),
    )
