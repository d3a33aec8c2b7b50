"""The coach's reasons in words a player reads: the expert's own numbers behind a decision's
grade (how many games it played out, how often each move won in them, how sure it is), for the
review (tui.screens.review) and "try again" (tui.screens.try_again)."""

from __future__ import annotations

from typing import Any

from engines import coach
from engines.search import Choice
from tui.boards.base import honest
from tui.i18n import register, tr

# How far apart (in standard errors of the two estimates) two moves' shares of the win must
# lie before the coach says it is sure, or fairly sure, the one is better.
SURE = 2.5
FAIRLY_SURE = 1.5


def sureness(judgement: coach.Judgement, a: Choice, b: Choice) -> str:
    """How sure the search is that `a` is better than `b`: "sure", "fairly" or "close"."""
    spread = (judgement.margin(a) ** 2 + judgement.margin(b) ** 2) ** 0.5
    gap = a.win - b.win
    if gap >= SURE * spread:
        return "sure"
    if gap >= FAIRLY_SURE * spread:
        return "fairly"
    return "close"


def why(judgement: coach.Judgement, describe: Any) -> str:
    """The expert's reasons for a decision's grade, in a sentence a player reads: how many
    games it played out, how often the best move and the move made won in them, how sure it
    is. `describe(move)` names a move as the board does."""
    best = judgement.choice(judgement.best)
    made = judgement.choice(judgement.move)
    assert best is not None and made is not None
    text = tr("review.why.searched", n=judgement.iterations)
    if judgement.agreed:
        others = [c for c in judgement.choices if c is not best]
        text += " " + tr("review.why.agreed", move=describe(best.move), win=honest(best.win),
                         visits=best.visits)
        if others:
            text += " " + tr("review.why.next", move=describe(others[0].move),
                             win=honest(others[0].win), visits=others[0].visits)
            text += " " + tr(f"review.why.{sureness(judgement, best, others[0])}")
        return text
    text += " " + tr("review.why.best", move=describe(best.move), win=honest(best.win),
                     visits=best.visits)
    text += " " + tr("review.why.made", move=describe(made.move), win=honest(made.win),
                     visits=made.visits)
    return text + " " + tr(f"review.why.{sureness(judgement, best, made)}")


register(
    {
        "en": {
            "review.why.searched": "The expert made {n} trial runs from what this seat "
                                   "could see.",
            "review.why.best": "{move} won {win}% of its {visits} playouts;",
            "review.why.made": "the move made, {move}, {win}% of its {visits}.",
            "review.why.agreed": "{move} won {win}% of its {visits} playouts;",
            "review.why.next": "the next best, {move}, {win}% of its {visits}.",
            "review.why.sure": "It is sure of the difference.",
            "review.why.fairly": "It is fairly sure of the difference.",
            "review.why.close": "The two are close: it is not sure which is better.",
        },
        "de": {
            "review.why.searched": "Der Experte hat {n} Probeläufe gemacht, ausgehend von "
                                   "dem, was dieser Platz sehen konnte.",
            "review.why.best": "{move} gewann {win} % seiner {visits} Partien;",
            "review.why.made": "der gespielte Zug, {move}, {win} % seiner {visits}.",
            "review.why.agreed": "{move} gewann {win} % seiner {visits} Partien;",
            "review.why.next": "der nächstbeste, {move}, {win} % seiner {visits}.",
            "review.why.sure": "Der Unterschied ist ihm sicher.",
            "review.why.fairly": "Der Unterschied ist ihm ziemlich sicher.",
            "review.why.close": "Die beiden liegen nah beieinander: er ist nicht sicher, "
                                "welcher besser ist.",
        },
    }
)
