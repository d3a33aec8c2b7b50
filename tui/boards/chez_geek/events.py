"""Chez Geek events as sentences for the log. Everything here is public: plays, rolls and
cards entering or leaving rooms; a window's passes show only as "let go" once it closes."""

from __future__ import annotations

from typing import Any

from tui.boards.base import seat_name, seat_names
from tui.boards.chez_geek.cards import CARDS, card_name, card_names, job_name
from tui.i18n import tr


def item_words(item: object, names: list[str], lang: str | None = None) -> str:
    """A pending item as a sentence: "Anna is going shopping: Pizza, Bier"."""
    if not isinstance(item, dict):
        return "?"
    kind = item.get("kind")
    cards = list(item.get("cards") or [])
    who = seat_name(names, item.get("seat"))
    to = seat_name(names, item.get("to"))
    key = {
        "person": "cg.item.person",
        "activity": "cg.item.activity",
        "trip": "cg.item.trip",
        "tv": "cg.item.tv",
    }.get(str(kind), "cg.item.other")
    if kind == "person" and item.get("to") == item.get("seat"):
        key = "cg.item.person_own"
    return tr(key, lang=lang, name=who, cards=card_names(cards, lang), to=to)


def why_words(why: object, lang: str) -> str:
    if isinstance(why, str) and why in CARDS:
        return card_name(why, lang)
    return tr(f"cg.why.{why}", lang=lang)


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Chez Geek event as a sentence in `lang`."""
    kind = str(event.get("kind", ""))
    name = seat_name(names, event.get("seat"))
    card = card_name(event.get("card"), lang)
    if kind == "turn":
        return tr("cg.ev.turn", lang=lang, name=name, n=event.get("turn"),
                  job=job_name(event.get("job"), lang))
    if kind == "draw":
        return tr("cg.ev.draw", lang=lang, name=name, n=event.get("count"))
    if kind == "reshuffle":
        return tr("cg.ev.reshuffle", lang=lang, n=event.get("cards"))
    if kind == "roll":
        what = tr(f"cg.roll.{event.get('for')}", lang=lang)
        return tr("cg.ev.roll", lang=lang, name=name, die=event.get("die"), what=what)
    if kind == "income":
        return tr("cg.ev.income", lang=lang, name=name, income=event.get("income"),
                  ft=event.get("free_time"))
    if kind == "phase":
        return tr("cg.ev.phase", lang=lang, phase=tr(f"cg.phase.{event.get('phase')}", lang=lang))
    if kind == "play":
        return _play(event, names, lang)
    if kind == "let_go":
        if event.get("window") == "response":
            return tr("cg.ev.let_go", lang=lang, what=item_words(event.get("item"), names, lang))
        return tr("cg.ev.let_go_reaction", lang=lang)
    if kind == "cancelled":
        return tr("cg.ev.cancelled", lang=lang, by=seat_name(names, event.get("by")),
                  what=item_words(event.get("item"), names, lang))
    if kind == "enter":
        tokens = int(event.get("tokens") or 0)
        extra = tr("cg.ev.tokens", lang=lang, n=tokens) if tokens else ""
        return tr("cg.ev.enter", lang=lang, card=card, name=name, value=event.get("value"),
                  extra=extra)
    if kind in ("not_home", "loud_nookie"):
        return tr(f"cg.ev.{kind}", lang=lang, name=name, card=card)
    if kind == "failed":
        return tr("cg.ev.failed", lang=lang, name=name, card=card, n=event.get("result"))
    if kind == "take_fixed":
        return tr("cg.ev.take_fixed", lang=lang, name=name, card=card, n=event.get("value"))
    if kind == "remove_attempt":
        to = event.get("to")
        where = (tr("cg.to_discard", lang=lang) if to is None
                 else tr("cg.to_room", lang=lang, name=seat_name(names, to)))
        return tr("cg.ev.remove_attempt", lang=lang, name=name, card=card, where=where)
    if kind == "move":
        return tr("cg.ev.move", lang=lang, card=card, src=seat_name(names, event.get("from")),
                  dst=seat_name(names, event.get("to")), why=why_words(event.get("why"), lang))
    if kind == "eat":
        return tr("cg.ev.eat", lang=lang, eater=card_name(event.get("eater"), lang), card=card,
                  name=name)
    if kind == "discard":
        return tr(f"cg.ev.discard_{event.get('from')}", lang=lang, name=name, card=card,
                  why=why_words(event.get("why"), lang))
    if kind == "bonus_pool":
        return tr("cg.ev.bonus_pool", lang=lang, name=name, n=event.get("amount"))
    if kind == "salvage":
        key = "cg.ev.salvage" if event.get("kept", True) else "cg.ev.salvage_lost"
        return tr(key, lang=lang, name=name, card=card)
    if kind == "job":
        return tr("cg.ev.job", lang=lang, name=name, old=job_name(event.get("old"), lang),
                  new=job_name(event.get("new"), lang))
    if kind == "win":
        return tr(f"cg.ev.win_{event.get('how')}", lang=lang,
                  names=seat_names(names, event.get("seats") or []))
    return tr("cg.ev.unknown", lang=lang, kind=kind)


def _play(event: dict[str, Any], names: list[str], lang: str) -> str:
    name = seat_name(names, event.get("seat"))
    how = str(event.get("as"))
    cards = card_names(list(event.get("cards") or [event.get("card")]), lang)
    to = seat_name(names, event.get("to"))
    if how == "call" and event.get("to") == event.get("seat"):
        how = "call_own"
    return tr(f"cg.ev.play_{how}", lang=lang, name=name, cards=cards, to=to)
