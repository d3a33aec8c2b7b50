"""A whole state rebuilt from one seat's view, for the expert bot (engines.search samples with it).

A state holds two kinds of things. The public ones the view shows, so that a state can be built
again from it: rooms, the discard pile, what is being played (the pending items, the open window,
the prompt) and the work queued behind it (`queue`: an eater still to eat, the next phase), the
jobs that went under the job pile, which lasting cards have fired. The hidden ones are drawn
afresh: the other hands (from the cards the seat has not seen, sizes kept), the order of the draw
pile and of the unseen jobs, and every future die (a fresh seed). So the expert decides alike at a
local seat and at a networked one, and never from a hidden part of the real state. Nothing here
tells a seat that holds an answer from one that does not: who may still answer a window is the
view's `to_act`, which lists every eligible seat.

The encoders (`item_view`, `window_view`, `prompt_view`, `step_view`) are used by the view, the
decoders by `from_view`; each pair sits together so they cannot drift apart.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import View, unseen
from engines.chez_geek import effects
from engines.chez_geek.deck import DECK
from engines.chez_geek.rules import NO_MOVES, CState, Item, Prompt, Reaction, item_public


# -- what is being played -------------------------------------------------------------------------
def item_view(item: Item) -> dict[str, Any]:
    """An item as the view shows it: its public form and whether it is an FT use (TV cards may
    answer only those)."""
    return {**item_public(item), "ft": item.ft}


def item_from_view(d: dict[str, Any]) -> Item:
    return Item(d["kind"], d["seat"], tuple(d["cards"]), d["to"], d["ft"])


def window_view(s: CState) -> dict[str, Any] | None:
    """The open window: the response window of the top item, or a reaction window with the
    seat it leaves out and the cards that just resolved (what a steal may take)."""
    if s.items:
        return {"kind": "response", "item": len(s.items) - 1}
    r = s.reaction
    if r is None:
        return None
    return {
        "kind": "reaction",
        "after": r.owner if r.refs else None,
        "exclude": r.exclude,
        "owner": r.owner,
        "refs": list(r.refs),
    }


def prompt_view(s: CState) -> dict[str, Any] | None:
    """The open prompt with what everybody may know of it: a room loss names the cards it may
    take; a Nookie its fixed value; a roll the card rolled for and the result so far. The
    choices of a hand limit or of a roll bonus are cards in a hand, so they are not shown."""
    p = s.prompt
    if p is None:
        return None
    out: dict[str, Any] = {"kind": p.kind, "seat": p.seat}
    if p.kind == "room_loss":
        out["why"] = p.data
        out["refs"] = [m["card"] for m in p.moves]
    elif p.kind == "rolled":
        out["result"] = p.data[1]
        out["card"] = p.data[0].cards[0]
        out["item"] = item_view(p.data[0])
    elif p.kind == "nookie":
        out["card"] = p.data.cards[0]
        out["item"] = item_view(p.data)
        out["value"] = p.moves[1]["value"]
    return out


def prompt_from_view(s: CState, d: dict[str, Any] | None) -> Prompt | None:
    """The prompt again; its hidden choices come from the (rebuilt) hand."""
    if d is None:
        return None
    kind, seat = d["kind"], d["seat"]
    if kind == "room_loss":
        moves = tuple({"type": "choose", "card": ref} for ref in d["refs"])
        return Prompt(seat, kind, moves, d["why"])
    if kind == "hand_limit":
        moves = tuple({"type": "choose", "card": c} for c in dict.fromkeys(s.hands[seat]))
        return Prompt(seat, kind, moves, None)
    item = item_from_view(d["item"])
    if kind == "nookie":
        return Prompt(seat, kind, ({"type": "roll"}, {"type": "take", "value": d["value"]}), item)
    plays = effects.roll_bonus_plays(s, seat, item.cards[0])
    return Prompt(seat, kind, ({"type": "accept"}, *plays), (item, d["result"]))


# -- the work queued behind it --------------------------------------------------------------------
def step_view(step: tuple[Any, ...]) -> dict[str, Any]:
    """A queued step (rules.STEPS) as plain data: items as items, card sets as sorted lists."""
    return {"step": step[0], "args": [_arg_view(a) for a in step[1:]]}


def step_from_view(d: dict[str, Any]) -> tuple[Any, ...]:
    return (d["step"], *(_arg_from_view(a) for a in d["args"]))


def _arg_view(arg: Any) -> Any:
    if isinstance(arg, Item):
        return {"item": item_view(arg)}
    if isinstance(arg, frozenset):
        return {"cards": sorted(arg)}
    if isinstance(arg, tuple):
        return list(arg)
    return arg


def _arg_from_view(arg: Any) -> Any:
    if isinstance(arg, dict):
        return item_from_view(arg["item"]) if "item" in arg else frozenset(arg["cards"])
    if isinstance(arg, list):
        return tuple(arg)
    return arg


# -- the rebuild ----------------------------------------------------------------------------------
def shuffled(items: list[str], rng: random.Random) -> list[str]:
    """`items` in a uniformly random order: sorted by one random number each, which costs a
    fifth of `random.shuffle`'s call per item (a rebuild is made for every search iteration)."""
    keys = [rng.random() for _ in items]
    return [c for _, c in sorted(zip(keys, items, strict=True))]


