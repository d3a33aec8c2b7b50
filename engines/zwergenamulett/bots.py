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

Views it misses (a person or a stand-in held the seat for a while) only leave the memory
incomplete. A remembered entry that contradicts the view (more own tricks than `tricks_won`
says, or other cards in a trick it had half seen) belongs to another game and is dropped. What
it knows of its own pile is then a lower bound: it claims only dwarves it saw itself win. With the
lobby option `memory_aid` on it reads `my_won`. The memory is bounded (oldest entries go first).
A game replayed from its record in a fresh process starts the bot with an empty memory.

Possible refinement, not done: with no gold to lose, a false claim costs nothing and aborts a
round an opponent is winning; the strong bot never bluffs.
"""

from __future__ import annotations

import random
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
    """What one seat remembers of the current round."""

    __slots__ = ("current", "seen", "trick_idx", "won", "won_through", "won_tricks")

    def __init__(self) -> None:
        self.won = [0] * NUM_FACES  # own won cards, by face
        self.won_tricks = 0  # own tricks whose cards are in `won`
        self.won_through = 0  # tricks whose outcome has been looked at
        self.seen = [0] * NUM_FACES  # cards seen played this round (own included)
        self.trick_idx = 0  # the trick whose cards (in play order) are counted in `current`
        self.current: list[int] = []

    def copy(self) -> Knowledge:
        k = Knowledge.__new__(Knowledge)
        k.won = self.won.copy()
        k.won_tricks = self.won_tricks
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

    def dwarves(self) -> int:
        return sum(DWARVES[f] * self.won[f] for f in range(NUM_FACES))


class StrongBot(ViewBot):
    """Takes tricks that pay, with the cheapest card that takes them; otherwise throws the card
    that gives the others least. Announces seven dwarves only when it counted them itself."""

    name = "strong"

    def __init__(self) -> None:
        self._memory: dict[tuple[Any, ...], Knowledge] = {}

    # -- memory --------------------------------------------------------------------------
    def _remember(self, key: tuple[Any, ...], k: Knowledge) -> None:
        self._memory.pop(key, None)
        self._memory[key] = k.copy()
        while len(self._memory) > MEMORY_LIMIT:
            del self._memory[next(iter(self._memory))]

    def _recall(self, view: dict[str, Any], seat: int) -> tuple[Knowledge, tuple[Any, ...]]:
        """Knowledge brought up to date with this view, and the key it is filed under."""
        n = view["num_players"]
        hand = tuple(FACE_INDEX[c] for c in view["hand"])
        done = sum(view["tricks_won"])
        trick = view["trick"]
        played = any(c["seat"] == seat for c in trick)
        base = (n, seat, view["round"], tuple(view["gold"]))
        key = (*base, hand, done + 1 if played else done)
        k = self._memory.get(key)
        if k is None or not self._update(k, view, seat, done):
            k = Knowledge()
            self._update(k, view, seat, done)
        if view["my_won"] is not None:  # memory aid: the exact pile
            k.won = [0] * NUM_FACES
            for c in view["my_won"]:
                k.won[FACE_INDEX[c]] += 1
            k.won_tricks = view["tricks_won"][seat]
        self._remember(key, k)
        return k, base

    @staticmethod
    def _update(k: Knowledge, view: dict[str, Any], seat: int, done: int) -> bool:
        """Bring `k` up to date with `view`; False if `k` cannot be this game's memory."""
        if k.won_tricks > view["tricks_won"][seat]:
            return False
        last = view["last_trick"]
        if last is not None and last["round"] == view["round"] and done > 0:
            faces = [FACE_INDEX[c["card"]] for c in last["cards"]]
            if not k.see(done - 1, faces):
                return False
            if k.won_through < done:
                if last["winner"] == seat:
                    for f in faces:
                        k.won[f] += 1
                    k.won_tricks += 1
                k.won_through = done
        trick = view["trick"]
        return not trick or k.see(done, [FACE_INDEX[c["card"]] for c in trick])

    # -- choosing ------------------------------------------------------------------------
    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        seat = view["seat"]
        if view["over"] or seat is None:
            return None
        k, base = self._recall(view, seat)
        if k.dwarves() >= CLAIM_DWARVES:
            return dict(CLAIM)
        if view["turn"] != seat:
            return None
        hand = [FACE_INDEX[c] for c in view["hand"]]
        face = self._pick(view, seat, hand, k)
        after = k.copy()
        after.see(sum(view["tricks_won"]), [*(FACE_INDEX[c["card"]] for c in view["trick"]), face])
        rest = hand.copy()
        rest.remove(face)
        self._remember((*base, tuple(rest), sum(view["tricks_won"]) + 1), after)
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
        my_dwarves = k.dwarves()
        amulet_prospect = k.won[AMULET] > 0 or AMULET in hand
        opp_weight = 1.0 / (n - 1)

        def worth_to_me(faces: list[int]) -> float:
            dw = sum(DWARVES[f] for f in faces)
            value = sum(POINTS[f] for f in faces) + len(later_seats) * DUMP_ESTIMATE
            value += dw * (1.0 if amulet_prospect or AMULET in faces else 0.4)
            if AMULET in faces and k.won[AMULET] == 0:
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
