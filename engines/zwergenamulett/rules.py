"""Das Zwergenamulett: the rules as we play them (players read them in tui/help/).

The one subtle thing about this game is its secret: won tricks lie face down and may not be
looked at again, not even by their owner. Everyone saw each trick while it was played, so the
live trick and the trick just completed are public; afterwards only the *number* of tricks each
player won is shown. That is why play events name the seat but never the card (the event log is
kept and resent on reconnect, and naming cards would let anyone rebuild every won pile), and why
a view carries the cards of a trick only while it lies open on the table.

Moves
-----
``{"type": "play", "card": ID}`` by the seat whose turn it is, any card of its hand (overtrumping
is optional), and ``{"type": "claim_seven"}`` ("7 Zwerge!") by any seat while a round is on.
``playable(state, seat)`` gives the cards of the seat's legal "play" moves on their own
(distinct ids in display order; [] when it is not that seat's turn): nothing the view does not
show, offered because random playouts ask every seat every move and most may only announce.

View shape (``view(state, seat)``; ``seat=None`` is a spectator), every value msgpack-safe::

    game            "zwergenamulett"
    seat            int | None        whose view this is
    turn            int | None        seat that plays the next card (None once the game is over)
    to_act          [int]             every seat while a round is on (anyone may claim); [] at end
    over            bool
    num_players     int
    round           int               1, 2, ... (a new round is dealt as soon as one ends)
    round_leader    int | None        who led the first trick of this round
    leader          int | None        who led (or leads) the live trick
    hand            [card id]         own hand in DISPLAY_ORDER ([] for a spectator)
    hand_sizes      [int]             cards left in each hand
    trick           [{"seat": int, "card": id}]   the live trick in play order
    trick_led       card id | None    face of the live trick's first card
    trick_winner    int | None        seat currently taking the live trick
    last_trick      {"round": int, "cards": [{"seat", "card"}], "winner": int} | None
                    the trick just completed; gone as soon as the next card is played. After
                    the last trick of a round it stays up into the next round (its "round" says
                    which round it belonged to) until the new round's first card.
    tricks_won      [int]             tricks taken this round per seat (never their contents)
    gold            [int]             gold chips per seat (public)
    gold_pool       int               chips still in the middle
    gold_to_win     int               GOLD_TO_WIN
    memory_aid      bool              the lobby option
    my_won          [card id] | None  own won cards this round, only with memory_aid (else None)
    would_overtrump [card id]         distinct faces of own hand that would take the live trick
                                      if played now; [] unless it is my turn in a started trick
    round_summary   dict | None       how the previous round ended (None in the first round):
        round         int
        ended_by      "play" | "claim"
        points        [int] | None    card points + amulet bonus per seat (None after a claim)
        card_points   [int] | None
        amulet_bonus  [int] | None    0 for a player without an amulet
        claimant      int | None      who announced seven dwarves
        claim_success bool | None
        claim_dwarves int | None      dwarves shown by a successful claimant
        winners       [int]           round winners ([] after a failed claim)
        gold_to       [int]           who actually received a chip (see SHORT_POOL ruling)
        gold_back     int | None      failed claimant who paid a chip back
    winners         [int]             game winners once over, else []

Events (``events(before, seat, move, after)``, ``after`` being what ``apply`` returned), in order:
    {"kind": "play", "seat"}                              a card was played (face not named)
    {"kind": "trick", "seat": winner, "cards_count"}
    {"kind": "claim", "seat", "success", "dwarves": int | None}
    {"kind": "round_end", "round", "ended_by", "points", "amulet_bonus", "winners"}
    {"kind": "gold", "seat"}                              one chip taken from the pool
    {"kind": "gold_back", "seat"}                         one chip paid back to the pool
    {"kind": "game_over", "winners"}
    {"kind": "round_start", "round", "leader"}
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from itertools import chain, repeat
from typing import Any, ClassVar

from engines.base import (
    Engine,
    IllegalMove,
    Move,
    View,
    check_seat,
    check_stack,
    check_viewer,
    move_type,
    unseen,
)
from engines.search import gainers
from engines.stats import Played, Stat
from engines.zwergenamulett import stats

# -- components (ruling: composition) --------------------------------------------------------
# (id, points, dwarves, copies). The table's order is the display order of a hand.
FACES: tuple[tuple[str, int, int, int], ...] = (
    ("drache", 11, 0, 4),
    ("riese", 10, 0, 4),
    ("magier", 4, 0, 4),
    ("troll", 3, 0, 4),
    ("fee", 2, 0, 4),
    ("amulett", 0, 0, 4),
    ("zwerg_rot", 0, 1, 4),
    ("zwerg_blau", 0, 1, 4),
    ("doppelzwerg", 0, 2, 4),
)
CARD_IDS: tuple[str, ...] = tuple(f[0] for f in FACES)
FACE_INDEX: dict[str, int] = {cid: i for i, cid in enumerate(CARD_IDS)}
POINTS: tuple[int, ...] = tuple(f[1] for f in FACES)
DWARVES: tuple[int, ...] = tuple(f[2] for f in FACES)
AMULET = FACE_INDEX["amulett"]
NUM_FACES = len(FACES)
DECK: tuple[str, ...] = tuple(cid for cid, _, _, copies in FACES for _ in range(copies))
DECK_FACES: tuple[int, ...] = tuple(FACE_INDEX[c] for c in DECK)

HAND_SIZES: dict[int, int] = {2: 12, 3: 8, 4: 7, 5: 6, 6: 5}
GOLD_CHIPS = 13
GOLD_TO_WIN = 3

# -- rulings: every choice the printed rules leave open, in one place -------------------------
# The printed rules let whoever last saw a dwarf amulet lead the first round: a random seat.
RANDOM_FIRST_LEADER = True
# Overtrumping with the led face (or an amulet) is allowed, never forced ("kann").
OVERTRUMP_OPTIONAL = True
# Later rounds are led by the player this many seats clockwise of the previous round's leader.
NEXT_LEADER_STEP = 1
# Only one amulet in a won pile earns the dwarf bonus; more count nothing.
AMULET_BONUS_LIMIT = 1
# Tied round winners each take a chip.
TIES_SHARE_GOLD = True
# If the pool cannot give every round winner a chip (possible only with 5-6 players and many
# ties), chips go to the winners clockwise from the round's leader; the rest get none.
SHORT_POOL_FROM_ROUND_LEADER = True
# "7 Zwerge": dwarves needed, and chips a false claimant pays back (if they have them).
CLAIM_DWARVES = 7
CLAIM_PENALTY = 1
# Safety net for bots and random playouts that keep announcing falsely: once this many rounds
# have been played without anyone reaching GOLD_TO_WIN, the game ends and the players with the
# most gold share the win. Real games end after about ten rounds.
MAX_ROUNDS = 100

_ALL_SEATS: dict[int, tuple[int, ...]] = {n: tuple(range(n)) for n in HAND_SIZES}
# Where each card of a deck goes when dealt from the top: a seat, or n for the unseen rest.
_PLACES: dict[int, tuple[int, ...]] = {
    n: tuple(min(i // size, n) for i in range(len(DECK))) for n, size in HAND_SIZES.items()
}
# Tables for bytes.translate, which maps every byte (a face) of a pile at once.
_POINTS_OF = bytes(POINTS).ljust(256, b"\0")
_DWARVES_OF = bytes(DWARVES).ljust(256, b"\0")
_FACE_BYTE: tuple[bytes, ...] = tuple(bytes((face,)) for face in range(NUM_FACES))
# The event record of a plain card play, built once per seat: most moves are nothing else.
_PLAY_EVENTS: tuple[tuple[tuple[str, int]], ...] = tuple(
    (("play", seat),) for seat in range(max(HAND_SIZES))
)


class ZState:
    """One moment of a game.

    Random playouts (what search bots live on) clone one of these per move, so it holds only
    what cannot be worked out from the rest: whether the game is over is `turn is None`, the
    tricks each seat won follow from the size of its pile, and who led the live trick, which
    face was led and who is taking it are read off `turn` and `trick`. Only `hands` is a list,
    because a card play always changes one hand; a clone copies that one short list and
    shares everything else, so nothing a state holds is ever edited: a move replaces it.

    A hand is a dict {card id: copies} in display order. "Which cards may I play" is then
    just its keys, and a play only decrements or drops one key: a playout asks the first for
    every move and does the second. The unseen rest is a tuple of card ids in display
    order. The live trick, the last trick and the won piles hold face indices (positions in
    FACES), which the rules compute with, as `bytes`: immutable like a tuple, and
    `bytes.translate` turns a whole pile into its points or dwarves without a Python loop.
    """

    __slots__ = (
        "ev",
        "gold",
        "hands",
        "last_trick",
        "memory_aid",
        "n",
        "out",
        "pool",
        "round",
        "round_leader",
        "seed",
        "summary",
        "trick",
        "turn",
        "winners",
        "won",
    )

    n: int
    seed: int
    memory_aid: bool
    round: int
    round_leader: int
    hands: list[dict[str, int]]  # {card id: copies} in display order
    out: tuple[str, ...]  # unseen rest of the round, card ids in display order
    won: tuple[bytes, ...]  # per seat: faces of the tricks it took this round
    trick: bytes  # faces of the live trick in play order, ending before `turn`
    turn: int | None  # None once the game is over
    gold: tuple[int, ...]
    pool: int
    last_trick: tuple[int, int, bytes, int] | None  # (round, leader, faces, winner)
    summary: dict[str, Any] | None  # never edited once set: views hand out copies
    winners: tuple[int, ...]
    ev: tuple[tuple[Any, ...], ...]  # what the move that made this state did (see events())

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def leader(self) -> int | None:
        """Who led the live trick (or leads the next one); None once the game is over."""
        return None if self.turn is None else (self.turn - len(self.trick)) % self.n

    @property
    def tricks(self) -> list[int]:
        """Tricks won this round per seat: every trick holds one card per player."""
        n = self.n
        return [len(pile) // n for pile in self.won]

    def clone(self) -> ZState:
        c = ZState.__new__(ZState)
        c.n = self.n
        c.seed = self.seed
        c.memory_aid = self.memory_aid
        c.round = self.round
        c.round_leader = self.round_leader
        c.hands = self.hands.copy()
        c.out = self.out
        c.won = self.won
        c.trick = self.trick
        c.turn = self.turn
        c.gold = self.gold
        c.pool = self.pool
        c.last_trick = self.last_trick
        c.summary = self.summary
        c.winners = self.winners
        c.ev = ()
        return c


def dwarves_in(pile: bytes) -> int:
    """Dwarves in a won pile (given as faces), a Doppelzwerg counting two."""
    return sum(pile.translate(_DWARVES_OF))


def card_points_in(pile: bytes) -> int:
    """Card points of a won pile (given as faces)."""
    return sum(pile.translate(_POINTS_OF))


def takes_lead(face: int, led: int, amulet_in: bool) -> bool:
    """Would `face`, played now, take a live trick led with `led`? Only an amulet beats an
    amulet; otherwise an amulet or another card of the led face (dwarves by colour, Doppelzwerg
    only by Doppelzwerg, which identical faces give for free)."""
    if face == AMULET:
        return True
    return not amulet_in and face == led


def taking_card(trick: bytes) -> int:
    """Which card (0 = the lead) takes the trick so far: `takes_lead` applied card by card
    leaves the last amulet if there is one, else the last card of the led face."""
    return trick.rindex(AMULET if AMULET in trick else trick[0])


def chance(seed: int, what: str) -> int:
    """A uniform 256-bit number fixed by the seed and what it is for ("first", "round 3").

    Every chance of a game comes from here, so the same seed always gives the same game. A
    hash is used rather than seeding a `random.Random` for each deal: seeding a Mersenne
    Twister fills 2.5 KB of state and its shuffle draws each index in Python, which cost a
    random playout about a tenth of its time. BLAKE2b gives the same bits on every platform.
    """
    digest = hashlib.blake2b(f"{seed}:{what}".encode(), digest_size=32).digest()
    return int.from_bytes(digest, "big")


def in_display_order(cards: Iterable[str]) -> tuple[str, ...]:
    """Card ids sorted as a hand is shown: in the order of FACES."""
    return tuple(sorted(cards, key=FACE_INDEX.__getitem__))


def hand_of(cards: Iterable[str]) -> dict[str, int]:
    """A hand as the state holds it: {card id: copies} in display order."""
    hand: dict[str, int] = {}
    for card in in_display_order(cards):
        hand[card] = hand.get(card, 0) + 1
    return hand


def cards_in(hand: dict[str, int]) -> list[str]:
    """A hand's cards one by one, in display order."""
    return list(chain.from_iterable(map(repeat, hand, hand.values())))


