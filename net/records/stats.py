"""The statistics of a recorded game (engines.stats), for the results screen and Past games.

They are worked out from the record every time, never stored with it: a record from before
statistics existed shows them too, and what a record shows cannot disagree with its moves.
Only a finished game has statistics: before the end its record holds the deal, and the
statistics of an unfinished game would tell what its players still hide.
"""

from __future__ import annotations

from typing import Any

from engines.stats import Played, Stat, statistics
from net.records.record import Record, RecordError, Replay


def of_replay(replay: Replay) -> list[list[Stat]] | None:
    """Each seat's statistics of a replayed game; None if it is not over."""
    if not replay.over:
        return None
    record = replay.record
    game = Played(replay.engine, len(record.players), replay.states,
                  [(seat, move) for seat, move in record.moves], replay.events)
    return statistics(game)


def of_record(record: Record) -> list[list[Stat]] | None:
    """Each seat's statistics of a recorded game; None if it is unfinished or does not replay
    (a peer's record before the host revealed the deal, a damaged file)."""
    if not record.over:
        return None
    try:
        return of_replay(Replay(record))
    except RecordError:
        return None


def of_game(game: dict[str, Any] | None,
            result: dict[str, Any] | None = None) -> list[list[Stat]] | None:
    """Each seat's statistics of the game a table hands over at its end (`HostSession.record`,
    or the record in a host's reveal): None if there is none, it does not replay to a
    finished game or, given the `result` the table showed, to another one."""
    if not isinstance(game, dict) or not isinstance(game.get("moves"), list):
        return None
    record = Record(header=dict(game), moves=list(game["moves"]), over=True)
    try:
        replay = Replay(record)
    except (KeyError, TypeError, ValueError):  # RecordError is a ValueError
        return None
    shown = replay.result
    if shown is None or (result is not None and any(
            result.get(key) != shown.get(key) for key in ("scores", "winners"))):
        return None
    return of_replay(replay)
