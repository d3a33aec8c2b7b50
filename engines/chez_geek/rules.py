"""Chez Geek: the turn, its phases and the interrupt windows (response and reaction).

Every ruling (a point the printed rules leave open, and how we decided it), and every choice
this engine made, is a named constant in the block below. Card behaviour lives in `effects`
(one handler per effect keyword) and the card values in `deck.toml`; no card id appears here.

How a turn runs. Setup, the Draw phase and the income/free-time rolls need no decisions, so
they happen inside `apply`. Everything that waits for a player is one of four things, checked in
this order by `to_act`:
  1. a prompt: one seat must choose (which card an eater takes, roll or take 3, ...);
  2. a response window: the top pending item (a called person, an activity, a shopping trip,
     or a TV card played as a cancel) waits for every other seat to cancel it or pass;
  3. a reaction window: after an item resolved and at the start of phases 3-5, every other
     seat may play a non-cancel anytime card or pass;
  4. otherwise the active player has the action in the current phase.
Work that follows a decision (resolve an item, let an eater eat, open the next phase) is queued
on `todo` and run by `advance` until something waits for a player again. Windows list every
eligible seat whether or not it holds an answer: nothing in `to_act`, the view or the events
tells a seat that holds a cancel from one that does not.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, NamedTuple

from engines.chez_geek import effects
from engines.chez_geek.deck import CARDS, JOBS

# -- rulings: every choice the printed rules leave open, in one place ------------------------------
# Hand size without a hand_size perk; a card that would go into a full hand is discarded
# instead (§1.1 ruling).
HAND_SIZE = 6
START_HAND = 5
# The Discard phase goes down to this many cards, and never below MIN_KEEP (§1.3.5).
DISCARD_TO = 5
MIN_KEEP = 1
# Call roll: 1-2 "not home", 3-6 enters (§1.3.3). Removal roll: 4-6 succeeds (§1.3.2).
CALL_FAILS_UP_TO = 2
REMOVAL_SUCCEEDS_FROM = 4
# A variable job value a/b: a on 1-3, b on 4-6; two variable values get a roll each (§1.3.2).
JOB_ROLL_HIGH_FROM = 4
# Loud Nookie: a Nookie whose final value (bonuses included) is at least this (§1.6).
LOUD_NOOKIE_FROM = 5
# A Nookie taken as a fixed value (auto_nookie) is never loud, whatever its tokens (§1.8.13
# "3 is never loud").
FIXED_NOOKIE_NEVER_LOUD = True
# A TV card received as a cancel lies in the victim's room worth exactly this (§1.6).
TV_RECEIVED_VALUE = 1
# Moving a card (steal, removal roll) keeps its value but drops its bonus tokens (§1.6 ruling).
MOVE_DROPS_TOKENS = True
# A job change puts the old job under the pile and draws from the top (§1.6 ruling).
OLD_JOB_UNDER_PILE = True
# Several players at their goal at once: the active player wins, else the first clockwise
# from the active player (§1.6 ruling).
TIE_WINNER_CLOCKWISE_FROM_ACTIVE = True
# 2 players: the jobs named by `two_player_jobs` in the data file are removed by default
# (§ "Two players"); with the lobby option `two_player_jobs_dealt` the two players get exactly
# these jobs instead. Our rules call the option `two_player_jobs` with the values
# "remove"/"deal"; lobby options are bool or int in this project, hence the bool.
TWO_PLAYER_DEAL_DEFAULT = False
# The starting seat without option `first`: "left of the dealer", the dealer being random.
RANDOM_FIRST_SEAT = True
# (this engine) No reaction window follows a cancelled item: nothing resolved, and steal
# needs a card that resolved (§1.5 opens reaction windows "after every item resolves").
REACTION_AFTER_CANCEL = False
# (this engine) A new item played inside a reaction window (a free_play) ends that window;
# the reaction window after the new item resolves replaces it.
NEW_ITEM_ENDS_REACTION = True
# (this engine) A card played in a reaction window that is not an item lets every eligible seat
# answer again, like a new response in a response window (§1.5 "until a new response").
REACTION_PLAY_REOPENS = True
# (this engine) A prompt with only one distinct choice (an eater that can take one card only)
# is carried out without asking.
AUTO_SINGLE_CHOICE = True
# (this engine) After every own roll for a variable activity the roller is asked whether to
# add a one-shot roll bonus card (Schönsaufen), whether or not they hold one, so the question
# itself tells nobody what is in their hand.
ALWAYS_OFFER_ROLL_BONUS = True
# (this engine) The active player may play anytime cards whenever they have the action, in
# every phase from the removal attempts on. There is no decision point before the Roll phase:
# income and free time only add up, so a card played after the roll in the same turn gives the
# same values (§1.3.2 "If played before the Roll phase, it is added to the value set there").
# (this engine) The reaction window after an item is for every seat but the item's player (a
# free_play by another seat lets the active player react too); at a phase start, for every
# seat but the active player.
# (this engine) Effects that must happen "at once" while a window is open (the hand limit after
# a job change in a reaction window) run as soon as the card that caused them is played; the
# window then opens again.
# (this engine) Safety net against a stall (both piles empty and nobody able to gain slack,
# or bots that never play): after this many turns the game ends and the player with the
# largest share of their goal wins (ties share). Measured games last about 14 turns.
MAX_TURNS = 300
# (this engine) Future dice come from a hash of the seed and a roll counter, so a state carries
# no generator to copy; options["dice"] are used first, in order.
DIE_SIDES = 6

# (table setting, not a rule) Seconds an interrupt window waits for answers at a table before
# the seats that did not answer let it go (§1.5 "a short fixed delay" hides who could answer);
# the lobby option `window_seconds` changes it, 0 waits for every answer.
WINDOW_SECONDS_DEFAULT = 4
WINDOW_SECONDS_MAX = 120

PHASES = ("roll", "call", "free_time", "discard")
MAX_PLAYERS = 6  # the box's table size (the engine's max_players)


class Item(NamedTuple):
    """Something being played that others may still cancel (§1.5)."""

    kind: str  # "person" | "activity" | "trip" | "tv"
    seat: int  # who plays it
    cards: tuple[str, ...]
    to: int  # the room it goes to (the victim's room for a TV cancel)
    ft: bool  # an FT use of the active player (TV cards may answer it)


class Reaction(NamedTuple):
    """An open reaction window: every seat but `exclude` may act; `refs` are the cards that
    just resolved into `owner`'s room (what a steal may take)."""

    exclude: int
    owner: int
    refs: tuple[int, ...]


