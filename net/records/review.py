"""The review of a recorded game: every decision of one seat, judged by the expert
(engines.coach) from that seat's view at the time, one row a decision.

A decision is a state at which the seat made the record's next move and had more than one
legal move (a forced move teaches nothing). The seat's memory (`ExpertBot.remembered`: what a
game's view forgets and a player at the table would still know) is fed the seat's view of
every state in order, and told each move the seat made, as it would have been at the table.

A review takes a while (a search a decision), so it reports its progress and keeps every row
it finished in the data directory (`reviews/`, keyed by the record's hash, the seat, the
budget and the seed): a review left half way is taken up where it stopped, and one finished
is shown again at once. The cache holds only what the record already holds plus the expert's
numbers; it is private to the user as the records are.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import coach
from engines.base import Move, View
from net import home
from net.records.record import Record, RecordError, Replay

# The seed a review's searches are drawn from unless another is asked for.
DEFAULT_SEED = 1
# Version of the cached rows: a change of their meaning must not reuse old ones.
CACHE_VERSION = 1


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the state number it was made at, the seat's view
    then (with what it remembered), its legal moves and the move it made."""

    state: int
    view: View
    legal: list[Move]
    move: Move


def seats_to_review(record: Record) -> list[int]:
    """The seats whose decisions may be reviewed: every seat of a finished game, only this
    terminal's own before the end (the others' views are still secret)."""
    return [s for s in record.viewers() if s is not None]


def check_seat(record: Record, seat: int) -> None:
    """RecordError saying why `seat` cannot be reviewed in `record`, if it cannot."""
    if not 0 <= seat < len(record.players):
        raise RecordError(f"the game has seats 1 to {len(record.players)}: there is no seat "
                          f"{seat + 1}")
    if seat not in seats_to_review(record):
        raise RecordError("the game is not over: only your own seats can be reviewed")


def decisions(replay: Replay, seat: int) -> Iterator[Decision]:
    """The seat's decisions in order, each with the view the seat then had and remembered."""
    eng = replay.engine
    expert = coach.expert_of(eng)
    recall = expert.recall
    moves = replay.record.moves
    for n in range(len(moves)):
        state = replay.states[n]
        view = expert.remembered(eng.view(state, seat))
        who, move = moves[n]
        if who != seat:
            continue
        if recall is not None:
            recall.played(view, move)
        legal = eng.legal_moves(state, seat)
        if len(legal) > 1:
            yield Decision(n, view, legal, move)


def record_hash(record: Record) -> str:
    """What identifies a game's content: its header and moves (not the file's name)."""
    text = json.dumps([record.header, record.moves], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_path(record: Record, seat: int, iterations: int, seed: int) -> Path:
    name = f"{record_hash(record)[:32]}-{seat}-{iterations}-{seed}.json"
    return home.data_dir() / "reviews" / name


def _load_cache(path: Path) -> dict[int, dict[str, Any] | None]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return {}
    rows = data.get("rows")
    if not isinstance(rows, dict):
        return {}
    out: dict[int, dict[str, Any] | None] = {}
    for key, row in rows.items():
        with contextlib.suppress(ValueError):
            if row is None or isinstance(row, dict):
                out[int(key)] = row
    return out


def _save_cache(path: Path, rows: dict[int, dict[str, Any] | None]) -> None:
    """Best effort: a data directory that refuses costs the cache, never the review."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        text = json.dumps({"version": CACHE_VERSION, "rows": {str(k): v for k, v in rows.items()}})
        home.write_private(path, text)


Progress = Callable[[int, int], None]


def review(
    replay: Replay,
    seat: int,
    *,
    iterations: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
    cache: bool = True,
    stop: Callable[[], bool] | None = None,
) -> list[dict[str, Any]]:
    """One row a judged decision of `seat` (see `row`), on `iterations` a decision (default:
    the coach's review budget for the game), each search seeded from `seed` and the state
    number. `progress(done, total)` after each decision; `stop()` true ends the review early
    (what was finished is kept); `cache`: take up and keep rows in the data directory."""
    record = replay.record
    check_seat(record, seat)
    eng = replay.engine
    iterations = iterations or coach.budget(eng, coach.REVIEW)
    path = cache_path(record, seat, iterations, seed)
    kept = _load_cache(path) if cache else {}
    found = list(decisions(replay, seat))
    rows: list[dict[str, Any]] = []
    for done, d in enumerate(found, 1):
        if stop is not None and stop():
            break
        if d.state in kept:
            judged = kept[d.state]
        else:
            rng = random.Random(seed * 1_000_003 + d.state)
            found_judgement = coach.judge(eng, d.view, d.legal, d.move, iterations, rng)
            judged = None if found_judgement is None else coach.as_row(found_judgement)
            kept[d.state] = judged
            if cache:
                _save_cache(path, kept)
        if judged is not None:
            rows.append({"state": d.state, "seat": seat, **judged})
        if progress is not None:
            progress(done, len(found))
    return rows


def decision_at(replay: Replay, seat: int, state: int) -> Decision | None:
    """The seat's decision made at `state` (None: it made none there)."""
    return next((d for d in decisions(replay, seat) if d.state == state), None)


def counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    """How many decisions got each grade."""
    out = dict.fromkeys(coach.GRADES, 0)
    for r in rows:
        out[r["grade"]] = out.get(r["grade"], 0) + 1
    return out
