"""Das Zwergenamulett: every rule and ruling, played out through the engine contract."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack
import pytest

from engines import IllegalMove, get_engine
from engines.zwergenamulett import rules

ENG = get_engine("zwergenamulett")


def stack_for(hands: list[list[str]]) -> list[str]:
    """A whole deck, top first, that deals each seat the cards in `hands` (seat 0 first),
    each hand topped up to its size with left-over cards in composition order."""
    size = rules.HAND_SIZES[len(hands)]
    rest = Counter(rules.DECK)
    rest.subtract(Counter(c for hand in hands for c in hand))
    spare = sorted(rest.elements(), key=rules.DECK.index)
    deck: list[str] = []
    for hand in hands:
        pad = size - len(hand)
        deck += hand + spare[:pad]
        spare = spare[pad:]
    return deck + spare


def game(hands: list[list[str]], first: int = 0, **options: Any) -> Any:
    return ENG.new_game(len(hands), 7, {"stack": stack_for(hands), "first": first, **options})


def play(state: Any, *cards: str) -> Any:
    """Play `cards` in turn order, each by the seat whose turn it is."""
    for card in cards:
        state = ENG.apply(state, state.turn, {"type": "play", "card": card})
    return state


def claim(state: Any, seat: int) -> Any:
    return ENG.apply(state, seat, {"type": "claim_seven"})


def won_points(state: Any, seat: int) -> int:
    return sum(rules.POINTS[rules.FACE_INDEX[c]] for c in ENG.view(state, seat)["my_won"])


# -- the worked examples of the rules -----------------------------------------------------------
def test_worked_example_magier_overtrumped_by_magier() -> None:
    s = game([["magier"], ["fee"], ["magier"]], memory_aid=True)
    s = play(s, "magier", "fee", "magier")
    view = ENG.view(s, 2)
    assert view["last_trick"]["winner"] == 2
    assert sorted(view["my_won"]) == ["fee", "magier", "magier"]
    assert won_points(s, 2) == 10
    assert view["turn"] == 2


def test_worked_example_amulet_takes_two_dragons() -> None:
    s = game([["drache"], ["drache"], ["amulett"], ["fee"]], memory_aid=True)
    s = play(s, "drache", "drache", "amulett", "fee")
    assert ENG.view(s, 0)["last_trick"]["winner"] == 2
    assert won_points(s, 2) == 24


# -- dealing and leading ------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size"), [(2, 12), (3, 8), (4, 7), (5, 6), (6, 5)])
def test_hand_sizes_and_unseen_rest(players: int, size: int) -> None:
    s = ENG.new_game(players, 3)
    view = ENG.view(s, 0)
    assert view["hand_sizes"] == [size] * players
    assert len(view["hand"]) == size
    assert len(s.out) == 36 - players * size


def test_stack_deals_from_the_top_seat_by_seat() -> None:
    deck = list(reversed(rules.DECK))
    s = ENG.new_game(3, 1, {"stack": deck, "first": 1})
    for seat in range(3):
        assert Counter(ENG.view(s, seat)["hand"]) == Counter(deck[seat * 8 : seat * 8 + 8])
    assert ENG.view(s, 0)["turn"] == 1


@pytest.mark.parametrize(
    "options",
    [
        {"stack": ["drache"] * 36},
        {"stack": list(rules.DECK[:-1])},
        {"stack": "drache"},
        {"first": 3},
        {"first": True},
        {"memory_aid": 1},
        {"dice": [1]},
        {"colour": "red"},
    ],
)
def test_bad_options_raise_value_error(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ENG.new_game(3, 1, options)


@pytest.mark.parametrize("players", [0, 1, 7])
def test_bad_player_counts(players: int) -> None:
    with pytest.raises(ValueError):
        ENG.new_game(players, 1)


def test_first_leader_is_random_from_the_seed() -> None:
    leaders = {ENG.new_game(4, seed).turn for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert ENG.new_game(4, 11).turn == ENG.new_game(4, 11).turn


def play_out_round(state: Any) -> Any:
    """Play the first legal card until the round number changes."""
    start = state.round
    while state.round == start and not state.over:
        card = ENG.legal_moves(state, state.turn)[0]
        state = ENG.apply(state, state.turn, card)
    return state


def test_each_round_is_led_left_of_the_previous_leader() -> None:
    s = ENG.new_game(3, 5, {"first": 2})
    leaders = [ENG.view(s, 0)["round_leader"]]
    for _ in range(3):
        s = play_out_round(s)
        if s.over:
            break
        view = ENG.view(s, 0)
        leaders.append(view["round_leader"])
        assert view["turn"] == view["round_leader"] == view["leader"]
    assert leaders == [2, 0, 1, 2][: len(leaders)]
    assert len(leaders) >= 3


def test_later_rounds_are_shuffled_from_the_seed() -> None:
    a = play_out_round(ENG.new_game(3, 9, {"first": 0}))
    b = play_out_round(ENG.new_game(3, 9, {"first": 0}))
    c = play_out_round(ENG.new_game(3, 10, {"first": 0}))
    assert a.hands == b.hands
    assert a.hands != c.hands


# -- tricks -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "after_two", "winner"),
    [
        (["troll", "troll", "troll"], 1, 2),  # same face overtrumps, again and again
        (["troll", "troll", "fee"], 1, 1),  # the last card of the led face wins
        (["troll", "fee", "fee"], 0, 0),  # nobody overtrumped: the leader
        (["zwerg_rot", "zwerg_blau", "fee"], 0, 0),  # a dwarf of another colour does not
        (["zwerg_rot", "zwerg_blau", "zwerg_rot"], 0, 2),  # the same colour does
        (["zwerg_blau", "doppelzwerg", "fee"], 0, 0),  # a Doppelzwerg is no blue dwarf
        (["doppelzwerg", "zwerg_rot", "zwerg_blau"], 0, 0),  # only a Doppelzwerg beats one
        (["doppelzwerg", "fee", "doppelzwerg"], 0, 2),
        (["drache", "amulett", "drache"], 1, 1),  # an amulet always wins
        (["drache", "amulett", "amulett"], 1, 2),  # the last amulet wins
        (["amulett", "drache", "amulett"], 0, 2),  # a led amulet falls to a later one
        (["amulett", "amulett", "fee"], 1, 1),
        (["amulett", "drache", "fee"], 0, 0),
    ],
)
def test_trick_winner(cards: list[str], after_two: int, winner: int) -> None:
    s = play(game([[c] for c in cards]), cards[0], cards[1])
    live = ENG.view(s, 2)
    assert live["trick_winner"] == after_two
    assert (cards[2] in live["would_overtrump"]) == (winner == 2)
    s = play(s, cards[2])
    view = ENG.view(s, 0)
    assert view["last_trick"]["winner"] == winner
    assert view["tricks_won"] == [int(seat == winner) for seat in range(3)]
    assert view["turn"] == view["leader"] == winner
    assert view["trick_winner"] is None and view["trick"] == []


def test_overtrumping_is_optional() -> None:
    s = game([["magier"], ["magier", "fee"], ["riese"]])
    s = play(s, "magier")
    cards = {m.get("card") for m in ENG.legal_moves(s, 1)}
    assert {"magier", "fee", None} <= cards
    s = play(s, "fee", "riese")
    assert ENG.view(s, 0)["last_trick"]["winner"] == 0


def test_last_trick_shows_until_the_next_card() -> None:
    s = game([["magier", "troll"], ["fee"], ["riese"]])
    s = play(s, "magier", "fee", "riese")
    last = ENG.view(s, 1)["last_trick"]
    assert last == {
        "round": 1,
        "cards": [
            {"seat": 0, "card": "magier"},
            {"seat": 1, "card": "fee"},
            {"seat": 2, "card": "riese"},
        ],
        "winner": 0,
    }
    s = play(s, "troll")
    view = ENG.view(s, 1)
    assert view["last_trick"] is None
    assert view["trick"] == [{"seat": 0, "card": "troll"}]
    assert view["trick_led"] == "troll"


# -- scoring ------------------------------------------------------------------------------------
# Seat 0 leads in this order; seat 1 holds none of these faces and no amulet, so seat 0 takes
# every trick: 6 dwarves after six tricks, 8 after seven, both amulets after ten.
SWEEP_LEADS = [*["zwerg_rot"] * 4, "zwerg_blau", "zwerg_blau", "doppelzwerg", "doppelzwerg"]
SWEEP_LEADS += ["amulett", "amulett", "fee", "troll"]
SWEEP = [SWEEP_LEADS, ["drache"] * 4 + ["riese"] * 4 + ["magier"] * 4]


def sweep_round(state: Any, tricks: int = 12) -> Any:
    for lead in SWEEP_LEADS[:tricks]:
        state = play(state, lead, ENG.view(state, 1)["hand"][0])
    return state


def test_one_amulet_counts_the_dwarves_and_more_count_nothing() -> None:
    s = sweep_round(game(SWEEP))
    summary = ENG.view(s, 1)["round_summary"]
    assert summary["ended_by"] == "play"
    assert summary["card_points"] == [2 + 3 + 44 + 40 + 16, 0]
    assert summary["amulet_bonus"] == [4 + 2 + 2 * 2, 0]  # two amulets won, one counts
    assert summary["points"] == [115, 0]
    assert summary["winners"] == summary["gold_to"] == [0]
    view = ENG.view(s, 1)
    assert view["gold"] == [1, 0]
    assert view["gold_pool"] == 12
    assert view["round"] == 2
    assert view["tricks_won"] == [0, 0]


TIE_FACES = ["drache", "riese", "magier", "troll", "fee", "zwerg_rot"]
TIE = [[face for face in TIE_FACES for _ in range(2)]] * 2


def tie_round(state: Any, keep_last: bool = False) -> Any:
    """The follower always matches the led face, so the players take turns winning pairs.
    With `keep_last` the round's very last card is left to play."""
    cards = [face for face in TIE_FACES for _ in range(4)]
    return play(state, *cards[:-1] if keep_last else cards)


