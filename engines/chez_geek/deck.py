"""The deck as data: `deck.toml` loaded into Card and Job records and validated on load.

Why data: the printed values of the German deck could not be sourced, so most values are
estimates, and an owner of the printed cards must be able to correct any of them in the data
file alone. Loading therefore checks everything a typo could break (an unknown keyword, a bad
argument, a missing field, a wrong copy total) and names the card in the error.

Effects are kept as parsed keyword tuples `(keyword, args)`; filters (what a card may target) are
compiled once into the frozenset of Life card ids they match, because the deck is finite and a
set lookup is all the rules then need.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DECK_FILE = Path(__file__).with_name("deck.toml")

TYPES = ("person", "activity", "thing", "anytime")
# Categories the rules give meaning to (nookie, sleep, cat, partner) and those only filters use.
CATEGORIES = frozenset(
    (
        "nookie",
        "sleep",
        "cat",
        "partner",
        "food",
        "alcohol",
        "cigarettes",
        "weed",
        "mushrooms",
        "book",
        "tv",
        "web",
        "game",
    )
)

# The effect vocabulary: keyword -> the kinds of its arguments.
#   filter: a filter (§1.1); int: a signed integer; uint: an integer >= 1; category: a category;
#   ids: card ids joined by "|"; scope: the word "any"; self_other: "self" or "other";
#   effect: a nested income(...) or free_time(...). A trailing "?" marks an optional argument.
VOCABULARY: dict[str, tuple[str, ...]] = {
    "own_turn": (),
    "requires": ("category",),
    "cancel": ("filter",),
    "tv_cancel": (),
    "income": ("int",),
    "free_time": ("int",),
    "lose_income": ("uint",),
    "charge": ("uint",),
    "each_turn": ("effect",),
    "next_turn": ("effect",),
    "room_card": (),
    "steal": ("filter",),
    "discard_target": ("filter",),
    "salvage": ("filter",),
    "free_play": ("filter",),
    "eat": ("filter",),
    "block": ("filter",),
    "bonus": ("filter", "int", "scope?"),
    "auto_nookie": ("uint",),
    "roll_bonus": ("filter", "int"),
    "hand_size": ("uint",),
    "immune": ("ids",),
    "new_job": ("self_other",),
}
# Keywords that may sit inside each_turn(...) / next_turn(...).
NESTABLE = ("income", "free_time")
# Keywords whose play needs a chosen target; a card may carry at most one of them.
TARGETED = ("steal", "discard_target", "free_play", "new_job", "salvage")

Effect = tuple[str, tuple[Any, ...]]


class DeckError(ValueError):
    """The data file is broken; the message names the card and what is wrong."""


def first_effect(effects: tuple[Effect, ...], keyword: str) -> tuple[Any, ...] | None:
    """The arguments of the first `keyword` among a card's or a job's effects, or None."""
    for kw, args in effects:
        if kw == keyword:
            return args
    return None


@dataclass(frozen=True, slots=True)
class Card:
    """One distinct Life card. `slack` is the fixed value (0 when none); `die` is
    (sides, offset) for a variable value such as d6-1, else None."""

    id: str
    de: str
    en: str
    type: str
    copies: int
    categories: frozenset[str]
    cost: int
    slack: int
    die: tuple[int, int] | None
    has_slack: bool
    effects: tuple[Effect, ...]
    keywords: tuple[str, ...]  # the effects as written in the data file
    text: str

    def effect(self, keyword: str) -> tuple[Any, ...] | None:
        """The arguments of the card's first `keyword`, or None if it has none."""
        return first_effect(self.effects, keyword)

    def slack_text(self) -> str | None:
        if self.die is not None:
            sides, offset = self.die
            return f"d{sides}{offset:+d}" if offset else f"d{sides}"
        return str(self.slack) if self.has_slack else None


@dataclass(frozen=True, slots=True)
class Job:
    """A job: income and free time are (low, high) pairs; equal values mean a fixed number,
    different ones a die roll (1-3 low, 4-6 high)."""

    id: str
    de: str
    en: str
    income: tuple[int, int]
    free_time: tuple[int, int]
    goal: int
    effects: tuple[Effect, ...]
    keywords: tuple[str, ...]  # the perks as written in the data file
    text: str

    def effect(self, keyword: str) -> tuple[Any, ...] | None:
        return first_effect(self.effects, keyword)


@dataclass(frozen=True, slots=True)
class Deck:
    cards: dict[str, Card]
    jobs: dict[str, Job]
    life: tuple[str, ...]  # every Life card once per copy, in file order
    two_player_jobs: tuple[str, ...]  # removed, or dealt, in a 2-player game

    @property
    def job_ids(self) -> tuple[str, ...]:
        return tuple(self.jobs)


_CALL = re.compile(r"^([a-z_]+)(?:\((.*)\))?$")
_DIE = re.compile(r"^d(\d+)([+-]\d+)?$")
_SPLIT = re.compile(r"^(\d+)/(\d+)$")


