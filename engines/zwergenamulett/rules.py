"""Das Zwergenamulett: the rules as `../shared/rules/zwergenamulett.md` states them.

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

import random
from typing import Any, ClassVar

from engines.base import Engine, IllegalMove, Move, View, check_seat, check_stack, move_type

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
_NO_WON: tuple[int, ...] = (0,) * NUM_FACES


class ZState:
    """One moment of a game. Tuples inside are never mutated, so clones share them freely."""

    __slots__ = (
        "amulet_in",
        "ev",
        "gold",
        "hands",
        "last_trick",
        "leader",
        "led",
        "memory_aid",
        "n",
        "out",
        "over",
        "pool",
        "round",
        "round_leader",
        "seed",
        "summary",
        "trick",
        "tricks",
        "turn",
        "winner",
        "winners",
        "won",
    )

    n: int
    seed: int
    memory_aid: bool
    round: int
    round_leader: int
    hands: list[tuple[int, ...]]  # sorted face indices
    out: tuple[int, ...]  # unseen rest of the round
    won: list[tuple[int, ...]]  # per seat: count of each face won this round
    tricks: list[int]  # tricks won this round
    trick: tuple[int, ...]  # faces of the live trick, seat of i-th is (leader + i) % n
    leader: int
    led: int  # face led, -1 while the trick is empty
    winner: int  # seat taking the live trick, -1 while empty
    amulet_in: bool  # an amulet lies in the live trick
    turn: int | None
    gold: list[int]
    pool: int
    last_trick: tuple[int, int, tuple[int, ...], int] | None  # (round, leader, faces, winner)
    summary: dict[str, Any] | None
    over: bool
    winners: list[int]
    ev: list[tuple[Any, ...]]  # what the move that made this state did (see events())

    def clone(self) -> ZState:
        c = ZState.__new__(ZState)
        c.n = self.n
        c.seed = self.seed
        c.memory_aid = self.memory_aid
        c.round = self.round
        c.round_leader = self.round_leader
        c.hands = self.hands.copy()
        c.out = self.out
        c.won = self.won.copy()
        c.tricks = self.tricks.copy()
        c.trick = self.trick
        c.leader = self.leader
        c.led = self.led
        c.winner = self.winner
        c.amulet_in = self.amulet_in
        c.turn = self.turn
        c.gold = self.gold.copy()
        c.pool = self.pool
        c.last_trick = self.last_trick
        c.summary = self.summary
        c.over = self.over
        c.winners = self.winners
        c.ev = []
        return c


def dwarves_in(won: tuple[int, ...]) -> int:
    """Dwarves in a won pile (given as face counts), a Doppelzwerg counting two."""
    return sum(DWARVES[f] * won[f] for f in range(NUM_FACES))


def takes_lead(face: int, led: int, amulet_in: bool) -> bool:
    """Would `face`, played now, take a live trick led with `led`? Only an amulet beats an
    amulet; otherwise an amulet or another card of the led face (dwarves by colour, Doppelzwerg
    only by Doppelzwerg, which identical faces give for free)."""
    if face == AMULET:
        return True
    return not amulet_in and face == led


def _deal(state: ZState, faces: list[int]) -> None:
    n = state.n
    size = HAND_SIZES[n]
    state.hands = [tuple(sorted(faces[i * size : (i + 1) * size])) for i in range(n)]
    state.out = tuple(sorted(faces[n * size :]))
    state.won = [_NO_WON] * n
    state.tricks = [0] * n
    state.trick = ()
    state.led = -1
    state.winner = -1
    state.amulet_in = False
    state.leader = state.round_leader
    state.turn = state.round_leader


def _shuffled_deck(seed: int, round_no: int) -> list[int]:
    faces = list(DECK_FACES)
    random.Random(f"{seed}:{round_no}").shuffle(faces)
    return faces


class ZwergenamulettEngine(Engine):
    id = "zwergenamulett"
    title = "Das Zwergenamulett"
    min_players = 2
    max_players = 6
    options: ClassVar[dict[str, Any]] = {"memory_aid": False}
    test_options = ("stack", "first")

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
            first = random.Random(f"{seed}:first").randrange(num_players)
        elif (
            isinstance(first, bool) or not isinstance(first, int) or not (0 <= first < num_players)
        ):
            raise ValueError(f"first must be a seat from 0 to {num_players - 1}, not {first!r}")
        s.round_leader = first
        if "stack" in opts:
            faces = [FACE_INDEX[c] for c in check_stack(opts["stack"], DECK)]
        else:
            faces = _shuffled_deck(seed, 1)
        s.gold = [0] * num_players
        s.pool = GOLD_CHIPS
        s.last_trick = None
        s.summary = None
        s.over = False
        s.winners = []
        s.ev = []
        _deal(s, faces)
        return s

    # -- reading -----------------------------------------------------------------------------
    def to_act(self, state: Any) -> list[int]:
        return [] if state.over else list(_ALL_SEATS[state.n])

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        if state.over or not isinstance(seat, int) or not 0 <= seat < state.n:
            return []
        moves: list[Move] = []
        if seat == state.turn:
            faces = dict.fromkeys(state.hands[seat])  # distinct, in display order
            if not OVERTRUMP_OPTIONAL and state.led in faces:
                faces = {state.led: None}
            moves = [{"type": "play", "card": CARD_IDS[f]} for f in faces]
        moves.append({"type": "claim_seven"})
        return moves

    def is_over(self, state: Any) -> bool:
        return state.over

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
        mine = seat is not None and 0 <= seat < n
        leader = s.leader
        trick = [{"seat": (leader + i) % n, "card": CARD_IDS[f]} for i, f in enumerate(s.trick)]
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
        hand = [CARD_IDS[f] for f in s.hands[seat]] if mine else []
        my_won = None
        if mine and s.memory_aid:
            my_won = [CARD_IDS[f] for f in range(NUM_FACES) for _ in range(s.won[seat][f])]
        over_faces: list[str] = []
        if mine and seat == s.turn and s.trick:
            over_faces = [
                CARD_IDS[f] for f in sorted(set(s.hands[seat])) if takes_lead(f, s.led, s.amulet_in)
            ]
        return {
            "game": self.id,
            "seat": seat,
            "turn": s.turn,
            "to_act": self.to_act(s),
            "over": s.over,
            "num_players": n,
            "round": s.round,
            "round_leader": None if s.over else s.round_leader,
            "leader": None if s.over else leader,
            "hand": hand,
            "hand_sizes": [len(h) for h in s.hands],
            "trick": trick,
            "trick_led": CARD_IDS[s.led] if s.led >= 0 else None,
            "trick_winner": s.winner if s.winner >= 0 else None,
            "last_trick": last,
            "tricks_won": list(s.tricks),
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
        check_seat(s.n, seat)
        kind = move_type(move)
        if s.over:
            raise IllegalMove("The game is over: no more moves")
        if kind == "play":
            return self._play(s, seat, move)
        if kind == "claim_seven":
            return self._claim(s, seat)
        raise IllegalMove(
            f"Unknown move {kind!r}: play a card or announce seven dwarves (claim_seven)"
        )

    def _play(self, s: ZState, seat: int, move: Move) -> ZState:
        if seat != s.turn:
            raise IllegalMove(f"It is not your turn: seat {s.turn} plays the next card")
        card = move.get("card")
        face = FACE_INDEX.get(card, -1) if isinstance(card, str) else -1
        if face < 0:
            raise IllegalMove(f"There is no card {card!r} in this game")
        hand = s.hands[seat]
        if face not in hand:
            raise IllegalMove(f"You have no {card} in your hand")
        t = s.clone()
        i = hand.index(face)
        t.hands[seat] = hand[:i] + hand[i + 1 :]
        t.ev.append(("play", seat))
        if not s.trick:
            t.last_trick = None
            t.led = face
            t.winner = seat
            t.amulet_in = face == AMULET
        elif takes_lead(face, s.led, s.amulet_in):
            t.winner = seat
            if face == AMULET:
                t.amulet_in = True
        t.trick = (*s.trick, face)
        if len(t.trick) < t.n:
            t.turn = (seat + 1) % t.n
            return t
        self._collect(t)
        return t

    def _collect(self, t: ZState) -> None:
        """The trick is complete: its winner takes it face down and leads next."""
        w = t.winner
        counts = list(t.won[w])
        for f in t.trick:
            counts[f] += 1
        t.won[w] = tuple(counts)
        t.tricks[w] += 1
        t.last_trick = (t.round, t.leader, t.trick, w)
        t.ev.append(("trick", w, len(t.trick)))
        t.trick = ()
        t.led = -1
        t.winner = -1
        t.amulet_in = False
        t.leader = w
        t.turn = w
        if not t.hands[w]:
            self._score_round(t)

    def _score_round(self, t: ZState) -> None:
        n = t.n
        card_points = [sum(POINTS[f] * c for f, c in enumerate(w)) for w in t.won]
        bonus = [dwarves_in(w) * min(w[AMULET], AMULET_BONUS_LIMIT) for w in t.won]
        points = [card_points[p] + bonus[p] for p in range(n)]
        best = max(points)
        winners = [p for p in range(n) if points[p] == best]
        if len(winners) > 1 and not TIES_SHARE_GOLD:
            winners = []
        t.ev.append(("round_end", t.round, "play", points, bonus, winners))
        summary = _summary(t.round, "play", winners)
        summary.update(points=points, card_points=card_points, amulet_bonus=bonus)
        self._end_round(t, summary, winners)

    def _claim(self, s: ZState, seat: int) -> ZState:
        t = s.clone()
        dwarves = dwarves_in(s.won[seat])
        success = dwarves >= CLAIM_DWARVES
        shown = dwarves if success else None
        t.ev.append(("claim", seat, success, shown))
        winners = [seat] if success else []
        t.ev.append(("round_end", t.round, "claim", None, None, winners))
        summary = _summary(t.round, "claim", winners)
        summary.update(claimant=seat, claim_success=success, claim_dwarves=shown)
        if not success:
            paid = min(CLAIM_PENALTY, t.gold[seat])
            t.gold[seat] -= paid
            t.pool += paid
            t.ev.extend([("gold_back", seat)] * paid)
            summary["gold_back"] = seat if paid else None
        # The live trick is abandoned with the round; the last completed one stays on show.
        t.trick = ()
        self._end_round(t, summary, winners)
        return t

    def _end_round(self, t: ZState, summary: dict[str, Any], winners: list[int]) -> None:
        """Hand out gold, then end the game or deal the next round."""
        n = t.n
        if SHORT_POOL_FROM_ROUND_LEADER:
            winners = sorted(winners, key=lambda p: (p - t.round_leader) % n)
        gold_to = []
        for p in winners:
            if t.pool == 0:
                break
            t.pool -= 1
            t.gold[p] += 1
            gold_to.append(p)
            t.ev.append(("gold", p))
        summary["gold_to"] = gold_to
        t.summary = summary
        champions = [p for p in range(n) if t.gold[p] >= GOLD_TO_WIN]
        if not champions and t.round >= MAX_ROUNDS:
            most = max(t.gold)
            champions = [p for p in range(n) if t.gold[p] == most]
        if champions:
            t.over = True
            t.winners = champions
            t.turn = None
            t.trick = ()
            t.led = -1
            t.winner = -1
            t.amulet_in = False
            t.ev.append(("game_over", champions))
            return
        t.round += 1
        t.round_leader = (t.round_leader + NEXT_LEADER_STEP) % n
        _deal(t, _shuffled_deck(t.seed, t.round))
        t.ev.append(("round_start", t.round, t.round_leader))

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

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Other hands and the unseen rest are re-dealt among themselves, sizes kept. Won piles
        stay as they are: every player saw each trick while it was played."""
        s: ZState = state
        t = s.clone()
        pool = list(s.out)
        for p in range(s.n):
            if p != seat:
                pool.extend(s.hands[p])
        rng.shuffle(pool)
        k = 0
        for p in range(s.n):
            if p != seat:
                size = len(s.hands[p])
                t.hands[p] = tuple(sorted(pool[k : k + size]))
                k += size
        t.out = tuple(sorted(pool[k:]))
        return t


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