def test_tied_round_winners_both_take_gold_and_dwarves_need_an_amulet() -> None:
    s = tie_round(game(TIE))
    summary = ENG.view(s, 0)["round_summary"]
    assert summary["card_points"] == [60, 60]
    assert summary["amulet_bonus"] == [0, 0]
    assert summary["winners"] == [0, 1]
    assert ENG.view(s, 0)["gold"] == [1, 1]
    assert ENG.view(s, 0)["gold_pool"] == 11


def test_third_gold_wins_the_game() -> None:
    s = game(SWEEP)
    s.gold, s.pool = (2, 2), 9  # white-box: a late round
    s = sweep_round(s)
    assert ENG.is_over(s)
    assert ENG.result(s)["winners"] == [0]
    assert ENG.result(s)["scores"] == [3, 2]
    view = ENG.view(s, 0)
    assert view["turn"] is None and view["to_act"] == [] and view["over"]
    assert ENG.legal_moves(s, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        claim(s, 1)


def test_third_gold_at_once_shares_the_win() -> None:
    s = game(TIE)
    s.gold, s.pool = (2, 2), 9  # white-box: a late round
    before = tie_round(s, keep_last=True)
    move = {"type": "play", "card": "zwerg_rot"}
    after = ENG.apply(before, before.turn, move)
    assert ENG.result(after)["winners"] == [0, 1]
    kinds = [e["kind"] for e in ENG.events(before, before.turn, move, after)]
    assert kinds == ["play", "trick", "round_end", "gold", "gold", "game_over"]


def test_a_short_pool_pays_clockwise_from_the_round_leader() -> None:
    s = game(TIE, first=1)
    s.pool = 1  # white-box: only possible with 5-6 players, staged here with two
    s = tie_round(s)
    summary = ENG.view(s, 0)["round_summary"]
    assert summary["winners"] == [0, 1]
    assert summary["gold_to"] == [1]
    assert ENG.view(s, 0)["gold"] == [0, 1]


# -- seven dwarves ------------------------------------------------------------------------------
def test_true_claim_wins_the_round_at_once() -> None:
    s = sweep_round(game(SWEEP), tricks=6)  # seat 0 won 6 dwarves
    with_doppel = play(s, "doppelzwerg")  # mid-trick: a claim may interrupt anything
    s = claim(with_doppel, 0)
    assert ENG.view(s, 0)["round_summary"]["claim_success"] is False  # only 6 so far
    s = sweep_round(game(SWEEP), tricks=7)  # 6 dwarves + a Doppelzwerg = 8
    before = s
    s = claim(s, 0)
    summary = ENG.view(s, 1)["round_summary"]
    assert summary["ended_by"] == "claim"
    assert (summary["claimant"], summary["claim_success"], summary["claim_dwarves"]) == (0, True, 8)
    assert summary["winners"] == summary["gold_to"] == [0]
    assert summary["points"] is None
    view = ENG.view(s, 1)
    assert view["gold"] == [1, 0]
    assert view["round"] == 2 and view["round_leader"] == 1
    assert view["hand_sizes"] == [12, 12]
    assert ENG.events(before, 0, {"type": "claim_seven"}, s) == [
        {"kind": "claim", "seat": 0, "success": True, "dwarves": 8},
        {
            "kind": "round_end",
            "round": 1,
            "ended_by": "claim",
            "points": None,
            "amulet_bonus": None,
            "winners": [0],
        },
        {"kind": "gold", "seat": 0},
        {"kind": "round_start", "round": 2, "leader": 1},
    ]


def test_false_claim_costs_a_gold_and_ends_the_round_without_winner() -> None:
    s = claim(sweep_round(game(SWEEP), tricks=7), 0)  # seat 0 has one gold now
    s = claim(s, 0)  # round 2 just started: nothing won yet
    summary = ENG.view(s, 0)["round_summary"]
    assert (summary["claim_success"], summary["claim_dwarves"]) == (False, None)
    assert summary["winners"] == summary["gold_to"] == []
    assert summary["gold_back"] == 0
    assert ENG.view(s, 0)["gold"] == [0, 0]
    assert ENG.view(s, 0)["gold_pool"] == 13
    assert ENG.view(s, 0)["round"] == 3


def test_false_claim_without_gold_gives_nothing_back() -> None:
    s = game(SWEEP)
    before = s
    s = claim(s, 1)  # off-turn: seat 0 was to lead
    assert ENG.view(s, 0)["gold"] == [0, 0] and ENG.view(s, 0)["gold_pool"] == 13
    assert ENG.view(s, 0)["round_summary"]["gold_back"] is None
    kinds = [e["kind"] for e in ENG.events(before, 1, {"type": "claim_seven"}, s)]
    assert kinds == ["claim", "round_end", "round_start"]


def test_every_seat_may_claim_while_a_round_is_on() -> None:
    s = game(SWEEP)
    assert ENG.to_act(s) == [0, 1]
    assert ENG.legal_moves(s, 1) == [{"type": "claim_seven"}]
    assert {"type": "claim_seven"} in ENG.legal_moves(s, 0)


def test_endless_false_claims_stop_at_the_round_limit() -> None:
    s = ENG.new_game(3, 4)
    for _ in range(rules.MAX_ROUNDS):
        assert not ENG.is_over(s)
        s = claim(s, 0)
    assert ENG.is_over(s)
    assert ENG.result(s)["winners"] == [0, 1, 2]


# -- illegal moves ------------------------------------------------------------------------------
def snapshot(state: Any) -> dict[str, Any]:
    return {name: repr(getattr(state, name)) for name in rules.ZState.__slots__}


@pytest.mark.parametrize(
    ("seat", "move", "message"),
    [
        (1, {"type": "play", "card": "fee"}, "not your turn"),
        (0, {"type": "play", "card": "riese"}, "no riese"),
        (0, {"type": "play", "card": "goblin"}, "no card 'goblin'"),
        (0, {"type": "play"}, "no card None"),
        (0, {"type": "play", "card": 3}, "no card 3"),
        (0, {"type": "pass"}, "Unknown move 'pass'"),
        (0, "drache", "map"),
        (5, {"type": "claim_seven"}, "no seat 5"),
    ],
)
def test_illegal_moves_change_nothing(seat: int, move: Any, message: str) -> None:
    s = game(SWEEP)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match=message):
        ENG.apply(s, seat, move)
    assert snapshot(s) == before


