"""Skip-Bo Breakers events as sentences for the log. Plays name their tiles: everyone saw
them land on the table."""

from __future__ import annotations

from typing import Any

from tui.boards.base import seat_name
from tui.boards.skipbo_breakers.tiles import set_words
from tui.i18n import count_key, tr, you_key


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Skip-Bo Breakers event as a sentence in `lang`."""
    kind = event.get("kind", "")
    name = seat_name(names, event.get("seat"))
    if kind == "play":
        words = set_words(
            str(event.get("set")),
            int(event.get("rank") or 0),
            list(event.get("tiles") or []),
            list(event.get("values") or []),
            lang,
        )
        return tr("sbb.event.play", lang=lang, name=name, set=words)
    if kind == "pass":
        return tr("sbb.event.pass", lang=lang, name=name)
    if kind == "out":
        key = "sbb.event.out" if event.get("first") else "sbb.event.out_later"
        return tr(you_key(key, name), lang=lang, name=name)
    if kind == "trick":
        count = int(event.get("tiles") or 0)
        key = you_key(count_key("sbb.event.trick", count), name)
        return tr(key, lang=lang, name=name, count=count)
    if kind == "hand_end":
        scores = ", ".join(
            f"{seat_name(names, seat)} {score}"
            for seat, score in enumerate(event.get("scores") or [])
        )
        winner = seat_name(names, event.get("winner"))
        return tr(
            you_key("sbb.event.hand_end", winner),
            lang=lang,
            hand=event.get("hand"),
            name=winner,
            points=event.get("points"),
            scores=scores,
        )
    if kind == "game_over":
        winner = seat_name(names, next(iter(event.get("winners") or [None])))
        return tr(you_key("sbb.event.game_over", winner), lang=lang, name=winner)
    if kind == "hand_start":
        leader = seat_name(names, event.get("leader"))
        key = you_key("sbb.event.hand_start", leader)
        return tr(key, lang=lang, hand=event.get("hand"), name=leader)
    return tr("sbb.event.unknown", lang=lang, kind=kind)
