"""Bots for Das Zwergenamulett.

The random bot plays a uniformly random card on its turn and never announces "7 Zwerge": a
random announcement is almost always false, ends the round at once and would make random
playouts endless and meaningless.

The strong bot has a memory, because the game is a memory game: its won tricks vanish from its
view once the next card is played. It remembers what it saw, like a player at the table would,
and never reads the state behind the view.

How the memory finds the right game without any game id in the view (an id derived from the
seed would let a program brute-force small seeds and rebuild the deal): one bot object serves
every game and seat in the process, so knowledge is filed under a key the view itself gives,
namely (players, seat, round, gold per seat, own hand, tricks completed this round). When the
bot plays a card it files what it knows under the key it will see next (its hand without that
card, the trick completed), so the chain continues from view to view. A trick the bot wins is
always shown to it: the winner leads next, and `last_trick` stays up until that lead.

Views it misses (a person or a stand-in held the seat for a while, or the host asked another
seat first and it moved) only leave the memory incomplete: a trick whose end it missed goes to
the one seat whose `tricks_won` rose, with the cards it saw of it; if several rose, those cards
are remembered as played into some pile ("loose"). A remembered entry that contradicts the
view (a seat with fewer tricks than remembered, or other cards in a trick it had half seen)
belongs to another game and is dropped. What it knows of each pile is then a lower bound: it
claims only dwarves it saw itself win. With the lobby option `memory_aid` on it reads `my_won`.
The memory is bounded (oldest entries go first). A game replayed from its record in a fresh
process starts the bot with an empty memory.

The expert (engines.search) keeps the same memory (`ExpertRecall`) and rebuilds states from it,
so its samples never put a card it saw played back into a hand, and its playouts know what each
seat has already won; its playouts are `PlayoutBot`'s, a cheap sketch of sensible play.

Possible refinement, not done: with no gold to lose, a false claim costs nothing and aborts a
round an opponent is winning; the strong bot never bluffs.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from engines.base import Move, View, ViewBot
from engines.zwergenamulett.rules import (
    AMULET,
    CARD_IDS,
    CLAIM_DWARVES,
    DECK_FACES,
    DWARVES,
    FACE_INDEX,
    NUM_FACES,
    POINTS,
    ZwergenamulettEngine,
    takes_lead,
)

CLAIM: Move = {"type": "claim_seven"}
COPIES: tuple[int, ...] = tuple(DECK_FACES.count(f) for f in range(NUM_FACES))

# Heuristic weights of the strong bot, tuned by playing against the random bot (bench.bots).
AMULET_KEEP = 6.0  # what an amulet still in hand is worth for a later trick
DUMP_ESTIMATE = 1.5  # points a later player is expected to throw into a trick
OVERTAKE_WILLINGNESS = 0.9  # chance a later player who can take the trick does so
SEVEN_DWARVES_VALUE = 40.0  # reaching seven dwarves wins the round on the spot
MEMORY_LIMIT = 50_000
# The expert's playout policy (PlayoutBot): how often it plays any card, and what a trick must
# be worth (points plus dwarves) before it takes it with the led face or with an amulet.
PLAYOUT_RANDOM = 0.3
PLAYOUT_TAKE = 4
PLAYOUT_AMULET = 12


class RandomBot(ViewBot):
    """A random card when it is this seat's turn; otherwise it lets the moment pass.

    Random playouts are made of this bot, so it is kept cheap. It asks the engine's
    `playable` (the cards of its legal "play" moves) rather than `legal_moves`: every seat is
    offered every move, and for all seats but one the answer is "nothing to play", which
    `playable` gives without building any move. It picks with one `rng.random()` rather than
    `rng.choice`, which costs several Python calls per pick; with at most nine cards to pick
    from, the pick is uniform to within 2**-49."""

    name = "random"

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        cards = [m["card"] for m in legal if m["type"] == "play"]
        return _pick(cards, rng)

    def choose(
        self, eng: ZwergenamulettEngine, state: Any, seat: int, rng: random.Random
    ) -> Move | None:
        return _pick(eng.playable(state, seat), rng)


def _pick(cards: list[str], rng: random.Random) -> Move | None:
    """One of `cards` to play, uniformly (one `rng.random()`: see RandomBot), or None."""
    return {"type": "play", "card": cards[int(rng.random() * len(cards))]} if cards else None


class Knowledge:
    """What one seat remembers of the current round: every card it saw played, and whose
    won pile each went into where it could tell (the piles lie face down, but everyone saw
    them being taken)."""

    __slots__ = ("counts", "current", "loose", "piles", "seen", "trick_idx", "won_through")

    def __init__(self, n: int) -> None:
        self.piles: list[list[int]] = [[] for _ in range(n)]  # known faces of each won pile
        self.loose: list[int] = []  # faces seen played into a trick whose taker is unknown
        self.counts = [0] * n  # tricks won per seat when last looked at
        self.won_through = 0  # tricks whose taker has been worked out
        self.seen = [0] * NUM_FACES  # cards seen played this round (own included)
        self.trick_idx = 0  # the trick whose cards (in play order) are counted in `current`
        self.current: list[int] = []

    def copy(self) -> Knowledge:
        k = Knowledge.__new__(Knowledge)
        k.piles = [pile.copy() for pile in self.piles]
        k.loose = self.loose.copy()
        k.counts = self.counts.copy()
        k.won_through = self.won_through
        k.seen = self.seen.copy()
        k.trick_idx = self.trick_idx
        k.current = self.current.copy()
        return k

    def see(self, idx: int, faces: list[int]) -> bool:
        """Count the cards of trick `idx` (in play order) not counted yet. False if they
        contradict what was counted: the memory then belongs to another game."""
        if idx < self.trick_idx:
            return True
        if idx > self.trick_idx:
            self.trick_idx, self.current = idx, []
        known = len(self.current)
        if faces[:known] != self.current[: len(faces)]:
            return False
        for f in faces[known:]:
            self.seen[f] += 1
        self.current.extend(faces[known:])
        return True

    def dwarves(self, seat: int) -> int:
        """Dwarves known to lie in `seat`'s won pile (a lower bound where views were missed)."""
        return sum(DWARVES[f] for f in self.piles[seat])


