"""The effect vocabulary (the keywords deck.toml's cards are made of): one handler per
keyword, all in this file.

A card's behaviour is the sum of its keywords, applied left to right. Each keyword has one
handler object below with up to three hooks, all optional:
  check(s, seat, card, args, ctx) -> bool   may the card be played now (its part of it)?
  targets(s, seat, card, args, ctx) -> list  the choices the play needs ({"target": ref}, ...)
  play(s, seat, card, args, move, ctx)       carry it out
and the passive keywords (on jobs and on cards lying in rooms) have the query functions after
the table (`blocked`, `bonus_tokens`, ...), which the rules call. `ctx` says when a card is
played: "own" (the active player has the action), "reaction" (a reaction window), "rolled"
(right after the holder's own roll). Cancels and TV cards answer in response windows through
`cancels` and `tv_answers`.

This module knows the state only through its methods (CState in `rules`), so the rules can
import it and no card id is ever needed outside the data file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from engines.chez_geek.deck import CARDS, JOBS, VOCABULARY, Card

if TYPE_CHECKING:
    from engines.chez_geek.rules import CState, Item

Move = dict[str, Any]
THINGS = frozenset(c.id for c in CARDS.values() if c.type == "thing")
NOOKIE = frozenset(c.id for c in CARDS.values() if "nookie" in c.categories)
ANYTIME = frozenset(c.id for c in CARDS.values() if c.type == "anytime")
CANCELLERS = frozenset(c.id for c in CARDS.values() if c.effect("cancel") is not None)
TV_CARDS = frozenset(c.id for c in CARDS.values() if c.effect("tv_cancel") is not None)
ANSWERS = CANCELLERS | TV_CARDS  # what may answer in a response window at all
NO_CARDS: frozenset[str] = frozenset()


class Keyword:
    """Default hooks: no condition, no target, nothing to do (a passive keyword)."""

    # Where the played anytime card goes: "discard", "lasting" or "room".
    keeps = "discard"
    # The contexts in which `check` can pass at all (None: any). Only a shortcut: legal moves
    # skip a card at once when one of its keywords rules the context out, instead of asking
    # every check of every card in every window.
    only_in: frozenset[str] | None = None
    # Whether `check` says no more than `only_in` (legal moves then need not ask it).
    context_only = False

    def check(self, s: CState, seat: int, card: Card, args: tuple, ctx: str) -> bool:
        return True

    def targets(self, s: CState, seat: int, card: Card, args: tuple, ctx: str) -> list[Move]:
        return []

    def play(self, s: CState, seat: int, card: Card, args: tuple, move: Move, ctx: str) -> None:
        return None


HANDLERS: dict[str, Keyword] = {}


def handler(name: str) -> Callable[[type[Keyword]], type[Keyword]]:
    def register(cls: type[Keyword]) -> type[Keyword]:
        assert name in VOCABULARY and name not in HANDLERS, name
        HANDLERS[name] = cls()
        return cls

    return register


# -- play restrictions ----------------------------------------------------------------------------
@handler("own_turn")
class OwnTurn(Keyword):
    only_in = frozenset({"own"})
    context_only = True

    def check(self, s, seat, card, args, ctx):
        return ctx == "own"


@handler("requires")
class Requires(Keyword):
    def check(self, s, seat, card, args, ctx):
        return any(args[0] in CARDS[e[1]].categories for e in s.rooms[seat])


# -- cancelling and TV (answered through `cancels` and `tv_answers`) ------------------------------
@handler("cancel")
class Cancel(Keyword):
    only_in = frozenset()
    context_only = True

    def check(self, s, seat, card, args, ctx):
        return False  # never a plain play: only an answer in a response window


@handler("tv_cancel")
class TvCancel(Keyword):
    """Passive: marks an Activity that may also answer another player's FT use."""


# -- income and free time -------------------------------------------------------------------------
@handler("income")
class Income(Keyword):
    def check(self, s, seat, card, args, ctx):
        return seat == s.active

    def play(self, s, seat, card, args, move, ctx):
        s.income = max(0, s.income + args[0])
        if s.log:
            s.ev.append({"kind": "income", "seat": seat, "income": s.income, "free_time": s.ft})


