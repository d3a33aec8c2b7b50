"""Why a key does nothing now, in a player's words: a hand card that cannot be played, an end
that cannot be made, a shopping trip that is too dear. Worked out from the view and the legal
moves alone (what the rules say a card needs, against what the table shows), so the
table can say it before anything is sent; the engine's own refusal stays the last word for a
move that is sent anyway."""

from __future__ import annotations

from typing import Any

from tui.boards.base import Table
from tui.boards.chez_geek.cards import CARDS, JOBS, card_name, filter_words, job_name, keyword_args
from tui.i18n import tr

# The phase each kind of card is played in, in your own turn.
PHASE_OF = {"person": "call", "activity": "free_time", "thing": "free_time"}
# The hand a turn may end with (rules §1.3.5: discard down to 5).
DISCARD_TO = 5


def blocker(view: dict[str, Any], cid: str) -> str | None:
    """The name of the job or room card that keeps the seat from playing `cid`, if any."""
    seat = view["seat"]
    player = view["players"][seat]
    job = JOBS.get(player["job"])
    if job is not None and cid in (job.effect("block") or (frozenset(),))[0]:
        return job_name(player["job"])
    for entry in player["room"]:
        card = CARDS.get(entry["card"])
        if card is not None and cid in (card.effect("block") or (frozenset(),))[0]:
            return card_name(entry["card"])
    return None


def _phase(view: dict[str, Any]) -> str:
    return tr(f"cg.phase.{view.get('phase')}")


def _waiting(table: Table) -> str | None:
    """Why nothing of the seat's can be done while someone else is deciding, if so."""
    view = table.view
    prompt = view.get("prompt")
    if prompt is not None:
        if prompt.get("seat") == table.seat:
            return tr("cg.no.prompt_mine", what=tr(f"cg.prompt.{prompt.get('kind')}.short"))
        return tr("cg.no.prompt_other", name=table.name(prompt.get("seat")))
    if view.get("window") is not None and table.seat not in view.get("to_act", []):
        return tr("cg.no.others_answer")
    return None


def why_not_card(table: Table, cid: str) -> str:
    """Why the hand card `cid` has no move now."""
    view = table.view
    card = CARDS.get(cid)
    name = card_name(cid)
    waiting = _waiting(table)
    if view.get("over"):
        return tr("game.over")
    if card is None:
        return tr("cg.hint.cannot", card=name)
    if waiting is not None:
        return waiting
    window = view.get("window")
    if window is not None and window.get("kind") == "response":
        return _why_not_answer(table, cid)
    if window is None and view.get("turn") != table.seat:
        return tr("cg.no.not_your_turn", name=table.name(view.get("turn")), card=name)
    if view.get("phase") == "discard" and window is None:
        return tr("cg.no.keep_one")
    by = blocker(view, cid)
    if by is not None:
        return tr("cg.no.blocked", card=name, by=by)
    if card.type == "anytime":
        return _why_not_anytime(table, cid, window is not None)
    if window is not None:
        return tr("cg.no.own_turn_only", card=name, kind=tr(f"cg.cat.{card.type}"))
    return _why_not_in_turn(view, cid)


def _why_not_in_turn(view: dict[str, Any], cid: str) -> str:
    """A person, activity or Thing in the seat's own turn, no window open."""
    card = CARDS[cid]
    name = card_name(cid)
    phase = PHASE_OF.get(card.type)
    if phase != view.get("phase"):
        return tr(f"cg.no.phase_{card.type}", card=name, phase=_phase(view))
    if view.get("free_time", 0) < 1:
        return tr("cg.no.no_free_time")
    if card.cost > view.get("income", 0):
        return tr("cg.no.too_dear", card=name, cost=card.cost, income=view.get("income"))
    return tr("cg.hint.cannot", card=name)


def _why_not_answer(table: Table, cid: str) -> str:
    """A card that cannot answer the item being played."""
    view = table.view
    name = card_name(cid)
    by = blocker(view, cid)
    if by is not None:
        return tr("cg.no.blocked", card=name, by=by)
    cancel = keyword_args(cid, "cancel")
    if cancel:
        return tr("cg.no.cancel_misses", card=name, what=filter_words(cancel[0]))
    if keyword_args(cid, "tv_cancel") is not None:
        return tr("cg.no.tv_misses", card=name)
    return tr("cg.no.answer_only", card=name)