class Memory:
    """What each seat of every game in the process saw this round, filed under the key its
    next view will give (see the module docstring). Both the strong bot and the expert's
    determinizations (engines.search: `recall`) live on it. One process may run many tables
    (the SSH server) with bots and hints thinking in worker threads at once, so each look
    at the memory holds a lock."""

    def __init__(self) -> None:
        self._memory: dict[tuple[Any, ...], Knowledge] = {}
        self._lock = threading.Lock()

    def _remember(self, key: tuple[Any, ...], k: Knowledge) -> None:
        self._memory.pop(key, None)
        self._memory[key] = k.copy()
        while len(self._memory) > MEMORY_LIMIT:
            del self._memory[next(iter(self._memory))]

    def recall(self, view: View, seat: int) -> Knowledge:
        """Knowledge brought up to date with this view (and filed again under its key)."""
        with self._lock:
            return self._recall(view, seat)

    def _recall(self, view: View, seat: int) -> Knowledge:
        n = view["num_players"]
        done = sum(view["tricks_won"])
        key = self._key(view, seat, tuple(FACE_INDEX[c] for c in view["hand"]), done)
        if any(c["seat"] == seat for c in view["trick"]):
            key = (*key[:-1], done + 1)
        k = self._memory.get(key)
        if k is None or not self._update(k, view, seat, done):
            k = Knowledge(n)
            self._update(k, view, seat, done)
        if view["my_won"] is not None:  # memory aid: the exact pile
            k.piles[seat] = sorted(FACE_INDEX[c] for c in view["my_won"])
        self._remember(key, k)
        return k

    def played(self, view: View, seat: int, k: Knowledge, face: int) -> None:
        """`seat` plays `face` now: file what it knows under the key of its next view (its
        hand without that card, this trick counted as done)."""
        with self._lock:
            self._played(view, seat, k, face)

    def _played(self, view: View, seat: int, k: Knowledge, face: int) -> None:
        after = k.copy()
        done = sum(view["tricks_won"])
        after.see(done, [*(FACE_INDEX[c["card"]] for c in view["trick"]), face])
        rest = [FACE_INDEX[c] for c in view["hand"]]
        rest.remove(face)
        self._remember(self._key(view, seat, tuple(rest), done + 1), after)

    @staticmethod
    def _key(view: View, seat: int, hand: tuple[int, ...], done: int) -> tuple[Any, ...]:
        return (view["num_players"], seat, view["round"], tuple(view["gold"]), hand, done)

    @staticmethod
    def _update(k: Knowledge, view: View, seat: int, done: int) -> bool:
        """Bring `k` up to date with `view`; False if `k` cannot be this game's memory."""
        won = view["tricks_won"]
        if any(w < c for w, c in zip(won, k.counts, strict=True)):
            return False
        last = view["last_trick"]
        full: list[int] | None = None
        if last is not None and last["round"] == view["round"] and done > 0:
            full = [FACE_INDEX[c["card"]] for c in last["cards"]]
        if k.won_through < done:
            # Takers of the tricks completed since the last look: the seats whose count rose.
            rises = zip(won, k.counts, strict=True)
            takers = [p for p, (w, c) in enumerate(rises) for _ in range(w - c)]
            if full is not None:
                if last["winner"] not in takers:
                    return False  # its count did not rise since: another game's memory
                k.piles[last["winner"]] += full
                takers.remove(last["winner"])
            # Tricks missed before it: their taker is known when only one seat's count rose.
            for idx in range(k.won_through, done - (full is not None)):
                faces: list[int] = []
                if k.trick_idx == idx:
                    faces, k.current, k.trick_idx = k.current, [], idx + 1
                taker = takers[0] if len(set(takers)) == 1 else None
                if taker is None:
                    k.loose += faces
                else:
                    k.piles[taker] += faces
                    takers.remove(taker)
            k.won_through = done
            k.counts = list(won)
        if full is not None and not k.see(done - 1, full):
            return False
        trick = view["trick"]
        return not trick or k.see(done, [FACE_INDEX[c["card"]] for c in trick])


