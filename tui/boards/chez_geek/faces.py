"""How Chez Geek cards look on the table: every kind in a colour of its own (so a room reads
at a glance: persons blue, activities orange, Things as plain cards, anytime cards purple),
the job as a gold card, and the values a card carries in two signs: $ for its cost, ★ for its
slack. The colours are the same in every theme, like the dwarves' in Zwergenamulett. The kind
is never told by colour alone: its sign (`KIND_SIGNS`) stands before the card's values."""

from __future__ import annotations

from typing import Any

from tui.boards.chez_geek.cards import card_name, job_name
from tui.boards.chez_geek.hyphens import breakable
from tui.widgets.cardrow import Face

# (ink, paper) of each kind of Life card.
KINDS: dict[str, tuple[str, str]] = {
    "person": ("#ffffff", "#2f62a0"),
    "activity": ("#ffffff", "#a4501b"),
    "thing": ("$card-ink", "$card"),
    "anytime": ("#ffffff", "#6e3b8f"),
}
# Each kind's sign, printed on the card beside its values.
KIND_SIGNS: dict[str, str] = {"person": "☺", "activity": "♪", "thing": "◇", "anytime": "↯"}
JOB_COLOURS = ("#1d1d1d", "#e0b84a")
COST, SLACK = "$", "★"
BAR_FULL, BAR_EMPTY = "█", "░"


def _colours(kind: object) -> tuple[str, str]:
    return KINDS.get(str(kind), KINDS["thing"])


def sign(kind: object) -> str:
    """A kind's sign ("thing"'s for an unknown kind, as its colours)."""
    return KIND_SIGNS.get(str(kind), KIND_SIGNS["thing"])


def values(cost: object, slack: object, kind: object = None) -> str:
    """A card's kind sign (when given), cost and slack ("☺ $2 ★3", "★d6-1")."""
    parts = [] if kind is None else [sign(kind)]
    if cost:
        parts.append(f"{COST}{cost}")
    if slack not in (None, "", "0"):
        parts.append(f"{SLACK}{slack}")
    return " ".join(parts)


def hand_face(card: dict[str, Any]) -> Face:
    """A hand card from the view: name, cost and slack, its kind's colours."""
    ink, paper = _colours(card.get("type"))
    return Face(breakable(card_name(card.get("card"))),
                values(card.get("cost"), card.get("slack"), card.get("type")),
                ink=ink, paper=paper)


def room_face(entry: dict[str, Any], kind: object) -> Face:
    """A card in a room: its name and its value, bonus tokens marked ("★1+1")."""
    ink, paper = _colours(kind)
    tokens = int(entry.get("tokens") or 0)
    value = f"{entry.get('value')}{tokens:+d}" if tokens else str(entry.get("value"))
    return Face(breakable(card_name(entry.get("card"))), f"{sign(kind)} {SLACK}{value}",
                ink=ink,
                paper=paper)


def job_style() -> str:
    ink, paper = JOB_COLOURS
    return f"bold {ink} on {paper}"


def job_label(jid: object) -> str:
    return f" {job_name(jid)} "


def goal_bar(slack: int, goal: int, cells: int) -> str:
    """How far the slack is towards the goal, in `cells` cells."""
    cells = max(cells, 1)
    full = max(0, min(cells, round(cells * slack / goal))) if goal else 0
    return BAR_FULL * full + BAR_EMPTY * (cells - full)