@handler("free_time")
class FreeTime(Keyword):
    def check(self, s, seat, card, args, ctx):
        return seat == s.active and s.ft + args[0] >= 0

    def play(self, s, seat, card, args, move, ctx):
        s.ft = max(0, s.ft + args[0])
        if s.log:
            s.ev.append({"kind": "income", "seat": seat, "income": s.income, "free_time": s.ft})


def _targets_active(s: CState, seat: int, card: Card) -> bool:
    """lose_income / charge hit the active player, never the holder; `immune` protects."""
    return seat != s.active and card.id not in immunities(s, s.active)


@handler("lose_income")
class LoseIncome(Keyword):
    def check(self, s, seat, card, args, ctx):
        return _targets_active(s, seat, card)

    def play(self, s, seat, card, args, move, ctx):
        s.income = max(0, s.income - args[0])
        if s.log:
            s.ev.append({"kind": "income", "seat": s.active, "income": s.income, "free_time": s.ft})


@handler("charge")
class Charge(Keyword):
    def check(self, s, seat, card, args, ctx):
        return _targets_active(s, seat, card)

    def play(self, s, seat, card, args, move, ctx):
        paid = min(args[0], s.income)
        s.income -= paid
        if s.log:
            s.ev.append({"kind": "income", "seat": s.active, "income": s.income, "free_time": s.ft})
        if paid < args[0]:
            s.push(("room_loss", s.active, THINGS, "charge"))


class Lasting(Keyword):
    """each_turn / next_turn: the card stays in front of the holder (§4)."""

    keeps = "lasting"
    kind = ""

    def check(self, s, seat, card, args, ctx):
        kw, inner = args[0]
        return HANDLERS[kw].check(s, seat, card, inner, ctx)

    def play(self, s, seat, card, args, move, ctx):
        s.set_lasting(seat, (*s.lasting[seat], (card.id, self.kind, False)))
        if self.kind == "each":
            kw, inner = args[0]
            HANDLERS[kw].play(s, seat, card, inner, move, ctx)


@handler("each_turn")
class EachTurn(Lasting):
    kind = "each"


@handler("next_turn")
class NextTurn(Lasting):
    kind = "next"

    def check(self, s, seat, card, args, ctx):
        return seat == s.active


def lasting_kind(cid: str) -> str:
    """How a lasting card stays in front of its holder: "each" or "next" (turn)."""
    for kw, _ in CARDS[cid].effects:
        h = HANDLERS[kw]
        if isinstance(h, Lasting):
            return h.kind
    raise ValueError(f"{cid} is not a lasting card")


def apply_lasting(s: CState, seat: int) -> None:
    """Roll phase: each_turn effects apply again, next_turn effects fire once (§4)."""
    kept = []
    for cid, kind, fired in s.lasting[seat]:
        card = CARDS[cid]
        if kind == "each" or not fired:
            for kw, args in card.effects:
                if kw in ("each_turn", "next_turn"):
                    inner_kw, inner = args[0]
                    HANDLERS[inner_kw].play(s, seat, card, inner, {}, "roll")
        kept.append((cid, kind, True))
    s.set_lasting(seat, tuple(kept))


# -- cards in rooms -------------------------------------------------------------------------------
@handler("room_card")
class RoomCard(Keyword):
    keeps = "room"

    def play(self, s, seat, card, args, move, ctx):
        s.enter(seat, card.id, card.slack, seat)


@handler("steal")
class Steal(Keyword):
    """Only in the reaction window right after a matching card of another player resolved."""

    def targets(self, s, seat, card, args, ctx):
        r = s.reaction
        if ctx != "reaction" or r is None or r.owner == seat or not r.refs:
            return []
        out = []
        for e in s.rooms[r.owner]:
            if e[0] in r.refs and e[1] in args[0] and not blocked(s, seat, e[1]):
                out.append({"target": e[0]})
        return out

    def play(self, s, seat, card, args, move, ctx):
        assert s.reaction is not None
        s.move_entry(s.reaction.owner, move["target"], seat, "steal")


