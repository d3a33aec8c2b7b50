"""Das Zwergenamulett: properties that hold over whole random games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_engine
from engines.zwergenamulett import rules

ENG = get_engine("zwergenamulett")
DECK = Counter(rules.DECK)
MOVE_LIMIT = 20_000

games = given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    claim_rate=st.sampled_from([0.0, 0.002, 0.05]),
    memory_aid=st.booleans(),
)


def random_game(
    players: int, seed: int, claim_rate: float, memory_aid: bool = False
) -> Iterator[tuple[Any, int, dict[str, Any], Any]]:
    """(before, seat, move, after) for every move of a game: mostly the seat whose turn it is
    plays a random card, now and then a random seat announces seven dwarves."""
    rng = random.Random(seed)
    state = ENG.new_game(players, seed, {"memory_aid": memory_aid})
    for _ in range(MOVE_LIMIT):
        if ENG.is_over(state):
            return
        seat = state.turn
        if rng.random() < claim_rate:
            seat = rng.choice(ENG.to_act(state))
            move = {"type": "claim_seven"}
        else:
            move = rng.choice([m for m in ENG.legal_moves(state, seat) if m["type"] == "play"])
        after = ENG.apply(state, seat, move)
        yield state, seat, move, after
        state = after
    raise AssertionError(f"no end after {MOVE_LIMIT} moves")


def cards_on_table(state: Any) -> Counter[str]:
    """Every card of the round wherever it lies: hands, unseen rest, won piles, live trick."""
    cards = Counter(state.out)
    for hand in state.hands:
        cards.update(hand)
    for pile in state.won:
        cards.update(rules.CARD_IDS[f] for f in pile)
    cards.update(rules.CARD_IDS[f] for f in state.trick)
    return cards


def rulebook_winner(cards: list[dict[str, Any]]) -> int:
    """The trick's winner, worked out afresh from the rules text."""
    led = cards[0]["card"]
    amulets = [c["seat"] for c in cards if c["card"] == "amulett"]
    if amulets:
        return amulets[-1]
    return [c["seat"] for c in cards if c["card"] == led][-1]


@settings(max_examples=40, deadline=None)
@games
def test_cards_gold_and_tricks_stay_consistent(
    players: int, seed: int, claim_rate: float, memory_aid: bool
) -> None:
    tricks_seen = 0
    for before, seat, move, after in random_game(players, seed, claim_rate, memory_aid):
        if not after.over:
            assert cards_on_table(after) == DECK
        assert sum(after.gold) + after.pool == rules.GOLD_CHIPS
        assert all(0 <= g <= rules.GOLD_TO_WIN for g in after.gold)
        events = ENG.events(before, seat, move, after)
        tricks = [e for e in events if e["kind"] == "trick"]
        assert len(tricks) <= 1
        if tricks:
            tricks_seen += 1
            last = ENG.view(after, None)["last_trick"]
            assert last["winner"] == tricks[0]["seat"] == rulebook_winner(last["cards"])
            assert tricks[0]["cards_count"] == players == len(last["cards"])
        if any(e["kind"] == "round_end" and e["ended_by"] == "play" for e in events):
            assert sum(before.tricks) + 1 == rules.HAND_SIZES[players]
    assert ENG.is_over(after)
    result = ENG.result(after)
    assert result["winners"]
    if after.round < rules.MAX_ROUNDS:
        assert all(result["gold"][w] == rules.GOLD_TO_WIN for w in result["winners"])
    assert tricks_seen > 0 or claim_rate > 0


def scrambled_piles(state: Any, rng: random.Random, keep: int | None) -> Any:
    """The same table with different (made-up) contents in every won pile but `keep`'s. Each
    pile keeps its size: how many tricks a player won is public."""
    other = state.clone()
    other.won = tuple(
        pile if seat == keep else made_up_pile(rng, len(pile))
        for seat, pile in enumerate(state.won)
    )
    return other


def made_up_pile(rng: random.Random, size: int) -> bytes:
    """The faces of `size` random cards."""
    return bytes(rng.randrange(rules.NUM_FACES) for _ in range(size))


@settings(max_examples=25, deadline=None)
@games
def test_views_hide_hands_rest_and_won_tricks(
    players: int, seed: int, claim_rate: float, memory_aid: bool
) -> None:
    rng = random.Random(seed)
    for before, seat, move, after in random_game(players, seed, claim_rate, memory_aid):
        for event in ENG.events(before, seat, move, after):
            assert "card" not in event and "cards" not in event
            assert msgpack.unpackb(msgpack.packb(event)) == event
        for viewer in [*range(players), None]:
            view = ENG.view(after, viewer)
            assert msgpack.unpackb(msgpack.packb(view)) == view
            if viewer is not None:
                # Other hands and the unseen rest, dealt afresh, look the same to `viewer`.
                assert ENG.view(ENG.determinize(after, viewer, rng), viewer) == view
                mine = Counter(ENG.view(after, viewer)["hand"])
                assert mine == Counter(after.hands[viewer])
            # Won piles never show; with the memory aid a player sees only their own.
            keep = viewer if memory_aid else None
            assert ENG.view(scrambled_piles(after, rng, keep), viewer) == view
            if memory_aid and viewer is not None:
                own = Counter(view["my_won"])
                pile = after.won[viewer]
                assert own == Counter(rules.CARD_IDS[f] for f in pile)
            else:
                assert view["my_won"] is None


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**9))
def test_same_seed_and_moves_give_the_same_game(players: int, seed: int) -> None:
    first = [ENG.view(a, 0) for _, _, _, a in random_game(players, seed, 0.01)]
    again = [ENG.view(a, 0) for _, _, _, a in random_game(players, seed, 0.01)]
    assert first == again


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**9), viewer=st.integers(0, 5))
def test_determinize_keeps_what_the_seat_knows(players: int, seed: int, viewer: int) -> None:
    viewer %= players
    state = ENG.new_game(players, seed)
    other = ENG.determinize(state, viewer, random.Random(seed))
    assert other.hands[viewer] == state.hands[viewer]
    assert [sum(h.values()) for h in other.hands] == [sum(h.values()) for h in state.hands]
    assert cards_on_table(other) == DECK
    assert other.won == state.won and other.gold == state.gold
