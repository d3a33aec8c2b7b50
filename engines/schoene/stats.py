"""Schöne's end-of-game statistics (engines.stats): the cards a player took and how they ran,
and the chips: left at the end, paid to say "no thanks", won with the cards."""

from __future__ import annotations

from engines.stats import Played, Stat, by_seat, column


def statistics(game: Played) -> list[list[Stat]]:
    players = game.view()["players"]
    result = game.result()["players"]
    hauls: list[list[int]] = [[] for _ in range(game.seats)]
    pigs = [0] * game.seats
    for _, take in game.each("take"):
        hauls[take["seat"]].append(take["chips"])
        pigs[take["seat"]] += take["pigs"]
    columns = [
        column("cards_taken", [len(p["cards"]) for p in players]),
        column("longest_run", [max(map(len, p["runs"]), default=0) for p in players], "max"),
        column("chips_left", [p["chips"] for p in players]),
        column("chips_paid", game.per_seat("pay")),
        column("chips_won", [sum(h) for h in hauls]),
        column("biggest_haul", [max(h, default=0) for h in hauls], "max"),
        column("card_points", [p["card_points"] for p in result], "points"),
    ]
    if game.view(0)["lucky_pig"]:
        columns.append(column("pigs_taken", pigs))
    return by_seat(*columns)
