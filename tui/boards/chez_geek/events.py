"""Chez Geek events as sentences for the log. Everything here is public: plays, rolls and
cards entering or leaving rooms; a window's passes show only as "let go" once it closes."""

from __future__ import annotations

from typing import Any

from tui.boards.base import seat_name, seat_names
from tui.boards.chez_geek.cards import CARDS, card_name, card_names, job_name
from tui.i18n import tr, you_key


def said(key: str, name: str, lang: str | None = None, **fields: object) -> str:
    """`key` with `name` as its subject, in the second person when it is the player at the
    keys ("You draw 2", "Du ziehst 2")."""
    return tr(you_key(key, name), lang=lang, name=name, **fields)


def room_words(name: str, lang: str | None = None) -> str:
    """Whose room: "Ada's room", or "your room" for the player at the keys."""
    return said("cg.room_of", name, lang)


def as_object(name: str, key: str, lang: str | None = None) -> str:
    """`name` as an object ("answers you", "kontert dich", "zu dir"): `key` is the case."""
    return tr(key, lang=lang) if you_key(key, name) != key else name


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
    return said(key, who, lang, cards=card_names(cards, lang),
                to=as_object(to, "cg.you_object", lang), room=room_words(to, lang))


def why_words(why: object, lang: str) -> str:
    if isinstance(why, str) and why in CARDS:
        return card_name(why, lang)
    return tr(f"cg.why.{why}", lang=lang)


def quiet(event: dict[str, Any]) -> bool:
    """Whether `event` gets no line in the log: a reaction window nobody answered (after every
    phase of every turn, it was a third of the log as "Nobody plays anything"; a response
    window nobody answered still says what went through)."""
    return event.get("kind") == "let_go" and event.get("window") != "response"


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Chez Geek event as a sentence in `lang`."""
    kind = str(event.get("kind", ""))
    name = seat_name(names, event.get("seat"))
    card = card_name(event.get("card"), lang)
    if kind == "turn":
        return tr("cg.ev.turn", lang=lang, name=name, n=event.get("turn"),
                  job=job_name(event.get("job"), lang))
    if kind == "draw":
        return said("cg.ev.draw", name, lang, n=event.get("count"))
    if kind == "reshuffle":
        return tr("cg.ev.reshuffle", lang=lang, n=event.get("cards"))
    if kind == "roll":
        what = tr(f"cg.roll.{event.get('for')}", lang=lang)
        return said("cg.ev.roll", name, lang, die=event.get("die"), what=what)
    if kind == "income":
        return said("cg.ev.income", name, lang, income=event.get("income"),
                    ft=event.get("free_time"))
    if kind == "phase":
        return tr("cg.ev.phase", lang=lang, phase=tr(f"cg.phase.{event.get('phase')}", lang=lang))
    if kind == "play":
        return _play(event, names, lang)
    if kind == "let_go":
        if event.get("window") == "response":
            return tr("cg.ev.let_go", lang=lang, what=item_words(event.get("item"), names, lang))
        return tr("cg.ev.let_go_reaction", lang=lang)  # said where asked, not logged (quiet)
    if kind == "cancelled":
        return said("cg.ev.cancelled", seat_name(names, event.get("by")), lang,
                    what=item_words(event.get("item"), names, lang))
    if kind == "enter":
        tokens = int(event.get("tokens") or 0)
        extra = tr("cg.ev.tokens", lang=lang, n=tokens) if tokens else ""
        return said("cg.ev.enter", name, lang, card=card, value=event.get("value"), extra=extra)
    if kind in ("not_home", "loud_nookie"):
        return said(f"cg.ev.{kind}", name, lang, card=card)
    if kind == "failed":
        return said("cg.ev.failed", name, lang, card=card, n=event.get("result"))
    if kind == "take_fixed":
        return said("cg.ev.take_fixed", name, lang, card=card, n=event.get("value"))
    if kind == "remove_attempt":
        to = event.get("to")
        where = (tr("cg.to_discard", lang=lang) if to is None
                 else room_words(seat_name(names, to), lang))
        return said("cg.ev.remove_attempt", name, lang, card=card, where=where)
    if kind == "move":
        src, dst = seat_name(names, event.get("from")), seat_name(names, event.get("to"))
        return tr("cg.ev.move", lang=lang, card=card, why=why_words(event.get("why"), lang),
                  src=as_object(src, "cg.you_dative", lang), src_room=room_words(src, lang),
                  dst=as_object(dst, "cg.you_dative", lang), dst_room=room_words(dst, lang))
    if kind == "eat":
        return said("cg.ev.eat", name, lang, eater=card_name(event.get("eater"), lang), card=card)
    if kind == "discard":
        return said(f"cg.ev.discard_{event.get('from')}", name, lang, card=card,
                    why=why_words(event.get("why"), lang))
    if kind == "bonus_pool":
        return said("cg.ev.bonus_pool", name, lang, n=event.get("amount"))
    if kind == "salvage":
        key = "cg.ev.salvage" if event.get("kept", True) else "cg.ev.salvage_lost"
        return said(key, name, lang, card=card)
    if kind == "job":
        return said("cg.ev.job", name, lang, old=job_name(event.get("old"), lang),
                    new=job_name(event.get("new"), lang))
    if kind == "win":
        return said(f"cg.ev.win_{event.get('how')}",
                    seat_names(names, event.get("seats") or []), lang)
    return tr("cg.ev.unknown", lang=lang, kind=kind)


def _play(event: dict[str, Any], names: list[str], lang: str) -> str:
    name = seat_name(names, event.get("seat"))
    how = str(event.get("as"))
    cards = card_names(list(event.get("cards") or [event.get("card")]), lang)
    to = seat_name(names, event.get("to"))
    if how == "call" and event.get("to") == event.get("seat"):
        how = "call_own"
    return said(f"cg.ev.play_{how}", name, lang, cards=cards,
                to=as_object(to, "cg.you_object", lang), room=room_words(to, lang))