def room_of(s: CState, ref: int) -> int:
    for seat in range(s.n):
        for e in s.rooms[seat]:
            if e[0] == ref:
                return seat
    raise KeyError(ref)


@handler("discard_target")
class DiscardTarget(Keyword):
    def targets(self, s, seat, card, args, ctx):
        return [{"target": e[0]} for room in s.rooms for e in room if e[1] in args[0]]

    def play(self, s, seat, card, args, move, ctx):
        s.discard_entry(room_of(s, move["target"]), move["target"], card.id)


@handler("salvage")
class Salvage(Keyword):
    """With no match the card may still be played and does nothing (§4)."""

    def targets(self, s, seat, card, args, ctx):
        if args[0].isdisjoint(s.discard):
            return [{}]
        found = [c for c in dict.fromkeys(reversed(s.discard)) if c in args[0]]
        return [{"take": c} for c in found]

    def play(self, s, seat, card, args, move, ctx):
        cid = move.get("take")
        if cid is None:
            return
        i = len(s.discard) - 1 - s.discard[::-1].index(cid)
        s.discard = s.discard[:i] + s.discard[i + 1 :]
        kept = s.to_hand(seat, cid)
        if s.log:
            s.ev.append({"kind": "salvage", "seat": seat, "card": cid, "kept": kept})


@handler("free_play")
class FreePlay(Keyword):
    """Play a matching Activity at once, no FT, paying its cost; TV cannot stop it (§4)."""

    def targets(self, s, seat, card, args, ctx):
        budget = s.income if seat == s.active else 0
        blocks = blocks_for(s, seat, BLOCKABLE_OF_TYPE["activity"])
        out = []
        for cid in dict.fromkeys(s.hands[seat]):
            act = CARDS[cid]
            if (
                cid in args[0]
                and act.type == "activity"
                and act.cost <= budget
                and cid not in blocks
            ):
                out.append({"with": cid})
        return out

    def play(self, s, seat, card, args, move, ctx):
        cid = move["with"]
        s.take_from_hand(seat, cid)
        if s.log:
            s.ev.append({"kind": "play", "seat": seat, "card": cid, "as": "free_play", "to": seat})
        s.open_item("activity", seat, (cid,), seat, False)


# -- persons (passive) ----------------------------------------------------------------------------
@handler("eat")
class Eat(Keyword):
    """Passive: see `eat`."""


@handler("block")
class Block(Keyword):
    """Passive: see `blocked`."""


@handler("bonus")
class Bonus(Keyword):
    """Passive: see `bonus_tokens`."""


@handler("auto_nookie")
class AutoNookie(Keyword):
    """Passive: see `auto_nookie`."""


# -- rolls ----------------------------------------------------------------------------------------
@handler("roll_bonus")
class RollBonus(Keyword):
    """On a job: passive (see `roll_bonus`). On an anytime card: used once, right after the
    holder's own roll for a matching activity."""

    only_in = frozenset({"rolled"})
    context_only = True

    def check(self, s, seat, card, args, ctx):
        return ctx == "rolled"

    def play(self, s, seat, card, args, move, ctx):
        assert s.prompt is not None
        item, result = s.prompt.data
        s.prompt = s.prompt._replace(data=(item, result + args[1]))


# -- jobs -----------------------------------------------------------------------------------------
@handler("hand_size")
class HandSize(Keyword):
    """Passive: see `hand_size`."""


@handler("immune")
class Immune(Keyword):
    """Passive: see `immunities`."""


@handler("new_job")
class NewJob(Keyword):
    def targets(self, s, seat, card, args, ctx):
        if args[0] == "self":
            return [{}]
        return [{"seat": p} for p in range(s.n) if p != seat and card.id not in immunities(s, p)]

    def play(self, s, seat, card, args, move, ctx):
        s.change_job(seat if args[0] == "self" else move["seat"])


