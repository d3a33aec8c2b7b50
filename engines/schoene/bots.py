"""Bots for Schöne Sch#!?e. They read only the seat's view and the legal moves.

The strong bot prices the centre card the way the final count will ("what does taking it now
add to my score?") and weighs that against the one chip that saying "no thanks" costs, which
grows dearer as the chip supply runs short. Its weights were tuned in 4-player games against
random bots and against itself; `python -m bench.bots` prints how it fares.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Move, View, ViewBot
from engines.schoene.cards import extra_points


class StrongBot(ViewBot):
    """Takes a card when its net cost is below a threshold that rises as chips run low; lets a
    card that only fits its own run go round once more to collect chips when nobody else
    wants it; lays the pig on a card that would otherwise cost dearly."""

    name = "strong"

    def __init__(
        self,
        base: float = 3.0,
        per_missing_chip: float = 1.6,
        comfort_chips: int = 10,
        pig_cost: int = 12,
        milk_chips: int = 5,
    ) -> None:
        # Take a card costing at most `base` points net; each chip short of `comfort_chips`
        # adds `per_missing_chip` to that. Pig a card costing `pig_cost` or more when low on
        # chips; let a card go round for more chips only with `milk_chips` or more in hand.
        self.base = base
        self.per_missing_chip = per_missing_chip
        self.comfort_chips = comfort_chips
        self.pig_cost = pig_cost
        self.milk_chips = milk_chips

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        if len(legal) <= 1:
            return legal[0] if legal else None
        kinds = {move["type"] for move in legal}
        return {"type": self._decide(view, view["seat"], kinds)}

    def _decide(self, view: dict[str, Any], seat: int, kinds: set[str]) -> str:
        can_pay = "pay" in kinds
        chips = view["my_chips"]
        # Net change to my score if I take now: the card's points less what lies on it.
        cost = (
            extra_points(view["players"][seat]["cards"], view["centre"])
            - view["centre_chips"]
            - len(view["centre_pigs"])
        )
        if cost <= 0:
            return "pay" if can_pay and self._worth_milking(view, seat, cost) else "take"
        if "pig" in kinds and self._pig_now(view, cost):
            return "pig"
        threshold = self.base + self.per_missing_chip * max(0, self.comfort_chips - chips)
        return "take" if not can_pay or cost <= threshold else "pay"

    def _worth_milking(self, view: dict[str, Any], seat: int, cost: int) -> bool:
        """Pay on a card that is already free for me when I can spare the chip, nobody else
        would want it soon, and it is sure to come back (it fits only my run)."""
        card, chips = view["centre"], view["my_chips"]
        if chips < self.milk_chips or view["centre_chips"] >= 4 or cost < -3:
            return False
        for other, player in enumerate(view["players"]):
            if other == seat or other in view["centre_pigs"]:
                continue
            if extra_points(player["cards"], card) - view["centre_chips"] < 15:
                return False
        return True

    def _pig_now(self, view: dict[str, Any], cost: int) -> bool:
        """The pig costs the same point as a chip but spares me the rest of this card: worth
        it on a card I would hate to be forced into, or to send the card out of the game when
        everybody else's pig already lies on it."""
        chips = view["my_chips"]
        if len(view["centre_pigs"]) == view["num_players"] - 1:
            return cost > 3
        if chips == 0:
            return cost > 4
        return cost >= self.pig_cost and chips <= 3
