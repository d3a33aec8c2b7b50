"""Schöne Sch#!?e ("No Thanks!") with the lucky-pig expansion, as we play it.

The state is a slots object; `apply` copies it shallowly, copies only the lists the move changes
and makes the move on the copy (`_move`). Search playouts skip even that: `playout_copy` clones
once and `random_step` moves in place, through the same `_move`, so the fast path cannot drift
from the rules.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engines.base import (
    Engine,
    IllegalMove,
    Move,
    RandomBot,
    View,
    check_seat,
    check_stack,
    check_viewer,
    unseen,
)
from engines.schoene import stats
from engines.schoene.bots import StrongBot
from engines.schoene.cards import CARD_IDS, PLAYED, STARTING_CHIPS, card_points, runs
from engines.search import ExpertBot
from engines.stats import Played, Stat

# The expert's budget a decision, in iterations (why not seconds: engines.search).
EXPERT_ITERATIONS = 600

# -- rulings: where the printed rules are silent, and how we decided ---------------------------
# A random seat starts (options["first"] fixes it for tests).
RANDOM_START = True
# A player with no chips left may still lay an unused pig instead of taking the card.
PIG_WITHOUT_CHIPS = True
# Players tied for the lowest score all win; when False, the most chips left breaks the tie.
TIES_SHARE = True
# Chips lying on a card that the all-pigs rule removes stay in the centre for the next card;
# when False they leave the game with the card.
PIGS_OUT_CHIPS_STAY = True

# The expert's playouts: measured with bench.bots, the strong bot's are worth their cost here.
EXPERT_ROLLOUT = "strong"

NO_CHIPS = "You have no chips left: you must take the card"


class State:
    """One moment of a game. Only this module reads it."""

    __slots__ = (
        "cards",  # per seat: sorted tuple of taken cards
        "centre",  # face-up card, None once the game is over
        "centre_chips",
        "centre_pigs",  # tuple of seats whose pig lies on the centre card, in the order laid
        "chips",  # per seat: chips in the hidden supply
        "chips_out",  # chips that left the game (only when PIGS_OUT_CHIPS_STAY is False)
        "lucky_pig",
        "n",
        "order",  # tuple: the PLAYED cards, in the order they are revealed
        "pig_in_hand",  # per seat: own pig not laid yet
        "pigs_won",  # per seat: pigs taken with cards
        "pos",  # how many cards of `order` have been revealed
        "removed",  # tuple: the cards set aside unseen
        "turn",  # seat to move, None once the game is over
    )

    def _shallow(self) -> State:
        """A copy sharing every list: the caller replaces the lists it changes."""
        new = State.__new__(State)
        new.cards = self.cards
        new.centre = self.centre
        new.centre_chips = self.centre_chips
        new.centre_pigs = self.centre_pigs
        new.chips = self.chips
        new.chips_out = self.chips_out
        new.lucky_pig = self.lucky_pig
        new.n = self.n
        new.order = self.order
        new.pig_in_hand = self.pig_in_hand
        new.pigs_won = self.pigs_won
        new.pos = self.pos
        new.removed = self.removed
        new.turn = self.turn
        return new

    def clone(self) -> State:
        """An independent copy (tuples inside are immutable, so they may be shared)."""
        new = self._shallow()
        new.cards = list(self.cards)
        new.chips = list(self.chips)
        new.pig_in_hand = list(self.pig_in_hand)
        new.pigs_won = list(self.pigs_won)
        return new


def _reveal(state: State) -> None:
    """Turn up the next card, or end the game when none is left."""
    if state.pos < PLAYED:
        state.centre = state.order[state.pos]
        state.pos += 1
    else:
        state.centre = None
        state.turn = None


def _next_seat(seat: int, n: int, skipped: tuple[int, ...]) -> int:
    """Clockwise from `seat`, past every seat whose pig lies on the card."""
    seat = seat + 1 if seat + 1 < n else 0
    while seat in skipped:
        seat = seat + 1 if seat + 1 < n else 0
    return seat


def _move(state: State, seat: int, kind: str) -> None:
    """Make a checked move in place (`apply` makes it on a clone)."""
    if kind == "pay":
        state.chips[seat] -= 1
        state.centre_chips += 1
        state.turn = _next_seat(seat, state.n, state.centre_pigs)
    elif kind == "take":
        state.chips[seat] += state.centre_chips
        state.cards[seat] = tuple(sorted((*state.cards[seat], state.centre)))
        if state.centre_pigs:
            state.pigs_won[seat] += len(state.centre_pigs)
            state.centre_pigs = ()
        state.centre_chips = 0
        _reveal(state)  # the taker's turn goes on
    else:
        state.pig_in_hand[seat] = False
        pigs = (*state.centre_pigs, seat)
        if len(pigs) == state.n:
            # Every pig on one card: card and pigs leave, the last pig's owner starts anew.
            state.centre_pigs = ()
            if not PIGS_OUT_CHIPS_STAY:
                state.chips_out += state.centre_chips
                state.centre_chips = 0
            _reveal(state)
        else:
            state.centre_pigs = pigs
            state.turn = _next_seat(seat, state.n, pigs)


def pigs_owned(state: State, seat: int) -> int:
    return state.pigs_won[seat] + state.pig_in_hand[seat]


class SchoeneEngine(Engine):
    id = "schoene"
    title = "Schöne Sch#!?e"
    min_players = 3
    max_players = 7
    test_options = ("stack", "first")
    # Clocks: every turn takes the card or pays a chip, a choice either way: nothing skips it.
    clock_turns: ClassVar[dict[int, int]] = {3: 37, 4: 29, 5: 24, 6: 17, 7: 13}
    think_seconds = 5.0

    def __init__(self) -> None:
        self.options = {"lucky_pig": True}
        self.bots = {
            "random": RandomBot(),
            "strong": StrongBot(),
            "expert": ExpertBot(self, rollout=EXPERT_ROLLOUT, iterations=EXPERT_ITERATIONS,
                                 seconds=None),
        }

    # -- setting up --------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        if "stack" in opts:
            stack = check_stack(opts["stack"], CARD_IDS)
            if any(type(card) is not int for card in stack):
                raise ValueError("stack card ids are the whole numbers 3 to 35")
        else:
            stack = list(CARD_IDS)
            random.Random(f"{seed}:deck").shuffle(stack)
        first = opts.get("first")
        if first is None:
            first = random.Random(f"{seed}:first").randrange(num_players) if RANDOM_START else 0
        elif type(first) is not int or not 0 <= first < num_players:
            raise ValueError(f"first must be a seat from 0 to {num_players - 1}, not {first!r}")

        state = State.__new__(State)
        state.n = num_players
        state.lucky_pig = opts["lucky_pig"]
        state.order = tuple(stack[:PLAYED])
        state.removed = tuple(stack[PLAYED:])
        state.pos = 0
        state.centre_chips = 0
        state.centre_pigs = ()
        state.chips = [STARTING_CHIPS[num_players]] * num_players
        state.chips_out = 0
        state.cards = [()] * num_players
        state.pig_in_hand = [state.lucky_pig] * num_players
        state.pigs_won = [0] * num_players
        state.turn = first
        _reveal(state)
        return state

    # -- whose move, which moves ------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        turn = state.turn
        return [] if turn is None else [turn]

    def is_over(self, state: State) -> bool:
        return state.turn is None

    def turn(self, state: State) -> int | None:
        return state.turn

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat != state.turn or type(seat) is not int:
            return []
        moves: list[Move] = [{"type": "take"}]
        has_chips = state.chips[seat] > 0
        if has_chips:
            moves.append({"type": "pay"})
        if state.pig_in_hand[seat] and (has_chips or PIG_WITHOUT_CHIPS):
            moves.append({"type": "pig"})
        return moves

    def _check(self, state: State, seat: Any, move: Any) -> str:
        """Why `move` is illegal (raises), or its type when it is legal."""
        kind = move.get("type") if type(move) is dict else None
        if type(kind) is not str:
            raise IllegalMove("A move must be a map with a 'type': take, pay or pig")
        if type(seat) is not int or not 0 <= seat < state.n:
            check_seat(state.n, seat)
        if state.turn is None:
            raise IllegalMove("The game is over: no more moves")
        if seat != state.turn:
            raise IllegalMove("It is not your turn")
        if kind not in ("take", "pay", "pig"):
            options = "take or pay, or lay your lucky pig" if state.lucky_pig else "take or pay"
            raise IllegalMove(f"There is no move {kind!r} in this game: {options}")
        if len(move) != 1:
            raise IllegalMove(f"A {kind} move has no other fields")
        if kind == "pay" and state.chips[seat] == 0:
            if state.pig_in_hand[seat] and PIG_WITHOUT_CHIPS:
                raise IllegalMove("You have no chips left: take the card or lay your lucky pig")
            raise IllegalMove(NO_CHIPS)
        if kind == "pig":
            if not state.lucky_pig:
                raise IllegalMove("This game is played without the lucky pig")
            if not state.pig_in_hand[seat]:
                raise IllegalMove("You have already used your lucky pig: it is once per game")
            if state.chips[seat] == 0 and not PIG_WITHOUT_CHIPS:
                raise IllegalMove(NO_CHIPS)
        return kind

    # -- moving ------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, move: Move) -> State:
        kind = self._check(state, seat, move)
        # Copy only the lists this move changes (`_move` changes them in place): a full clone
        # per move cost the contract's playouts a third of their speed.
        new = state._shallow()
        new.chips = list(state.chips)
        if kind == "take":
            new.cards = list(state.cards)
            new.pigs_won = list(state.pigs_won)
        elif kind == "pig":
            new.pig_in_hand = list(state.pig_in_hand)
        _move(new, seat, kind)
        return new

    # -- the private fast path of search playouts (engines.search) --------------------------
    def playout_copy(self, state: State) -> State:
        """A private copy that `random_step` may change in place."""
        return state.clone()

    def random_step(self, state: State, rng: random.Random) -> int:
        """The move the random bot would make (the same draw from `rng` as its `choose`), made
        in place on a `playout_copy`: no move dicts, no copies."""
        seat = state.turn
        kinds = ["take"]
        has_chips = state.chips[seat] > 0
        if has_chips:
            kinds.append("pay")
        if state.pig_in_hand[seat] and (has_chips or PIG_WITHOUT_CHIPS):
            kinds.append("pig")
        _move(state, seat, rng.choice(kinds))
        return 1

    def events(self, before: State, seat: int, move: Move, after: State) -> list[dict[str, Any]]:
        card = before.centre
        kind = move["type"]
        if kind == "pay":
            return [{"kind": "pay", "seat": seat, "card": card}]
        if kind == "take":
            out = [
                {
                    "kind": "take",
                    "seat": seat,
                    "card": card,
                    "chips": before.centre_chips,
                    "pigs": len(before.centre_pigs),
                }
            ]
        else:
            out = [{"kind": "pig", "seat": seat, "card": card}]
            if len(before.centre_pigs) + 1 < before.n:  # the pig stays on the card
                return out
            out.append({"kind": "pigs_out", "seat": seat, "card": card})
        if after.centre is not None:
            out.append({"kind": "reveal", "card": after.centre})
        return out

    # -- seeing ------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        check_viewer(state.n, seat)
        over = state.turn is None
        players = []
        for s in range(state.n):
            cards = state.cards[s]
            players.append(
                {
                    "cards": list(cards),
                    "runs": runs(cards),
                    "pigs_won": state.pigs_won[s],
                    "pig_in_hand": state.pig_in_hand[s],
                    "chips": state.chips[s] if over or s == seat else None,
                }
            )
        return {
            "game": self.id,
            "seat": seat,
            "turn": state.turn,
            "to_act": self.to_act(state),
            "over": over,
            "num_players": state.n,
            "lucky_pig": state.lucky_pig,
            "centre": state.centre,
            "centre_chips": state.centre_chips,
            "centre_pigs": list(state.centre_pigs),
            "deck_left": PLAYED - state.pos,
            "players": players,
            "my_chips": None if seat is None else state.chips[seat],
        }

    def standing(self, result: dict[str, Any], seat: int) -> float:
        """The fewest points win."""
        return -float(result["scores"][seat])

    def result(self, state: State) -> dict[str, Any]:
        players = []
        for s in range(state.n):
            cards = state.cards[s]
            points, chips, pigs = card_points(cards), state.chips[s], pigs_owned(state, s)
            players.append(
                {
                    "cards": list(cards),
                    "runs": runs(cards),
                    "card_points": points,
                    "chips": chips,
                    "pigs": pigs,
                    "score": points - chips - pigs,
                }
            )
        scores = [p["score"] for p in players]
        best = min(scores)
        winners = [s for s in range(state.n) if scores[s] == best]
        if not TIES_SHARE:
            most = max(state.chips[s] for s in winners)
            winners = [s for s in winners if state.chips[s] == most]
        return {"scores": scores, "winners": winners, "players": players}

    def statistics(self, game: Played) -> list[list[Stat]]:
        return stats.statistics(game)

    # -- hidden information ------------------------------------------------------------------
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """Unseen cards (face-down deck and the set-aside ones) reshuffled, and the other
        players' hidden chips spread afresh over them: the total they hold is public (all chips
        minus mine, minus the centre), who holds how many is not."""
        check_seat(state.n, seat)
        new = state.clone()
        unseen = [*state.order[state.pos :], *state.removed]
        rng.shuffle(unseen)
        left = PLAYED - state.pos
        new.order = (*state.order[: state.pos], *unseen[:left])
        new.removed = tuple(unseen[left:])
        others = [s for s in range(state.n) if s != seat]
        hidden = sum(state.chips[s] for s in others)
        for s in others:
            new.chips[s] = 0
        for _ in range(hidden):
            new.chips[rng.choice(others)] += 1
        return new

    def from_view(self, view: View, rng: random.Random) -> State:
        """A state agreeing with everything `view` shows, the rest drawn at random: the unseen
        cards (a card sent out by the all-pigs rule is not in the view, so it may come back
        here) split into the face-down deck and the set-aside cards, and the other players'
        chips, whose total is public, spread over them afresh."""
        n, seat = view["num_players"], view["seat"]
        players = view["players"]
        s = State.__new__(State)
        s.n = n
        s.lucky_pig = view["lucky_pig"]
        s.turn = view["turn"]
        s.centre = view["centre"]
        s.centre_chips = view["centre_chips"]
        s.centre_pigs = tuple(view["centre_pigs"])
        s.cards = [tuple(p["cards"]) for p in players]
        s.pig_in_hand = [p["pig_in_hand"] for p in players]
        s.pigs_won = [p["pigs_won"] for p in players]
        s.chips_out = 0
        left = view["deck_left"]
        s.pos = PLAYED - left
        rest = unseen(CARD_IDS, *s.cards, [] if s.centre is None else [s.centre])
        rng.shuffle(rest)
        # Only order[pos:] is ever read again: the revealed part is left as zeros.
        s.order = (*(0,) * s.pos, *rest[:left])
        s.removed = tuple(rest[left:])
        chips = [p["chips"] for p in players]
        if seat is not None:
            chips[seat] = view["my_chips"]
        hidden = [p for p in range(n) if chips[p] is None]
        total = STARTING_CHIPS[n] * n - s.centre_chips - sum(c for c in chips if c is not None)
        for p in hidden:
            chips[p] = 0
        for _ in range(total if hidden else 0):
            chips[hidden[rng.randrange(len(hidden))]] += 1
        s.chips = chips
        return s
