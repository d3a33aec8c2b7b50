"""Zwergenamulett events as sentences for the log. Play events never name the card: won
tricks are secret, and the log stays readable for the whole game."""

from __future__ import annotations

from typing import Any

from tui.boards.base import seat_name, seat_names
from tui.i18n import count_key, tr


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Zwergenamulett event as a sentence in `lang`."""
    kind = event.get("kind", "")
    name = seat_name(names, event.get("seat"))
    if kind == "play":
        return tr("zwerg.event.play", lang=lang, name=name)
    if kind == "trick":
        count = int(event.get("cards_count", 0))
        cards = tr(count_key("zwerg.n_cards", count), lang=lang, n=count)
        return tr("zwerg.event.trick", lang=lang, name=name, cards=cards)
    if kind == "claim":
        key = "zwerg.event.claim_true" if event.get("success") else "zwerg.event.claim_false"
        return tr(key, lang=lang, name=name, dwarves=event.get("dwarves"))
    if kind == "round_end":
        return _round_end(event, names, lang)
    if kind in ("gold", "gold_back"):
        return tr(f"zwerg.event.{kind}", lang=lang, name=name)
    if kind == "game_over":
        winners = list(event.get("winners") or [])
        key = count_key("zwerg.event.game_over", len(winners))
        return tr(key, lang=lang, names=seat_names(names, winners))
    if kind == "round_start":
        leader = seat_name(names, event.get("leader"))
        return tr("zwerg.event.round_start", lang=lang, round=event.get("round"), name=leader)
    return tr("zwerg.event.unknown", lang=lang, kind=kind)


def _round_end(event: dict[str, Any], names: list[str], lang: str) -> str:
    """Who won the round, with everyone's points (and amulet bonus) unless a call ended it."""
    winners = list(event.get("winners") or [])
    won = tr(
        count_key("zwerg.event.round_won", len(winners)),
        lang=lang,
        names=seat_names(names, winners),
    )
    if event.get("ended_by") == "claim":
        return tr("zwerg.event.round_claimed", lang=lang, round=event.get("round"), won=won)
    points = list(event.get("points") or [])
    bonus = list(event.get("amulet_bonus") or [])
    scores = ", ".join(
        f"{seat_name(names, seat)} {total}"
        + (
            tr("zwerg.event.bonus", lang=lang, n=bonus[seat])
            if seat < len(bonus) and bonus[seat]
            else ""
        )
        for seat, total in enumerate(points)
    )
    return tr("zwerg.event.round_end", lang=lang, round=event.get("round"), scores=scores, won=won)
