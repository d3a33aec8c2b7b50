"""End-of-game statistics (engines.stats), computed from recorded games with known outcomes:
stacked deals played move by move and replayed from their records, every number worked out
by hand. And for every game: the same statistics for every seat, only of a finished game, and
read from public views alone."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from stacked_games import SCHOENE_MOVES, SCHOENE_OPTIONS, SCHOENE_SCORES, SCHOENE_STATS
from test_chez_rules import game as chez_game
from test_chez_rules import poke, to_phase
from test_chez_rules import stack_for as chez_stack
from test_contract import random_game
from test_schoko_rules import place
from test_schoko_rules import stack_for as schoko_stack
from test_skipbo_rules import PASS
from test_skipbo_rules import play as tiles
from test_skipbo_rules import stack_for as skipbo_stack
from test_zwerg_rules import SWEEP, SWEEP_LEADS
from test_zwerg_rules import stack_for as zwerg_stack

from engines import ENGINE_IDS, get_engine
from engines.base import Move
from engines.chez_geek.deck import JOBS
from engines.stats import KINDS, Played, replay, statistics
from engines.zwergenamulett.rules import MAX_ROUNDS


def table(game: Played) -> dict[str, list[int]]:
    """{statistic: [value of seat 0, seat 1, ...]}, in the game's order."""
    rows = statistics(game)
    return {stat.name: [row[i].value for row in rows] for i, stat in enumerate(rows[0])}


def staged(engine_id: str, seats: int, state: Any, moves: list[tuple[int, Move]]) -> Played:
    """A game played on from a position set up by hand (no record can hold that start)."""
    eng = get_engine(engine_id)
    states, events = [state], [[]]
    for seat, move in moves:
        after = eng.apply(state, seat, move)
        events.append(eng.events(state, seat, move, after))
        states.append(after)
        state = after
    return Played(eng, seats, states, moves, events)


# -- Schöne ----------------------------------------------------------------------------------
def test_schoene_cards_runs_and_chips_of_a_stacked_game() -> None:
    game = replay(get_engine("schoene"), 3, 1, SCHOENE_OPTIONS, SCHOENE_MOVES)
    assert game.result()["scores"] == SCHOENE_SCORES
    assert table(game) == SCHOENE_STATS
    kinds = {s.name: s.kind for s in statistics(game)[0]}
    assert kinds["longest_run"] == "max" and kinds["card_points"] == "points"


def test_schoene_without_pigs_counts_no_pigs() -> None:
    moves = [(0, {"type": "pay"}), *SCHOENE_MOVES[1:]]
    game = replay(get_engine("schoene"), 3, 1, {**SCHOENE_OPTIONS, "lucky_pig": False}, moves)
    assert "pigs_taken" not in table(game)


# -- Das Zwergenamulett ----------------------------------------------------------------------
def zwerg_game(tricks: int, claim_after: bool) -> Played:
    """Seat 0 sweeps the first round's tricks (both amulets among them), announcing seven
    dwarves after `tricks` of them if `claim_after`; then seat 1 announces falsely at once in
    every round until the round limit ends the game."""
    follow = ["drache"] * 4 + ["riese"] * 4 + ["magier"] * 4
    moves: list[tuple[int, Move]] = []
    for lead, answer in list(zip(SWEEP_LEADS, follow, strict=True))[:tricks]:
        moves += [(0, {"type": "play", "card": lead}), (1, {"type": "play", "card": answer})]
    if claim_after:
        moves.append((0, {"type": "claim_seven"}))
    moves += [(1, {"type": "claim_seven"})] * (MAX_ROUNDS - 1)
    options = {"stack": zwerg_stack(SWEEP), "first": 0}
    return replay(get_engine("zwergenamulett"), 2, 7, options, moves)


def test_zwergenamulett_tricks_and_amulets_of_a_swept_round() -> None:
    game = zwerg_game(12, claim_after=False)
    assert game.result()["winners"] == [0]
    assert table(game) == {
        "tricks_won": [12, 0],
        "amulets_won": [2, 0],
        "amulet_bonus": [10, 0],  # one amulet counts the 10 dwarves won
        "rounds_won": [1, 0],
        "round_points": [115, 0],
        "best_round": [115, 0],
        "seven_dwarves": [0, 0],
    }


def test_zwergenamulett_seven_dwarves_shown() -> None:
    game = zwerg_game(7, claim_after=True)  # 8 dwarves in seven tricks, no amulet yet
    found = table(game)
    assert found["seven_dwarves"] == [1, 0] and found["rounds_won"] == [1, 0]
    assert found["tricks_won"] == [7, 0] and found["amulets_won"] == [0, 0]
    assert found["round_points"] == [0, 0]  # a round won by announcing scores no points


