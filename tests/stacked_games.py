"""A stacked game whose statistics are worked out by hand, shared by the engine's tests of
statistics and the screens' (tests/ is on the import path of both)."""

from __future__ import annotations

from typing import Any

TAKE, PAY, PIG = {"type": "take"}, {"type": "pay"}, {"type": "pig"}

# Schöne with three seats. The 24 cards played, in order, then the 9 set aside (13 and 23
# among them, so runs break there).
SCHOENE_ORDER = [10, 11, 20, 12, 30, 3, 5, 7, 9, 14, 16, 18, 22, 24, 26, 28, 32, 34, 35, 33, 31,
                 29, 27, 25]
SCHOENE_OPTIONS: dict[str, Any] = {
    "stack": [*SCHOENE_ORDER, 4, 6, 8, 13, 15, 17, 19, 21, 23], "first": 0, "lucky_pig": True}
# Seat 0 lays the pig on 10, seat 1 pays, seat 2 takes 10 with a chip and the pig, then 11;
# seat 0 takes 20 for a chip; seat 2 takes 12 for two (10 11 12); seat 1 takes 30 for two and
# then every card left: 3 5 7 9 14 16 18 22 and the run 24..35.
SCHOENE_MOVES: list[tuple[int, dict[str, Any]]] = [
    (0, PIG), (1, PAY), (2, TAKE), (2, TAKE), (2, PAY), (0, TAKE), (0, PAY), (1, PAY),
    (2, TAKE), (2, PAY), (0, PAY), (1, TAKE), *[(1, TAKE)] * 19,
]
# Per seat: 20 − 10 chips; 118 − 11 chips − the unused pig; 10 − 12 chips − two pigs.
SCHOENE_SCORES = [10, 106, -4]
SCHOENE_STATS = {
    "cards_taken": [1, 20, 3],
    "longest_run": [1, 12, 3],
    "chips_left": [10, 11, 12],
    "chips_paid": [2, 2, 2],
    "chips_won": [1, 2, 3],
    "biggest_haul": [1, 2, 2],
    "card_points": [20, 118, 10],
    "pigs_taken": [0, 0, 1],
}
