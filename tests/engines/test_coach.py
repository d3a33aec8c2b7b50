"""The coach's arithmetic (engines.coach): one budget rule, grades by named thresholds, and a
judgement made from the seat's view alone: the hidden rest of the table never enters."""

from __future__ import annotations

import random

import pytest

from engines import ENGINE_IDS, coach, get_engine

SMALL = 40  # iterations: enough to weigh a few moves, quick in a test


def test_grades_follow_the_named_thresholds() -> None:
    assert coach.grade_of(0.0) == coach.GOOD
    assert coach.grade_of(coach.INACCURACY_LOSS - 1e-9) == coach.GOOD
    assert coach.grade_of(coach.INACCURACY_LOSS) == coach.INACCURACY
    assert coach.grade_of(coach.MISTAKE_LOSS) == coach.MISTAKE
    assert coach.grade_of(coach.BLUNDER_LOSS) == coach.BLUNDER
    assert coach.grade_of(1.0) == coach.BLUNDER


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_one_budget_rule_sizes_hints_reviews_and_puzzles(engine_id: str) -> None:
    eng = get_engine(engine_id)
    hint = coach.budget(eng, coach.HINT)
    assert hint == coach.expert_of(eng).iterations  # a hint thinks as the expert plays
    assert hint < coach.budget(eng, coach.REVIEW) <= coach.budget(eng, coach.PUZZLE)
    with pytest.raises(ValueError, match="no budget"):
        coach.budget(eng, "blitz")


def a_decision(engine_id: str, seed: int) -> tuple[object, int, list[dict[str, object]]]:
    """A state of a strong bots' game where the seat to move has several legal moves."""
    eng = get_engine(engine_id)
    state = eng.new_game(3 if eng.max_players >= 3 else 2, seed)
    rng = random.Random(seed)
    while True:
        seat = eng.to_act(state)[0]
        legal = eng.legal_moves(state, seat)
        if len(legal) > 2 and rng.random() < 0.3:
            return state, seat, legal
        move = eng.bots["strong"].choose(eng, state, seat, rng)
        assert move is not None
        state = eng.apply(state, seat, move)


@pytest.mark.parametrize("engine_id", ["schoene", "skipbo_breakers", "schoko"])
def test_a_judgement_reads_only_the_view(engine_id: str) -> None:
    """The same view over two tables whose hidden cards differ (from_view's samples) gives the
    same judgement, number for number: nothing behind the view is read."""
    eng = get_engine(engine_id)
    state, seat, legal = a_decision(engine_id, 5)
    view = eng.view(state, seat)
    other = eng.from_view(view, random.Random(99))  # type: ignore[attr-defined]
    assert eng.view(other, seat) == view
    made = legal[-1]
    first = coach.judge(eng, view, legal, made, SMALL, random.Random(1))
    second = coach.judge(eng, eng.view(other, seat), eng.legal_moves(other, seat), made, SMALL,
                         random.Random(1))
    assert first is not None and first == second
    assert first.choice(made) is not None  # the move made is weighed (even off the shortlist)
    assert first.before >= first.after and first.grade == coach.grade_of(first.sure_loss)
    assert first.agreed == (first.best == made)


def test_a_forced_move_or_a_move_not_legal_is_not_judged() -> None:
    eng = get_engine("schoene")
    state, seat, legal = a_decision("schoene", 3)
    view = eng.view(state, seat)
    assert coach.judge(eng, view, legal[:1], legal[0], SMALL, random.Random(1)) is None
    assert coach.judge(eng, view, legal, {"type": "nonsense"}, SMALL, random.Random(1)) is None


def test_a_judgement_survives_its_plain_form() -> None:
    eng = get_engine("skipbo_breakers")
    state, seat, legal = a_decision("skipbo_breakers", 4)
    found = coach.judge(eng, eng.view(state, seat), legal, legal[0], SMALL, random.Random(2))
    assert found is not None
    assert coach.from_row(coach.as_row(found)).grade == found.grade
    assert coach.from_row(coach.as_row(found)).best == found.best