Deal = tuple[list[dict[str, int]], tuple[str, ...]]  # (hands, unseen rest)


def _stacked_deal(stack: list[str], n: int) -> Deal:
    """The deal of the test option "stack": hands from the top, seat 0 first; the rest is
    set aside unseen."""
    size = HAND_SIZES[n]
    hands = [hand_of(stack[i * size : (i + 1) * size]) for i in range(n)]
    return hands, in_display_order(stack[n * size :])


def shuffle_by(items: list[Any], x: int) -> None:
    """Fisher-Yates in place, its index draws being the digits of `x` in a mixed radix.
    With `x` uniform below 2**256 every order of up to 36 items is equally likely to within
    2**-118 (36! is about 2**138), and it takes one big number instead of one call into a
    generator per item, which is most of what `random.shuffle` costs."""
    for i in range(len(items) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        items[i], items[j] = items[j], items[i]


def _random_deal(seed: int, round_no: int, n: int) -> Deal:
    """The round's deal, fixed by the seed."""
    places = list(_PLACES[n])
    shuffle_by(places, chance(seed, f"round {round_no}"))
    return _placed(DECK, places, n)


def _placed(cards: Iterable[str], places: Iterable[int], n: int) -> Deal:
    """Each card goes to its place, a seat or n (set aside). Dealing by shuffling places
    rather than cards, with `cards` in display order, makes every hand come out in display
    order with nothing to sort."""
    hands: list[dict[str, int]] = [{} for _ in range(n)]
    out = []
    for card, place in zip(cards, places, strict=True):
        if place < n:
            hand = hands[place]
            hand[card] = hand.get(card, 0) + 1
        else:
            out.append(card)
    return hands, tuple(out)


def _deal(state: ZState, deal: Deal) -> None:
    """Start a round with these hands (and unseen rest), led by `round_leader`."""
    state.hands, state.out = deal
    n = state.n
    state.won = (b"",) * n
    state.trick = b""
    state.turn = state.round_leader


class ZwergenamulettEngine(Engine):
    id = "zwergenamulett"
    title = "Das Zwergenamulett"
    min_players = 2
    max_players = 6
    options: ClassVar[dict[str, Any]] = {"memory_aid": False}
    test_options = ("stack", "first")
    # Clocks: every trick needs a card from each seat: nothing skips a turn.
    clock_turns: ClassVar[dict[int, int]] = {2: 20, 3: 24, 4: 30, 5: 26, 6: 20}
    think_seconds = 8.0

    # -- setup -------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        s = ZState.__new__(ZState)
        s.n = num_players
        s.seed = seed
        s.memory_aid = opts["memory_aid"]
        s.round = 1
        first = opts.get("first")
        if first is None:
            first = chance(seed, "first") % num_players if RANDOM_FIRST_LEADER else 0
        elif (
            isinstance(first, bool) or not isinstance(first, int) or not (0 <= first < num_players)
        ):
            raise ValueError(f"first must be a seat from 0 to {num_players - 1}, not {first!r}")
        s.round_leader = first
        if "stack" in opts:
            deal = _stacked_deal(check_stack(opts["stack"], DECK), num_players)
        else:
            deal = _random_deal(seed, 1, num_players)
        s.gold = (0,) * num_players
        s.pool = GOLD_CHIPS
        s.last_trick = None
        s.summary = None
        s.winners = ()
        s.ev = ()
        _deal(s, deal)
        return s

    # -- reading -----------------------------------------------------------------------------
    def to_act(self, state: Any) -> list[int]:
        return [] if state.turn is None else list(_ALL_SEATS[state.n])

    def playable(self, state: Any, seat: int) -> list[str]:
        """The cards `seat` may play now, distinct ids in display order; [] when it is not
        that seat's turn. Exactly the cards of the "play" moves in `legal_moves` (public, as
        the view's "turn" and "hand" are), offered on its own because a playout asks every
        seat every move and most of them may only announce: this answers them without
        building a single move."""
        if seat != state.turn or not isinstance(seat, int):
            return []
        hand = state.hands[seat]
        if not OVERTRUMP_OPTIONAL and state.trick and CARD_IDS[state.trick[0]] in hand:
            return [CARD_IDS[state.trick[0]]]
        return [*hand]

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        if state.turn is None or not isinstance(seat, int) or not 0 <= seat < state.n:
            return []
        moves: list[Move] = [{"type": "play", "card": c} for c in self.playable(state, seat)]
        moves.append({"type": "claim_seven"})
        return moves

    def is_over(self, state: Any) -> bool:
        return state.turn is None

    def turn(self, state: Any) -> int | None:
        return state.turn

    def result(self, state: Any) -> dict[str, Any]:
        return {
            "scores": list(state.gold),
            "winners": list(state.winners),
            "gold": list(state.gold),
            "rounds": state.round,
        }

    def view(self, state: Any, seat: int | None) -> View:
        s: ZState = state
        n = s.n
        check_viewer(n, seat)
        over = s.turn is None
        mine = seat is not None
        live = s.trick
        leader = s.leader
        trick_winner = None
        trick = []
        if leader is not None and live:
            trick = [{"seat": (leader + i) % n, "card": CARD_IDS[f]} for i, f in enumerate(live)]
            trick_winner = (leader + taking_card(live)) % n
        last = None
        if s.last_trick is not None:
            rnd, lead, faces, win = s.last_trick
            last = {
                "round": rnd,
                "cards": [
                    {"seat": (lead + i) % n, "card": CARD_IDS[f]} for i, f in enumerate(faces)
                ],
                "winner": win,
            }
        hand = cards_in(s.hands[seat]) if mine else []
        my_won = None
        if mine and s.memory_aid:
            my_won = [CARD_IDS[f] for f in sorted(s.won[seat])]
        over_faces: list[str] = []
        if mine and seat == s.turn and live:
            led, amulet_in = live[0], AMULET in live
            over_faces = [c for c in s.hands[seat] if takes_lead(FACE_INDEX[c], led, amulet_in)]
        return {
            "game": self.id,
            "seat": seat,
            "turn": s.turn,
            "to_act": [] if over else list(_ALL_SEATS[n]),
            "over": over,
            "num_players": n,
            "round": s.round,
            "round_leader": None if over else s.round_leader,
            "leader": leader,
            "hand": hand,
            "hand_sizes": [sum(h.values()) for h in s.hands],
            "trick": trick,
            "trick_led": CARD_IDS[live[0]] if live else None,
            "trick_winner": trick_winner,
            "last_trick": last,
            "tricks_won": s.tricks,
            "gold": list(s.gold),
            "gold_pool": s.pool,
            "gold_to_win": GOLD_TO_WIN,
            "memory_aid": s.memory_aid,
            "my_won": my_won,
            "would_overtrump": over_faces,
            "round_summary": _copy_summary(s.summary),
            "winners": list(s.winners),
        }

    # -- acting ------------------------------------------------------------------------------
    def apply(self, state: Any, seat: int, move: Move) -> Any:
        s: ZState = state
        # Nearly every move is a card play by the seat on turn: that shape goes straight to
        # _play, which still checks the card. Everything else (including every malformed
        # move) takes the checked path below, which words what is wrong. `turn` is None once
        # the game is over, so an int equal to it is a live seat.
        if (
            type(seat) is int
            and seat == s.turn
            and type(move) is dict
            and move.get("type") == "play"
            and len(move) == 2
        ):
            return self._play(s, seat, move.get("card"))
        check_seat(s.n, seat)
        kind = move_type(move)
        if s.turn is None:
            raise IllegalMove("The game is over: no more moves")
        if kind == "play":
            if seat != s.turn:
                raise IllegalMove(f"It is not your turn: seat {s.turn} plays the next card")
            if set(move) - {"type", "card"}:
                raise IllegalMove('A play is {"type": "play", "card": ID} and nothing more')
            return self._play(s, seat, move.get("card"))
        if kind == "claim_seven":
            if len(move) != 1:
                raise IllegalMove("Announcing seven dwarves takes no other fields")
            return self._claim(s, seat)
        raise IllegalMove(
            f"Unknown move {kind!r}: play a card or announce seven dwarves (claim_seven)"
        )

    def _play(self, s: ZState, seat: int, card: Any) -> ZState:
        try:
            face = FACE_INDEX.get(card, -1)
        except TypeError:  # unhashable, so certainly no card id
            face = -1
        if face < 0:
            raise IllegalMove(f"There is no card {card!r} in this game")
        hand = s.hands[seat]
        copies = hand.get(card)
        if not copies:
            raise IllegalMove(f"You have no {card} in your hand")
        t = s.clone()
        t.hands[seat] = hand.copy()
        self._play_on(t, seat, face, card)
        return t

    def _play_on(self, t: ZState, seat: int, face: int, card: str) -> None:
        """Play a checked card in place, `t.hands[seat]` being `t`'s own (`_play` makes it on
        a clone, `random_step` on a playout copy)."""
        rest = t.hands[seat]
        copies = rest[card]
        if copies == 1:
            del rest[card]
        else:
            rest[card] = copies - 1
        t.ev = _PLAY_EVENTS[seat]
        if not t.trick:
            t.last_trick = None  # the completed trick leaves the table with the next lead
        t.trick = trick = t.trick + _FACE_BYTE[face]
        if len(trick) < t.n:
            t.turn = (seat + 1) % t.n
        else:
            self._collect(t, seat)

    # -- the private fast path of search playouts (engines.search) --------------------------
    def playout_copy(self, state: Any) -> ZState:
        """A private copy that `random_step` may change in place (its own hand dicts)."""
        c = state.clone()
        c.hands = [h.copy() for h in state.hands]
        return c

    def random_step(self, state: Any, rng: random.Random) -> int:
        """The move the random bots would make (only the seat on turn plays; the same draw
        from `rng` as RandomBot.choose), made in place on a `playout_copy`."""
        seat = state.turn
        cards = [*state.hands[seat]] if OVERTRUMP_OPTIONAL else self.playable(state, seat)
        card = cards[int(rng.random() * len(cards))]
        self._play_on(state, seat, FACE_INDEX[card], card)
        return 1

    def _collect(self, t: ZState, last: int) -> None:
        """The trick is complete, `last` having played its last card: its winner takes it
        face down and leads next."""
        trick = t.trick
        leader = (last + 1) % t.n
        w = (leader + taking_card(trick)) % t.n
        won = list(t.won)
        won[w] += trick
        t.won = tuple(won)
        t.last_trick = (t.round, leader, trick, w)
        t.ev = (*t.ev, ("trick", w, len(trick)))
        t.trick = b""
        t.turn = w
        if not t.hands[w]:
            self._score_round(t)

    def _score_round(self, t: ZState) -> None:
        card_points = [card_points_in(pile) for pile in t.won]
        bonus = [
            dwarves_in(pile) * min(pile.count(AMULET), AMULET_BONUS_LIMIT) if AMULET in pile else 0
            for pile in t.won
        ]
        points = [c + b for c, b in zip(card_points, bonus, strict=True)]
        best = max(points)
        winners = [p for p, v in enumerate(points) if v == best]
        if len(winners) > 1 and not TIES_SHARE_GOLD:
            winners = []
        ev = [*t.ev, ("round_end", t.round, "play", points, bonus, winners)]
        summary = _summary(t.round, "play", winners)
        summary.update(points=points, card_points=card_points, amulet_bonus=bonus)
        self._end_round(t, summary, winners, ev)

    def _claim(self, s: ZState, seat: int) -> ZState:
        t = s.clone()
        dwarves = dwarves_in(s.won[seat])
        success = dwarves >= CLAIM_DWARVES
        shown = dwarves if success else None
        winners = [seat] if success else []
        ev: list[tuple[Any, ...]] = [
            ("claim", seat, success, shown),
            ("round_end", t.round, "claim", None, None, winners),
        ]
        summary = _summary(t.round, "claim", winners)
        summary.update(claimant=seat, claim_success=success, claim_dwarves=shown)
        if not success:
            paid = min(CLAIM_PENALTY, t.gold[seat])
            gold = list(t.gold)
            gold[seat] -= paid
            t.gold = tuple(gold)
            t.pool += paid
            ev.extend([("gold_back", seat)] * paid)
            summary["gold_back"] = seat if paid else None
        # The live trick is abandoned with the round; the last completed one stays on show.
        t.trick = b""
        self._end_round(t, summary, winners, ev)
        return t

    def _end_round(
        self, t: ZState, summary: dict[str, Any], winners: list[int], ev: list[tuple[Any, ...]]
    ) -> None:
        """Hand out gold, then end the game or deal the next round; `ev` is this move's
        event record so far."""
        n = t.n
        if SHORT_POOL_FROM_ROUND_LEADER and len(winners) > 1:
            winners = sorted(winners, key=lambda p: (p - t.round_leader) % n)
        gold_to = winners[: t.pool]
        gold = list(t.gold)
        for p in gold_to:
            gold[p] += 1
            ev.append(("gold", p))
        t.gold = tuple(gold)
        t.pool -= len(gold_to)
        summary["gold_to"] = gold_to
        t.summary = summary
        champions = [p for p, g in enumerate(gold) if g >= GOLD_TO_WIN]
        if not champions and t.round >= MAX_ROUNDS:
            most = max(gold)
            champions = [p for p, g in enumerate(gold) if g == most]
        if champions:
            t.winners = tuple(champions)
            t.turn = None
            t.trick = b""
            ev.append(("game_over", champions))
        else:
            t.round += 1
            t.round_leader = (t.round_leader + NEXT_LEADER_STEP) % n
            _deal(t, _random_deal(t.seed, t.round, n))
            ev.append(("round_start", t.round, t.round_leader))
        t.ev = tuple(ev)

    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for e in after.ev:
            kind = e[0]
            if kind == "play":
                out.append({"kind": "play", "seat": e[1]})
            elif kind == "trick":
                out.append({"kind": "trick", "seat": e[1], "cards_count": e[2]})
            elif kind == "claim":
                out.append({"kind": "claim", "seat": e[1], "success": e[2], "dwarves": e[3]})
            elif kind == "round_end":
                out.append(
                    {
                        "kind": "round_end",
                        "round": e[1],
                        "ended_by": e[2],
                        "points": None if e[3] is None else list(e[3]),
                        "amulet_bonus": None if e[4] is None else list(e[4]),
                        "winners": list(e[5]),
                    }
                )
            elif kind in ("gold", "gold_back"):
                out.append({"kind": kind, "seat": e[1]})
            elif kind == "game_over":
                out.append({"kind": "game_over", "winners": list(e[1])})
            else:
                out.append({"kind": "round_start", "round": e[1], "leader": e[2]})
        return out

    def statistics(self, game: Played) -> list[list[Stat]]:
        return stats.statistics(game)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Other hands and the unseen rest are re-dealt among themselves, sizes kept. Won piles
        stay as they are: every player saw each trick while it was played."""
        s: ZState = state
        n = s.n
        unseen = dict.fromkeys(CARD_IDS, 0)  # counted in display order, so nothing to sort
        for card in s.out:
            unseen[card] += 1
        places = [n] * len(s.out)
        for p in range(n):
            if p != seat:
                for card, copies in s.hands[p].items():
                    unseen[card] += copies
                places += [p] * sum(s.hands[p].values())
        shuffle_by(places, rng.getrandbits(256))
        t = s.clone()
        hands, t.out = _placed(cards_in(unseen), places, n)
        for p in range(n):
            if p != seat:
                t.hands[p] = hands[p]
        return t


    def from_view(self, view: View, rng: random.Random) -> ZState:
        """A state agreeing with everything `view` shows, the rest drawn at random: the other
        hands, the unseen rest and the won piles (face down: only their sizes are shown, plus
        the trick just completed and, with the memory aid, one's own pile) re-dealt from the
        cards the seat cannot see, and a fresh seed for the rounds still to be dealt."""
        return self.sampler(view)(rng)

    def sampler(self, view: View) -> Callable[[random.Random], ZState]:
        """`from_view` for one view again and again (engines.search samples one a search
        iteration): what the view fixes is worked out once, the draw each time. A memory
        ("recall") that does not fit the view belongs to another game and is left out."""
        recall = view.get("recall")
        try:
            return self._sampler(view, recall)
        except ValueError:
            if recall is None:
                raise
            return self._sampler(view, None)

    def _sampler(
        self, view: View, recall: dict[str, Any] | None
    ) -> Callable[[random.Random], ZState]:
        n, seat = view["num_players"], view["seat"]
        s = ZState.__new__(ZState)
        s.n = n
        s.memory_aid = view["memory_aid"]
        s.round = view["round"]
        s.turn = view["turn"]
        s.round_leader = view["round_leader"] if view["round_leader"] is not None else 0
        s.gold = tuple(view["gold"])
        s.pool = view["gold_pool"]
        s.summary = _copy_summary(view["round_summary"])
        s.winners = tuple(view["winners"])
        s.ev = ()
        s.trick = bytes(FACE_INDEX[e["card"]] for e in view["trick"])
        s.hands, s.won, s.out, s.seed = [], (), (), 0  # drawn by each sample
        last = view["last_trick"]
        s.last_trick = None
        won: list[list[str]] = [[] for _ in range(n)]
        if last is not None:
            cards = [e["card"] for e in last["cards"]]
            lead = last["cards"][0]["seat"]
            faces = bytes(FACE_INDEX[c] for c in cards)
            s.last_trick = (last["round"], lead, faces, last["winner"])
            if last["round"] == s.round:
                won[last["winner"]] += cards
        # What a bot remembers (engines.zwergenamulett.bots.ExpertRecall): the cards it saw go
        # into the piles it saw take them; "loose" ones went into some pile it cannot name.
        loose: list[str] = []
        if recall is not None:
            won = [list(pile) for pile in recall["won"]]
            loose = list(recall["loose"])
        if seat is not None and view["my_won"] is not None:
            won[seat] = list(view["my_won"])
        missing = [view["tricks_won"][p] * n - len(won[p]) for p in range(n)]
        if min(missing) < 0 or sum(missing) < len(loose):
            raise ValueError("a view remembers more won cards than the seats took")
        mine = view["hand"] if seat is not None else []
        unseen_cards = unseen(DECK, mine, [e["card"] for e in view["trick"]], *won, loose)
        own = hand_of(mine)
        sizes = view["hand_sizes"]
        to_piles = sum(missing) - len(loose)

        def sample(rng: random.Random) -> ZState:
            t = s.clone()
            t.seed = rng.getrandbits(63)
            rest = unseen_cards.copy()
            rng.shuffle(rest)
            hands: list[dict[str, int]] = []
            for p in range(n):
                if p == seat:
                    hands.append(own.copy())
                    continue
                hands.append(hand_of(rest[: sizes[p]]))
                del rest[: sizes[p]]
            # The piles' unknown cards: every loose card, the rest from what no hand holds.
            fill = loose + rest[:to_piles]
            del rest[:to_piles]
            rng.shuffle(fill)
            piles = []
            for p in range(n):
                cards = won[p] + fill[: missing[p]]
                del fill[: missing[p]]
                piles.append(bytes(sorted(FACE_INDEX[c] for c in cards)))
            t.hands = hands
            t.won = tuple(piles)
            t.out = in_display_order(rest)
            return t

        return sample


def round_cutoff(start: ZState, state: ZState, n: int) -> list[float] | None:
    """The expert's playouts stop when the round they started in ends: whoever took gold in it
    (or, when the game ended, its winners) shares the win (engines.search.Cutoff)."""
    if state.round == start.round and state.turn is not None:
        return None
    if state.turn is None:
        return gainers((0,) * n, tuple(int(p in state.winners) for p in range(n)), n)
    return gainers(start.gold, state.gold, n)


def _summary(round_no: int, ended_by: str, winners: list[int]) -> dict[str, Any]:
    return {
        "round": round_no,
        "ended_by": ended_by,
        "points": None,
        "card_points": None,
        "amulet_bonus": None,
        "claimant": None,
        "claim_success": None,
        "claim_dwarves": None,
        "winners": list(winners),
        "gold_to": [],
        "gold_back": None,
    }


def _copy_summary(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """Views hand out copies so that a caller editing one cannot change the game."""
    if summary is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in summary.items()}
