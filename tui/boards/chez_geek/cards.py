"""Cards and jobs in words: names in the language at the table (German as printed, English where
the deck file has a name), and what a card does, built from its effect keywords in our own
sentences, so a value corrected in the deck file is described right without touching this."""

from __future__ import annotations

import re
from typing import Any

from engines import get_engine
from tui.i18n import language, tr

_ENGINE: Any = get_engine("chez_geek")
CARDS: dict[str, Any] = _ENGINE.cards
JOBS: dict[str, Any] = _ENGINE.jobs
TYPES = ("person", "activity", "thing", "anytime")
_KEYWORD = re.compile(r"^(\w+)\((.*)\)$")


def card_name(cid: object, lang: str | None = None) -> str:
    """A Life card's name; "?" for anything that is not one (event fields come off the wire)."""
    card = CARDS.get(cid) if isinstance(cid, str) else None
    if card is None:
        return "?"
    return card.en if (lang or _lang()) == "en" and card.en else card.de


def job_name(jid: object, lang: str | None = None) -> str:
    job = JOBS.get(jid) if isinstance(jid, str) else None
    if job is None:
        return "?"
    return job.en if (lang or _lang()) == "en" and job.en else job.de


def card_names(cids: list[Any], lang: str | None = None) -> str:
    return ", ".join(card_name(c, lang) for c in cids)


def _lang() -> str:
    return language()


def filter_words(text: str, lang: str | None = None) -> str:
    """A filter ("food|alcohol", "activity!nookie", "any") as words."""
    words = []
    for token in text.split("|"):
        base, _, but = token.partition("!")
        word = _token_word(base, lang)
        if but:
            word = tr("cg.filter.but", lang=lang, what=word, but=_token_word(but, lang))
        words.append(word)
    return tr("cg.filter.or", lang=lang).join(words)


def _token_word(token: str, lang: str | None) -> str:
    if token in CARDS:
        return card_name(token, lang)
    return tr(f"cg.cat.{token}", lang=lang)


def _split(args: str) -> list[str]:
    """Arguments at the top level: "each_turn(income(+1))" has one, "bonus(web,+2,any)" three."""
    parts, depth, current = [], 0, ""
    for ch in args:
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += (ch == "(") - (ch == ")")
        current += ch
    return [*parts, current] if current or parts else []


def keyword_words(keyword: str, lang: str | None = None) -> str:
    """One effect keyword as a phrase ("+1 income this turn")."""
    match = _KEYWORD.match(keyword)
    name, args = (match.group(1), _split(match.group(2))) if match else (keyword, [])
    if name in ("each_turn", "next_turn") and args:
        return tr(f"cg.kw.{name}", lang=lang, effect=keyword_words(args[0], lang))
    fields: dict[str, str] = {}
    if name in ("cancel", "steal", "discard_target", "salvage", "free_play", "eat", "block"):
        fields["what"] = filter_words(args[0], lang) if args else "?"
    elif name in ("bonus", "roll_bonus"):
        fields["what"] = filter_words(args[0], lang) if args else "?"
        fields["n"] = args[1] if len(args) > 1 else "?"
        if len(args) > 2:
            name = "bonus_any"
    elif name == "requires":
        fields["what"] = filter_words(args[0], lang) if args else "?"
    elif name == "immune":
        fields["what"] = ", ".join(card_name(c, lang) for c in args[0].split("|")) if args else "?"
    elif name == "new_job":
        name = f"new_job_{args[0] if args else 'self'}"
    elif args:
        fields["n"] = args[0]
    return tr(f"cg.kw.{name}", lang=lang, **fields)


def keyword_args(cid: str, name: str) -> list[str] | None:
    """The arguments of the card's first keyword `name` as written in the deck file
    (["cat"] for "discard_target(cat)", [] for "own_turn"), or None if it has none."""
    card = CARDS.get(cid)
    for keyword in card.keywords if card is not None else ():
        match = _KEYWORD.match(keyword)
        found, args = (match.group(1), _split(match.group(2))) if match else (keyword, [])
        if found == name:
            return args
    return None


def effects_line(keywords: list[str] | tuple[str, ...], lang: str | None = None) -> str:
    """A card's keywords as one line of our own words ("" for a card without effects)."""
    return "; ".join(keyword_words(k, lang) for k in keywords)


def slack_text(card: Any) -> str:
    text: str | None = card.slack_text()
    return "—" if text is None else text


def full_text(cid: str, lang: str | None = None) -> list[str]:
    """Everything printed on a card, line by line, for the card key."""
    card = CARDS[cid]
    other = card.de if (lang or _lang()) == "en" else card.en
    lines = [f"{card_name(cid, lang)}  ({other})" if other != card_name(cid, lang)
             else card_name(cid, lang)]
    cats = ", ".join(tr(f"cg.cat.{c}", lang=lang) for c in sorted(card.categories))
    kind = tr(f"cg.cat.{card.type}", lang=lang)
    lines.append(f"{kind}" + (f" · {cats}" if cats else ""))
    lines.append(tr("cg.card.values", lang=lang, cost=card.cost, slack=slack_text(card)))
    effects = effects_line(card.keywords, lang)
    if effects:
        lines.append(effects)
    if card.text:
        lines.append(tr("cg.card.note", lang=lang, text=card.text))
    lines.append(tr("cg.card.copies", lang=lang, n=card.copies))
    return lines


def job_line(jid: str, lang: str | None = None) -> str:
    """A job's values and perk in one line."""
    job = JOBS.get(jid)
    if job is None:
        return "?"
    text = tr(
        "cg.job.values",
        lang=lang,
        income=_pair(job.income),
        ft=_pair(job.free_time),
        goal=job.goal,
    )
    perks = effects_line(job.keywords, lang)
    return f"{text}; {perks}" if perks else text


def _pair(pair: tuple[int, int]) -> str:
    low, high = pair
    return str(low) if low == high else f"{low}/{high}"
