"""Chez Geek's floor engine (see bench.floor): one random game written as plainly as the rules
allow, to measure how close the engine's playout path (`random_step`) comes.

Plain means: one mutable game, lists changed in place, a window is a loop over the seats and a
nested window a recursive call (the engine's work queue is a stack, so the call stack keeps the
same order), the end of the game an exception that unwinds every window at once. Only the deck
data (engines.chez_geek.deck) and the ruling numbers (engines.chez_geek.rules) are shared; the
game logic is this module's own.

Each move is a uniform pick among the same legal moves the engine offers, made by the seat the
engine's random player would move for (the lowest seat still to answer a window), and a move
counts wherever the engine counts one: a seat with nothing to answer still passes, one move. So
the floor plays the engine's own random game, move for move in distribution (the moves-per-second
ratio of bench.engines compares like with like); tests/engines/test_chez_floor.py replays floor
games through the engine to check it (`Game` keeps what that needs: the deal, the dice, and with
`rec` every move). Its one borrowed recipe is the engine's seeded reshuffle of the discard pile,
which test options cannot fix.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from engines.chez_geek.deck import CARDS, DECK, JOBS
from engines.chez_geek.rules import (
    ALWAYS_OFFER_ROLL_BONUS,
    AUTO_SINGLE_CHOICE,
    CALL_FAILS_UP_TO,
    DISCARD_TO,
    FIXED_NOOKIE_NEVER_LOUD,
    HAND_SIZE,
    JOB_ROLL_HIGH_FROM,
    LOUD_NOOKIE_FROM,
    MAX_TURNS,
    MIN_KEEP,
    MOVE_DROPS_TOKENS,
    NEW_ITEM_ENDS_REACTION,
    OLD_JOB_UNDER_PILE,
    REACTION_AFTER_CANCEL,
    REACTION_PLAY_REOPENS,
    REMOVAL_SUCCEEDS_FROM,
    START_HAND,
    TIE_WINNER_CLOCKWISE_FROM_ACTIVE,
    TV_RECEIVED_VALUE,
)

# -- the deck as plain lookups --------------------------------------------------------------------
TYPE = {cid: c.type for cid, c in CARDS.items()}
COST = {cid: c.cost for cid, c in CARDS.items()}
SLACK = {cid: c.slack for cid, c in CARDS.items()}
DIE = {cid: c.die[1] for cid, c in CARDS.items() if c.die is not None}  # offset on one d6
CATS = frozenset(cid for cid, c in CARDS.items() if "cat" in c.categories)
PERSONS = frozenset(cid for cid, t in TYPE.items() if t == "person")
REMOVABLE = PERSONS - CATS
INVITED = frozenset(cid for cid in REMOVABLE if SLACK[cid] > 0)
THINGS = frozenset(cid for cid, t in TYPE.items() if t == "thing")
SLEEP = frozenset(cid for cid, c in CARDS.items() if "sleep" in c.categories)
NOOKIE = frozenset(cid for cid, c in CARDS.items() if "nookie" in c.categories)
ANYTIME = frozenset(cid for cid, t in TYPE.items() if t == "anytime")
EATS = {cid: a[0] for cid, c in CARDS.items() if (a := c.effect("eat"))}
BLOCKS = {cid: a[0] for cid, c in CARDS.items() if (a := c.effect("block"))}
ROOM_BONUS = {cid: a for cid, c in CARDS.items() if (a := c.effect("bonus"))}  # (filter, n)
AUTO_NOOKIE = {cid: a[0] for cid, c in CARDS.items() if (a := c.effect("auto_nookie"))}
CANCELS = {cid: a[0] for cid, c in CARDS.items() if (a := c.effect("cancel"))}
TV = frozenset(cid for cid, c in CARDS.items() if c.effect("tv_cancel") is not None)
ANSWERS = frozenset(CANCELS) | TV
# One-shot roll bonus cards (Schönsaufen): (filter, n, the category the room must hold).
ROLL_PLAYS = {
    cid: (*c.effect("roll_bonus"), c.effect("requires")[0])  # type: ignore[misc]
    for cid, c in CARDS.items()
    if cid in ANYTIME and c.effect("roll_bonus")
}
CATEGORY_OF = {cid: c.categories for cid, c in CARDS.items()}
LASTING = {  # card -> ("each" | "next", inner keyword, n)
    cid: ("each" if kw == "each_turn" else "next", *args[0][0:1], args[0][1][0])
    for cid, c in CARDS.items()
    for kw, args in c.effects
    if kw in ("each_turn", "next_turn")
}

JOB_BLOCK = {
    jid: frozenset().union(*(a[0] for kw, a in j.effects if kw == "block"))
    for jid, j in JOBS.items()
}
JOB_BONUS = {jid: [a for kw, a in j.effects if kw == "bonus"] for jid, j in JOBS.items()}
JOB_ROLL = {jid: [a for kw, a in j.effects if kw == "roll_bonus"] for jid, j in JOBS.items()}
HAND = {jid: (j.effect("hand_size") or (HAND_SIZE,))[0] for jid, j in JOBS.items()}
IMMUNE = {jid: (j.effect("immune") or (frozenset(),))[0] for jid, j in JOBS.items()}
GOAL = {jid: j.goal for jid, j in JOBS.items()}


def _need(cid: str) -> tuple[str | None, Any]:
    """What an anytime card needs before it may be played in the active player's own moves or
    a reaction window, besides not being blocked: nothing, FT left, a victim other than the
    active player, or a target (a room card, a discarded card, an activity, a seat)."""
    for kw, args in CARDS[cid].effects:
        if kw == "free_time" and args[0] < 0:
            return "ft", args[0]
        if kw in ("charge", "lose_income"):
            return "victim", None
        if kw in ("steal", "discard_target", "salvage", "free_play"):
            return kw, args[0]
        if kw == "new_job" and args[0] == "other":
            return "new_job", None
    return None, None


def _only_in(cid: str) -> set[str]:
    """The contexts an anytime card can be played in at all."""
    kws = {kw for kw, _ in CARDS[cid].effects}
    if "cancel" in kws or "roll_bonus" in kws:
        return set()  # answers in a response window / right after a roll only
    return {"own"} if "own_turn" in kws else {"own", "reaction"}


NEEDS = {cid: _need(cid) for cid in ANYTIME}
OWN_PLAYS = frozenset(cid for cid in ANYTIME if "own" in _only_in(cid))
REACTION_PLAYS = frozenset(cid for cid in ANYTIME if "reaction" in _only_in(cid))
# What this floor leaves out, because the deck never needs it: checks that only matter outside
# the contexts a card can be played in, and bonuses or roll bonuses on cards lying in rooms.
assert all(
    cid in OWN_PLAYS - REACTION_PLAYS
    for cid in ANYTIME
    for kw, _ in CARDS[cid].effects
    if kw in ("income", "free_time", "each_turn", "next_turn")
)
assert all(len(a) == 2 for a in ROOM_BONUS.values())
assert not any(CARDS[cid].effect("roll_bonus") for cid in CARDS if cid not in ANYTIME)
# The rulings this floor plays as written (engines/chez_geek/rules.py): a ruling changed there
# must fail here, not leave the bench timing a different game.
assert (AUTO_SINGLE_CHOICE, TIE_WINNER_CLOCKWISE_FROM_ACTIVE, MOVE_DROPS_TOKENS,
        OLD_JOB_UNDER_PILE, FIXED_NOOKIE_NEVER_LOUD, NEW_ITEM_ENDS_REACTION,
        REACTION_PLAY_REOPENS, ALWAYS_OFFER_ROLL_BONUS) == (True,) * 8
assert not REACTION_AFTER_CANCEL

PASS = ("pass",)
ACCEPT = ("accept",)
ROLL = ("roll",)
END_REMOVALS = ("end_removals",)
END_PHASE = ("end_phase",)
END_TURN = ("end_turn",)
# A move's fields after its type, as the engine names them (see `engine_move`).
FIELDS = {
    "cancel": ("card",),
    "tv": ("card",),
    "choose": ("card",),
    "take": ("value",),
    "remove": ("card", "to"),
    "call": ("card", "to"),
    "activity": ("card",),
    "shop": ("cards",),
    "discard": ("card",),
}


def engine_move(op: tuple[Any, ...]) -> dict[str, Any]:
    """A floor move in the engine's move format (what the replay test feeds the engine)."""
    kind = op[0]
    if kind == "play":
        move = {"type": "play", "card": op[1]}
        if op[2] is not None:
            move[op[2]] = op[3]
        return move
    move = {"type": kind, **dict(zip(FIELDS.get(kind, ()), op[1:], strict=True))}
    if kind == "shop":
        move["cards"] = list(move["cards"])
    return move