# -- Skip-Bo Breakers ------------------------------------------------------------------------
def test_skipbo_breakers_and_tiles_left_of_a_stacked_hand() -> None:
    # Seat 0 leads 1..15; seat 1 breaks it with three 15s and leads an SB as 8; seat 0 answers
    # with three 7s, then goes out with a pair of 9s. Seat 1 keeps 16 tiles: 16 points.
    hands = [[*range(1, 16), 7, 7, 7, 9, 9], ["SB"]]
    options = {"stack": skipbo_stack(hands), "first": 0, "points_to_win": 10}
    moves = [(0, tiles(list(range(1, 16)))), (1, tiles([15, 15, 15])), (0, PASS),
             (1, tiles(["SB"], [8])), (0, tiles([7, 7, 7])), (1, PASS), (0, tiles([9, 9])),
             (1, PASS)]
    game = replay(get_engine("skipbo_breakers"), 2, 7, options, moves)
    assert game.result()["winners"] == [0]
    assert table(game) == {
        "breakers": [1, 1],
        "tiles_left": [0, 16],
        "hands_won": [1, 0],
        "best_hand": [16, 0],
        "tiles_played": [20, 4],
        "jokers_played": [0, 1],
        "largest_set": [15, 3],
        "tricks_won": [2, 1],
    }


# -- Scho K.O. -------------------------------------------------------------------------------
def test_schoko_largest_group_and_level_two_on_a_hand_built_layout() -> None:
    # One strip two pieces high, every tile unturned: eleven w3 (W W / W D), ten w2
    # (W W / D D), ten w1 (W D / D D), and last a w1s on level 2 over the first two w2,
    # turning the top piece at x 24 dark. White: the top row up to x 23 and the w3's white
    # bottoms (24 + 11 = 35); the top row from x 25 to the first w1's white (17 + 1 = 18);
    # nine lone whites of the w1. Dark: ten lone darks under the w3; all the rest (52).
    w3 = ["w3s", "w3", "w3s", "w3", "w3s"] + ["w3"] * 6
    w2 = ["w2"] * 6 + ["w2s"] * 4
    w1 = ["w1s", "w1s"] + ["w1"] * 8
    lays = [(tile, 2 * i, 0, 0, 1) for i, tile in enumerate(w3 + w2 + w1)]
    lays.append(("w1s", 23, 0, 0, 2))
    stack = schoko_stack([lay[0] for lay in lays[0::2]], [lay[0] for lay in lays[1::2]])
    moves = [(0, {"type": "colour", "colour": "white"})]
    moves += [(i % 2, place(*lay)) for i, lay in enumerate(lays)]
    game = replay(get_engine("schoko"), 2, 1, {"stack": stack, "first": 0}, moves)
    assert game.result()["winners"] == [1]
    assert table(game) == {
        "largest_group": [35, 52],
        "second_group": [18, 1],
        "groups": [11, 11],
        "level2_tiles": [0, 1],
        "smarties_laid": [6, 4],
        "tiles_laid": [16, 16],
        "group_share": [56, 84],  # 35 of 62 white pieces seen from above, 52 of 62 dark
        "passes": [0, 0],
    }


# -- Chez Geek -------------------------------------------------------------------------------
def test_chez_geek_counts_a_cancelled_card_in_a_recorded_game() -> None:
    # Seat 0 shops for Gullys; seat 1 stops the trip with Pech gehabt. Then strong bots that
    # never cancel play the game out.
    eng = get_engine("chez_geek")
    jobs = ["support_hotline", "hiwi"]
    in_play = [j for j in JOBS if j not in ("slacker", "drummer")]
    options = {"first": 0, "dice": [3], "jobs": jobs + [j for j in in_play if j not in jobs],
               "stack": chez_stack(2, {0: ["gullys"], 1: ["pech_gehabt"]}, [], [])}
    moves: list[tuple[int, Move]] = [
        (1, {"type": "pass"}), (0, {"type": "end_phase"}), (1, {"type": "pass"}),
        (0, {"type": "shop", "cards": ["gullys"]}), (1, {"type": "cancel", "card": "pech_gehabt"}),
    ]
    state = eng.new_game(2, 11, options)
    for seat, move in moves:
        state = eng.apply(state, seat, move)
    rng, bot = random.Random(5), eng.bots["strong"]
    while not eng.is_over(state):
        seat = sorted(eng.to_act(state), key=lambda s: s != eng.turn(state))[0]
        move = bot.choose(eng, state, seat, rng)
        if move is None or move["type"] in ("cancel", "tv"):
            move = {"type": "pass"}
        moves.append((seat, move))
        state = eng.apply(state, seat, move)
    game = replay(eng, 2, 11, options, moves)
    found = table(game)
    assert found["cancelled"] == [0, 1]
    assert found["cancelled_own"] == [1, 0]
    assert sum(found["turns"]) == game.result()["turns"]
    slack = [sum(found[f"slack_{kind}"][seat] for kind in ("person", "thing", "activity", "other"))
             for seat in (0, 1)]
    assert slack == game.result()["scores"]