# -- views and events ---------------------------------------------------------------------------
def test_view_shape_is_msgpack_safe() -> None:
    s = play(game(SWEEP, memory_aid=True), "zwerg_rot", "drache", "amulett")
    for seat in (0, 1, None):
        view = ENG.view(s, seat)
        assert msgpack.unpackb(msgpack.packb(view)) == view
        assert {"game", "seat", "turn", "to_act", "over"} <= set(view)
    view = ENG.view(s, 0)
    assert view["game"] == "zwergenamulett"
    assert view["my_won"] == ["drache", "zwerg_rot"]
    assert view["trick"] == [{"seat": 0, "card": "amulett"}]
    assert view["trick_winner"] == 0 and view["turn"] == 1
    assert ENG.view(s, 1)["would_overtrump"] == []  # seat 1 holds no amulet
    assert ENG.view(s, None)["hand"] == [] and ENG.view(s, None)["my_won"] is None


def test_won_tricks_are_hidden_even_from_their_owner() -> None:
    s = play(game(SWEEP), "zwerg_rot", "drache")
    view = ENG.view(s, 0)
    assert view["my_won"] is None and view["memory_aid"] is False
    assert view["tricks_won"] == [1, 0]
    s = play(s, "zwerg_rot")
    assert ENG.view(s, 0)["last_trick"] is None
    assert "drache" not in repr(ENG.view(s, 0))  # gone from seat 0's eyes for good


def test_play_events_do_not_name_the_card() -> None:
    s = game(SWEEP)
    after = play(s, "zwerg_rot")
    assert ENG.events(s, 0, {"type": "play", "card": "zwerg_rot"}, after) == [
        {"kind": "play", "seat": 0}
    ]
    done = play(after, "drache")
    assert ENG.events(after, 1, {"type": "play", "card": "drache"}, done) == [
        {"kind": "play", "seat": 1},
        {"kind": "trick", "seat": 0, "cards_count": 2},
    ]
