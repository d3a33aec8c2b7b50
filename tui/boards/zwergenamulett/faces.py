"""How Zwergenamulett cards look, kept apart from the board because the hand, the trick, the
won-cards line and the round summary all draw them. Names stay as printed (German); dwarves
keep their printed colours in every theme, since those colours are part of the rules."""

from __future__ import annotations

from collections.abc import Sequence

from tui.widgets.cardrow import SOFT_HYPHEN, Face

# Each card: its printed name, points (a dwarf's worth for dwarves) and colour.
FACES: dict[str, Face] = {
    "drache": Face("Drache", "11"),
    "riese": Face("Riese", "10"),
    "magier": Face("Magier", "4"),
    "troll": Face("Troll", "3"),
    "fee": Face("Fee", "2"),
    "amulett": Face(f"Zwergen{SOFT_HYPHEN}amulett", "✦", ink="#fff3c4", paper="#6a3d9a"),
    "zwerg_rot": Face("Zwerg\nrot", "☻", ink="#ffffff", paper="#b3261e"),
    "zwerg_blau": Face("Zwerg\nblau", "☻", ink="#ffffff", paper="#1f56b5"),
    "doppelzwerg": Face(f"Doppel{SOFT_HYPHEN}zwerg", "☻☻", ink="#ffffff", paper="#7a4a22"),
}
DWARVES: dict[str, int] = {"zwerg_rot": 1, "zwerg_blau": 1, "doppelzwerg": 2}
GOLD = "●"


def face_name(card: str | None) -> str:
    """A card's name on one line, as printed ("Zwerg rot", "Doppelzwerg")."""
    if card is None or card not in FACES:
        return "?"
    return FACES[card].name.replace(SOFT_HYPHEN, "").replace("\n", " ")


def grouped(cards: Sequence[str]) -> list[tuple[str, int]]:
    """Identical cards stacked into (card, count), keeping the order given."""
    groups: list[tuple[str, int]] = []
    for card in cards:
        if groups and groups[-1][0] == card:
            groups[-1] = (card, groups[-1][1] + 1)
        else:
            groups.append((card, 1))
    return groups


def dwarves_in(cards: Sequence[str]) -> int:
    return sum(DWARVES.get(card, 0) for card in cards)