def test_chez_geek_slack_by_kind_and_cards_cancelled() -> None:
    # Peter (Support-Hotline, goal 20) holds 19 slack: two persons (3 + 1), two Things
    # (2 + 5), two activities (1 + 1), the Couch lying in his room (2) and 4 in his bonus
    # pool. Maike stops his Gullys once; he buys them again and wins with 20.
    room = ["lebensabschnittspartner", "feliz", "pizza", "gamestation", "schlafen",
            "im_netz_surfen", "couch_vom_sperrmuell"]
    state = chez_game(["support_hotline", "hiwi"], {0: ["gullys"], 1: ["pech_gehabt"]},
                      dice=[3], rooms={0: room})
    poke(state, pool=(4, 0))
    state = to_phase(state, "free_time")
    eng = get_engine("chez_geek")
    moves: list[tuple[int, Move]] = []

    def act(seat: int, move: Move) -> None:
        nonlocal state
        moves.append((seat, move))
        state = eng.apply(state, seat, move)

    start = state
    act(0, {"type": "shop", "cards": ["gullys"]})
    act(1, {"type": "cancel", "card": "pech_gehabt"})
    while eng.to_act(state) != [0]:
        act(eng.to_act(state)[0], {"type": "pass"})
    act(0, {"type": "shop", "cards": ["gullys"]})
    while not eng.is_over(state):
        act(eng.to_act(state)[0], {"type": "pass"})
    game = staged("chez_geek", 2, start, moves)
    assert game.result()["scores"] == [20, 0]
    assert table(game) == {
        "slack_person": [4, 0],
        "slack_thing": [8, 0],
        "slack_activity": [2, 0],
        "slack_other": [6, 0],
        "cancelled": [0, 1],
        "cancelled_own": [1, 0],
        "not_home": [0, 0],
        "turns": [1, 0],
    }


# -- every game ------------------------------------------------------------------------------
# The statistics issue #26 names for each game, at least.
NAMED = {
    "schoene": {"cards_taken", "longest_run", "chips_left"},
    "zwergenamulett": {"tricks_won", "amulets_won"},
    "skipbo_breakers": {"breakers", "tiles_left"},
    "schoko": {"largest_group", "level2_tiles"},
    "chez_geek": {"slack_person", "slack_thing", "slack_activity", "slack_other", "cancelled"},
}


class Sealed:
    """A state nobody may look into: a game's statistics may only hand it to the engine."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state


class PublicOnly:
    """An engine that shows a statistics function the spectator's view and the result, and
    fails the test if it asks for any seat's view."""

    def __init__(self, engine_id: str) -> None:
        self.engine = get_engine(engine_id)
        self.id = engine_id

    def view(self, state: Sealed, seat: int | None) -> dict[str, Any]:
        assert seat is None, "statistics asked for a seat's private view"
        return self.engine.view(state.state, None)

    def result(self, state: Sealed) -> dict[str, Any]:
        return self.engine.result(state.state)

    def is_over(self, state: Sealed) -> bool:
        return self.engine.is_over(state.state)

    def statistics(self, game: Played) -> Any:
        return self.engine.statistics(game)


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_every_game_counts_the_same_statistics_for_every_seat_from_public_views(
    engine_id: str,
) -> None:
    eng = get_engine(engine_id)
    for seats in sorted({eng.min_players, eng.max_players}):
        moves = random_game(eng, seats, 3)
        game = replay(eng, seats, 3, None, moves)
        public: Any = PublicOnly(engine_id)
        sealed = Played(public, seats, [Sealed(s) for s in game.states], game.moves, game.events)
        rows = statistics(sealed)
        assert rows == statistics(game)
        assert len(rows) == seats
        names = [stat.name for stat in rows[0]]
        assert NAMED[engine_id] <= set(names)
        assert len(names) == len(set(names))
        for row in rows:
            assert all(stat.kind in KINDS for stat in row)
            msgpack.packb([stat.as_dict() for stat in row])


def test_an_unfinished_game_has_no_statistics() -> None:
    eng = get_engine("schoene")
    game = replay(eng, 3, 1, SCHOENE_OPTIONS, SCHOENE_MOVES[:-1])
    with pytest.raises(ValueError, match="finished"):
        statistics(game)