class StrongBot(ViewBot):
    """Takes tricks that pay, with the cheapest card that takes them; otherwise throws the card
    that gives the others least. Announces seven dwarves only when it counted them itself."""

    name = "strong"

    def __init__(self) -> None:
        self.memory = Memory()

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        seat = view["seat"]
        if view["over"] or seat is None:
            return None
        k = self.memory.recall(view, seat)
        if k.dwarves(seat) >= CLAIM_DWARVES:
            return dict(CLAIM)
        if view["turn"] != seat:
            return None
        hand = [FACE_INDEX[c] for c in view["hand"]]
        face = self._pick(view, seat, hand, k)
        self.memory.played(view, seat, k, face)
        return {"type": "play", "card": CARD_IDS[face]}

    def _pick(self, view: dict[str, Any], seat: int, hand: list[int], k: Knowledge) -> int:
        n = view["num_players"]
        trick = [FACE_INDEX[c["card"]] for c in view["trick"]]
        led = trick[0] if trick else -1
        amulet_in = AMULET in trick
        sizes = view["hand_sizes"]
        later_seats = [(seat + i) % n for i in range(1, n - len(trick))]
        later_cards = sum(sizes[p] for p in later_seats)
        # Cards whose place I do not know: in other hands or out of the round.
        unseen = [COPIES[f] - k.seen[f] - hand.count(f) for f in range(NUM_FACES)]
        unseen_total = max(sum(unseen), 1)
        my_dwarves = k.dwarves(seat)
        my_amulet = AMULET in k.piles[seat]
        amulet_prospect = my_amulet or AMULET in hand
        opp_weight = 1.0 / (n - 1)

        def worth_to_me(faces: list[int]) -> float:
            dw = sum(DWARVES[f] for f in faces)
            value = sum(POINTS[f] for f in faces) + len(later_seats) * DUMP_ESTIMATE
            value += dw * (1.0 if amulet_prospect or AMULET in faces else 0.4)
            if AMULET in faces and not my_amulet:
                value += my_dwarves + dw + 1.5
            if my_dwarves < CLAIM_DWARVES <= my_dwarves + dw:
                value += SEVEN_DWARVES_VALUE
            return value

        def worth_to_others(faces: list[int]) -> float:
            dw = sum(DWARVES[f] for f in faces)
            return sum(POINTS[f] for f in faces) + len(later_seats) * DUMP_ESTIMATE + 0.5 * dw

        best, best_score = hand[0], float("-inf")
        for face in sorted(set(hand)):
            faces = [*trick, face]
            if trick and not takes_lead(face, led, amulet_in):
                p_win = 0.0
            else:
                lead_face = face if not trick else led
                threats = unseen[AMULET]
                if face != AMULET and not amulet_in and lead_face != AMULET:
                    threats += unseen[lead_face]
                p_win = 1.0 - OVERTAKE_WILLINGNESS * _p_any(unseen_total, threats, later_cards)
            score = p_win * worth_to_me(faces) - (1.0 - p_win) * opp_weight * worth_to_others(faces)
            if face == AMULET:
                score -= AMULET_KEEP
            if score > best_score:
                best, best_score = face, score
        return best


