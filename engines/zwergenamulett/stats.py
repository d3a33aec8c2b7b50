"""Das Zwergenamulett's end-of-game statistics (engines.stats): tricks and the amulets in
them, rounds and their points, and the seven dwarves shown.

Which cards a trick held is public while it lies open (every player saw it played), and a
finished game's record shows it again: the spectator's view right after a trick was taken
still holds it as the last trick. The log itself never names cards (rules.py says why)."""

from __future__ import annotations

from engines.stats import Played, Stat, by_seat, column

AMULET = "amulett"


def statistics(game: Played) -> list[list[Stat]]:
    n = game.seats
    amulets = [0] * n
    for k, _ in game.each("trick"):
        last = game.view(k)["last_trick"]
        amulets[last["winner"]] += sum(c["card"] == AMULET for c in last["cards"])
    rounds_won, bonus, points, best = [0] * n, [0] * n, [0] * n, [0] * n
    for _, end in game.each("round_end"):
        for seat in end["winners"]:
            rounds_won[seat] += 1
        for seat, value in enumerate(end["amulet_bonus"] or []):
            bonus[seat] += value
        for seat, value in enumerate(end["points"] or []):
            points[seat] += value
            best[seat] = max(best[seat], value)
    claims = [0] * n
    for _, claim in game.each("claim"):
        claims[claim["seat"]] += bool(claim["success"])
    return by_seat(
        column("tricks_won", game.per_seat("trick")),
        column("amulets_won", amulets),
        column("amulet_bonus", bonus, "points"),
        column("rounds_won", rounds_won),
        column("round_points", points, "points"),
        column("best_round", best, "max"),
        column("seven_dwarves", claims),
    )
