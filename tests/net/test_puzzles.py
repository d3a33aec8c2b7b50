"""Puzzles: mined from records where one move is clearly best from the seat's own view,
holding that view and nothing more, rated in the table's store (both backends) as Lichess
rates them (the puzzle is the opponent), served by rating; the shipped set loads."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from netsupport import local_game
from puzzle_cases import GAME, ITERATIONS, bot_game, mined

from engines import get_engine
from engines.search import canonical
from net.players import identity, ladder
from net.players.sql import VERSION
from net.puzzles import book as puzzle_book
from net.puzzles import mine
from net.puzzles.book import PuzzleBook
from net.puzzles.puzzle import PuzzleError, dump_set, parse_set, shipped
from net.puzzles.rating import PuzzleSkill

# Every field a puzzle holds: the seat's view and legal moves, the answer and the expert's
# numbers, where it comes from, its rating. Nothing of the deal.
FIELDS = {"game", "seat", "view", "legal", "best", "top", "digest", "state", "rating",
          "source", "tags", "id"}


def test_a_small_bot_game_gives_puzzles_whose_best_move_is_clearly_best() -> None:
    puzzles = mined()
    assert puzzles, "no puzzle in a whole bot game"
    eng = get_engine(GAME)
    replay = bot_game()
    for puzzle in puzzles:
        state = replay.states[puzzle.state]
        assert puzzle.seat in eng.to_act(state)
        assert canonical(puzzle.legal) == canonical(eng.legal_moves(state, puzzle.seat))
        assert puzzle.solves(puzzle.best[0])
        assert puzzle.digest == mine.record_digest(replay.record)
        # Checked again from the puzzle alone, the same move is clearly best.
        again = mine.clearly_best(eng, puzzle.view, puzzle.legal, iterations=ITERATIONS)
        assert again is not None and canonical(again.best) == canonical(puzzle.best[0])
        tops = [t.win for t in puzzle.top]
        assert tops[0] - max(tops[1:]) >= mine.MARGIN - 1e-9


def test_clearly_best_refuses_a_close_call_and_a_single_move() -> None:
    eng = get_engine(GAME)
    replay = bot_game()
    close = None
    for _number, _seat, view, legal in mine.decisions(replay):
        lead = mine._lead(mine._search(eng, view, legal, ITERATIONS, 1))
        if lead is not None and lead[1] < 0.01:
            close = (view, legal)
            break
    assert close is not None, "every position of the game had a clear best move"
    assert mine.clearly_best(eng, *close, iterations=ITERATIONS) is None
    view, legal = close
    assert mine.clearly_best(eng, view, legal[:1], iterations=ITERATIONS) is None


def test_a_puzzle_holds_exactly_its_seats_view_and_nothing_of_the_deal() -> None:
    """The attacker reads the puzzle file: all they find is what the seat saw. The view is
    the engine's view of that seat, and a puzzle made from a state whose hidden rest is drawn
    afresh (other hands, the draw pile, the seed) is the same puzzle."""
    eng = get_engine(GAME)
    replay = bot_game()
    for puzzle in mined():
        assert set(puzzle.to_json()) == FIELDS
        state = replay.states[puzzle.state]
        assert puzzle.view == json.loads(json.dumps(eng.view(state, puzzle.seat)))
        other = 1 - puzzle.seat
        assert puzzle.view != json.loads(json.dumps(eng.view(state, other)))
        for draw in range(3):
            elsewhere = eng.from_view(puzzle.view, random.Random(draw))  # type: ignore[attr-defined]
            assert eng.view(elsewhere, puzzle.seat) == eng.view(state, puzzle.seat)
            again = mine.puzzle_at(eng, eng.view(elsewhere, puzzle.seat),
                                   eng.legal_moves(elsewhere, puzzle.seat),
                                   iterations=ITERATIONS, digest=puzzle.digest,
                                   state=puzzle.state)
            assert again == puzzle
        text = json.dumps(puzzle.to_json())
        assert str(replay.record.header["seed"]) not in text


def test_a_set_reads_back_and_a_broken_one_is_refused_with_a_sentence() -> None:
    puzzles = list(mined())
    assert parse_set(dump_set(puzzles)) == puzzles
    with pytest.raises(PuzzleError, match="not a puzzle set"):
        parse_set("[1, 2")
    with pytest.raises(PuzzleError, match="not a tabletop-tui puzzle set"):
        parse_set(json.dumps({"puzzles": []}))
    cheat = replace(puzzles[0], best=[{"type": "win_now"}]).to_json()
    with pytest.raises(PuzzleError, match="best move is not legal"):
        parse_set(dump_set([]).replace("[\n\n]", "[" + json.dumps(cheat) + "]"))
    peek = replace(puzzles[0], seat=1 - puzzles[0].seat).to_json()
    with pytest.raises(PuzzleError, match="view is not its seat's"):
        parse_set(dump_set([]).replace("[\n\n]", "[" + json.dumps(peek) + "]"))


def test_the_shipped_set_loads_and_every_best_move_is_legal_in_its_view() -> None:
    every = shipped()
    assert every, "the package ships no puzzle"
    assert {p.game for p in every} >= {GAME}
    assert len({p.id for p in every}) == len(every)
    for puzzle in every:
        eng = get_engine(puzzle.game)
        assert set(puzzle.to_json()) == FIELDS
        legal = {canonical(m) for m in puzzle.legal}
        assert all(canonical(m) in legal for m in puzzle.best)
        # The view is a whole view of that seat: the engine rebuilds a state from it that
        # shows the seat the same view and offers the same moves.
        state = eng.from_view(puzzle.view, random.Random(0))  # type: ignore[attr-defined]
        assert json.loads(json.dumps(eng.view(state, puzzle.seat))) == puzzle.view
        assert canonical(eng.legal_moves(state, puzzle.seat)) == canonical(puzzle.legal)


# -- the table's store ---------------------------------------------------------------------------
def test_the_store_migrates_to_the_puzzle_tables(store_at: str) -> None:
    store = ladder.open_store()
    try:
        assert store.version() == VERSION  # type: ignore[attr-defined]
        assert PuzzleBook(store).own(GAME) == []
    finally:
        store.close()


def test_a_wrong_answer_lowers_the_player_and_raises_the_puzzle(store_at: str) -> None:
    puzzle = mined()[0]
    with puzzle_book.opened() as book:
        done = book.attempt(puzzle, "id:wrong", solved=False)
        assert done.rated and not done.solved
        assert done.player_after.mu < done.player_before.mu == PuzzleSkill().mu
        assert done.puzzle_after.mu > done.puzzle_before.mu == puzzle.rating
        assert book.player_rating(GAME, "id:wrong") == done.player_after
        assert book.puzzle_rating(puzzle) == done.puzzle_after
        # Tried again: nothing moves (the player knows the answer now).
        again = book.attempt(puzzle, "id:wrong", solved=True)
        assert not again.rated
        assert book.player_rating(GAME, "id:wrong") == done.player_after
        assert book.puzzle_rating(puzzle) == done.puzzle_after
        # Another player solves it: they rise, the puzzle falls from where the first left it.
        solved = book.attempt(puzzle, "id:right", solved=True)
        assert solved.rated and solved.player_after.mu > PuzzleSkill().mu
        assert solved.puzzle_before == done.puzzle_after
        assert solved.puzzle_after.mu < done.puzzle_after.mu
        assert book.tried(GAME, "id:wrong") == {puzzle.id: False}
        assert book.tried("schoene", "id:wrong") == {}
        # Nobody: rates nothing.
        nobody = book.attempt(puzzle, None, solved=True)
        assert not nobody.rated and book.puzzle_rating(puzzle) == solved.puzzle_after


def test_the_next_puzzle_is_the_untried_one_closest_to_the_players_rating(
        store_at: str) -> None:
    base = mined()[0]
    pool = [replace(base, state=base.state + k, rating=r)
            for k, r in enumerate((1100.0, 1450.0, 1900.0))]
    with puzzle_book.opened() as book:
        assert book.next(pool, "id:ana") == pool[1]  # 1500 to start: 1450 is closest
        assert book.next(pool, "id:ana", skip=[pool[1].id]) == pool[0]
        book.attempt(pool[1], "id:ana", solved=True)  # up to about 1600
        assert book.next(pool, "id:ana") == pool[2]
        book.attempt(pool[2], "id:ana", solved=False)
        book.attempt(pool[0], "id:ana", solved=True)
        assert book.next(pool, "id:ana") == pool[2]  # all tried: the one got wrong, again
        book.attempt(pool[2], "id:ana", solved=True)
        assert book.next(pool, "id:ana") == pool[2]
        assert book.tried(GAME, "id:ana")[pool[2].id] is False  # the first try counts


def person_record(seed: int, *, drawn: bool = True) -> Path:
    """A local game as the app records it: this installation's player (proven), choosing at
    random, against a strong bot."""
    me = identity.mine()
    assert me is not None
    return local_game(GAME, seed, me, drawn=drawn, bots=("strong",))


def test_a_table_mines_its_players_counted_records_into_its_store(store_at: str) -> None:
    counted = person_record(5)
    practice = person_record(6, drawn=False)  # a chosen seed: it counts for nothing
    found = list(mine.counted_records())
    assert [r.path for r in found] == [counted]
    assert practice.exists()
    puzzles = mine.mine_records(found, GAME, iterations=ITERATIONS, per_record=2)
    assert puzzles and {p.seat for p in puzzles} == {0}  # the person's decisions only
    assert all(p.source == "table" for p in puzzles)
    with puzzle_book.opened() as book:
        assert book.add(puzzles) == len(puzzles)
        assert book.add(puzzles) == 0
        assert book.own(GAME) == sorted(puzzles, key=lambda p: p.id)
        served = puzzle_book.pool(book, GAME)
        assert {p.id for p in puzzles} <= {p.id for p in served}
        assert {p.id for p in shipped(GAME)} <= {p.id for p in served}


def test_mining_a_table_looks_at_each_record_once(store_at: str) -> None:
    person_record(7)
    with puzzle_book.opened() as book:
        found, added = puzzle_book.mine_table(book, GAME, iterations=ITERATIONS)
        assert found and added == len(found)
        assert {p.id for p in book.own(GAME)} == {p.id for p in found}
        assert puzzle_book.mine_table(book, GAME, iterations=ITERATIONS) == ([], 0)
        assert puzzle_book.mine_table(book, "schoene", iterations=ITERATIONS) == ([], 0)