def _split_args(text: str) -> list[str]:
    """Split on top-level commas (a nested effect keeps its own parentheses)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


class _Parser:
    """Parses and checks effect strings against the vocabulary; filters are kept as text here
    and compiled once every card id is known."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, why: str) -> DeckError:
        return DeckError(f"{self.where}: {why}")

    def effect(self, text: Any, nested: bool = False) -> Effect:
        if not isinstance(text, str) or not (m := _CALL.match(text.strip())):
            raise self.fail(f"cannot read the effect {text!r}")
        keyword, raw = m.group(1), m.group(2)
        if keyword not in VOCABULARY:
            raise self.fail(f"unknown effect keyword {keyword!r}")
        if nested and keyword not in NESTABLE:
            raise self.fail(f"{keyword!r} cannot be nested in each_turn/next_turn")
        kinds = VOCABULARY[keyword]
        args = _split_args(raw) if raw is not None else []
        needed = sum(not k.endswith("?") for k in kinds)
        if not needed <= len(args) <= len(kinds):
            raise self.fail(f"{keyword} takes {len(kinds)} argument(s), got {text!r}")
        return keyword, tuple(
            self.arg(keyword, k.rstrip("?"), a) for k, a in zip(kinds, args, strict=False)
        )

    def arg(self, keyword: str, kind: str, text: str) -> Any:
        bad = self.fail(f"bad argument {text!r} of {keyword}")
        if kind == "int":
            if not re.fullmatch(r"[+-]?\d+", text):
                raise bad
            return int(text)
        if kind == "uint":
            if not text.isdigit() or int(text) < 1:
                raise bad
            return int(text)
        if kind == "category":
            if text not in CATEGORIES:
                raise bad
            return text
        if kind == "scope":
            if text != "any":
                raise bad
            return True
        if kind == "self_other":
            if text not in ("self", "other"):
                raise bad
            return text
        if kind == "effect":
            return self.effect(text, nested=True)
        if kind in ("filter", "ids"):
            if not re.fullmatch(r"[a-z_!|]+", text):
                raise bad
            return ("?" + kind, text)  # compiled later, once all ids are known
        raise AssertionError(kind)


