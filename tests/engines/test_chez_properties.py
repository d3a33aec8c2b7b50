"""Chez Geek: properties over random games (cards conserved, slack adds up, games end, same
seed and moves give the same game) and what views and events may show."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise
from typing import Any

import msgpack
import pytest
from test_chez_rules import ENG, game, mv, to_phase

from engines.chez_geek import effects
from engines.chez_geek.deck import DECK
from engines.chez_geek.engine import BLOCKABLE_BUYS

MAX_STEPS = 20_000


def every_card(s: Any) -> Counter[str]:
    cards: Counter[str] = Counter(s.draw) + Counter(s.discard)
    for p in range(s.n):
        cards.update(s.hands[p])
        cards.update(e[1] for e in s.rooms[p])
        cards.update(c for c, _, _ in s.lasting[p])
    for item in s.items:
        cards.update(item.cards)
    if s.prompt is not None and s.prompt.kind == "nookie":  # a Nookie between window and roll
        cards.update(s.prompt.data.cards)
    if s.prompt is not None and s.prompt.kind == "rolled":
        cards.update(s.prompt.data[0].cards)
    return cards


def random_game(n: int, seed: int) -> list[Any]:
    """The states of a game where a random seat of `to_act` makes a random legal move."""
    rng = random.Random(seed)
    s = ENG.new_game(n, seed)
    states = [s]
    while not ENG.is_over(s):
        assert len(states) < MAX_STEPS, "a random game did not end"
        seat = rng.choice(ENG.to_act(s))
        s = ENG.apply(s, seat, rng.choice(ENG.legal_moves(s, seat)))
        states.append(s)
    return states


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_cards_are_conserved_and_slack_adds_up(n: int) -> None:
    deck = Counter(DECK.life)
    for seed in range(3):
        for s in random_game(n, 100 * n + seed):
            assert every_card(s) == deck
            view = ENG.view(s, None)
            for p, player in enumerate(view["players"]):
                cards = sum(c["value"] + c["tokens"] for c in player["room"])
                assert player["slack"] == cards + player["bonus_pool"] == s.slack(p)
                assert len(s.hands[p]) <= s.hand_limit(p) or s.prompt is not None


def test_every_game_ends_with_one_winner_at_the_goal() -> None:
    for seed in range(12):
        s = random_game(2 + seed % 5, seed)[-1]
        result = ENG.result(s)
        assert len(result["winners"]) >= 1
        if s.turn_no <= 300:
            (w,) = result["winners"]
            assert result["scores"][w] >= result["goals"][w]


def test_same_seed_and_moves_give_the_same_game() -> None:
    rng = random.Random(5)
    record = []
    s = ENG.new_game(4, 77)
    while not ENG.is_over(s):
        seat = rng.choice(ENG.to_act(s))
        move = rng.choice(ENG.legal_moves(s, seat))
        record.append((seat, move))
        s = ENG.apply(s, seat, move)
    runs = []
    for _ in range(2):
        t = ENG.new_game(4, 77)
        seen = []
        for seat, move in record:
            t = ENG.apply(t, seat, move)
            seen.append(msgpack.packb([ENG.view(t, p) for p in range(4)]))
        runs.append((seen, ENG.result(t)))
    assert runs[0] == runs[1]


def test_views_hide_other_hands() -> None:
    for s in random_game(4, 9)[:300:7]:
        for seat in range(4):
            view = ENG.view(s, seat)
            assert [c["card"] for c in view["hand"]] == list(s.hands[seat])
            assert all(set(p) >= {"hand_count"} and "hand" not in p for p in view["players"])
            sample = ENG.determinize(s, seat, random.Random(seat))
            assert ENG.view(sample, seat) == view
        assert ENG.view(s, None)["hand"] == []


def _window(third: str) -> Any:
    """Seat 0 plays Schlafen; seat 2 holds `third` (a cancel or a plain Thing)."""
    s = game(["hiwi", "kellner", "zeitarbeiter", "slacker"], {0: ["schlafen"], 2: [third]})
    return mv(to_phase(s, "free_time"), 0, "activity", card="schlafen")


def test_holding_a_cancel_shows_nowhere() -> None:
    holds, plain = _window("auto_alarmanlage"), _window("dosenravioli")
    assert {"type": "cancel", "card": "auto_alarmanlage"} in ENG.legal_moves(holds, 2)
    assert ENG.to_act(holds) == ENG.to_act(plain) == [1, 2, 3]
    for viewer in (0, 1, 3, None):
        assert ENG.view(holds, viewer) == ENG.view(plain, viewer)
    own = [{k: v for k, v in ENG.view(s, 2).items() if k != "hand"} for s in (holds, plain)]
    assert own[0] == own[1]
    for seat in (1, 3, 2):
        after = [mv(s, seat, "pass") for s in (holds, plain)]
        events = [
            ENG.events(s, seat, {"type": "pass"}, a)
            for s, a in zip((holds, plain), after, strict=True)
        ]
        assert events[0] == events[1]
        holds, plain = after
        assert ENG.view(holds, 0) == ENG.view(plain, 0)


def test_events_name_only_public_things() -> None:
    states = random_game(3, 4)[:400]
    for before, after in pairwise(states):
        for event in ENG.events(before, 0, {}, after):
            if event["kind"] == "draw":
                assert set(event) == {"kind", "seat", "count"}
            assert event["kind"] != "pass"


def test_a_hand_without_a_blockable_card_skips_the_room_and_loses_nothing() -> None:
    """`blocks_for` answers as `blocked_cards` does for every card of the hand it is asked
    about, in every third position of some random games (where blocks do occur)."""

    def of_type(*types: str) -> frozenset[str]:
        return frozenset(c for c in DECK.life if ENG.cards[c].type in types)

    asks = [
        *((effects.PLAYABLE[ctx], cards) for ctx, cards in effects.BLOCKABLE_PLAYS.items()),
        (effects.CANCELLERS, effects.BLOCKABLE_CANCELLERS),
        (effects.TV_CARDS, effects.BLOCKABLE_TV_CARDS),
        *((of_type(kind), cards) for kind, cards in effects.BLOCKABLE_OF_TYPE.items()),
        (of_type("activity", "thing"), BLOCKABLE_BUYS),
    ]
    blocked = 0
    for seed in range(4):
        for s in random_game(4, 900 + seed)[::3]:
            for seat in range(s.n):
                full = effects.blocked_cards(s, seat)
                for cards, blockable in asks:
                    asked = cards.intersection(s.hands[seat])
                    assert effects.blocks_for(s, seat, blockable) & asked == full & asked
                    blocked += bool(full & asked)
    assert blocked > 0
