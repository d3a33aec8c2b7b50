"""Finding puzzles in records: positions where one move is clearly best from the view of
the seat to move, by the expert's own search (`ExpertBot.analyse`) from that view alone.

"Clearly best" is one small function (`clearly_best`): on a large fixed budget of
iterations, searched twice with independent seeds, the same move comes out on top both
times, and its estimated share of the win is at least `MARGIN` above every other move's in
each search. Anything the search cannot weigh (a single legal move, a move the expert leaves
to its rules of thumb, letting an interrupt pass) is no puzzle.

Mining a record first looks at each decision with a quick search (`SCREEN_SHARE` of the
budget, one seed) and checks in full only the positions where it already sees a wide gap:
most positions are close, and the full check is the cost.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.base import Engine, Move, View
from engines.search import Analysis, Choice, canonical
from net.puzzles.puzzle import Puzzle, Top
from net.puzzles.rating import START
from net.records import Record, RecordError, Replay, listing
from net.table.session import HostSession, SeatInfo

# How far (in estimated share of the win) the best move must stand above the second.
MARGIN = 0.10
# The large budget: this many times the game's own expert's iterations per search.
BUDGET_FACTOR = 4
# The two independent searches' seeds.
SEEDS = (1, 2)
# The quick look's share of the budget, and the gap it must see to be checked in full.
SCREEN_SHARE = 0.25
SCREEN_GAP = MARGIN * 0.75
# How many of the expert's top moves a puzzle keeps the numbers of.
TOP_KEPT = 3


@dataclass(frozen=True)
class Finding:
    """A position's clearly best move and the expert's numbers for its top moves (each
    move's share of the win averaged over the searches)."""

    best: Move
    gap: float  # the smallest lead of the best move over the second, over the searches
    top: list[Top]


def budget(eng: Engine) -> int:
    """The large budget of iterations for `eng`'s checks."""
    return BUDGET_FACTOR * int(getattr(eng.bots["expert"], "iterations", None) or 1000)


def _search(eng: Engine, view: View, legal: list[Move], iterations: int,
            seed: int) -> Analysis | None:
    expert = eng.bots["expert"].with_budget(iterations=iterations,  # type: ignore[attr-defined]
                                            seconds=None)
    return expert.analyse(view, legal, random.Random(seed))  # type: ignore[no-any-return]


def _lead(analysis: Analysis | None) -> tuple[Choice, float] | None:
    """The search's top move and its lead over every other move it tried; None when it
    weighed nothing (one move, a deferred move, a pass on top)."""
    if analysis is None or len(analysis.choices) < 2 or not analysis.best.visits:
        return None
    best = analysis.best
    if best.move is None:
        return None
    others = [c.win for c in analysis.choices[1:] if c.visits]
    return best, best.win - max(others, default=0.0)


def clearly_best(eng: Engine, view: View, legal: list[Move], *, iterations: int,
                 margin: float = MARGIN, seeds: Iterable[int] = SEEDS) -> Finding | None:
    """The move that is clearly best from `view` (see the module docstring), or None."""
    found: list[Analysis] = []
    gaps: list[float] = []
    key = None
    for seed in seeds:
        analysis = _search(eng, view, legal, iterations, seed)
        lead = _lead(analysis)
        if lead is None or lead[1] < margin:
            return None
        if key is not None and canonical(lead[0].move) != key:
            return None
        key = canonical(lead[0].move)
        assert analysis is not None
        found.append(analysis)
        gaps.append(lead[1])
    if not found:
        return None
    first = found[0]
    top = []
    for choice in first.choices[:TOP_KEPT]:
        wins = [c.win for a in found for c in a.choices
                if canonical(c.move) == canonical(choice.move)]
        visits = sum(c.visits for a in found for c in a.choices
                     if canonical(c.move) == canonical(choice.move))
        top.append(Top(choice.move, sum(wins) / len(wins), visits))
    return Finding(first.best.move, min(gaps), top)  # type: ignore[arg-type]


def initial_rating(choices: int, gap: float) -> float:
    """Where a new puzzle's rating starts: harder with more moves to choose from, easier the
    wider the best move's lead (attempts soon move it where it belongs)."""
    rating = START + 200 * math.log2(max(choices, 2) / 2) - 1000 * (gap - MARGIN)
    return float(min(2500.0, max(800.0, round(rating))))


def record_digest(record: Record) -> str:
    """A name for the game a record holds: what rebuilds it (engine, options, seed, moves),
    hashed, so a puzzle names its source without holding any of it."""
    head = record.header
    body = {"engine": record.engine_id, "options": head.get("options") or {},
            "seed": head.get("seed"), "moves": record.moves}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def decisions(replay: Replay) -> Iterator[tuple[int, int, View, list[Move]]]:
    """Each decision of the record with more than one move to choose from: (state number,
    seat, that seat's view, its legal moves) before the move it made."""
    eng = replay.engine
    for number, (seat, _move) in enumerate(replay.record.moves):
        state = replay.states[number]
        if seat not in eng.to_act(state):
            continue
        legal = eng.legal_moves(state, seat)
        if len(legal) > 1:
            yield number, seat, eng.view(state, seat), legal


def mine_replay(replay: Replay, *, iterations: int | None = None, limit: int | None = None,
                seats: Iterable[int] | None = None, source: str = "shipped") -> list[Puzzle]:
    """The puzzles of one replayed record (at most `limit`), from the decisions of `seats`
    (default: every seat)."""
    eng = replay.engine
    iterations = iterations or budget(eng)
    wanted = None if seats is None else set(seats)
    digest = record_digest(replay.record)
    found: list[Puzzle] = []
    for number, seat, view, legal in decisions(replay):
        if limit is not None and len(found) >= limit:
            break
        if wanted is not None and seat not in wanted:
            continue
        screen = _lead(_search(eng, view, legal, max(1, int(iterations * SCREEN_SHARE)),
                               SEEDS[0] + 1000))
        if screen is None or screen[1] < SCREEN_GAP:
            continue
        puzzle = puzzle_at(eng, view, legal, iterations=iterations, digest=digest,
                           state=number, source=source)
        if puzzle is not None:
            found.append(puzzle)
    return found


def puzzle_at(eng: Engine, view: View, legal: list[Move], *, iterations: int, digest: str,
              state: int, source: str = "shipped") -> Puzzle | None:
    """The puzzle of one position, made from the seat's view and legal moves alone (and
    where it comes from), if one move is clearly best there."""
    finding = clearly_best(eng, view, legal, iterations=iterations)
    if finding is None:
        return None
    return Puzzle(
        game=eng.id, seat=int(view["seat"]), view=plain(view), legal=plain(legal),
        best=[plain(finding.best)],
        top=[Top(plain(t.move), t.win, t.visits) for t in finding.top],
        digest=digest, state=state, rating=initial_rating(len(legal), finding.gap),
        source=source)


def self_play(game: str, players: int, level: str, seed: int) -> Record:
    """The record of one game of `players` bots of `level` dealt from `seed` (the shipped
    set's source: bot games anyone can play again from the seed)."""
    seats = [SeatInfo(f"Bot {seat + 1}", level) for seat in range(players)]
    session = HostSession(game, seats, seed)
    session.run_bots()
    data = session.record()
    moves = data.pop("moves")
    result = session.result() if session.over else None
    return Record({**data, "kind": "local", "local": []}, moves, session.over,
                  plain(result) if result is not None else None)


def counted_records(folder: Path | None = None) -> Iterator[Record]:
    """The finished records of `folder` (the data directory's) that count for a rating:
    only verified games make a table's puzzles (net.players.counted)."""
    from net.players.counted import Unrated, outcome

    for entry in listing(folder):
        if entry.record is None or not entry.record.over:
            continue
        try:
            outcome(entry.record)
        except Unrated:
            continue
        yield entry.record


def people_seats(record: Record) -> list[int]:
    """The seats people played (a table's puzzles are its players' decisions)."""
    return [seat for seat, p in enumerate(record.players) if not p.get("bot")]


def mine_records(records: Iterable[Record], game: str | None = None, *,
                 iterations: int | None = None, per_record: int | None = 3) -> list[Puzzle]:
    """A table's puzzles from its counted records (of `game`, or every game)."""
    found: list[Puzzle] = []
    for record in records:
        if game is not None and record.engine_id != game:
            continue
        try:
            replay = Replay(record)
        except RecordError:
            continue
        found.extend(mine_replay(replay, iterations=iterations, limit=per_record,
                                 seats=people_seats(record), source="table"))
    return found


def plain(value: Any) -> Any:
    """`value` as JSON gives it back (a view may hold tuples)."""
    return json.loads(json.dumps(value))
