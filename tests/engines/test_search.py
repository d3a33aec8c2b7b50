"""The expert bot (engines.search): legal, deterministic, sees only its view, finds a sure win.

Budgets are small fixed iteration counts (no clock), so every figure here is reproducible;
how strong the expert is at its real budget is for `python -m bench.bots`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench import bot_move
from engines import ENGINE_IDS, get_engine
from engines.base import Engine
from engines.search import Analysis, Choice, ExpertBot, anchored, canonical

PLAYERS = {"schoko": 2}


def expert(eng: Engine, iterations: int = 24) -> ExpertBot:
    bot = eng.bots["expert"]
    assert isinstance(bot, ExpertBot)
    return bot.with_budget(iterations, None)


def positions(eng: Engine, seed: int, every: int = 7) -> list[Any]:
    """States along a game between strong bots, every `every`th move."""
    n = PLAYERS.get(eng.id, 4)
    state = eng.new_game(n, seed)
    found = []
    for step in range(400):
        if eng.is_over(state):
            break
        if step % every == 3:
            found.append(state)
        state = eng.apply(state, *bot_move(eng, state, ["strong"] * n, random.Random(step)))
    return found


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_expert_is_a_level_of_every_game(engine_id: str) -> None:
    assert isinstance(get_engine(engine_id).bots["expert"], ExpertBot)


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_expert_plays_only_legal_moves(engine_id: str) -> None:
    """One expert among strong bots over seeded games: `apply` would raise on a move the
    rules forbid, and a None is only ever given where someone else may move instead."""
    eng = get_engine(engine_id)
    n = PLAYERS.get(engine_id, 3)
    bot = expert(eng, 12)
    for seed in range(2):
        levels = ["strong"] * n
        levels[seed % n] = "x"
        state = eng.new_game(n, seed)
        expert_moves = 0
        for step in range(250):
            if eng.is_over(state):
                break
            rng = random.Random(f"{seed}:{step}")
            for seat in eng.to_act(state):
                if levels[seat] == "x":
                    move = bot.choose(eng, state, seat, rng)
                    if move is not None:
                        expert_moves += 1
                else:
                    move = eng.bots["strong"].choose(eng, state, seat, rng)
                if move is not None:
                    state = eng.apply(state, seat, move)
                    break
            else:
                raise AssertionError(f"every seat passed at step {step}")
        assert expert_moves > 0


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_expert_is_deterministic_for_a_seed_and_budget(engine_id: str) -> None:
    eng = get_engine(engine_id)
    bot = expert(eng, 40)
    state = positions(eng, 3)[2]
    for seat in eng.to_act(state):
        first = bot.choose(eng, state, seat, random.Random(9))
        again = bot.choose(eng, state, seat, random.Random(9))
        assert first == again


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_from_view_rebuilds_what_the_seat_sees(engine_id: str) -> None:
    """A state rebuilt from a view shows that seat exactly the same view, and its hidden part
    is drawn afresh (another seat's view of it differs in some position)."""
    eng = get_engine(engine_id)
    differs = 0
    for state in positions(eng, 5, every=5):
        n = eng.view(state, None)["num_players"]
        for seat in range(n):
            view = eng.view(state, seat)
            rebuilt = eng.from_view(view, random.Random(seat))  # type: ignore[attr-defined]
            assert eng.view(rebuilt, seat) == view
            assert eng.to_act(rebuilt) == eng.to_act(state)
            for s in eng.to_act(state):
                legal = eng.legal_moves(state, s)
                if s == seat:
                    assert eng.legal_moves(rebuilt, s) == legal
            other = (seat + 1) % n
            differs += eng.view(rebuilt, other) != eng.view(state, other)
    assert differs > 0


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_expert_never_reads_hidden_state(engine_id: str) -> None:
    """Two states that one seat cannot tell apart (its view is the same) but whose hidden
    parts differ (other hands, the draw order, the seed behind future deals) get the same
    decision, analysis and all."""
    eng = get_engine(engine_id)
    bot = expert(eng, 40)
    checked = 0
    for state in positions(eng, 11, every=9)[:4]:
        for seat in eng.to_act(state):
            if not eng.legal_moves(state, seat):
                continue
            view = eng.view(state, seat)
            rng = random.Random(1)
            if hasattr(eng, "from_view"):
                twin = eng.from_view(view, rng)
            else:
                twin = eng.determinize(state, seat, rng)
            assert eng.view(twin, seat) == view
            a = bot.choose(eng, state, seat, random.Random(4))
            b = bot.choose(eng, twin, seat, random.Random(4))
            assert canonical(a) == canonical(b)
            checked += 1
    assert checked > 0


def test_expert_takes_the_card_that_wins_at_once() -> None:
    """Schöne Sch#!?e, the last card: taking the 21 joins my 20 and 22 and ends the game with
    me winning whatever chips the others hide; paying hands the game to chance."""
    eng = get_engine("schoene")
    view = eng.view(eng.new_game(3, 0, {"first": 0}), 0)
    view.update(centre=21, centre_chips=0, deck_left=0, my_chips=5)
    view["players"][0].update(cards=[20, 22], pig_in_hand=False, chips=None)
    view["players"][1].update(cards=[24, 26], pig_in_hand=False)
    view["players"][2].update(cards=[28, 30, 32, 34], pig_in_hand=False)
    state = eng.from_view(view, random.Random(0))  # type: ignore[attr-defined]
    legal = eng.legal_moves(state, 0)
    assert {m["type"] for m in legal} == {"take", "pay"}
    bot = expert(eng, 200)
    analysis = bot.analyse(eng.view(state, 0), legal, random.Random(2))
    assert analysis is not None
    assert analysis.best.move == {"type": "take"}
    assert analysis.best.win == 1.0


def test_expert_lets_a_window_pass_or_answers_it() -> None:
    """Das Zwergenamulett: every seat may announce at any time. Off its turn the expert lets
    the moment pass (None) unless it has seven dwarves; on its turn it plays a card."""
    eng = get_engine("zwergenamulett")
    bot = expert(eng, 30)
    state = eng.new_game(4, 2)
    turn = eng.view(state, None)["turn"]
    for seat in eng.to_act(state):
        move = bot.choose(eng, state, seat, random.Random(0))
        if seat == turn:
            assert move is not None and move["type"] == "play"
        else:
            assert move is None


FAST = [e for e in ENGINE_IDS if hasattr(get_engine(e), "random_step")]


@pytest.mark.parametrize("engine_id", FAST)
def test_fast_playouts_play_the_same_games_as_apply(engine_id: str) -> None:
    """The in-place path makes the random bots' very moves: from the same seed and generator
    it passes through the same states (every seat's view alike) as `apply`, and leaves the
    state it copied untouched."""
    eng = get_engine(engine_id)
    n = PLAYERS.get(engine_id, 4)
    assert FAST  # at least one engine has the fast path
    for seed in range(6):
        slow = eng.new_game(n, seed)
        fast = eng.playout_copy(slow)  # type: ignore[attr-defined]
        start_views = [eng.view(slow, s) for s in range(n)]
        origin = slow
        slow_rng, fast_rng = random.Random(seed), random.Random(seed)
        steps = 0
        while not eng.is_over(slow):
            made = eng.random_step(fast, fast_rng)  # type: ignore[attr-defined]
            assert made >= 1
            for _ in range(made):
                slow = eng.apply(slow, *bot_move(eng, slow, ["random"] * n, slow_rng))
            steps += made
            assert [eng.view(fast, s) for s in range(n)] == [eng.view(slow, s) for s in range(n)]
            assert eng.turn(fast) == eng.turn(slow)
        assert eng.is_over(fast) and eng.result(fast) == eng.result(slow)
        assert [eng.view(origin, s) for s in range(n)] == start_views
        assert steps > 10


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_a_networked_expert_decides_as_a_local_one(engine_id: str) -> None:
    """`join --bot expert` has only the frames a peer receives (`decide(view, legal)`); it
    makes the very move the local seat makes from the state (`choose`)."""
    eng = get_engine(engine_id)
    bot = expert(eng, 30)
    state = positions(eng, 13)[1]
    for seat in eng.to_act(state):
        view, legal = eng.view(state, seat), eng.legal_moves(state, seat)
        local = bot.choose(eng, state, seat, random.Random(6))
        assert bot.decide(view, legal, random.Random(6)) == local


def test_the_strong_bots_move_stands_unless_the_search_finds_one_clearly_better() -> None:
    """`anchored`: the strong bot's move goes first unless the best move of the search beats
    it by the margin; a move the search never weighed changes nothing."""

    def analysis(*wins: float) -> Analysis:
        return Analysis([Choice({"type": "m", "i": i}, 10, w) for i, w in enumerate(wins)], 30, 0)

    close = analysis(0.30, 0.29, 0.10)
    anchored(close, {"type": "m", "i": 1}, 0.02)
    assert close.best.move == {"type": "m", "i": 1} and len(close.choices) == 3
    clear = analysis(0.35, 0.29, 0.10)
    anchored(clear, {"type": "m", "i": 1}, 0.02)
    assert clear.best.move == {"type": "m", "i": 0}
    unknown = analysis(0.30, 0.29)
    anchored(unknown, {"type": "m", "i": 5}, 0.02)
    assert unknown.best.move == {"type": "m", "i": 0}
    nothing = analysis()
    anchored(nothing, {"type": "m", "i": 0}, 0.02)  # no iteration (a budget of none)
    assert nothing.choices == []


def test_the_chez_geek_expert_keeps_to_its_guides_move_among_near_equals() -> None:
    """Chez Geek's expert plays its guide's move (the keen strong bot's) unless its search
    found one better by EXPERT_ANCHOR, at every position of a game where it searched."""
    from engines.chez_geek.expert import EXPERT_ANCHOR

    eng = get_engine("chez_geek")
    bot = expert(eng, 40)
    strong = bot.guide
    assert strong is not eng.bots["strong"]
    searched = kept = 0
    for state in positions(eng, 6, every=5):
        for seat in eng.to_act(state):
            view, legal = eng.view(state, seat), eng.legal_moves(state, seat)
            found = bot.analyse(view, legal, random.Random(1))
            if found is None or not found.best.visits or len(found.choices) < 2:
                continue
            searched += 1
            wanted = canonical(strong.decide(view, legal, random.Random(1)))
            mine = [c for c in found.choices if canonical(c.move) == wanted and c.visits]
            if canonical(found.best.move) == wanted:
                kept += 1
            else:
                assert mine and found.best.win - mine[0].win >= EXPERT_ANCHOR
    assert searched > 5 and kept > 0


class SteppedClock:
    """A stand-in for the search's clock: every reading is a hundredth of a second later,
    and `spend` lets a test make work that takes time without waiting for it."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.01
        return self.now

    def spend(self, seconds: float) -> None:
        self.now += seconds


def test_the_experts_seconds_bound_the_whole_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work before the search (here candidates that take half a second) comes out of the
    decision's budget: of 0.6 s the search gets what is left, not 0.6 s more."""
    import engines.search as search

    clock = SteppedClock()
    monkeypatch.setattr(search, "time", clock)
    eng = get_engine("schoko")
    plain = eng.bots["expert"]
    assert isinstance(plain, ExpertBot)

    def slow_candidates(view: Any, legal: list[Any]) -> list[Any]:
        clock.spend(0.5)
        return legal[:3]

    bot = ExpertBot(
        eng,
        rollout=plain.searcher.rollout,
        cutoff=plain.searcher.cutoff,
        max_depth=1,
        candidates=slow_candidates,
        iterations=None,
        seconds=0.6,
    )
    state = eng.new_game(2, 3)
    seat = eng.to_act(state)[0]
    while len(eng.legal_moves(state, seat)) < 4:
        state = eng.apply(state, *bot_move(eng, state, ["strong"] * 2, random.Random(1)))
        seat = eng.to_act(state)[0]
    found = bot.analyse(eng.view(state, seat), eng.legal_moves(state, seat), random.Random(2))
    assert found is not None
    assert 1 <= found.iterations <= 10  # a 0.6 s search would have made about 60
