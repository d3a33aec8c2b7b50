"""Skip-Bo Breakers: the worked examples, every set type and every ruling, played through the
engine contract."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from typing import Any

import msgpack
import pytest

from engines import IllegalMove, get_engine
from engines.skipbo_breakers import rules, sets
from engines.skipbo_breakers.engine import draw_for_lead

ENG = get_engine("skipbo_breakers")
SB = "SB"


def stack_for(hands: list[list[Any]]) -> list[Any]:
    """A whole bag, top first, dealing each seat the tiles in `hands` (seat 0 first), each
    hand topped up to its size with left-over tiles, highest numbers first (so the top-ups
    rarely make sets with the tiles a test is about, and jokers stay where a test puts them)."""
    size = rules.HAND_SIZES[len(hands)]
    rest = Counter(rules.DECK)
    rest.subtract(Counter(t for hand in hands for t in hand))
    assert all(v >= 0 for v in rest.values()), "more copies than the game has"
    spare = sorted((t for t in rest.elements() if t != SB), reverse=True) + [SB] * rest[SB]
    bag: list[Any] = []
    for hand in hands:
        pad = size - len(hand)
        bag += hand + spare[:pad]
        spare = spare[pad:]
    return bag + spare


def game(hands: list[list[Any]], first: int = 0, **options: Any) -> Any:
    return ENG.new_game(len(hands), 7, {"stack": stack_for(hands), "first": first, **options})


def play(tiles: list[Any], values: list[int] | None = None) -> dict[str, Any]:
    return {"type": "play", "tiles": tiles, "values": values if values is not None else tiles}


PASS = {"type": "pass"}


def step(state: Any, *moves: dict[str, Any]) -> Any:
    """Each move by the seat whose turn it is."""
    for move in moves:
        state = ENG.apply(state, ENG.to_act(state)[0], move)
    return state


def turn(state: Any) -> int:
    return ENG.view(state, None)["turn"]


def table(state: Any) -> tuple[str, int, int] | None:
    t = ENG.view(state, None)["table"]
    return None if t is None else (t["set"], t["size"], t["rank"])


def snapshot(state: Any) -> bytes:
    n = ENG.view(state, None)["num_players"]
    views = [ENG.view(state, s) for s in [*range(n), None]]
    return msgpack.packb([views, [ENG.legal_moves(state, s) for s in range(n)]])


def refused(state: Any, seat: int, move: Any, words: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        ENG.apply(state, seat, move)
    assert words.lower() in info.value.reason.lower(), info.value.reason
    assert snapshot(state) == before


# -- the worked examples ------------------------------------------------------------------------
def test_pairs_4_5_7_9_in_turn() -> None:
    s = game([[4, 4], [5, 5], [7, 7], [9, 9]])
    s = step(s, play([4, 4]), play([5, 5]), play([7, 7]), play([9, 9]))
    assert table(s) == ("pair", 2, 9)
    assert [e["seat"] for e in ENG.view(s, None)["trick"]] == [0, 1, 2, 3]


def test_straight_beaten_by_joker_straight_by_three_2s_by_four_1s() -> None:
    s = game([[3, 4, 5], [8, 9, SB], [2, 2, 2], [1, 1, 1, 1]])
    s = step(s, play([3, 4, 5]))
    s = step(s, play([8, 9, SB], [8, 9, 10]))
    assert table(s) == ("straight", 3, 10)
    s = step(s, play([2, 2, 2]))
    assert table(s) == ("breaker", 3, 2)
    s = step(s, play([1, 1, 1, 1]))
    assert table(s) == ("breaker", 4, 1)


def test_a_straight_of_four_cannot_be_followed_by_one_of_five() -> None:
    s = game([[3, 4, 5, 6], [7, 8, 9, 10, 11], [], []])
    s = step(s, play([3, 4, 5, 6]))
    refused(s, 1, play([7, 8, 9, 10, 11]), "cannot follow")
    assert play([8, 9, 10, 11]) in ENG.legal_moves(s, 1)


# -- every set type, with and without jokers ----------------------------------------------------
LEGAL_SETS = [
    ([7], [7], ("single", 1, 7)),
    ([SB], [12], ("single", 1, 12)),
    ([6, 6], [6, 6], ("pair", 2, 6)),
    ([6, SB], [6, 6], ("pair", 2, 6)),
    ([SB, SB], [3, 3], ("pair", 2, 3)),
    ([4, 4, 5, 5], [4, 4, 5, 5], ("pairs", 4, 5)),
    ([4, 4, 5, SB], [4, 4, 5, 5], ("pairs", 4, 5)),
    ([4, 4, SB, SB], [4, 4, 5, 5], ("pairs", 4, 5)),
    ([SB, SB, SB, SB], [8, 8, 9, 9], ("pairs", 4, 9)),
    ([1, 1, 2, 2, 3, 3], [1, 1, 2, 2, 3, 3], ("pairs", 6, 3)),
    ([3, 4, 5], [3, 4, 5], ("straight", 3, 5)),
    ([13, 14, SB], [13, 14, 15], ("straight", 3, 15)),
    ([SB, 9, 11], [10, 9, 11], ("straight", 3, 11)),
    ([SB, SB, SB], [1, 2, 3], ("straight", 3, 3)),
    (list(range(1, 16)), list(range(1, 16)), ("straight", 15, 15)),
    ([9, 9, 9], [9, 9, 9], ("breaker", 3, 9)),
    ([2, 2, 2, 2], [2, 2, 2, 2], ("breaker", 4, 2)),
    ([SB, SB, SB], [16, 16, 16], ("breaker", 3, 16)),
    ([SB, SB, SB, SB], [16, 16, 16, 16], ("breaker", 4, 16)),
]

ILLEGAL_SETS = [
    ([4, 7], [4, 7], "4 and 7 make no set"),
    ([5, 6], [5, 6], "at least 3"),
    ([5, SB], [5, 7], "make no set"),
    ([5, 5, SB], [5, 5, 5], "jokers may not complete a breaker"),
    ([5, SB, SB, SB], [5, 5, 5, 5], "jokers may not complete a breaker"),
    ([SB], [16], "stands for a number from 1 to 15"),
    ([14, 15, SB], [14, 15, 16], "stands for a number from 1 to 15"),
    ([SB, SB, SB], [16, 16, 15], "stands for a number from 1 to 15"),
    ([SB], [0], "from 1 to 15"),
    ([4, 4, 4, 4, 4], [4, 4, 4, 4, 4], "more copies"),  # checked before the game sees it
    ([4, 4, 6, 6], [4, 4, 6, 6], "make no set"),
    ([4, 4, 5], [4, 4, 5], "make no set"),
    ([3, 5, 4, 6, 8], [3, 5, 4, 6, 8], "make no set"),
    ([7], [8], "stands for itself"),
]


@pytest.mark.parametrize(("tiles", "values", "key"), LEGAL_SETS)
def test_every_set_type_is_read_and_may_lead(
    tiles: list[Any], values: list[int], key: tuple[str, int, int]
) -> None:
    s = game([tiles, [], []])
    after = ENG.apply(s, 0, play(tiles, values))
    assert table(after) == key
    assert ENG.view(after, 0)["tiles_left"][0] == 20 - len(tiles)


@pytest.mark.parametrize(("tiles", "values", "words"), ILLEGAL_SETS)
def test_what_makes_no_set_is_refused_with_a_reason(
    tiles: list[Any], values: list[int], words: str
) -> None:
    if words == "more copies":
        with pytest.raises(AssertionError, match=words):
            stack_for([tiles, []])
        return
    held = [t for t in tiles]
    s = game([held, [], []])
    refused(s, 0, play(tiles, values), words)


@pytest.mark.parametrize("hand", [[3, 4, 4, 5, 7, 7, 7, SB, SB], [1, 2, 2, 2, 2, 14, 15, SB]])
@pytest.mark.parametrize("on", [None, ("single", 1, 6), ("pair", 2, 4), ("straight", 3, 4)])
def test_offered_plays_cover_every_set_the_tiles_make(
    hand: list[Any], on: tuple[str, int, int] | None
) -> None:
    """Brute force over every sub-multiset of a small hand and every joker value: each set
    that may be played on `on` is offered with those values, and every offered play is one."""
    found = set()
    for size in range(1, len(hand) + 1):
        for combo in set(combinations(hand, size)):
            numbers = [t for t in combo if t != SB]
            jokers = len(combo) - len(numbers)
            for joker_values in product(range(1, 17), repeat=jokers):
                tiles, values = rules.canonical(
                    [*numbers, *[SB] * jokers], [*numbers, *joker_values]
                )
                try:
                    key = rules.classify(tiles, values)
                except rules.NotASet:
                    continue
                if rules.beats(key, on):
                    found.add(values)
    offered = list(sets.plays(rules.counts_of(hand), on))
    assert {values for _, values in offered} == found
    for tiles, values in offered:
        assert rules.beats(rules.classify(tiles, values), on)


# -- rulings ------------------------------------------------------------------------------------
def test_sb_breaker_ranks_above_the_15s_of_its_size_and_below_bigger_breakers() -> None:
    s = game([[15, 15, 15], [SB, SB, SB], [1, 1, 1, 1]])
    s = step(s, play([15, 15, 15]), play([SB, SB, SB], [16, 16, 16]))
    assert table(s) == ("breaker", 3, 16)
    s = step(s, play([1, 1, 1, 1]))
    assert table(s) == ("breaker", 4, 1)
    s2 = game([[15, 15, 15, 15], [SB, SB, SB, SB], []])
    s2 = step(s2, play([15, 15, 15, 15]), play([SB] * 4, [16] * 4))
    assert table(s2) == ("breaker", 4, 16)


def test_three_or_four_sb_are_offered_as_breaker_and_as_straight() -> None:
    s = game([[SB, SB, SB, SB], [], []])
    values = [m["values"] for m in ENG.legal_moves(s, 0) if m["tiles"] == [SB, SB, SB]]
    assert [16, 16, 16] in values and [1, 2, 3] in values


def test_breakers_of_one_size_go_by_number() -> None:
    assert rules.BREAKERS_BY_SIZE_THEN_NUMBER
    s = game([[2, 2, 2], [3, 3, 3], [4, 4, 4]])
    s = step(s, play([2, 2, 2]), play([3, 3, 3]))
    assert table(s) == ("breaker", 3, 3)
    s = game([[3, 3, 3], [2, 2, 2], []])
    s = step(s, play([3, 3, 3]))
    refused(s, 1, play([2, 2, 2]), "only a higher breaker")


def test_only_a_breaker_beats_a_breaker_and_a_breaker_beats_anything() -> None:
    s = game([[9, 9, 9], [14, 15, SB, 10, 11, 12], []])
    s = step(s, play([9, 9, 9]))
    refused(s, 1, play([10, 11, 12]), "only a higher breaker")
    s = game([[10, 11, 12, 13], [5, 5, 5], []])
    s = step(s, play([10, 11, 12, 13]), play([5, 5, 5]))
    assert table(s) == ("breaker", 3, 5)


def test_sets_of_different_kinds_never_beat_each_other() -> None:
    s = game([[4, 4], [7, 8, 9], []])
    s = step(s, play([4, 4]))
    refused(s, 1, play([7, 8, 9]), "cannot follow")


def test_a_lower_or_equal_set_does_not_beat() -> None:
    s = game([[8], [8, 5], []])
    s = step(s, play([8]))
    refused(s, 1, play([8]), "does not beat")
    refused(s, 1, play([5]), "does not beat")


def test_a_lone_joker_is_a_single_of_any_number() -> None:
    assert rules.LONE_JOKER_SINGLE
    s = game([[9], [SB], []])
    s = step(s, play([9]))
    held = ENG.view(s, 1)["hand"]
    singles = {
        (m["tiles"][0], m["values"][0]) for m in ENG.legal_moves(s, 1) if m["type"] == "play"
    }
    for v in range(10, 16):
        assert (v if v in held else SB, v) in singles
    assert {v for t, v in singles if t == SB} >= {v for v in range(10, 16) if v not in held}


def test_joker_only_sets_and_both_tiles_of_a_pair_as_jokers() -> None:
    assert rules.JOKER_ONLY_SETS
    s = game([[4, 4, SB, SB], [], []])
    moves = ENG.legal_moves(s, 0)
    assert play([4, 4, SB, SB], [4, 4, 5, 5]) in moves
    assert play([SB, SB], [9, 9]) in moves


def test_a_joker_for_a_held_number_is_offered_only_when_it_keeps_a_breaker() -> None:
    assert rules.OFFER_ONLY_USEFUL_JOKER_SWAPS
    s = game([[6, 7, 7, 8, SB], [], []])
    moves = ENG.legal_moves(s, 0)
    assert play([6, 7, 8]) in moves
    assert play([6, 8, SB], [6, 8, 7]) not in moves
    ENG.apply(s, 0, play([6, 8, SB], [6, 8, 7]))  # still a legal play
    s = game([[6, 7, 7, 7, 8, SB], [], []])
    moves = ENG.legal_moves(s, 0)
    assert play([6, 7, 8]) in moves and play([6, SB, 8], [6, 7, 8]) in moves


def test_the_first_leader_is_drawn_with_sb_lowest_and_ties_redrawn() -> None:
    assert rules.SB_DRAWS_LOWEST
    seen_tie = seen_sb = False
    for seed in range(200):
        leader, rounds = draw_for_lead(seed, 4)
        contenders = list(range(4))
        for draws in rounds:
            assert [seat for seat, _ in draws] == contenders
            rank = {seat: 0 if tile == SB else tile for seat, tile in draws}
            best = max(rank.values())
            contenders = [seat for seat in contenders if rank[seat] == best]
            seen_sb |= any(tile == SB for _, tile in draws)
        seen_tie |= len(rounds) > 1
        assert contenders == [leader]
        s = ENG.new_game(4, seed)
        assert turn(s) == leader
        view = ENG.view(s, 1)
        assert [[(d["seat"], d["tile"]) for d in r] for r in view["first_draw"]] == [
            list(r) for r in rounds
        ]
    assert seen_tie and seen_sb


def test_first_option_fixes_the_leader() -> None:
    assert turn(game([[], [], []], first=2)) == 2


def test_the_leader_may_not_pass_a_follower_may_and_play_again() -> None:
    assert not rules.LEADER_MAY_PASS
    s = game([[5, 9], [6, 10], [7]])
    refused(s, 0, PASS, "only a follower may pass")
    assert PASS not in ENG.legal_moves(s, 0)
    s = step(s, play([5]), PASS, play([7]))
    s = step(s, play([9]))  # seat 0 passed nothing yet, plays again
    s = step(s, play([10]))  # seat 1 passed earlier in this trick, plays now
    assert table(s) == ("single", 1, 10)


def test_the_trick_ends_when_every_other_player_passed_in_turn() -> None:
    s = game([[5, 6, 6], [7], []])
    s = step(s, play([5]), play([7]), PASS, PASS)
    view = ENG.view(s, None)
    assert view["table"] is None and view["turn"] == 1 and view["leader"] == 1
    assert view["last_trick"]["winner"] == 1


def out_game(players: int, **options: Any) -> Any:
    """Seat 0 can go out in three plays: a straight 1..15 nobody follows, a Breaker of 5s
    and a pair of 6s; seat 1 holds the pair of 7s that beats that pair."""
    seat0 = [*range(1, 16), 5, 5, 5, 6, 6]
    hands: list[list[Any]] = [seat0, [7, 7]] + [[]] * (players - 1 - 1)
    if players == 4:
        hands[0] = [*range(4, 16), 5, 5, 5, 6]  # 16 tiles: straight 4..15, Breaker, single 6
    s = game(hands, **options)
    s = step(s, play(hands[0][: 15 if players < 4 else 12]), *[PASS] * (players - 1))
    s = step(s, play([5, 5, 5]), *[PASS] * (players - 1))
    return s


def test_going_out_lets_the_trick_run_on_and_the_hand_ends_when_all_pass() -> None:
    s = out_game(3)
    before = s
    s = step(s, play([6, 6]))
    view = ENG.view(s, None)
    assert view["hand_winner"] == 0 and view["tiles_left"][0] == 0
    assert view["turn"] == 1  # the run-on
    events = ENG.events(before, 0, play([6, 6]), s)
    assert {"kind": "out", "seat": 0, "first": True} in events
    s = step(s, play([7, 7]))  # seat 1 still sheds tiles
    assert turn(s) == 2
    left = ENG.view(s, None)["tiles_left"]
    after = step(s, PASS)
    view = ENG.view(after, None)
    assert view["hand_no"] == 2 and view["scores"] == [left[1] + left[2], 0, 0]
    assert view["hand_summary"]["winner"] == 0 and view["turn"] == 0  # the winner leads
    kinds = [e["kind"] for e in ENG.events(s, 2, PASS, after)]
    assert kinds == ["pass", "trick", "hand_end", "hand_start"]


def test_the_last_player_alone_with_tiles_ends_the_hand_at_once() -> None:
    assert rules.ALONE_ENDS_AT_ONCE
    s = out_game(2)
    s = step(s, play([6, 6]))
    assert turn(s) == 1
    s = step(s, play([7, 7]))
    view = ENG.view(s, None)
    assert view["hand_no"] == 2 and view["scores"] == [18, 0]


def test_players_without_tiles_are_skipped() -> None:
    s = out_game(3)
    s = step(s, play([6, 6]), PASS)
    assert turn(s) == 2


def test_first_to_the_points_to_win_takes_the_game() -> None:
    s = out_game(2, points_to_win=18)
    s = step(s, play([6, 6]), PASS)
    assert ENG.is_over(s)
    result = ENG.result(s)
    assert result["winners"] == [0] and result["scores"] == [20, 0]
    assert ENG.view(s, 0)["winners"] == [0] and ENG.to_act(s) == []


# -- bad input --------------------------------------------------------------------------------
def test_illegal_moves_say_why_and_change_nothing() -> None:
    s = game([[5, 5, 8, SB], [], []])
    refused(s, 1, play([5]), "not your turn")
    refused(s, 0, play([6]), "do not hold")
    refused(s, 0, play([5, 5, 5]), "do not hold")
    refused(s, 0, play([8], [9]), "stands for itself")
    refused(s, 0, play([SB], [True]), "not a number")
    refused(s, 0, play([5.0], [5]), "no tile")
    refused(s, 0, play([True], [1]), "no tile")
    refused(s, 0, play([5, 8]), "make no set")
    refused(s, 0, play([5], [5, 5]), "one number for each")
    refused(s, 0, {"type": "play", "tiles": [5]}, "a play is")
    refused(s, 0, {"type": "play", "tiles": [], "values": []}, "lists its tiles")
    refused(s, 0, {"type": "fold"}, "unknown move")
    refused(s, 0, {**PASS, "x": 1}, "a pass is")


def test_bad_options_are_value_errors() -> None:
    with pytest.raises(ValueError, match="64"):
        ENG.new_game(2, 0, {"stack": [1] * 64})
    with pytest.raises(ValueError, match="tile ids"):
        bad = list(rules.DECK)
        bad[bad.index(1)] = True
        ENG.new_game(2, 0, {"stack": bad})
    with pytest.raises(ValueError, match="first"):
        ENG.new_game(2, 0, {"first": 2})
    with pytest.raises(ValueError, match="points_to_win"):
        ENG.new_game(2, 0, {"points_to_win": 0})
    with pytest.raises(ValueError, match="takes 2 to 4"):
        ENG.new_game(5, 0)


def test_hand_sizes_and_the_unused_tiles() -> None:
    for n, size in ((2, 20), (3, 20), (4, 16)):
        view = ENG.view(ENG.new_game(n, 1), 0)
        assert view["tiles_left"] == [size] * n and len(view["hand"]) == size


def test_a_stack_deals_from_the_top() -> None:
    bag = list(rules.DECK)
    s = ENG.new_game(4, 0, {"stack": bag, "first": 0})
    assert ENG.view(s, 0)["hand"] == sorted(bag[:16], key=lambda t: 99 if t == SB else t)
    assert ENG.view(s, 3)["hand"] == bag[48:64]
