"""Skip-Bo Breakers' end-of-game statistics (engines.stats): hands won and their points,
Breakers and jokers played, tiles played and the tiles left in hand when others went out."""

from __future__ import annotations

from engines.skipbo_breakers.rules import BREAKER, SB
from engines.stats import Played, Stat, by_seat, column


def statistics(game: Played) -> list[list[Stat]]:
    n = game.seats
    breakers, tiles, jokers, biggest = [0] * n, [0] * n, [0] * n, [0] * n
    for _, play in game.each("play"):
        seat, played = play["seat"], play["tiles"]
        breakers[seat] += play["set"] == BREAKER
        tiles[seat] += len(played)
        jokers[seat] += played.count(SB)
        biggest[seat] = max(biggest[seat], len(played))
    hands_won, left, best = [0] * n, [0] * n, [0] * n
    for _, end in game.each("hand_end"):
        winner = end["winner"]
        hands_won[winner] += 1
        best[winner] = max(best[winner], end["points"])
        for seat, count in enumerate(end["tiles_left"]):
            left[seat] += count
    return by_seat(
        column("breakers", breakers),
        column("tiles_left", left),
        column("hands_won", hands_won),
        column("best_hand", best, "max"),
        column("tiles_played", tiles),
        column("jokers_played", jokers),
        column("largest_set", biggest, "max"),
        column("tricks_won", game.per_seat("trick")),
    )