class Prompt(NamedTuple):
    """One seat must choose among `moves` (each move a dict, never mutated)."""

    seat: int
    kind: str
    moves: tuple[dict[str, Any], ...]
    data: Any


Entry = tuple[int, str, int, int]  # (ref, card id, value, bonus tokens)


def put(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """`seq` with item `i` replaced (the state's per-seat tuples are replaced, never edited)."""
    return (*seq[:i], value, *seq[i + 1 :])


NO_MOVES: tuple[int, list[dict[str, Any]]] = (-1, [])  # CState.legal before anyone asks


class CState:
    """One moment of a game. Every container of the game is a tuple, replaced and never edited,
    so a clone copies none (only the event list and the legal-move cache are its own): a move
    pays only for what it changes."""

    __slots__ = (
        "active",
        "dice",
        "discard",
        "draw",
        "ev",
        "ft",
        "hands",
        "income",
        "item_done",
        "items",
        "job_pile",
        "jobs",
        "jobs_known",
        "lasting",
        "legal",
        "log",
        "n",
        "next_ref",
        "over",
        "phase",
        "pool",
        "prompt",
        "react_done",
        "reaction",
        "removal_left",
        "rolls",
        "rooms",
        "seed",
        "shuffles",
        "todo",
        "turn_no",
        "turn_rolls",
        "winners",
    )

    n: int
    seed: int
    jobs: tuple[str, ...]
    job_pile: tuple[str, ...]  # top first
    jobs_known: int  # how many jobs at the bottom of the pile everyone saw go there
    hands: tuple[tuple[str, ...], ...]
    draw: tuple[str, ...]  # top last
    discard: tuple[str, ...]  # top last
    rooms: tuple[tuple[Entry, ...], ...]
    pool: tuple[int, ...]
    lasting: tuple[tuple[tuple[str, str, bool], ...], ...]  # (card id, "each"|"next", fired)
    active: int
    phase: str
    income: int
    ft: int
    removal_left: tuple[int, ...]
    items: tuple[Item, ...]
    # Bit masks of the seats the top item's / the reaction window no longer waits for: the one
    # it leaves out (the item's player, the reaction's `exclude`) and every seat that let it go
    # since the last answer. Plain numbers, so the commonest move (a pass) changes one field and
    # who is still asked is one look-up (WAITING). Items below the top need none: a window
    # reopens for everyone when the item above it goes.
    item_done: int
    reaction: Reaction | None
    react_done: int
    prompt: Prompt | None
    todo: tuple[tuple[Any, ...], ...]  # steps still to run, the next one last
    dice: tuple[int, ...]
    rolls: int
    shuffles: int
    next_ref: int
    turn_no: int
    turn_rolls: tuple[tuple[int, str, int], ...]  # (seat, what for, die) this turn, public
    over: bool
    winners: tuple[int, ...]
    ev: list[dict[str, Any]]
    # Whether moves note their events in `ev`: always, but on a search's playout copy, whose
    # events nobody reads (making them was a sixth of a playout's work).
    log: bool
    # (seat, its legal moves), filled on request (seat -1: none yet): a state never changes
    # once `apply` has returned it, and `apply` checks a move against the list the bot at
    # that seat just chose from. One seat, not a map of them: a fresh map for every state
    # costs more than the rare second seat asking. One pair set at once, so bots choosing in
    # worker threads on the same state never see one seat's moves under another's number.
    legal: tuple[int, list[dict[str, Any]]]

    def clone(self) -> CState:
        c = CState.__new__(CState)
        c.active = self.active
        c.discard = self.discard
        c.dice = self.dice
        c.draw = self.draw
        c.ft = self.ft
        c.income = self.income
        c.items = self.items
        c.item_done = self.item_done
        c.react_done = self.react_done
        c.job_pile = self.job_pile
        c.jobs_known = self.jobs_known
        c.n = self.n
        c.next_ref = self.next_ref
        c.over = self.over
        c.phase = self.phase
        c.prompt = self.prompt
        c.reaction = self.reaction
        c.removal_left = self.removal_left
        c.rolls = self.rolls
        c.seed = self.seed
        c.shuffles = self.shuffles
        c.todo = self.todo
        c.turn_no = self.turn_no
        c.turn_rolls = self.turn_rolls
        c.winners = self.winners
        c.jobs = self.jobs
        c.hands = self.hands
        c.rooms = self.rooms
        c.pool = self.pool
        c.lasting = self.lasting
        c.ev = []
        c.log = self.log
        c.legal = NO_MOVES
        return c

    # -- chance ------------------------------------------------------------------------------
    def roll(self, what: str, seat: int) -> int:
        """One die, recorded as a public event."""
        k = self.rolls
        self.rolls = k + 1
        if k < len(self.dice):
            die = self.dice[k]
        else:
            digest = hashlib.blake2b(f"{self.seed}:die:{k}".encode(), digest_size=8).digest()
            die = int.from_bytes(digest, "big") % DIE_SIDES + 1
        if self.log:
            self.ev.append({"kind": "roll", "seat": seat, "for": what, "die": die})
        self.turn_rolls += ((seat, what, die),)
        return die

    def shuffled(self, cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        order = list(cards)
        random.Random(f"{self.seed}:shuffle:{self.shuffles}").shuffle(order)
        self.shuffles += 1
        return tuple(order)

    # -- cards -------------------------------------------------------------------------------
    def hand_limit(self, seat: int) -> int:
        return effects.hand_size(self, seat, HAND_SIZE)

    def draw_to(self, seat: int, size: int) -> None:
        hand = self.hands[seat]
        count = 0
        while len(hand) < size:
            if not self.draw:
                if not self.discard:
                    break
                self.draw = self.shuffled(self.discard)
                self.discard = ()
                if self.log:
                    self.ev.append({"kind": "reshuffle", "cards": len(self.draw)})
            hand += (self.draw[-1],)
            self.draw = self.draw[:-1]
            count += 1
        self.hands = put(self.hands, seat, hand)
        if count and self.log:
            self.ev.append({"kind": "draw", "seat": seat, "count": count})

    def take_from_hand(self, seat: int, cid: str) -> None:
        hand = self.hands[seat]
        i = hand.index(cid)
        self.hands = put(self.hands, seat, hand[:i] + hand[i + 1 :])

    def to_hand(self, seat: int, cid: str) -> bool:
        """A card into a hand; a full hand sends it to the discard pile (§1.1 ruling)."""
        if len(self.hands[seat]) >= self.hand_limit(seat):
            self.to_discard(cid)
            return False
        self.hands = put(self.hands, seat, (*self.hands[seat], cid))
        return True

    def to_discard(self, *cids: str) -> None:
        self.discard += cids

    def set_lasting(self, seat: int, cards: tuple[tuple[str, str, bool], ...]) -> None:
        self.lasting = put(self.lasting, seat, cards)

    # -- rooms and slack ---------------------------------------------------------------------
    def slack(self, seat: int) -> int:
        # A plain loop: rooms hold a handful of cards, too few to repay a generator.
        total = self.pool[seat]
        for _, _, value, tokens in self.rooms[seat]:
            total += value + tokens
        return total

    def goal(self, seat: int) -> int:
        return JOBS[self.jobs[seat]].goal

    def find(self, seat: int, ref: int) -> Entry | None:
        for e in self.rooms[seat]:
            if e[0] == ref:
                return e
        return None

    def enter(
        self, owner: int, cid: str, value: int, played_by: int | None, tokens_ok: bool = True
    ) -> int:
        """A card enters `owner`'s room. `played_by` is who played it into the room (None
        when it arrives otherwise: TV received, steal, removal), which decides the bonuses."""
        tokens, gains = 0, ()
        if played_by is not None and tokens_ok:
            tokens, gains = effects.bonus_tokens(self, owner, cid, played_by)
        ref = self.next_ref
        self.next_ref = ref + 1
        self.rooms = put(self.rooms, owner, (*self.rooms[owner], (ref, cid, value, tokens)))
        if self.log:
            self.ev.append(
                {
                    "kind": "enter",
                    "seat": owner,
                    "card": cid,
                    "ref": ref,
                    "value": value,
                    "tokens": tokens,
                }
            )
        seats = [owner]
        for holder, amount in gains:
            self.pool = put(self.pool, holder, self.pool[holder] + amount)
            if self.log:
                self.ev.append({"kind": "bonus_pool", "seat": holder, "amount": amount})
            seats.append(holder)
        if cid in effects.EATS:
            self.push(("eat", owner, ref))
        self.check_win(*seats)
        return ref

    def leave(self, seat: int, ref: int) -> Entry:
        room = self.rooms[seat]
        for i, e in enumerate(room):
            if e[0] == ref:
                self.rooms = put(self.rooms, seat, room[:i] + room[i + 1 :])
                return e
        raise KeyError(ref)

    def discard_from_hand(self, seat: int, cid: str, why: str) -> None:
        self.take_from_hand(seat, cid)
        self.to_discard(cid)
        if self.log:
            self.ev.append(
                {"kind": "discard", "seat": seat, "card": cid, "from": "hand", "why": why}
            )

    def discard_entry(self, seat: int, ref: int, why: str) -> None:
        e = self.leave(seat, ref)
        self.to_discard(e[1])
        if why in effects.EATS:
            if self.log:
                self.ev.append({"kind": "eat", "seat": seat, "card": e[1], "eater": why})
            return
        if self.log:
            self.ev.append(
                {"kind": "discard", "seat": seat, "card": e[1], "from": "room", "why": why}
            )

    def move_entry(self, src: int, ref: int, dst: int, why: str) -> None:
        e = self.leave(src, ref)
        tokens = 0 if MOVE_DROPS_TOKENS else e[3]
        self.rooms = put(self.rooms, dst, (*self.rooms[dst], (e[0], e[1], e[2], tokens)))
        if self.log:
            self.ev.append(
                {"kind": "move", "card": e[1], "ref": ref, "from": src, "to": dst, "why": why}
            )
        if e[1] in effects.EATS:
            self.push(("eat", dst, ref))
        self.check_win(dst)

    def check_win(self, *seats: int) -> None:
        """A player at or past their goal wins at once (§1.6). Only `seats` may have got
        there: every change that raises a slack or lowers a goal asks about the seats it
        changed, so every other seat is still short of its goal."""
        if self.over:
            return
        if len(seats) > 1:  # who of them wins a tie
            n, first = self.n, self.active if TIE_WINNER_CLOCKWISE_FROM_ACTIVE else 0
            seats = tuple(sorted(seats, key=lambda p: (p - first) % n))
        jobs = self.jobs
        for seat in seats:
            if self.slack(seat) >= JOBS[jobs[seat]].goal:
                self.finish((seat,), "goal")
                return

    def finish(self, winners: tuple[int, ...], how: str) -> None:
        self.over = True
        self.winners = winners
        self.items = ()
        self.reaction = None
        self.prompt = None
        self.todo = ()
        if self.log:
            self.ev.append({"kind": "win", "seats": list(winners), "how": how})

    # -- jobs --------------------------------------------------------------------------------
    def change_job(self, seat: int) -> None:
        """The old job goes under the pile, the top one is drawn (§1.6). Lasting cards tied to
        the old job end; hand size and goal apply at once, income and FT from the next roll."""
        old = self.jobs[seat]
        pile = self.job_pile
        if OLD_JOB_UNDER_PILE:
            pile = (*pile, old)
            self.jobs_known = min(self.jobs_known + 1, len(pile))
        new, self.job_pile = pile[0], pile[1:]
        self.jobs_known = min(self.jobs_known, len(self.job_pile))
        self.jobs = put(self.jobs, seat, new)
        if self.log:
            self.ev.append({"kind": "job", "seat": seat, "old": old, "new": new})
        ending = [c for c, kind, _ in self.lasting[seat] if kind == "each"]
        if ending:
            self.set_lasting(seat, tuple(x for x in self.lasting[seat] if x[1] != "each"))
            self.to_discard(*ending)
            if self.log:
                self.ev += [
                    {"kind": "discard", "seat": seat, "card": c, "from": "lasting", "why": "job"}
                    for c in ending
                ]
        self.push(("hand_limit", seat))
        self.check_win(seat)

    # -- items ---------------------------------------------------------------------------------
    def open_item(self, kind: str, seat: int, cards: tuple[str, ...], to: int, ft: bool) -> None:
        """An item becomes pending: a response window opens for every other seat (§1.5)."""
        if self.reaction is not None and NEW_ITEM_ENDS_REACTION:
            self.reaction = None
        self.items = (*self.items, Item(kind, seat, cards, to, ft))
        self.item_done = 1 << seat

    def open_reaction(self, exclude: int, owner: int, refs: tuple[int, ...]) -> None:
        self.reaction = Reaction(exclude, owner, refs)
        self.react_done = 1 << exclude

    # -- the work queue ----------------------------------------------------------------------
    def push(self, *steps: tuple[Any, ...]) -> None:
        """Queue steps to run next, the first given first."""
        self.todo = self.todo + tuple(reversed(steps))

    # -- who moves ---------------------------------------------------------------------------
    def acting(self) -> list[int]:
        # A prompt, then the windows; a game that is over has neither (`finish`).
        if self.prompt is not None:
            return [self.prompt.seat]
        if self.items:
            done = self.item_done
        elif self.reaction is not None:
            done = self.react_done
        else:
            return [] if self.over else [self.active]
        # The seats of the window not in the bit mask `done` (asked for on every move).
        return [*WAITING[self.n][done]]


# WAITING[n][done]: the seats of an n-seat table not in the bit mask `done`.
WAITING = [
    tuple(tuple(p for p in range(n) if not done >> p & 1) for done in range(1 << n))
    for n in range(MAX_PLAYERS + 1)
]


# -- setup and turns ------------------------------------------------------------------------------
def new_state(
    n: int, seed: int, life: list[str], jobs: list[str], first: int, dice: tuple[int, ...]
) -> CState:
    """A game with the Life deck `life` (top first) and the job pile `jobs` (top first)."""
    s = CState.__new__(CState)
    s.n, s.seed, s.dice = n, seed, dice
    s.rolls = s.shuffles = 0
    s.jobs = tuple(jobs[:n])
    s.job_pile = tuple(jobs[n:])
    s.jobs_known = 0
    s.hands = tuple(tuple(life[i * START_HAND : (i + 1) * START_HAND]) for i in range(n))
    s.draw = tuple(reversed(life[n * START_HAND :]))
    s.discard = ()
    s.rooms = ((),) * n
    s.pool = (0,) * n
    s.lasting = ((),) * n
    s.active = first
    s.phase = "roll"
    s.income = s.ft = 0
    s.removal_left = ()
    s.items = ()
    s.reaction = None
    s.item_done = s.react_done = 0
    s.prompt = None
    s.todo = ()
    s.next_ref = 0
    s.turn_no = 0
    s.turn_rolls = ()
    s.over = False
    s.winners = ()
    s.ev = []
    s.log = True
    s.legal = NO_MOVES
    start_turn(s)
    advance(s)
    return s


def job_value(s: CState, pair: tuple[int, int], what: str) -> int:
    low, high = pair
    if low == high:
        return low
    return high if s.roll(what, s.active) >= JOB_ROLL_HIGH_FROM else low


def start_turn(s: CState) -> None:
    """Draw and Roll phases up to the removal attempts (§1.3.1-2)."""
    s.turn_no += 1
    if s.turn_no > MAX_TURNS:
        shares = [s.slack(p) / s.goal(p) for p in range(s.n)]
        best = max(shares)
        s.finish(tuple(p for p in range(s.n) if shares[p] == best), "turn_limit")
        return
    seat = s.active
    s.turn_rolls = ()
    if s.log:
        s.ev.append({"kind": "turn", "seat": seat, "job": s.jobs[seat], "turn": s.turn_no})
    s.phase = "roll"
    s.draw_to(seat, s.hand_limit(seat))
    job = JOBS[s.jobs[seat]]
    s.income = job_value(s, job.income, "income")
    s.ft = job_value(s, job.free_time, "free_time")
    effects.apply_lasting(s, seat)
    s.income = max(0, s.income)
    s.ft = max(0, s.ft)
    if s.log:
        s.ev.append({"kind": "income", "seat": seat, "income": s.income, "free_time": s.ft})
    s.removal_left = tuple(
        e[0]
        for e in s.rooms[seat]
        if CARDS[e[1]].type == "person" and "cat" not in CARDS[e[1]].categories
    )
    if not s.removal_left:
        end_removals(s)


def end_removals(s: CState) -> None:
    """After the removal attempts: each eater still in the room eats, then phase 3."""
    seat = s.active
    s.removal_left = ()
    eaters = [("eat", seat, e[0]) for e in s.rooms[seat] if e[1] in effects.EATS]
    s.push(*eaters, ("phase", "call"))


def end_turn(s: CState) -> None:
    """Unused income and FT are lost; spent next_turn cards go (§1.3.5); the next seat starts."""
    seat = s.active
    spent = [c for c, kind, fired in s.lasting[seat] if kind == "next" and fired]
    if spent:
        s.set_lasting(seat, tuple(x for x in s.lasting[seat] if not (x[1] == "next" and x[2])))
        s.to_discard(*spent)
        if s.log:
            s.ev += [
                {"kind": "discard", "seat": seat, "card": c, "from": "lasting", "why": "spent"}
                for c in spent
            ]
    s.income = s.ft = 0
    s.active = (seat + 1) % s.n
    start_turn(s)


# -- the work queue -------------------------------------------------------------------------------
def advance(s: CState) -> None:
    """Run queued steps until a player must decide (or the game is over)."""
    while s.todo and not s.over and s.prompt is None and not s.items and s.reaction is None:
        step = s.todo[-1]
        s.todo = s.todo[:-1]
        STEPS[step[0]](s, *step[1:])


def _step_phase(s: CState, phase: str) -> None:
    """A new phase opens with a reaction window for the other players (§1.5)."""
    s.phase = phase
    if s.log:
        s.ev.append({"kind": "phase", "seat": s.active, "phase": phase})
    s.open_reaction(s.active, s.active, ())


def _step_react(s: CState, exclude: int, owner: int, refs: tuple[int, ...]) -> None:
    s.open_reaction(exclude, owner, refs)


def _step_eat(s: CState, seat: int, ref: int) -> None:
    effects.eat(s, seat, ref)


def _step_room_loss(s: CState, seat: int, allowed: frozenset[str], why: str) -> None:
    """`seat` discards one card matching `allowed` from their room, of their choice."""
    choices: dict[tuple[str, int, int], int] = {}
    for ref, cid, value, tokens in s.rooms[seat]:
        if cid in allowed:
            choices.setdefault((cid, value, tokens), ref)
    if not choices:
        return
    if len(choices) == 1 and AUTO_SINGLE_CHOICE:
        s.discard_entry(seat, next(iter(choices.values())), why)
        return
    moves = tuple({"type": "choose", "card": ref} for ref in choices.values())
    s.prompt = Prompt(seat, "room_loss", moves, why)


def _step_hand_limit(s: CState, seat: int) -> None:
    """Discard down to the hand size at once (job change, §1.6)."""
    hand = s.hands[seat]
    if len(hand) <= s.hand_limit(seat):
        return
    moves = tuple({"type": "choose", "card": c} for c in dict.fromkeys(hand))
    s.prompt = Prompt(seat, "hand_limit", moves, None)


def _step_resolve(s: CState, item: Item) -> None:
    resolve(s, item)


def _step_tv_hits(s: CState, tv: Item, victim: Item) -> None:
    """A TV card survived its window: the FT use it answered is cancelled and the TV card lies
    in the victim's room worth TV_RECEIVED_VALUE, with no bonuses (§1.6)."""
    cancel_item(s, victim, tv.seat)
    s.push(("react", tv.seat, victim.seat, ()))
    s.enter(victim.seat, tv.cards[0], TV_RECEIVED_VALUE, None)


def _step_loud(s: CState, seat: int) -> None:
    """Loud Nookie: each neighbour loses one Sleep card (§1.6)."""
    neighbours = dict.fromkeys(((seat + 1) % s.n, (seat - 1) % s.n))
    if s.log:
        s.ev.append({"kind": "loud_nookie", "seat": seat})
    s.push(*[("room_loss", p, SLEEP, "loud_nookie") for p in neighbours if p != seat])


STEPS = {
    "end_removals": end_removals,
    "phase": _step_phase,
    "react": _step_react,
    "eat": _step_eat,
    "room_loss": _step_room_loss,
    "hand_limit": _step_hand_limit,
    "resolve": _step_resolve,
    "tv_hits": _step_tv_hits,
    "loud": _step_loud,
}

SLEEP = frozenset(c.id for c in CARDS.values() if "sleep" in c.categories)
NOOKIE = frozenset(c.id for c in CARDS.values() if "nookie" in c.categories)


# -- items and windows ----------------------------------------------------------------------------
def pass_window(s: CState, seat: int) -> None:
    """`seat` lets the moment go; the window closes when every eligible seat has passed."""
    bit = 1 << seat
    everyone = (1 << s.n) - 1
    if s.items:
        top = s.items[-1]
        done = s.item_done | bit
        if done != everyone:
            s.item_done = done
            return
        s.items = s.items[:-1]
        if s.log:
            s.ev.append({"kind": "let_go", "window": "response", "item": item_public(top)})
        if top.kind == "tv":
            victim = s.items[-1]
            s.items = s.items[:-1]
            s.push(("tv_hits", top, victim))
        else:
            s.push(("resolve", top))
        reopen(s)
        return
    assert s.reaction is not None
    done = s.react_done | bit
    if done != everyone:
        s.react_done = done
        return
    s.reaction = None
    s.react_done = 0
    if s.log:
        s.ev.append({"kind": "let_go", "window": "reaction"})


def reopen(s: CState) -> None:
    """The top item went: the window of the item below (if any) opens again for everyone."""
    s.item_done = 1 << s.items[-1].seat if s.items else 0


def cancel_item(s: CState, item: Item, by: int) -> None:
    """The item never happens: an activity, person or TV card is discarded, a trip's Things go
    back to hand; the FT stays spent and nothing is paid (§4 cancel)."""
    if s.log:
        s.ev.append({"kind": "cancelled", "item": item_public(item), "by": by})
    if item.kind == "trip":
        for cid in item.cards:
            s.to_hand(item.seat, cid)
    else:
        s.to_discard(*item.cards)
    if REACTION_AFTER_CANCEL:
        s.push(("react", item.seat, item.to, ()))


def cancel_top(s: CState, by: int) -> None:
    """A cancel card hit the top item; a cancelled TV card lets the item below go on."""
    top = s.items[-1]
    s.items = s.items[:-1]
    cancel_item(s, top, by)
    reopen(s)


def resolve(s: CState, item: Item) -> None:
    """The item survived its window (§1.3.3-4, §1.6)."""
    seat = item.seat
    if item.kind == "person":
        cid = item.cards[0]
        card = CARDS[cid]
        invited = card.slack > 0 and "cat" not in card.categories
        if invited and s.roll("call", seat) <= CALL_FAILS_UP_TO:
            s.to_discard(cid)
            if s.log:
                s.ev.append({"kind": "not_home", "seat": seat, "card": cid})
            s.push(("react", seat, item.to, ()))
            return
        s.push(("react", seat, item.to, ()))
        ref = s.enter(item.to, cid, card.slack, seat)
        _set_react_refs(s, (ref,))
        return
    if item.kind == "trip":
        s.income = max(0, s.income - sum(CARDS[c].cost for c in item.cards))
        s.push(("react", seat, seat, ()))
        refs = tuple(s.enter(seat, cid, CARDS[cid].slack, seat) for cid in item.cards)
        _set_react_refs(s, refs)
        return
    cid = item.cards[0]
    card = CARDS[cid]
    if seat == s.active:
        s.income = max(0, s.income - card.cost)
    if card.die is None:
        s.push(("react", seat, seat, ()))
        ref = s.enter(seat, cid, card.slack, seat)
        _set_react_refs(s, (ref,))
        return
    fixed = effects.auto_nookie(s, seat, cid)
    if fixed is not None:
        moves = ({"type": "roll"}, {"type": "take", "value": fixed})
        s.prompt = Prompt(seat, "nookie", moves, item)
        return
    roll_activity(s, item)


def roll_activity(s: CState, item: Item) -> None:
    """Slack roll of a variable activity; roll modifiers of the job apply (§1.6)."""
    cid = item.cards[0]
    _, offset = CARDS[cid].die  # type: ignore[misc]
    result = s.roll("slack", item.seat) + offset + effects.roll_bonus(s, item.seat, cid)
    plays = effects.roll_bonus_plays(s, item.seat, cid)
    if plays or ALWAYS_OFFER_ROLL_BONUS:
        moves = ({"type": "accept"}, *plays)
        s.prompt = Prompt(item.seat, "rolled", moves, (item, result))
        return
    settle(s, item, result, rolled=True)


def settle(s: CState, item: Item, result: int, rolled: bool) -> None:
    """Apply a variable activity's result: <= 0 fails; a rolled Nookie of 5+ is loud."""
    cid = item.cards[0]
    seat = item.seat
    s.push(("react", seat, seat, ()))
    if result <= 0:
        s.to_discard(cid)
        if s.log:
            s.ev.append({"kind": "failed", "seat": seat, "card": cid, "result": result})
        return
    ref = s.enter(seat, cid, result, seat)
    _set_react_refs(s, (ref,))
    entry = s.find(seat, ref)
    loud_ok = rolled or not FIXED_NOOKIE_NEVER_LOUD
    if loud_ok and cid in NOOKIE and entry is not None and entry[2] + entry[3] >= LOUD_NOOKIE_FROM:
        s.push(("loud", seat))


def _set_react_refs(s: CState, refs: tuple[int, ...]) -> None:
    """The queued reaction window of this resolution learns which cards just resolved."""
    for i in range(len(s.todo) - 1, -1, -1):
        step = s.todo[i]
        if step[0] == "react":
            s.todo = (*s.todo[:i], (*step[:3], refs), *s.todo[i + 1 :])
            return


def item_public(item: Item) -> dict[str, Any]:
    return {"kind": item.kind, "seat": item.seat, "cards": list(item.cards), "to": item.to}
