"""Standing orders: how the table answers an interrupt window for a person who is not there.

Chez Geek's answer windows (a cancel, a TV card) last seconds, and a game over days cannot
wait days for each; so every person sets, once, what the table answers for them, and the
table answers at once in every window (the record says which moves a standing order made):
- `never`: let every window go (the default);
- `nookie`: cancel any Nookie another player plays (a Nookie against me), if I hold a card
  that cancels it; else let it go;
- `bot`: answer as the strong bot would, from my view.
The table answers from the seat's own view and legal moves, as a bot does: no order sees more.
"""

from __future__ import annotations

from typing import Any

from engines.base import Move
from net.table.session import HostSession
from net.table.windows import PASS

ANSWERS = ("never", "nookie", "bot")
DEFAULT = "never"


def check(orders: Any) -> dict[str, str]:
    """A seat's standing orders from what a player sent; ValueError naming the choices."""
    if not isinstance(orders, dict) or set(orders) - {"answer"}:
        raise ValueError("Standing orders name only how to answer")
    answer = orders.get("answer", DEFAULT)
    if answer not in ANSWERS:
        raise ValueError(f"A standing order answers one of: {', '.join(ANSWERS)}")
    return {"answer": answer}


def _nookie_against(view: dict[str, Any], seat: int) -> bool:
    from engines.chez_geek.deck import CARDS  # Chez Geek is the game with answer windows

    window = view.get("window") or {}
    pending = view.get("pending") or []
    if window.get("kind") != "response" or not isinstance(window.get("item"), int):
        return False
    item = pending[window["item"]] if 0 <= window["item"] < len(pending) else {}
    return item.get("seat") != seat and any(
        "nookie" in CARDS[card].categories for card in item.get("cards") or [] if card in CARDS)


def answer(session: HostSession, seat: int, orders: dict[str, str]) -> Move:
    """What `seat`'s standing orders answer to the window open now."""
    engine, state = session.engine, session.state
    legal = engine.legal_moves(state, seat)
    order = orders.get("answer", DEFAULT)
    if order == "bot":
        chosen = session.choose_for(seat, "strong")
        return chosen if chosen is not None else PASS
    if order == "nookie" and _nookie_against(engine.view(state, seat), seat):
        cancels = [m for m in legal if m["type"] == "cancel"]
        if cancels:
            return cancels[0]
    return PASS if PASS in legal else legal[0]