def _why_not_anytime(table: Table, cid: str, in_window: bool) -> str:
    """An anytime card in the seat's own turn or in a reaction window: the first of its
    conditions the table does not meet."""
    view = table.view
    name = card_name(cid)
    seat = table.seat
    own_turn = view.get("turn") == seat and not in_window
    if keyword_args(cid, "cancel"):
        return tr("cg.no.cancel_only", card=name)
    if keyword_args(cid, "own_turn") is not None and not own_turn:
        return tr("cg.no.own_turn", card=name)
    if (args := keyword_args(cid, "roll_bonus")) is not None:
        return tr("cg.no.roll_bonus", card=name, what=filter_words(args[0]))
    if (args := keyword_args(cid, "requires")) is not None:
        return tr("cg.no.requires", card=name, what=filter_words(args[0]))
    if (args := keyword_args(cid, "free_time")) is not None and int(args[0]) < 0:
        return tr("cg.no.free_time_needed", card=name, n=-int(args[0]))
    if keyword_args(cid, "lose_income") is not None or keyword_args(cid, "charge") is not None:
        if own_turn:
            return tr("cg.no.hits_active", card=name)
        return tr("cg.no.immune", card=name, name=table.name(view.get("turn")))
    if (args := keyword_args(cid, "steal")) is not None:
        return tr("cg.no.steal", card=name, what=filter_words(args[0]))
    if (args := keyword_args(cid, "discard_target")) is not None:
        return tr("cg.no.no_target", card=name, what=filter_words(args[0]))
    if (args := keyword_args(cid, "free_play")) is not None:
        return tr("cg.no.free_play", card=name, what=filter_words(args[0]))
    if keyword_args(cid, "new_job") == ["other"]:
        return tr("cg.no.nobody_to_fire", card=name)
    return tr("cg.hint.cannot", card=name)


def why_no_end(table: Table) -> str:
    """Why `e` (end the phase or the turn) does nothing now."""
    view = table.view
    if view.get("over"):
        return tr("game.over")
    waiting = _waiting(table)
    if waiting is not None:
        return waiting
    if view.get("window") is not None:
        return tr("cg.no.end_in_window")
    if view.get("turn") != table.seat:
        return tr("cg.no.not_your_turn_end", name=table.name(view.get("turn")))
    # Every phase but Discard can always be ended; Discard once the hand is down to 5.
    return tr("cg.no.discard_first", n=len(view.get("hand") or []), keep=DISCARD_TO)


def why_no_trip(table: Table, trip: list[str]) -> str:
    """Why the Things packed for a trip cannot go shopping."""
    view = table.view
    waiting = _waiting(table)
    if waiting is not None:
        return waiting
    if view.get("turn") != table.seat or view.get("window") is not None:
        return why_not_card(table, trip[0])
    if view.get("phase") != "free_time":
        return tr("cg.no.phase_thing", card=card_name(trip[0]), phase=_phase(view))
    for cid in trip:
        by = blocker(view, cid)
        if by is not None:
            return tr("cg.no.blocked", card=card_name(cid), by=by)
    if view.get("free_time", 0) < 1:
        return tr("cg.no.no_free_time")
    cost = sum(CARDS[c].cost for c in trip)
    return tr("cg.no.trip_too_dear", cost=cost, income=view.get("income"))


def why_no_moves(table: Table) -> str:
    """Why `m` (every move) has nothing to list."""
    if table.legal:  # a pass alone
        return tr("cg.no.only_pass")
    waiting = _waiting(table)
    if waiting is not None:
        return waiting
    return tr("cg.no.not_your_turn_end", name=table.name(table.view.get("turn")))


def why_no_answer(table: Table) -> str:
    """Why `a` (answer what is being played) has nothing to offer."""
    waiting = _waiting(table)
    if waiting is not None:
        return waiting
    if table.view.get("window") is None:
        return tr("cg.no.nothing_to_answer")
    return tr("cg.hint.no_answer")


def why_no_pass(table: Table) -> str:
    """Why `p` (let it go) does nothing now."""
    waiting = _waiting(table)
    return waiting if waiting is not None else tr("cg.no.nothing_to_let_go")