def _field(entry: dict[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in entry:
        raise DeckError(f"{where}: missing field {name!r}")
    value = entry[name]
    if kind is int and (type(value) is not int):
        raise DeckError(f"{where}: field {name!r} must be an integer, not {value!r}")
    if kind is str and not isinstance(value, str):
        raise DeckError(f"{where}: field {name!r} must be text, not {value!r}")
    if kind is list and not isinstance(value, list):
        raise DeckError(f"{where}: field {name!r} must be a list, not {value!r}")
    return value


def _job_value(value: Any, name: str, where: str) -> tuple[int, int]:
    if type(value) is int and value >= 0:
        return value, value
    if isinstance(value, str) and (m := _SPLIT.match(value)):
        return int(m.group(1)), int(m.group(2))
    raise DeckError(f"{where}: {name} must be a number or 'a/b', not {value!r}")


def _card(entry: dict[str, Any], index: int) -> tuple[dict[str, Any], list[Effect]]:
    where = f"card {entry.get('id', f'#{index + 1}')!r}"
    fields = {
        "id": _field(entry, "id", str, where),
        "de": _field(entry, "de", str, where),
        "en": _field(entry, "en", str, where),
        "type": _field(entry, "type", str, where),
        "copies": _field(entry, "copies", int, where),
    }
    if fields["type"] not in TYPES:
        raise DeckError(f"{where}: unknown type {fields['type']!r} (one of {', '.join(TYPES)})")
    if fields["copies"] < 1:
        raise DeckError(f"{where}: copies must be at least 1")
    cats = _field(entry, "categories", list, where)
    for cat in cats:
        if cat not in CATEGORIES:
            raise DeckError(f"{where}: unknown category {cat!r}")
    fields["categories"] = frozenset(cats)
    cost = entry.get("cost", 0)
    if type(cost) is not int or cost < 0:
        raise DeckError(f"{where}: cost must be a whole number >= 0, not {cost!r}")
    fields["cost"] = cost
    slack = entry.get("slack")
    fields["die"], fields["slack"], fields["has_slack"] = None, 0, slack is not None
    if type(slack) is int and slack >= 0:
        fields["slack"] = slack
    elif isinstance(slack, str) and (m := _DIE.match(slack)) and m.group(1) == "6":
        fields["die"] = (6, int(m.group(2) or 0))  # the game has one d6
    elif slack is not None:
        raise DeckError(f"{where}: slack must be a number or a die like 'd6-1', not {slack!r}")
    if fields["type"] in ("person", "activity", "thing") and slack is None:
        raise DeckError(f"{where}: missing field 'slack'")
    raw = _field(entry, "effects", list, where)
    effects = [_Parser(where).effect(e) for e in raw]
    fields["keywords"] = tuple(raw)
    if sum(kw in TARGETED for kw, _ in effects) > 1:
        raise DeckError(f"{where}: at most one of {', '.join(TARGETED)} per card")
    fields["text"] = entry.get("text", "")
    return fields, effects


def _job(entry: dict[str, Any], index: int) -> tuple[dict[str, Any], list[Effect]]:
    where = f"job {entry.get('id', f'#{index + 1}')!r}"
    fields = {name: _field(entry, name, str, where) for name in ("id", "de", "en")}
    fields["income"] = _job_value(_field(entry, "income", object, where), "income", where)
    fields["free_time"] = _job_value(_field(entry, "free_time", object, where), "free_time", where)
    fields["goal"] = _field(entry, "goal", int, where)
    if fields["goal"] < 1:
        raise DeckError(f"{where}: goal must be at least 1")
    raw = _field(entry, "effects", list, where)
    effects = [_Parser(where).effect(e) for e in raw]
    fields["keywords"] = tuple(raw)
    fields["text"] = _field(entry, "text", str, where)
    return fields, effects


def compile_filter(text: str, cards: dict[str, dict[str, Any]], where: str) -> frozenset[str]:
    """The Life card ids a filter matches: tokens joined by '|', each a type, a category, a
    card id or 'any', optionally 'x!y' (x but not y)."""

    def token_set(token: str) -> frozenset[str]:
        if token == "any":
            return frozenset(cards)
        if token in TYPES:
            return frozenset(c for c, f in cards.items() if f["type"] == token)
        if token in CATEGORIES:
            return frozenset(c for c, f in cards.items() if token in f["categories"])
        if token in cards:
            return frozenset((token,))
        raise DeckError(f"{where}: unknown filter token {token!r}")

    matched: set[str] = set()
    for token in text.split("|"):
        base, _, without = token.partition("!")
        chosen = token_set(base)
        if without:
            chosen = chosen - token_set(without)
        matched |= chosen
    return frozenset(matched)


def _compile(effects: list[Effect], cards: dict[str, dict[str, Any]], where: str) -> tuple:
    def one(value: Any) -> Any:
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "?filter":
            return compile_filter(value[1], cards, where)
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "?ids":
            ids = value[1].split("|")
            for cid in ids:
                if cid not in cards:
                    raise DeckError(f"{where}: unknown card id {cid!r}")
            return frozenset(ids)
        if isinstance(value, tuple) and len(value) == 2 and value[0] in VOCABULARY:
            return value[0], tuple(one(a) for a in value[1])
        return value

    return tuple((kw, tuple(one(a) for a in args)) for kw, args in effects)


def parse_deck(data: dict[str, Any]) -> Deck:
    """Build and validate a Deck from the decoded TOML."""
    cards_raw = data.get("card")
    jobs_raw = data.get("job")
    if not isinstance(cards_raw, list) or not isinstance(jobs_raw, list):
        raise DeckError("the deck needs [[card]] and [[job]] entries")
    cards: dict[str, dict[str, Any]] = {}
    card_effects: dict[str, list[Effect]] = {}
    for i, entry in enumerate(cards_raw):
        fields, effects = _card(entry, i)
        if fields["id"] in cards:
            raise DeckError(f"card {fields['id']!r}: the id is used twice")
        cards[fields["id"]], card_effects[fields["id"]] = fields, effects
    jobs: dict[str, Job] = {}
    for i, entry in enumerate(jobs_raw):
        fields, effects = _job(entry, i)
        if fields["id"] in jobs or fields["id"] in cards:
            raise DeckError(f"job {fields['id']!r}: the id is used twice")
        jobs[fields["id"]] = Job(
            **fields, effects=_compile(effects, cards, f"job {fields['id']!r}")
        )
    built = {
        cid: Card(**f, effects=_compile(card_effects[cid], cards, f"card {cid!r}"))
        for cid, f in cards.items()
    }
    total = sum(c.copies for c in built.values())
    want = data.get("life_cards")
    if total != want:
        counts = ", ".join(f"{c.id} x{c.copies}" for c in built.values() if c.copies > 1)
        raise DeckError(
            f"the Life cards add up to {total} copies, not the {want} the deck declares "
            f"(cards with several copies: {counts})"
        )
    if len(jobs) != data.get("jobs"):
        raise DeckError(f"there are {len(jobs)} jobs, not the {data.get('jobs')} declared")
    life = tuple(c.id for c in built.values() for _ in range(c.copies))
    two = data.get("two_player_jobs")
    if not isinstance(two, list) or len(two) != 2 or any(j not in jobs for j in two):
        raise DeckError(f"two_player_jobs must name two jobs of the deck, not {two!r}")
    return Deck(cards=built, jobs=jobs, life=life, two_player_jobs=tuple(two))


def load_deck(path: Path = DECK_FILE) -> Deck:
    with path.open("rb") as f:
        try:
            data = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise DeckError(f"{path.name} is not valid TOML: {exc}") from None
    return parse_deck(data)


DECK = load_deck()
CARDS = DECK.cards
JOBS = DECK.jobs