assert set(HANDLERS) == set(VOCABULARY), set(VOCABULARY) - set(HANDLERS)


# -- playing an anytime card ----------------------------------------------------------------------
def _plan(card: Card) -> tuple[tuple[Keyword, bool, bool, tuple], ...]:
    """The keywords legal moves must ask about a card, as (handler, whether to ask its check,
    whether it names targets, args): looked up once. A check that is the default or says no
    more than the context (see PLAYABLE) is left out, as are keywords with nothing to ask."""
    plan = []
    for kw, args in card.effects:
        h = HANDLERS[kw]
        check = type(h).check is not Keyword.check and not h.context_only
        named = type(h).targets is not Keyword.targets
        if check or named:
            plan.append((h, check, named, args))
    return tuple(plan)


def _contexts(card: Card) -> frozenset[str]:
    allowed = frozenset({"own", "reaction", "rolled", "response"})
    for kw, _ in card.effects:
        only = HANDLERS[kw].only_in
        if only is not None:
            allowed &= only
    return allowed


PLANS = {cid: _plan(CARDS[cid]) for cid in ANYTIME}
# The anytime cards each context may see played at all.
PLAYABLE = {
    ctx: frozenset(cid for cid in ANYTIME if ctx in _contexts(CARDS[cid]))
    for ctx in ("own", "reaction", "rolled")
}
# A play without choices, made once (see engine.DISCARDS: legal moves are shared, never changed).
PLAYS: dict[str, Move] = {cid: {"type": "play", "card": cid} for cid in ANYTIME}


def anytime_moves(s: CState, seat: int, ctx: str) -> list[Move]:
    """Every {"type": "play"} move of `seat`'s hand in this context."""
    hand = s.hands[seat]
    playable = PLAYABLE[ctx]
    if playable.isdisjoint(hand):
        return []
    out: list[Move] = []
    blocks = blocks_for(s, seat, BLOCKABLE_PLAYS[ctx])
    for cid in dict.fromkeys(hand):
        if cid not in playable or cid in blocks:
            continue
        card = CARDS[cid]
        choices: list[Move] | None = None
        for h, check, named, args in PLANS[cid]:
            if check and not h.check(s, seat, card, args, ctx):
                break
            if named:
                found = h.targets(s, seat, card, args, ctx)
                if not found:
                    break
                choices = found
        else:
            if choices is None or choices == [{}]:
                out.append(PLAYS[cid])
            else:
                out += [{"type": "play", "card": cid, **c} for c in choices]
    return out


def play_anytime(s: CState, seat: int, move: Move, ctx: str) -> None:
    """Carry out a legal play: keywords left to right, then the card goes where they say."""
    card = CARDS[move["card"]]
    s.take_from_hand(seat, card.id)
    if s.log:
        public = {k: v for k, v in move.items() if k != "type"}
        s.ev.append({"kind": "play", "seat": seat, "as": "anytime", **public})
    keeps = "discard"
    for kw, args in card.effects:
        h = HANDLERS[kw]
        h.play(s, seat, card, args, move, ctx)
        if h.keeps != "discard":
            keeps = h.keeps
    if keeps == "discard":
        s.to_discard(card.id)


# -- the passive keywords, queried by the rules ---------------------------------------------------
Args = dict[str, tuple[tuple, ...]]  # a table of `_keyword_args`: card or job id -> arguments


def _keyword_args(records: dict[str, Any], keyword: str) -> Args:
    """The arguments of each card's (or job's) `keyword` effects in order, for those that
    have one: looked up once, so the queries below pass over every other card at once."""
    found = {rid: tuple(a for kw, a in r.effects if kw == keyword) for rid, r in records.items()}
    return {rid: args for rid, args in found.items() if args}


def _shared(bonuses: tuple[tuple, ...]) -> tuple[tuple, ...]:
    """The bonuses of scope `any` (a third argument): the only ones that another seat's
    cards feed, so `bonus_tokens` asks every other seat about these alone."""
    return tuple(args for args in bonuses if len(args) > 2)


