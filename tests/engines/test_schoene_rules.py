"""Every rule and ruling of Schöne Sch#!?e as we play it, played out through the engine contract."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from engines import IllegalMove, get_engine
from engines.schoene import rules
from engines.schoene.cards import CARD_IDS, PLAYED, card_points, extra_points, runs

ENG = get_engine("schoene")


def stack(*top: int, removed: tuple[int, ...] = ()) -> list[int]:
    """A whole deck: `top` revealed first, `removed` set aside, the rest in between ascending."""
    middle = [c for c in CARD_IDS if c not in top and c not in removed]
    bottom = list(removed) + middle[len(middle) - (9 - len(removed)) :]
    middle = middle[: len(middle) - (9 - len(removed))]
    deck = [*top, *middle, *bottom]
    assert sorted(deck) == list(CARD_IDS) and deck[PLAYED:] == bottom
    return deck


def new(n: int = 3, *top: int, first: int = 0, removed: tuple[int, ...] = (), **opts: Any):
    return ENG.new_game(n, 1, {"stack": stack(*top, removed=removed), "first": first, **opts})


def play(state: Any, *kinds: str) -> Any:
    """Apply moves for whoever is to act, checking each is legal before it is made."""
    for kind in kinds:
        (seat,) = ENG.to_act(state)
        assert {"type": kind} in ENG.legal_moves(state, seat), (kind, ENG.view(state, seat))
        state = ENG.apply(state, seat, {"type": kind})
    return state


def snapshot(state: Any) -> bytes:
    """Everything anyone can observe of a state, serialised."""
    n = state.n
    seen = [ENG.view(state, s) for s in [*range(n), None]]
    legal = [ENG.legal_moves(state, s) for s in range(n)]
    return msgpack.packb([seen, legal, ENG.to_act(state), ENG.is_over(state)])


def view(state: Any, seat: int | None = 0) -> dict[str, Any]:
    return ENG.view(state, seat)


# -- setup -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "chips"), [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)])
def test_setup_deals_chips_by_player_count_and_plays_24_cards(n: int, chips: int) -> None:
    state = ENG.new_game(n, 7)
    for seat in range(n):
        v = view(state, seat)
        assert v["my_chips"] == chips
        assert v["players"][seat]["chips"] == chips
        assert v["centre_chips"] == 0 and v["centre_pigs"] == []
        assert v["deck_left"] == 23  # 24 played, one of them face up
        assert all(p["pig_in_hand"] and p["cards"] == [] for p in v["players"])


def test_stack_reveals_top_first_and_sets_aside_the_bottom_nine() -> None:
    deck = list(range(35, 2, -1))  # 35 on top
    state = ENG.new_game(3, 0, {"stack": deck, "first": 0})
    revealed = []
    while not ENG.is_over(state):
        revealed.append(view(state)["centre"])
        state = play(state, "take")
    assert revealed == deck[:PLAYED]
    assert view(state)["players"][0]["cards"] == sorted(deck[:PLAYED])


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (list(range(3, 35)), "missing: 35"),
        ([*range(3, 35), 3], "unknown or extra: 3"),
        ([*range(3, 35), 36], "unknown or extra: 36"),
        ("3,4,5", "must be a list"),
        ([float(c) for c in CARD_IDS], "whole numbers"),
    ],
)
def test_bad_stack_is_refused_clearly(bad: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ENG.new_game(3, 0, {"stack": bad})


@pytest.mark.parametrize(
    "options", [{"first": 3}, {"first": -1}, {"first": "0"}, {"lucky_pig": 1}, {"pigs": True}]
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ENG.new_game(3, 0, options)


@pytest.mark.parametrize("n", [2, 8, 0])
def test_player_count_is_three_to_seven(n: int) -> None:
    with pytest.raises(ValueError, match="3 to 7 players"):
        ENG.new_game(n, 0)


def test_a_random_seat_starts_unless_first_is_given() -> None:
    assert rules.RANDOM_START
    starts = {ENG.to_act(ENG.new_game(5, seed))[0] for seed in range(60)}
    assert starts == set(range(5))
    assert ENG.to_act(ENG.new_game(5, 3))[0] == ENG.to_act(ENG.new_game(5, 3))[0]
    assert all(ENG.to_act(ENG.new_game(5, s, {"first": 2})) == [2] for s in range(10))


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    assert view(ENG.new_game(4, 11)) == view(ENG.new_game(4, 11))
    firsts = {view(ENG.new_game(4, seed, {"first": 0}))["centre"] for seed in range(30)}
    assert len(firsts) > 5


# -- take and pay ------------------------------------------------------------------------------
def test_take_gets_card_and_chips_and_the_turn_goes_on_with_the_next_card() -> None:
    state = play(new(3, 20, 8, 30), "pay", "pay")
    assert view(state)["centre_chips"] == 2 and ENG.to_act(state) == [2]
    state = play(state, "take")
    v = view(state, 2)
    assert v["players"][2]["cards"] == [20]
    assert v["my_chips"] == 11 + 2
    assert v["centre"] == 8 and v["centre_chips"] == 0
    assert ENG.to_act(state) == [2]  # the taker carries on
    assert v["deck_left"] == PLAYED - 2


def test_pay_puts_a_chip_on_the_card_and_passes_clockwise_wrapping_round() -> None:
    state = new(4, 20, first=2)
    order = []
    for _ in range(6):
        order.append(ENG.to_act(state)[0])
        state = play(state, "pay")
    assert order == [2, 3, 0, 1, 2, 3]
    assert view(state)["centre_chips"] == 6
    assert [view(state, s)["my_chips"] for s in range(4)] == [10, 10, 9, 9]


def test_no_chips_no_pig_means_you_must_take() -> None:
    state = new(3, 20, lucky_pig=False)
    # Seats pay round and round until seat 0 is out of chips; seat 0 started, so it runs out
    # first, with the card in front of it again.
    state = play(state, *["pay"] * (11 * 3))
    assert ENG.to_act(state) == [0] and view(state)["my_chips"] == 0
    assert ENG.legal_moves(state, 0) == [{"type": "take"}]
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        ENG.apply(state, 0, {"type": "pay"})
    assert info.value.reason == "You have no chips left: you must take the card"
    assert snapshot(state) == before
    state = play(state, "take")
    assert view(state)["my_chips"] == 33


def test_no_chips_but_a_pig_may_still_lay_the_pig() -> None:
    assert rules.PIG_WITHOUT_CHIPS
    state = play(new(3, 20), *["pay"] * (11 * 3))
    assert view(state)["my_chips"] == 0
    assert ENG.legal_moves(state, 0) == [{"type": "take"}, {"type": "pig"}]
    with pytest.raises(IllegalMove, match="take the card or lay your lucky pig"):
        ENG.apply(state, 0, {"type": "pay"})
    state = play(state, "pig")
    assert view(state)["centre_pigs"] == [0] and ENG.to_act(state) == [1]


def test_without_the_pig_ruling_no_chips_means_take(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "PIG_WITHOUT_CHIPS", False)
    state = play(new(3, 20), *["pay"] * (11 * 3))
    assert ENG.legal_moves(state, 0) == [{"type": "take"}]
    with pytest.raises(IllegalMove, match="you must take the card"):
        ENG.apply(state, 0, {"type": "pig"})


# -- the lucky pig -----------------------------------------------------------------------------
def test_pig_skips_its_owner_for_this_card_only_and_goes_to_the_taker() -> None:
    state = play(new(4, 20, 9), "pay", "pig")  # seat 1 lays its pig on 20
    v = view(state, 1)
    assert v["centre_pigs"] == [1] and not v["players"][1]["pig_in_hand"]
    assert v["my_chips"] == 11  # the pig replaces the chip
    order = []
    for _ in range(6):
        order.append(ENG.to_act(state)[0])
        state = play(state, "pay")
    assert order == [2, 3, 0, 2, 3, 0]  # seat 1 is skipped every round
    state = play(state, "take")  # seat 2 takes 20 with the pig
    v = view(state, 2)
    assert v["players"][2]["pigs_won"] == 1 and v["players"][2]["cards"] == [20]
    assert v["my_chips"] == 11 - 2 + 7  # pigs are not chips
    assert v["centre"] == 9 and v["centre_pigs"] == []
    state = play(state, "pay", "pay", "pay")  # seat 1 plays normally again on the next card
    assert ENG.to_act(state) == [1]


def test_the_pig_is_once_per_game() -> None:
    state = play(new(3, 20, 9), "pig", "take")  # seat 0 pigs 20, seat 1 takes it
    state = play(state, "pay", "pay")  # seat 1, seat 2 pay on 9: seat 0 to act
    assert {"type": "pig"} not in ENG.legal_moves(state, 0)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="already used your lucky pig"):
        ENG.apply(state, 0, {"type": "pig"})
    assert snapshot(state) == before


def test_expansion_off_has_no_pigs() -> None:
    state = new(3, 20, lucky_pig=False)
    v = view(state)
    assert not v["lucky_pig"] and not any(p["pig_in_hand"] for p in v["players"])
    assert {"type": "pig"} not in ENG.legal_moves(state, 0)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="without the lucky pig"):
        ENG.apply(state, 0, {"type": "pig"})
    assert snapshot(state) == before


def test_all_but_one_skipped_the_last_one_pays_or_takes_as_usual() -> None:
    state = play(new(3, 20, 9), "pay", "pig", "pig")  # seats 1 and 2 pig 20
    for _ in range(3):
        assert ENG.to_act(state) == [0]
        state = play(state, "pay")
    assert view(state)["centre_chips"] == 4
    state = play(state, "take")
    v = view(state, 0)
    assert v["players"][0]["pigs_won"] == 2 and v["my_chips"] == 11 - 4 + 4


def test_every_pig_on_one_card_removes_card_and_pigs_last_pig_starts() -> None:
    state = play(new(4, 20, 9, first=1), "pay", "pig", "pig", "pig")
    # seat 1 paid, seats 2, 3 and 0 laid pigs; seat 1 is the only one left and lays the last.
    before = state
    state = play(state, "pig")
    v = view(state, 1)
    assert v["centre"] == 9 and v["deck_left"] == PLAYED - 2
    assert v["centre_pigs"] == []
    assert all(
        p["cards"] == [] and p["pigs_won"] == 0 and not p["pig_in_hand"] for p in v["players"]
    )
    assert ENG.to_act(state) == [1]  # the last pig's owner starts
    assert rules.PIGS_OUT_CHIPS_STAY and v["centre_chips"] == 1  # seat 1's chip stays
    assert ENG.events(before, 1, {"type": "pig"}, state) == [
        {"kind": "pig", "seat": 1, "card": 20},
        {"kind": "pigs_out", "seat": 1, "card": 20},
        {"kind": "reveal", "card": 9},
    ]
    state = play(state, "take")
    assert view(state, 1)["my_chips"] == 11 and view(state, 1)["players"][1]["cards"] == [9]
    assert 20 not in ENG.result(state)["players"][1]["cards"]


def test_chips_under_removed_card_can_leave_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "PIGS_OUT_CHIPS_STAY", False)
    state = play(new(3, 20, 9), "pay", "pig", "pig", "pig")
    assert view(state)["centre"] == 9 and view(state)["centre_chips"] == 0
    assert state.chips_out == 1


def test_removing_the_last_card_by_pigs_ends_the_game() -> None:
    state = play(new(3, first=2), *["take"] * (PLAYED - 1))
    assert view(state)["deck_left"] == 0
    last = view(state)["centre"]
    state = play(state, "pay", "pig", "pig", "pig")
    assert ENG.is_over(state) and ENG.to_act(state) == []
    v = view(state, None)
    assert v["over"] and v["centre"] is None and v["turn"] is None
    assert v["centre_chips"] == 1  # the chip stays on the table and counts for nobody
    result = ENG.result(state)
    assert last not in result["players"][2]["cards"]
    assert sum(p["chips"] for p in result["players"]) == 33 - 1
    assert all(p["pigs"] == 0 for p in result["players"])


def test_last_take_ends_the_game_and_every_move_is_then_refused() -> None:
    state = play(new(3), *["take"] * PLAYED)
    assert ENG.is_over(state) and ENG.legal_moves(state, 0) == []
    for kind in ("take", "pay", "pig"):
        with pytest.raises(IllegalMove, match="game is over"):
            ENG.apply(state, 0, {"type": kind})


# -- scoring -----------------------------------------------------------------------------------
def worked_example(lucky_pig: bool) -> Any:
    """Seat 0 ends with cards 3, 10, 11, 12, 13, 20 and 5 chips; the others take the rest."""
    state = play(new(3, 3, 10, 11, 12, 13, 20, lucky_pig=lucky_pig), *["take"] * 6)
    paid = 0
    while paid < 6:  # seat 0 pays, seat 1 takes what has chips on it, seat 2 pays
        (seat,) = ENG.to_act(state)
        kind = "take" if seat == 1 and view(state)["centre_chips"] else "pay"
        paid += seat == 0
        state = play(state, kind)
    while not ENG.is_over(state):
        assert ENG.to_act(state) != [0]
        state = play(state, "take")
    return state


def test_worked_example_scores_28() -> None:
    player = ENG.result(worked_example(lucky_pig=False))["players"][0]
    assert player["cards"] == [3, 10, 11, 12, 13, 20]
    assert player["runs"] == [[3], [10, 11, 12, 13], [20]]
    assert (player["card_points"], player["chips"], player["pigs"]) == (33, 5, 0)
    assert player["score"] == 28


def test_an_unplayed_own_pig_is_worth_a_point() -> None:
    result = ENG.result(worked_example(lucky_pig=True))
    assert result["players"][0]["pigs"] == 1 and result["scores"][0] == 27


def test_runs_count_only_their_lowest_card() -> None:
    assert runs([9, 3, 10, 5, 4, 7]) == [[3, 4, 5], [7], [9, 10]]
    assert card_points([9, 3, 10, 5, 4, 7]) == 3 + 7 + 9
    assert card_points([]) == 0
    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(CARD_IDS, rng.randrange(12))
        card = rng.choice([c for c in CARD_IDS if c not in cards])
        assert extra_points(cards, card) == card_points([*cards, card]) - card_points(cards)


def test_score_counts_cards_minus_chips_minus_pigs_won_and_kept() -> None:
    # seat 0 lays its pig on 20; seat 1 takes 20 with it; everyone then takes what comes.
    state = play(new(3, 20, 21, first=0), "pig", "take")
    while not ENG.is_over(state):
        state = play(state, "take")
    result = ENG.result(state)
    p0, p1, p2 = result["players"]
    assert (p0["pigs"], p1["pigs"], p2["pigs"]) == (0, 2, 1)  # 1 won + own for seat 1
    for p in result["players"]:
        assert p["score"] == card_points(p["cards"]) - p["chips"] - p["pigs"]
    assert result["scores"] == [p["score"] for p in result["players"]]
    assert result["winners"] == [result["scores"].index(min(result["scores"]))]


def tie_game() -> Any:
    """Seat 0 takes 3 with three chips on it; seat 2 takes everything else. Seats 0 and 1 tie
    on -9 (3 - 12 and 0 - 9)."""
    state = play(new(3, 3, lucky_pig=False), "pay", "pay", "pay", "take", "pay", "pay")
    while not ENG.is_over(state):
        assert ENG.to_act(state) == [2]
        state = play(state, "take")
    return state


def test_ties_share_the_win() -> None:
    assert rules.TIES_SHARE
    result = ENG.result(tie_game())
    assert result["scores"][:2] == [-9, -9] and result["winners"] == [0, 1]


def test_without_sharing_most_chips_break_a_tie(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "TIES_SHARE", False)
    assert ENG.result(tie_game())["winners"] == [0]


# -- illegal moves -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seat", "move", "words"),
    [
        (0, "take", "must be a map"),
        (0, None, "must be a map"),
        (0, {}, "must be a map"),
        (0, {"type": 3}, "must be a map"),
        (0, {"type": "steal"}, "no move 'steal'"),
        (0, {"type": "take", "card": 20}, "no other fields"),
        (1, {"type": "take"}, "not your turn"),
        (2, {"type": "pay"}, "not your turn"),
        (3, {"type": "take"}, "no seat 3"),
        (-1, {"type": "take"}, "no seat -1"),
        (True, {"type": "take"}, "no seat True"),
        ("0", {"type": "take"}, "no seat '0'"),
        (None, {"type": "take"}, "no seat None"),
    ],
)
def test_illegal_moves_are_refused_with_a_sentence_and_change_nothing(
    seat: Any, move: Any, words: str
) -> None:
    state = play(new(3, 20, 9), "take", "pay")  # seat 0 took 20 and paid on 9: seat 1 to act
    state = play(state, "take", "pay", "pay")  # seat 1 took 9, paid; seat 2 paid: seat 0
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=words) as info:
        ENG.apply(state, seat, move)
    assert info.value.reason[0].isupper()
    assert snapshot(state) == before


# -- what each seat sees -----------------------------------------------------------------------
VIEW_KEYS = {
    "game", "seat", "turn", "to_act", "over", "num_players", "lucky_pig", "centre",
    "centre_chips", "centre_pigs", "deck_left", "players", "my_chips",
}  # fmt: skip
PLAYER_KEYS = {"cards", "runs", "pigs_won", "pig_in_hand", "chips"}


def card_fields(v: dict[str, Any]) -> list[int]:
    """Every card id a view shows."""
    shown = [] if v["centre"] is None else [v["centre"]]
    for p in v["players"]:
        shown += p["cards"] + [c for run in p["runs"] for c in run]
    return shown


def test_views_hide_chips_removed_cards_and_deck_order() -> None:
    removed = tuple(range(27, 36))
    state = new(4, removed=removed)
    rng = random.Random(3)
    bot = ENG.bots["strong"]
    while True:
        for seat in [*range(4), None]:
            v = view(state, seat)
            assert set(v) == VIEW_KEYS and all(set(p) == PLAYER_KEYS for p in v["players"])
            assert msgpack.unpackb(msgpack.packb(v)) == v
            assert not set(card_fields(v)) & set(removed)
            for other, p in enumerate(v["players"]):
                if v["over"] or other == seat:
                    assert p["chips"] == state.chips[other]
                else:
                    assert p["chips"] is None
            assert v["my_chips"] == (None if seat is None else state.chips[seat])
        if ENG.is_over(state):
            break
        (seat,) = ENG.to_act(state)
        state = ENG.apply(state, seat, bot.choose(ENG, state, seat, rng))
    assert all(view(state, None)["players"][s]["chips"] is not None for s in range(4))


def test_views_do_not_depend_on_the_hidden_deck_order() -> None:
    deck = stack(20)
    other = [20, *reversed(deck[1:])]  # same centre card, every face-down card moved
    a = ENG.new_game(5, 0, {"stack": deck, "first": 1})
    b = ENG.new_game(5, 0, {"stack": other, "first": 1})
    for seat in [*range(5), None]:
        assert view(a, seat) == view(b, seat)


# -- events ------------------------------------------------------------------------------------
def test_events_describe_each_move_publicly() -> None:
    s0 = new(3, 20, 9, 8)
    s1 = play(s0, "pay")
    assert ENG.events(s0, 0, {"type": "pay"}, s1) == [{"kind": "pay", "seat": 0, "card": 20}]
    s2 = play(s1, "pig")
    assert ENG.events(s1, 1, {"type": "pig"}, s2) == [{"kind": "pig", "seat": 1, "card": 20}]
    s3 = play(s2, "take")
    assert ENG.events(s2, 2, {"type": "take"}, s3) == [
        {"kind": "take", "seat": 2, "card": 20, "chips": 1, "pigs": 1},
        {"kind": "reveal", "card": 9},
    ]
    end = play(s3, *["take"] * (PLAYED - 2))
    last = play(end, "take")
    assert ENG.events(end, 2, {"type": "take"}, last) == [
        {"kind": "take", "seat": 2, "card": view(end)["centre"], "chips": 0, "pigs": 0}
    ]


# -- determinize -------------------------------------------------------------------------------
def test_determinize_agrees_with_what_the_seat_knows_and_reshuffles_the_rest() -> None:
    state = play(new(4, 20, 9, 8), "pay", "pay", "take", "pay", "pay", "pig")
    orders, spreads = set(), set()
    for i in range(30):
        sample = ENG.determinize(state, 1, random.Random(i))
        assert view(sample, 1) == view(state, 1)
        assert ENG.legal_moves(sample, 1) == ENG.legal_moves(state, 1)
        assert sorted(sample.order[sample.pos :] + sample.removed) == sorted(
            state.order[state.pos :] + state.removed
        )
        assert sum(sample.chips) == sum(state.chips)
        assert min(sample.chips) >= 0
        orders.add(sample.order)
        spreads.add(tuple(sample.chips))
    assert len(orders) > 20 and len(spreads) > 5
    assert snapshot(state) == snapshot(
        play(new(4, 20, 9, 8), "pay", "pay", "take", "pay", "pay", "pig")
    )