class PlayoutBot(ViewBot):
    """The expert's playout policy: a cheap, memoryless sketch of how people play. It takes
    a trick worth taking with the led face, or with an amulet when it is worth much more;
    otherwise it throws its cheapest card; now and then (PLAYOUT_RANDOM) any card. It looks
    only at its own hand and the live trick, and `step` plays it in place on a playout copy
    (engines.search)."""

    name = "playout"

    def __init__(self, eng: ZwergenamulettEngine) -> None:
        self.eng = eng

    def choose(
        self, eng: ZwergenamulettEngine, state: Any, seat: int, rng: random.Random
    ) -> Move | None:
        if seat != state.turn:
            return None
        return {"type": "play", "card": CARD_IDS[self._face(state, seat, rng)]}

    def step(self, state: Any, rng: random.Random) -> int:
        seat = state.turn
        face = self._face(state, seat, rng)
        self.eng._play_on(state, seat, face, CARD_IDS[face])
        return 1

    @staticmethod
    def _face(state: Any, seat: int, rng: random.Random) -> int:
        hand = state.hands[seat]  # {card id: copies} in display order
        if len(hand) == 1 or rng.random() < PLAYOUT_RANDOM:
            cards = [*hand]
            return FACE_INDEX[cards[int(rng.random() * len(cards))]]
        trick = state.trick
        if trick:
            worth = sum(trick.translate(_WORTH_OF))
            if AMULET not in trick and CARD_IDS[trick[0]] in hand and worth >= PLAYOUT_TAKE:
                return trick[0]
            if _AMULET_ID in hand and worth >= PLAYOUT_AMULET:
                return AMULET
        cheap = [c for c in hand if c != _AMULET_ID] or [*hand]
        return FACE_INDEX[min(cheap, key=_CARD_WORTH.__getitem__)]


# What a card is worth to the playout policy: its points plus its dwarves.
_CARD_WORTH = {c: POINTS[f] + DWARVES[f] for c, f in FACE_INDEX.items()}
_WORTH_OF = bytes(POINTS[f] + DWARVES[f] for f in range(NUM_FACES)).ljust(256, b"\0")
_AMULET_ID = CARD_IDS[AMULET]


class ExpertRecall:
    """The expert's memory (engines.search.Recall), the same as the strong bot's: a view
    plus "recall" {"won": [[card id] per seat], "loose": [card id]}, the cards it saw go into
    each won pile and those whose taker it could not tell, which `from_view` keeps out of
    every hand; and "my_won", its own pile as far as it saw it, for the strong bot's honest
    announcements that the expert defers to. The rules let bots be perfect memories."""

    def __init__(self) -> None:
        self.memory = Memory()

    def augment(self, view: View) -> View:
        seat = view["seat"]
        if seat is None or view["over"]:
            return view
        k = self.memory.recall(view, seat)
        out = dict(view)
        out["recall"] = {
            "won": [[CARD_IDS[f] for f in pile] for pile in k.piles],
            "loose": [CARD_IDS[f] for f in k.loose],
        }
        if out["my_won"] is None:
            out["my_won"] = [CARD_IDS[f] for f in sorted(k.piles[seat])]
        return out

    def played(self, view: View, move: Move | None) -> None:
        seat = view["seat"]
        if move is None or move["type"] != "play" or seat is None:
            return
        k = self.memory.recall(view, seat)
        self.memory.played(view, seat, k, FACE_INDEX[move["card"]])


def _p_any(total: int, marked: int, drawn: int) -> float:
    """Chance that `drawn` cards taken from `total` include at least one of `marked`."""
    if marked <= 0 or drawn <= 0:
        return 0.0
    if total - marked < drawn:
        return 1.0
    none = 1.0
    for i in range(drawn):
        none *= (total - marked - i) / (total - i)
    return 1.0 - none


BOTS: dict[str, Any] = {"random": RandomBot(), "strong": StrongBot()}