JOB_BONUS = _keyword_args(JOBS, "bonus")
CARD_BONUS = _keyword_args(CARDS, "bonus")
JOB_SHARED_BONUS = {j: a for j, args in JOB_BONUS.items() if (a := _shared(args))}
CARD_SHARED_BONUS = {c: a for c, args in CARD_BONUS.items() if (a := _shared(args))}
# The cards some scope-`any` bonus counts: no other card feeds anybody's bonus pool.
SHARED_BONUS_CARDS: frozenset[str] = frozenset().union(
    *(a[0] for table in (JOB_SHARED_BONUS, CARD_SHARED_BONUS) for b in table.values() for a in b)
)
JOB_ROLL_BONUS = _keyword_args(JOBS, "roll_bonus")
CARD_ROLL_BONUS = _keyword_args(CARDS, "roll_bonus")
CARD_AUTO_NOOKIE = _keyword_args(CARDS, "auto_nookie")
# What each eater eats (its first `eat`), by card id.
EATS = {cid: args[0][0] for cid, args in _keyword_args(CARDS, "eat").items()}


def _held(s: CState, seat: int, job_args: Args, card_args: Args) -> list[tuple[Any, ...]]:
    """One keyword's arguments (tables of `_keyword_args`) on the seat's job, then on every
    card in its room, in that order."""
    out = list(job_args.get(s.jobs[seat], ()))
    if card_args:  # (no card of the deck may have the keyword at all)
        for e in s.rooms[seat]:
            more = card_args.get(e[1])
            if more is not None:
                out += more
    return out