class Won(Exception):
    """The game is over: unwinds every open window at once."""


class Game:
    """One game of Chez Geek between random players, played in place by `play`."""

    __slots__ = (
        "active",
        "dice",
        "discard",
        "draw",
        "first",
        "ft",
        "hands",
        "income",
        "job_order",
        "job_pile",
        "jobs",
        "lasting",
        "moves",
        "n",
        "next_ref",
        "pool",
        "rec",
        "rng",
        "rooms",
        "seed",
        "shuffles",
        "slack",
        "stack",
        "turn_no",
        "winners",
    )

    def __init__(self, n: int, seed: int, rng: random.Random, rec: list[Any] | None) -> None:
        deal = random.Random(seed)
        life = list(DECK.life)
        deal.shuffle(life)
        jobs = [j for j in DECK.job_ids if n > 2 or j not in DECK.two_player_jobs]
        deal.shuffle(jobs)
        self.stack, self.job_order = tuple(life), tuple(jobs)
        self.n, self.seed, self.rng, self.rec = n, seed, rng, rec
        self.jobs, self.job_pile = jobs[:n], jobs[n:]
        self.hands = [life[i * START_HAND : (i + 1) * START_HAND] for i in range(n)]
        self.draw = life[n * START_HAND :][::-1]  # top last
        self.discard: list[str] = []
        self.rooms: list[list[tuple[int, str, int, int]]] = [[] for _ in range(n)]
        self.slack = [0] * n  # room values and tokens plus the bonus pool
        self.pool = [0] * n
        self.lasting: list[list[list[Any]]] = [[] for _ in range(n)]  # [card, kind, fired]
        self.first = self.active = seed % n
        self.income = self.ft = self.next_ref = self.shuffles = self.turn_no = self.moves = 0
        self.dice: list[int] = []
        self.winners: tuple[int, ...] = ()

    def play(self) -> int:
        """Plays the game to its end; returns the moves made."""
        try:
            while True:
                self.turn()
        except Won:
            return self.moves

    # -- chance and choices --------------------------------------------------------------------
    def die(self) -> int:
        d = int(self.rng.random() * 6) + 1
        self.dice.append(d)
        return d

    def choose(self, seat: int, opts: list[Any]) -> Any:
        """One move: a uniform pick among `opts` (the engine's legal moves)."""
        self.moves += 1
        k = len(opts)
        op = opts[0] if k == 1 else opts[int(self.rng.random() * k)]
        if self.rec is not None:
            self.rec.append((seat, op, k))
        return op

    def let_go(self, seat: int) -> None:
        """A pass of a seat holding nothing that could answer: a move without a pick."""
        self.moves += 1
        if self.rec is not None:
            self.rec.append((seat, PASS, 1))

    # -- cards -----------------------------------------------------------------------------------
    def blocked(self, seat: int) -> frozenset[str]:
        out = JOB_BLOCK[self.jobs[seat]]
        for e in self.rooms[seat]:
            more = BLOCKS.get(e[1])
            if more is not None:
                out = out | more
        return out

    def to_hand(self, seat: int, cid: str) -> None:
        hand = self.hands[seat]
        if len(hand) >= HAND[self.jobs[seat]]:
            self.discard.append(cid)
        else:
            hand.append(cid)

    def draw_to(self, seat: int) -> None:
        hand, size = self.hands[seat], HAND[self.jobs[seat]]
        while len(hand) < size:
            if not self.draw:
                if not self.discard:
                    return
                # The engine's reshuffle, so a replay of this game draws the same cards.
                random.Random(f"{self.seed}:shuffle:{self.shuffles}").shuffle(self.discard)
                self.shuffles += 1
                self.draw, self.discard = self.discard, []
            hand.append(self.draw.pop())

    def enter(self, owner: int, cid: str, value: int, player: int | None) -> int:
        """A card enters a room with the bonuses of whoever `player` (None: not played into it)
        is; the caller checks for a win."""
        tokens = 0
        if player is not None:
            for f, k, *scope in JOB_BONUS[self.jobs[owner]]:
                if cid in f and (player == owner or scope):
                    tokens += k
            for e in self.rooms[owner]:
                b = ROOM_BONUS.get(e[1])
                if b is not None and cid in b[0]:
                    tokens += b[1]
            for p in range(self.n):
                if p != owner:
                    for f, k, *scope in JOB_BONUS[self.jobs[p]]:
                        if scope and cid in f:
                            self.pool[p] += k
                            self.slack[p] += k
        ref = self.next_ref
        self.next_ref = ref + 1
        self.rooms[owner].append((ref, cid, value, tokens))
        self.slack[owner] += value + tokens
        return ref

    def leave(self, seat: int, ref: int) -> tuple[int, str, int, int]:
        room = self.rooms[seat]
        for i, e in enumerate(room):
            if e[0] == ref:
                del room[i]
                self.slack[seat] -= e[2] + e[3]
                return e
        raise KeyError(ref)

    def move_entry(self, src: int, ref: int, dst: int) -> None:
        """A room card moves (steal, removal): value kept, tokens dropped; a moved eater eats."""
        e = self.leave(src, ref)
        self.rooms[dst].append((ref, e[1], e[2], 0))
        self.slack[dst] += e[2]
        self.check_win()
        if e[1] in EATS:
            self.room_loss(dst, EATS[e[1]])

    def check_win(self) -> None:
        n, active, slack, jobs = self.n, self.active, self.slack, self.jobs
        for k in range(n):
            p = (active + k) % n
            if slack[p] >= GOAL[jobs[p]]:
                self.winners = (p,)
                raise Won

    def room_loss(self, seat: int, allowed: frozenset[str]) -> None:
        """`seat` discards one matching room card of their choice (a choice among equal cards is
        no choice; a single one is taken without asking)."""
        choices: dict[tuple[str, int, int], int] = {}
        for ref, cid, value, tokens in self.rooms[seat]:
            if cid in allowed:
                choices.setdefault((cid, value, tokens), ref)
        if not choices:
            return
        refs = list(choices.values())
        ref = refs[0] if len(refs) == 1 else self.choose(seat, [("choose", r) for r in refs])[1]
        self.discard.append(self.leave(seat, ref)[1])

    def hand_limit(self, seat: int) -> None:
        hand = self.hands[seat]
        while len(hand) > HAND[self.jobs[seat]]:
            cid = self.choose(seat, [("choose", c) for c in dict.fromkeys(hand)])[1]
            hand.remove(cid)
            self.discard.append(cid)

    def change_job(self, seat: int) -> None:
        """The old job goes under the pile, the top one is drawn; each-turn cards end."""
        self.job_pile.append(self.jobs[seat])
        self.jobs[seat] = self.job_pile.pop(0)
        mine = self.lasting[seat]
        self.discard += [x[0] for x in mine if x[1] == "each"]
        mine[:] = [x for x in mine if x[1] != "each"]
        self.check_win()

    # -- the turn --------------------------------------------------------------------------------
    def turn(self) -> None:
        self.turn_no += 1
        n = self.n
        if self.turn_no > MAX_TURNS:
            shares = [self.slack[p] / GOAL[self.jobs[p]] for p in range(n)]
            self.winners = tuple(p for p in range(n) if shares[p] == max(shares))
            raise Won
        seat = self.active
        hand, room = self.hands[seat], self.rooms[seat]
        self.draw_to(seat)
        job = JOBS[self.jobs[seat]]
        low, high = job.income
        self.income = low if low == high or self.die() < JOB_ROLL_HIGH_FROM else high
        low, high = job.free_time
        self.ft = low if low == high or self.die() < JOB_ROLL_HIGH_FROM else high
        for x in self.lasting[seat]:
            if x[1] == "each" or not x[2]:
                _, kw, k = LASTING[x[0]]
                if kw == "income":
                    self.income = max(0, self.income + k)
                else:
                    self.ft = max(0, self.ft + k)
            x[2] = True
        # Roll phase: removal attempts, then the eaters eat.
        left = [e[0] for e in room if e[1] in REMOVABLE]
        others: list[int | None] = [p for p in range(n) if p != seat]
        others.append(None)
        while left:
            here = {e[0] for e in room}
            opts: list[Any] = [("remove", r, to) for r in left if r in here for to in others]
            opts.append(END_REMOVALS)
            opts += self.anytime(seat, OWN_PLAYS, seat, ())
            op = self.choose(seat, opts)
            if op is END_REMOVALS:
                break
            if op[0] != "remove":
                self.play_card(seat, op, seat, ())
                continue
            _, ref, to = op
            left = [r for r in left if r != ref]
            if self.die() >= REMOVAL_SUCCEEDS_FROM:
                if to is None:
                    self.discard.append(self.leave(seat, ref)[1])
                else:
                    self.move_entry(seat, ref, to)
        for e in [e for e in room if e[1] in EATS]:
            if e in room:
                self.room_loss(seat, EATS[e[1]])
        # Call persons.
        self.react(seat, seat, ())
        while True:
            blocks = self.blocked(seat)
            opts = []
            for cid in dict.fromkeys(hand):
                if cid in PERSONS and cid not in blocks:
                    opts += [("call", cid, to) for to in ((seat,) if cid in CATS else range(n))]
            opts.append(END_PHASE)
            opts += self.anytime(seat, OWN_PLAYS, seat, ())
            op = self.choose(seat, opts)
            if op is END_PHASE:
                break
            if op[0] == "call":
                hand.remove(op[1])
                self.item(("person", seat, (op[1],), op[2], False))
            else:
                self.play_card(seat, op, seat, ())
        # Free time.
        self.react(seat, seat, ())
        while True:
            opts = self.free_time_moves(seat) if self.ft >= 1 else []
            opts.append(END_PHASE)
            opts += self.anytime(seat, OWN_PLAYS, seat, ())
            op = self.choose(seat, opts)
            if op is END_PHASE:
                break
            if op[0] == "activity":
                hand.remove(op[1])
                self.ft -= 1
                self.item(("activity", seat, (op[1],), seat, True))
            elif op[0] == "shop":
                for cid in op[1]:
                    hand.remove(cid)
                self.ft -= 1
                self.item(("trip", seat, op[1], seat, True))
            else:
                self.play_card(seat, op, seat, ())
        # Discard, and the turn ends.
        self.react(seat, seat, ())
        while True:
            opts = [("discard", c) for c in dict.fromkeys(hand)] if len(hand) > MIN_KEEP else []
            if len(hand) <= DISCARD_TO:
                opts.append(END_TURN)
            opts += self.anytime(seat, OWN_PLAYS, seat, ())
            op = self.choose(seat, opts)
            if op is END_TURN:
                break
            if op[0] == "discard":
                hand.remove(op[1])
                self.discard.append(op[1])
            else:
                self.play_card(seat, op, seat, ())
        mine = self.lasting[seat]
        self.discard += [x[0] for x in mine if x[1] == "next" and x[2]]
        mine[:] = [x for x in mine if not (x[1] == "next" and x[2])]
        self.income = self.ft = 0
        self.active = (seat + 1) % n

    def free_time_moves(self, seat: int) -> list[Any]:
        """One activity, or one shopping trip (any set of Things within the income)."""
        hand, income, blocks = self.hands[seat], self.income, self.blocked(seat)
        opts: list[Any] = []
        things = []
        for cid in dict.fromkeys(hand):
            if cid in blocks or COST[cid] > income:
                continue
            if TYPE[cid] == "activity":
                opts.append(("activity", cid))
            elif cid in THINGS:
                things += [cid] * hand.count(cid)
        things.sort()
        trips: dict[tuple[str, ...], None] = {}  # a dict, not a set: the same order every run
        for size in range(1, len(things) + 1):
            for combo in combinations(things, size):
                if sum(COST[c] for c in combo) <= income:
                    trips[combo] = None
        opts += [("shop", t) for t in trips]
        return opts

    # -- anytime cards -----------------------------------------------------------------------------
    def anytime(
        self, seat: int, plays: frozenset[str], owner: int, refs: tuple[int, ...]
    ) -> list[Any]:
        """The anytime plays of `seat` (own moves: OWN_PLAYS; a reaction window: REACTION_PLAYS
        after `refs` resolved into `owner`'s room)."""
        hand = self.hands[seat]
        if plays.isdisjoint(hand):
            return []
        blocks = self.blocked(seat)
        out: list[Any] = []
        for cid in dict.fromkeys(hand):
            if cid not in plays or cid in blocks:
                continue
            need, arg = NEEDS[cid]
            if need is None:
                out.append(("play", cid, None, None))
            elif need == "ft":
                if self.ft + arg >= 0:
                    out.append(("play", cid, None, None))
            elif need == "victim":
                if seat != self.active and cid not in IMMUNE[self.jobs[self.active]]:
                    out.append(("play", cid, None, None))
            elif need == "steal":
                if refs and owner != seat:
                    out += [
                        ("play", cid, "target", e[0])
                        for e in self.rooms[owner]
                        if e[0] in refs and e[1] in arg and e[1] not in blocks
                    ]
            elif need == "discard_target":
                out += [("play", cid, "target", e[0]) for r in self.rooms for e in r if e[1] in arg]
            elif need == "salvage":
                found = [c for c in dict.fromkeys(reversed(self.discard)) if c in arg]
                out += [("play", cid, "take", c) for c in found] or [("play", cid, None, None)]
            elif need == "free_play":
                budget = self.income if seat == self.active else 0
                out += [
                    ("play", cid, "with", c)
                    for c in dict.fromkeys(hand)
                    if c in arg and TYPE[c] == "activity" and COST[c] <= budget and c not in blocks
                ]
            else:  # new_job of another seat
                out += [
                    ("play", cid, "seat", p)
                    for p in range(self.n)
                    if p != seat and cid not in IMMUNE[self.jobs[p]]
                ]
        return out

    def play_card(self, seat: int, op: tuple[Any, ...], owner: int, refs: tuple[int, ...]) -> bool:
        """An anytime card, its keywords left to right; True if it started an item (free_play,
        which then has run its course)."""
        _, cid, _, arg = op
        self.hands[seat].remove(cid)
        keep = False
        # What the card sets off after it has gone to the discard pile, as in the engine: a
        # Thing lost to an unpaid charge, or the hand size of a new job.
        charged = False
        new_job = None
        item = None
        for kw, args in CARDS[cid].effects:
            if kw == "income":
                self.income = max(0, self.income + args[0])
            elif kw == "free_time":
                self.ft = max(0, self.ft + args[0])
            elif kw == "lose_income":
                self.income = max(0, self.income - args[0])
            elif kw == "charge":
                paid = min(args[0], self.income)
                self.income -= paid
                if paid < args[0]:
                    charged = True
            elif kw in ("each_turn", "next_turn"):
                kind, inner, k = LASTING[cid]
                self.lasting[seat].append([cid, kind, False])
                keep = True
                if kind == "each":
                    if inner == "income":
                        self.income = max(0, self.income + k)
                    else:
                        self.ft = max(0, self.ft + k)
            elif kw == "room_card":
                self.enter(seat, cid, SLACK[cid], seat)
                keep = True
                self.check_win()
            elif kw == "steal":
                self.move_entry(owner, arg, seat)
            elif kw == "discard_target":
                victim = next(p for p in range(self.n) if any(e[0] == arg for e in self.rooms[p]))
                self.discard.append(self.leave(victim, arg)[1])
            elif kw == "salvage" and arg is not None:
                i = len(self.discard) - 1 - self.discard[::-1].index(arg)
                del self.discard[i]
                self.to_hand(seat, arg)
            elif kw == "free_play":
                self.hands[seat].remove(arg)
                item = ("activity", seat, (arg,), seat, False)
            elif kw == "new_job":
                new_job = seat if args[0] == "self" else arg
                self.change_job(new_job)
        if not keep:
            self.discard.append(cid)
        if charged:
            self.room_loss(self.active, THINGS)
        if new_job is not None:
            self.hand_limit(new_job)
        if item is not None:
            self.item(item)
            return True
        return False

    # -- windows and items -----------------------------------------------------------------------
    def item(self, item: tuple[Any, ...]) -> None:
        """An item is played: its response window, then it resolves unless cancelled."""
        if self.window(item):
            self.resolve(item)

    def window(self, item: tuple[Any, ...]) -> bool:
        """The response window of a pending item; True if everyone let it go."""
        kind, owner, cards, _, ft = item
        hands, n = self.hands, self.n
        p = 0
        while p < n:
            hand = hands[p]
            if p == owner:
                p += 1
                continue
            if ANSWERS.isdisjoint(hand):
                self.let_go(p)
                p += 1
                continue
            opts: list[Any] = [PASS]
            blocks = self.blocked(p)
            for cid in dict.fromkeys(hand):
                if cid in CANCELS and cid not in blocks:
                    f = CANCELS[cid]
                    if any(c in f for c in cards):
                        opts.append(("cancel", cid))
            if ft and kind != "tv":
                opts += [("tv", c) for c in dict.fromkeys(hand) if c in TV and c not in blocks]
            op = self.choose(p, opts)
            if op is PASS:
                p += 1
                continue
            hand.remove(op[1])
            if op[0] == "cancel":
                self.discard.append(op[1])
                self.cancel(item)
                return False
            if self.window(("tv", p, (op[1],), owner, False)):
                # The TV card hits: the FT use is cancelled, the card lies in the victim's room.
                self.cancel(item)
                self.enter(owner, op[1], TV_RECEIVED_VALUE, None)
                self.check_win()
                self.react(p, owner, ())
                return False
            p = 0  # the TV card was cancelled: everyone may answer the item again
        return True

    def cancel(self, item: tuple[Any, ...]) -> None:
        if item[0] == "trip":
            for cid in item[2]:
                self.to_hand(item[1], cid)
        else:
            self.discard += item[2]

    def resolve(self, item: tuple[Any, ...]) -> None:
        kind, seat, cards, to, _ = item
        if kind == "trip":
            self.income = max(0, self.income - sum(COST[c] for c in cards))
            refs = tuple(self.enter(seat, cid, SLACK[cid], seat) for cid in cards)
            self.check_win()
            self.react(seat, seat, refs)
            return
        cid = cards[0]
        if kind == "person":
            if cid in INVITED and self.die() <= CALL_FAILS_UP_TO:
                self.discard.append(cid)
                self.react(seat, to, ())
                return
            ref = self.enter(to, cid, SLACK[cid], seat)
            self.check_win()
            if cid in EATS:
                self.room_loss(to, EATS[cid])
            self.react(seat, to, (ref,))
            return
        if seat == self.active:
            self.income = max(0, self.income - COST[cid])
        if cid not in DIE:
            ref = self.enter(seat, cid, SLACK[cid], seat)
            self.check_win()
            self.react(seat, seat, (ref,))
            return
        room = self.rooms[seat]
        if cid in NOOKIE:
            fixed = next((AUTO_NOOKIE[e[1]] for e in room if e[1] in AUTO_NOOKIE), None)
            if fixed is not None and self.choose(seat, [ROLL, ("take", fixed)]) is not ROLL:
                self.settle(seat, cid, fixed, False)
                return
        result = self.die() + DIE[cid]
        for f, k in JOB_ROLL[self.jobs[seat]]:
            if cid in f:
                result += k
        opts: list[Any] = [ACCEPT]
        blocks = self.blocked(seat)
        for c in dict.fromkeys(self.hands[seat]):
            if c in ROLL_PLAYS and c not in blocks:
                f, _, needs = ROLL_PLAYS[c]
                if cid in f and any(needs in CATEGORY_OF[e[1]] for e in room):
                    opts.append(("play", c, None, None))
        op = self.choose(seat, opts)
        if op is not ACCEPT:
            self.hands[seat].remove(op[1])
            self.discard.append(op[1])
            result += ROLL_PLAYS[op[1]][1]
        self.settle(seat, cid, result, True)

    def settle(self, seat: int, cid: str, result: int, rolled: bool) -> None:
        """A variable activity's result: <= 0 fails; a rolled Nookie of 5+ is loud."""
        if result <= 0:
            self.discard.append(cid)
            self.react(seat, seat, ())
            return
        ref = self.enter(seat, cid, result, seat)
        self.check_win()
        if rolled and cid in NOOKIE and result + self.rooms[seat][-1][3] >= LOUD_NOOKIE_FROM:
            for p in dict.fromkeys(((seat + 1) % self.n, (seat - 1) % self.n)):
                if p != seat:
                    self.room_loss(p, SLEEP)
        self.react(seat, seat, (ref,))

    def react(self, exclude: int, owner: int, refs: tuple[int, ...]) -> None:
        """A reaction window: every seat but `exclude` may play an anytime card or pass."""
        hands, n = self.hands, self.n
        p = 0
        while p < n:
            hand = hands[p]
            if p == exclude:
                p += 1
                continue
            if REACTION_PLAYS.isdisjoint(hand):
                self.let_go(p)
                p += 1
                continue
            opts = [PASS, *self.anytime(p, REACTION_PLAYS, owner, refs)]
            op = self.choose(p, opts)
            if op is PASS:
                p += 1
                continue
            if self.play_card(p, op, owner, refs):
                return  # a new item ended this window; its own reaction window has run
            p = 0  # a card was played: everyone may answer again


def chez_geek(n: int, seed: int, rng: random.Random) -> int:
    """One random game of Chez Geek; returns the moves made."""
    return Game(n, seed, rng, None).play()
