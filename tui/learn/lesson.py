"""What a lesson is: a prepared table and the steps that walk a newcomer through it.

A step either explains (the learner reads it and presses the key that goes on) or asks for a
kind of move (`expect`: a predicate on the move and the learner's view). The table is fixed
(a seed, or an engine's test options that stack the deal), and the bots' moves follow from
it (`HostSession.choose_for` seeds them by the deal and the state number), so the situations
a lesson talks about arise on every run; tests/tui/test_learn.py plays each lesson by keys.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.base import Move, View

# A step's test of the learner's move: does it do what the step asks?
Expect = Callable[[Move, View], bool]

# Engine id -> the module that holds its lesson (a module-level `LESSON`), loaded lazily.
LESSONS: dict[str, str] = {
    "schoene": "tui.learn.schoene",
    "zwergenamulett": "tui.learn.zwergenamulett",
    "skipbo_breakers": "tui.learn.skipbo_breakers",
    "schoko": "tui.learn.schoko",
    "chez_geek": "tui.learn.chez_geek",
}


@dataclass(frozen=True)
class Step:
    """One step: `text` in each language ({"en": ..., "de": ...}); `expect` None for a step
    that only explains; `why` what a move of the wrong kind is told (each language);
    `keys` the keys that make the step's move on the prepared table (what tests press).
    `allow` moves that may be made meanwhile without ending the step (letting the other
    players' windows go while the step waits for the learner's own turn), made with
    `allow_keys`."""

    text: dict[str, str]
    expect: Expect | None = None
    why: dict[str, str] = field(default_factory=dict)
    keys: tuple[str, ...] = ()
    allow: Expect | None = None
    allow_keys: tuple[str, ...] = ()

    def says(self, lang: str) -> str:
        return self.text.get(lang) or self.text["en"]

    def refusal(self, lang: str) -> str | None:
        """What a move of the wrong kind is told in `lang`; None: the runner's own words."""
        return self.why.get(lang) or self.why.get("en")


@dataclass(frozen=True)
class Lesson:
    """A game's lesson: the table (`names` of the seats, the learner in seat 0; the deal's
    `seed` and `options`, test options included) and its `steps`, the last of which lets the
    game go on freely."""

    engine_id: str
    names: tuple[str, ...]
    seed: int
    steps: tuple[Step, ...]
    options: dict[str, Any] = field(default_factory=dict)
    bot: str = "strong"


def has_lesson(engine_id: str) -> bool:
    return engine_id in LESSONS


def lesson_of(engine_id: str) -> Lesson:
    """The lesson of a game; ValueError if it has none yet."""
    if engine_id not in LESSONS:
        raise ValueError(f"no lesson for game {engine_id!r}")
    lesson: Lesson = importlib.import_module(LESSONS[engine_id]).LESSON
    return lesson


def kind(*types: str) -> Expect:
    """A move of one of these types, whatever its details."""
    return lambda move, view: move.get("type") in types


def move_of(move_type: str, **fields: Any) -> Expect:
    """A move of this type with these fields ("play the Fee", "call him into your room")."""
    return lambda move, view: move.get("type") == move_type and all(
        move.get(name) == value for name, value in fields.items())


def say(en: str, de: str) -> dict[str, str]:
    """A text in both languages (lesson modules write each step as `say(en, de)`)."""
    return {"en": en, "de": de}