def _blocks(effects: tuple[tuple[str, tuple], ...]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for kw, args in effects:
        if kw == "block":
            out |= args[0]
    return out


JOB_BLOCKS = {jid: _blocks(job.effects) for jid, job in JOBS.items()}
CARD_BLOCKS = {cid: b for cid, card in CARDS.items() if (b := _blocks(card.effects))}


def blocked_cards(s: CState, seat: int) -> frozenset[str]:
    """block: the cards the holder (job) or room owner (person) may not play (§1.6)."""
    out = JOB_BLOCKS[s.jobs[seat]]
    for e in s.rooms[seat]:
        more = CARD_BLOCKS.get(e[1])
        if more is not None:
            out = out | more
    return out


# Every card that some job or room card blocks: a hand holding none of them plays freely.
BLOCKABLE = frozenset().union(*JOB_BLOCKS.values(), *CARD_BLOCKS.values())


def blockable(cards: Iterable[str]) -> frozenset[str]:
    """Those of `cards` that some block names (for `blocks_for`)."""
    return BLOCKABLE.intersection(cards)


def blocks_for(s: CState, seat: int, cards: frozenset[str]) -> frozenset[str]:
    """`blocked_cards` for a caller that asks about the cards of `seat`'s hand among those
    `cards` can block (made with `blockable`) and no others: a hand holding none of them
    needs no look at the room, and most hands hold none (a few of the deck's cards can be
    blocked at all), where nearly every move asks."""
    return NO_CARDS if cards.isdisjoint(s.hands[seat]) else blocked_cards(s, seat)


def blocked(s: CState, seat: int, cid: str) -> bool:
    return cid in blocked_cards(s, seat)


BLOCKABLE_PLAYS = {ctx: blockable(cards) for ctx, cards in PLAYABLE.items()}
BLOCKABLE_CANCELLERS = blockable(CANCELLERS)
BLOCKABLE_TV_CARDS = blockable(TV_CARDS)
BLOCKABLE_OF_TYPE = {
    kind: blockable(c.id for c in CARDS.values() if c.type == kind)
    for kind in {c.type for c in CARDS.values()}
}

# Each job's immunities (its first `immune`) and hand size (its first `hand_size`).
JOB_IMMUNE = {jid: args[0][0] for jid, args in _keyword_args(JOBS, "immune").items()}
JOB_HAND_SIZE = {jid: args[0][0] for jid, args in _keyword_args(JOBS, "hand_size").items()}


def immunities(s: CState, seat: int) -> frozenset[str]:
    """immune: card ids that cannot target this player."""
    return JOB_IMMUNE.get(s.jobs[seat], NO_CARDS)


def hand_size(s: CState, seat: int, default: int) -> int:
    return JOB_HAND_SIZE.get(s.jobs[seat], default)


def bonus_tokens(
    s: CState, owner: int, cid: str, player: int
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """bonus: (tokens for a card `player` played into `owner`'s room, bonus-pool gains of
    other seats). A person's bonus counts cards resolving into its room; a job's counts cards
    its holder plays into their own room; scope `any` counts every player's cards, tokens on
    the holder's own and the bonus pool for the rest (§4, §1.7). Each source once."""
    tokens = 0
    gains: list[tuple[int, int]] = []
    for args in JOB_BONUS.get(s.jobs[owner], ()):
        if cid in args[0] and (player == owner or len(args) > 2):
            tokens += args[1]
    for e in s.rooms[owner]:
        for args in CARD_BONUS.get(e[1], ()):
            if cid in args[0]:
                tokens += args[1]
    if cid not in SHARED_BONUS_CARDS:
        return tokens, ()
    for holder in range(s.n):
        if holder == owner:
            continue
        for args in _held(s, holder, JOB_SHARED_BONUS, CARD_SHARED_BONUS):
            if cid in args[0]:
                gains.append((holder, args[1]))
    return tokens, tuple(gains)


def eat(s: CState, seat: int, ref: int) -> None:
    """eat: the eater (if still there) takes one matching card of the owner's choice."""
    entry = s.find(seat, ref)
    if entry is None:
        return
    s.push(("room_loss", seat, EATS[entry[1]], entry[1]))


def auto_nookie(s: CState, seat: int, cid: str) -> int | None:
    """auto_nookie: the fixed value the seat may take for this Nookie, or None."""
    if cid not in NOOKIE:
        return None
    for e in s.rooms[seat]:
        args = CARD_AUTO_NOOKIE.get(e[1])
        if args:
            return args[0][0]
    return None


def roll_bonus(s: CState, seat: int, cid: str) -> int:
    """roll_bonus on the job (and any lying card): added to every matching own roll."""
    total = 0
    for args in _held(s, seat, JOB_ROLL_BONUS, CARD_ROLL_BONUS):
        if cid in args[0]:
            total += args[1]
    return total


def roll_bonus_plays(s: CState, seat: int, cid: str) -> list[Move]:
    """One-shot roll bonus cards in hand that fit this roll."""
    return [
        m
        for m in anytime_moves(s, seat, "rolled")
        if any(kw == "roll_bonus" and cid in a[0] for kw, a in CARDS[m["card"]].effects)
    ]


def cancels(s: CState, seat: int, item: Item) -> list[Move]:
    """cancel: cards in hand whose filter matches the pending item (a trip: any Thing)."""
    hand = s.hands[seat]
    if CANCELLERS.isdisjoint(hand):
        return []
    out = []
    blocks = blocks_for(s, seat, BLOCKABLE_CANCELLERS)
    for cid in dict.fromkeys(hand):
        card = CARDS[cid]
        if cid not in CANCELLERS or cid in blocks:
            continue
        args = card.effect("cancel")
        if args is None or not any(c in args[0] for c in item.cards):
            continue
        if all(
            HANDLERS[kw].check(s, seat, card, a, "response")
            for kw, a in card.effects
            if kw not in ("cancel",)
        ):
            out.append({"type": "cancel", "card": cid})
    return out


def tv_answers(s: CState, seat: int, item: Item) -> list[Move]:
    """tv_cancel: against another player's pending FT use (activity or trip)."""
    if not item.ft or item.seat == seat or TV_CARDS.isdisjoint(s.hands[seat]):
        return []
    blocks = blocks_for(s, seat, BLOCKABLE_TV_CARDS)
    return [
        {"type": "tv", "card": cid}
        for cid in dict.fromkeys(s.hands[seat])
        if cid in TV_CARDS and cid not in blocks
    ]
