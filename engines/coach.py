"""The coach's arithmetic: how much win chance one decision gave away, judged by the expert.

Hints, the review of a finished game, "try again" and puzzles all ask the same engine, the
expert's `analyse` (engines.search), and size its search by one rule, `budget`: one place to
change how hard the coach thinks. A decision is judged only on what the player could know:
the expert searches from the seat's view (plus what the seat remembers, `ExpertBot.remembered`)
and samples everything hidden afresh, so the real hands behind the view never enter.

The estimate is the seat's expected share of the win (ties split it): in a two-player game
(Scho K.O.) its chance to win, in a game of three or more its share of the win. `before` is
the estimate with the expert's choice, `after` with the move made; their difference is the
`loss`, and the grade follows from it by the thresholds below (ours, named in
docs/records.md, "Reviews").

Pure: no I/O, no clock (a fixed iteration count, no seconds, so the same rng gives the same
judgement on any machine).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, Move, View
from engines.search import Analysis, Choice, ExpertBot, canonical

# The grades, best first, and the loss of win chance (share of the win) from which each
# begins. Ours, not Lichess's chess figures: a search over samples of hidden cards is noisier
# than a chess engine, so an inaccuracy starts a little higher and a blunder means a third
# of a win thrown away.
GOOD = "good"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
GRADES = (GOOD, INACCURACY, MISTAKE, BLUNDER)
INACCURACY_LOSS = 0.10
MISTAKE_LOSS = 0.20
BLUNDER_LOSS = 0.33

# A grade counts only the loss the search is sure of: the gap between the best move and the
# move made less this many standard errors of it (a move searched little, whose estimate is
# noisy, is not called a blunder on a few unlucky playouts). bench.review measures how often
# two reviews with other seeds agree.
DOUBT = 1.0

# What the coach searches for, and how many times the game's expert budget (its
# EXPERT_ITERATIONS) each gets. A hint thinks as the expert plays; a review thinks longer, so
# that the same record reviewed with other seeds gets the same grades (bench.review measures
# how often); a puzzle's check must be surest of all (each of its two searches, with other
# seeds, gets this budget: net.puzzles.mine).
HINT = "hint"
REVIEW = "review"
PUZZLE = "puzzle"
BUDGET_FACTOR: dict[str, float] = {HINT: 1, REVIEW: 2, PUZZLE: 4}
# Games whose reviews search more than the rule above: Skip-Bo Breakers' expert plays on the
# smallest budget (200 iterations), and at twice that two reviews with other seeds agreed on
# 84% of its grades, at four times on 90% (bench.review).
REVIEW_BOOST: dict[str, float] = {"skipbo_breakers": 2}
# A game whose expert has no iteration count of its own (a time budget only) gets this.
FALLBACK_ITERATIONS = 1000


def expert_of(eng: Engine) -> ExpertBot:
    """The game's expert bot (every game has one)."""
    bot = eng.bots["expert"]
    assert isinstance(bot, ExpertBot)
    return bot


def budget(eng: Engine, purpose: str) -> int:
    """Search iterations a decision for `purpose` (HINT, REVIEW, PUZZLE) in this game: the one
    budget rule of hints, reviews and puzzles."""
    if purpose not in BUDGET_FACTOR:
        raise ValueError(f"no budget for {purpose!r}: one of {', '.join(BUDGET_FACTOR)}")
    base = expert_of(eng).iterations or FALLBACK_ITERATIONS
    boost = REVIEW_BOOST.get(eng.id, 1) if purpose == REVIEW else 1
    return max(1, round(base * BUDGET_FACTOR[purpose] * boost))


def coach(eng: Engine, iterations: int) -> ExpertBot:
    """The expert on a fixed budget of `iterations`, no clock (deterministic for an rng)."""
    return expert_of(eng).with_budget(iterations, None)


def grade_of(loss: float) -> str:
    """The grade of a decision that gave away `loss` of the seat's share of the win."""
    if loss >= BLUNDER_LOSS:
        return BLUNDER
    if loss >= MISTAKE_LOSS:
        return MISTAKE
    if loss >= INACCURACY_LOSS:
        return INACCURACY
    return GOOD