def from_view(view: View, rng: random.Random) -> CState:
    """A state agreeing with everything `view` shows, everything it hides drawn from `rng`."""
    n = view["num_players"]
    players = view["players"]
    s = CState.__new__(CState)
    s.n = n
    s.seed = rng.getrandbits(64)
    s.dice = ()
    s.rolls = s.shuffles = 0
    s.ev = []
    s.log = True
    s.legal = NO_MOVES
    s.active = view["turn"] if view["turn"] is not None else 0
    s.phase, s.income, s.ft = view["phase"], view["income"], view["free_time"]
    s.turn_no, s.over, s.winners = view["turn_no"], view["over"], tuple(view["winners"])
    s.turn_rolls = tuple((r["seat"], r["for"], r["die"]) for r in view["rolls"])
    s.removal_left = tuple(view["removals_left"])
    s.next_ref = view["next_ref"]
    s.jobs = tuple(p["job"] for p in players)
    s.pool = tuple(p["bonus_pool"] for p in players)
    s.rooms = tuple(
        tuple((e["ref"], e["card"], e["value"], e["tokens"]) for e in p["room"]) for p in players
    )
    s.lasting = tuple(
        tuple(
            (cid, effects.lasting_kind(cid), fired)
            for cid, fired in zip(p["lasting"], p["lasting_fired"], strict=True)
        )
        for p in players
    )
    s.discard = tuple(view["discard_pile"])
    s.items = tuple(item_from_view(d) for d in view["pending"])
    s.todo = tuple(step_from_view(d) for d in reversed(view["queue"]))
    _jobs_from_view(s, view, rng)
    _cards_from_view(s, view, rng)
    # Who already let the open window go: every eligible seat not in `to_act`.
    waiting = sum(1 << p for p in view["to_act"])
    s.reaction = None
    window = view["window"]
    if window is not None and window["kind"] == "reaction":
        s.reaction = Reaction(window["exclude"], window["owner"], tuple(window["refs"]))
    s.prompt = None
    s.item_done = 1 << s.items[-1].seat if s.items else 0
    s.react_done = 0 if s.reaction is None else 1 << s.reaction.exclude
    if view["prompt"] is None and s.items:
        s.item_done |= ((1 << n) - 1) & ~waiting
    elif view["prompt"] is None and s.reaction is not None:
        s.react_done |= ((1 << n) - 1) & ~waiting
    s.prompt = prompt_from_view(s, view["prompt"])
    return s


def _jobs_from_view(s: CState, view: View, rng: random.Random) -> None:
    """The job pile: the jobs seen going under it stay at the bottom in their order, the rest
    of the jobs in play (all, or all but the 2-player jobs: the pile's size tells) above them
    in a fresh order."""
    known = tuple(view["job_pile_known"])
    in_play = list(DECK.job_ids)
    if len(in_play) != s.n + view["job_pile"]:
        in_play = [j for j in in_play if j not in DECK.two_player_jobs]
    top = shuffled(unseen(in_play, s.jobs, known), rng)
    s.job_pile = (*top, *known)
    s.jobs_known = len(known)


def _cards_from_view(s: CState, view: View, rng: random.Random) -> None:
    """The seat's own hand as shown; the other hands and the draw pile dealt from the cards it
    has not seen (every card of the deck not in its hand, a room, the discard pile, a lasting
    spot or in play right now)."""
    seat = view["seat"]
    mine = [c["card"] for c in view["hand"]] if seat is not None else []
    seen = [*mine, *s.discard, *(c for item in s.items for c in item.cards)]
    for d in (view["prompt"], *(a for step in view["queue"] for a in step["args"])):
        if isinstance(d, dict) and "item" in d:
            seen += d["item"]["cards"]
    for p in range(s.n):
        seen += [e[1] for e in s.rooms[p]]
        seen += [x[0] for x in s.lasting[p]]
    rest = shuffled(unseen(DECK.life, seen), rng)
    hands = []
    for p, player in enumerate(view["players"]):
        if p == seat:
            hands.append(tuple(mine))
            continue
        size = player["hand_count"]
        hands.append(tuple(rest[:size]))
        del rest[:size]
    s.hands = tuple(hands)
    s.draw = tuple(rest)
    if len(s.draw) != view["draw_pile"]:
        raise ValueError("the view's piles do not add up to the deck")
