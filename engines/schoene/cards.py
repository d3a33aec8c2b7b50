"""The cards, the chips and the arithmetic of a score: shared by the rules and the bots, so a bot
weighs a card exactly the way the final count will."""

from __future__ import annotations

from collections.abc import Iterable

CARD_IDS: tuple[int, ...] = tuple(range(3, 36))
REMOVED = 9  # set aside face down, never seen
PLAYED = len(CARD_IDS) - REMOVED
STARTING_CHIPS: dict[int, int] = {3: 11, 4: 11, 5: 11, 6: 9, 7: 7}


def runs(cards: Iterable[int]) -> list[list[int]]:
    """Split cards into runs of consecutive values, lowest first; a lone card is a run of one."""
    out: list[list[int]] = []
    for card in sorted(cards):
        if out and out[-1][-1] == card - 1:
            out[-1].append(card)
        else:
            out.append([card])
    return out


def card_points(cards: Iterable[int]) -> int:
    """What the cards cost at the end: only the lowest card of each run counts."""
    owned = set(cards)
    return sum(card for card in owned if card - 1 not in owned)


def extra_points(cards: Iterable[int], card: int) -> int:
    """How many points taking `card` adds to `cards` (negative when it joins two runs)."""
    owned = set(cards)
    below, above = card - 1 in owned, card + 1 in owned
    if below:
        return -above * (card + 1)
    return card - above * (card + 1)