@dataclass(frozen=True)
class Judgement:
    """One decision as the expert saw it: the move made, the expert's choice, the seat's
    estimated share of the win after each (`before`: with the best move, so the position's
    worth; `after`: with the move made), the loss and its grade, and every root move the
    search weighed (most visited first) with how many playouts it ran."""

    move: Move | None
    best: Move | None
    before: float
    after: float
    grade: str
    choices: tuple[Choice, ...]
    iterations: int

    @property
    def loss(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def agreed(self) -> bool:
        """Whether the move made is the expert's choice."""
        return canonical(self.move) == canonical(self.best)

    def choice(self, move: Move | None) -> Choice | None:
        """What the search found of `move` (None: it did not weigh that move)."""
        key = canonical(move)
        return next((c for c in self.choices if canonical(c.move) == key), None)

    @property
    def sure_loss(self) -> float:
        """The loss the grade counts: the gap less DOUBT standard errors of it."""
        best, made = self.choice(self.best), self.choice(self.move)
        if best is None or made is None or self.agreed:
            return 0.0
        return sure_gap(best, made)

    def margin(self, choice: Choice) -> float:
        """The standard error of a choice's estimate: how sure the search is of it."""
        return margin(choice)


def margin(choice: Choice) -> float:
    """The standard error of a choice's mean share of the win over its playouts."""
    if not choice.visits:
        return 1.0
    w = min(max(choice.win, 0.0), 1.0)
    return math.sqrt(max(w * (1 - w), 1e-4) / choice.visits)


def sure_gap(best: Choice, made: Choice) -> float:
    """How much worse `made` is than `best` as far as the search is sure: their gap less
    DOUBT standard errors of it, at least 0."""
    return max(0.0, best.win - made.win - DOUBT * spread(best, made))


def graded(best: Choice, made: Choice) -> str:
    """The grade of playing `made` where the search found `best`."""
    return grade_of(sure_gap(best, made))


def spread(a: Choice, b: Choice) -> float:
    """The standard error of the gap between two choices' estimates."""
    return math.sqrt(margin(a) ** 2 + margin(b) ** 2)


def _keeping(expert: ExpertBot, move: Move) -> ExpertBot:
    """`expert` whose narrowing of the root (Scho K.O.'s candidates) keeps `move`: the move
    made is weighed even where the expert would not have looked at it."""
    narrow = expert.candidates
    if narrow is None:
        return expert
    key = canonical(move)

    def candidates(view: View, legal: list[Move]) -> list[Move]:
        found = narrow(view, legal)
        if any(canonical(m) == key for m in found):
            return found
        return [*found, move]

    expert.candidates = candidates
    return expert


def judge(
    eng: Engine,
    view: View,
    legal: list[Move],
    move: Move,
    iterations: int,
    rng: random.Random,
) -> Judgement | None:
    """The expert's judgement of `move`, made from `view` (plus the seat's recall:
    `ExpertBot.remembered`) among `legal`, on `iterations` of search drawn from `rng`. None
    where there is nothing to judge: a single legal move, a move the expert leaves to its
    guide rather than search (Zwergenamulett's "7 Zwerge"), no sample to draw."""
    if len(legal) < 2 or move not in legal:
        return None
    expert = _keeping(coach(eng, iterations), move)
    analysis = expert.analyse(view, legal, rng)
    return judged(analysis, move)


def judged(analysis: Analysis | None, move: Move | None) -> Judgement | None:
    """A Judgement from a search already made (None if it weighed nothing, or not `move`)."""
    if analysis is None or not analysis.choices or not analysis.best.visits:
        return None
    key = canonical(move)
    made = next((c for c in analysis.choices if canonical(c.move) == key), None)
    if made is None or not made.visits:
        return None
    best = analysis.best
    return Judgement(
        move=move,
        best=best.move,
        before=max(best.win, made.win),
        after=made.win,
        grade=GOOD if made is best else graded(best, made),
        choices=tuple(c for c in analysis.choices if c.visits),
        iterations=analysis.iterations,
    )


def as_row(judgement: Judgement) -> dict[str, Any]:
    """A judgement in plain values (msgpack and JSON safe): what a review keeps."""
    return {
        "move": judgement.move,
        "best": judgement.best,
        "before": round(judgement.before, 4),
        "after": round(judgement.after, 4),
        "loss": round(judgement.loss, 4),
        "sure_loss": round(judgement.sure_loss, 4),
        "grade": judgement.grade,
        "agreed": judgement.agreed,
        "iterations": judgement.iterations,
        "choices": [
            {"move": c.move, "visits": c.visits, "win": round(c.win, 4)}
            for c in judgement.choices
        ],
    }


def from_row(row: dict[str, Any]) -> Judgement:
    """The Judgement `as_row` wrote."""
    return Judgement(
        move=row["move"],
        best=row["best"],
        before=float(row["before"]),
        after=float(row["after"]),
        grade=str(row["grade"]),
        choices=tuple(Choice(c["move"], int(c["visits"]), float(c["win"]))
                      for c in row["choices"]),
        iterations=int(row["iterations"]),
    )
