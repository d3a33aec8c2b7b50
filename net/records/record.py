"""Past games: the one record format every game leaves, local or networked (docs/records.md).

A record is enough to rebuild every state with the engine (engine id, options, seed, players,
moves), so a replay never needs stored views. Who wrote it decides what it holds before the
end: the host and a local table keep the seed (they dealt, and must be able to resume); a
peer learns the seed only from the reveal at the end, so it writes its record then. An
export leaves out everything only the writer's own machine may know (the room's tokens and
fairness secrets) and is refused for an unfinished game, whose seed would show every hand.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import ENGINE_IDS, Engine, IllegalMove, get_engine
from net.records import store
from net.table.clocks import ClockSetting
from net.table.session import HostSession, SeatInfo, out_of_time_marks

# The format this code writes and the newest it reads; raise it when a change would make an
# older reader misread a record, and keep reading every older version.
VERSION = 1
FORMAT = "tabletop-tui-record"
KINDS = ("local", "host", "peer")
# How the header tells what kind of record an old host record (from before VERSION 1) is.
LEGACY_KIND = "host"
# Event kinds that end a part of a game, for the replay's jump keys: a hand or round over
# (the coarse stops), and a trick taken, a turn begun or a new card turned up (the fine ones).
# A game whose events name none of them stops at every change of turn (see Replay.stops).
# What a player's entry may add to name and bot: their identity, proven for this game
# (net.players.identity).
IDENTITY_FIELDS = ("ident", "key", "sig")
ROUND_KINDS = frozenset({"round_end", "hand_end", "game_over"})
TRICK_KINDS = ROUND_KINDS | {"trick", "turn", "reveal"}

class RecordError(ValueError):
    """A record that cannot be opened, with a sentence a player can read."""


@dataclass
class Record:
    """One game as a file holds it."""

    header: dict[str, Any]
    moves: list[list[Any]]
    over: bool
    result: dict[str, Any] | None = None
    path: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # the end line's other fields

    @property
    def engine_id(self) -> str:
        return str(self.header["engine"])

    @property
    def kind(self) -> str:
        return str(self.header.get("kind") or LEGACY_KIND)

    @property
    def players(self) -> list[dict[str, Any]]:
        return list(self.header["players"])

    @property
    def code(self) -> str | None:
        code = self.header.get("code") or (self.header.get("net") or {}).get("code")
        return str(code) if code else None

    @property
    def started(self) -> float:
        value = self.header.get("started")
        if isinstance(value, (int, float)):
            return float(value)
        return self.path.stat().st_mtime if self.path is not None else 0.0

    def own_seats(self) -> list[int]:
        """The seats played at the terminal that wrote this record."""
        if self.kind == "peer":
            seat = self.header.get("seat")
            return [seat] if isinstance(seat, int) else []
        if self.kind == "local":
            return [s for s in self.header.get("local") or [] if isinstance(s, int)]
        local = (self.header.get("net") or {}).get("local") or []
        return [i for i, mine in enumerate(local) if mine]

    def viewers(self) -> list[int | None]:
        """Whose view the replay may show: every seat (and a spectator's) once the game is
        over, else only this terminal's own seats (the rest is still secret)."""
        if self.over:
            return [*range(len(self.players)), None]
        own = self.own_seats()
        return list(own) if own else [None]


# -- reading ---------------------------------------------------------------------------------
def load(path: Path) -> Record:
    """The record in `path`; RecordError saying what is wrong with it otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")\
            from None
    record = parse(text, path.name)
    record.path = path
    return record


def parse(text: str, name: str = "the record") -> Record:
    lines = text.splitlines()
    if not lines:
        raise RecordError(f"{name} is empty: it is not a game record")
    try:
        header = json.loads(lines[0])
    except ValueError:
        raise RecordError(f"{name} is not a tabletop-tui game record") from None
    if not isinstance(header, dict) or "engine" not in header:
        raise RecordError(f"{name} is not a tabletop-tui game record")
    version = header.get("version", VERSION)
    if not isinstance(version, int) or version < 1:
        raise RecordError(f"{name} is damaged: its format version is not a number")
    if version > VERSION:
        raise RecordError(f"{name} was written by a newer tabletop-tui (record format "
                          f"{version}; this one reads up to {VERSION}): update to open it")
    _check_header(header, name)
    moves: list[list[Any]] = []
    over, result, extra = False, None, {}
    for number, line in enumerate(lines[1:], 2):
        try:
            item = json.loads(line)
        except ValueError:
            if number == len(lines) and not over:  # torn by a crash mid-write
                break
            raise RecordError(f"{name} is damaged: line {number} is not readable") from None
        if over:
            raise RecordError(f"{name} is damaged: line {number} follows the end of the game")
        if isinstance(item, dict) and item.get("over") is True:
            over = True
            result = item.get("result") if isinstance(item.get("result"), dict) else None
            extra = {k: v for k, v in item.items() if k not in ("over", "result")}
        elif (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
              and isinstance(item[1], dict)):
            moves.append(item)
        else:
            raise RecordError(f"{name} is damaged: line {number} is not a move")
    return Record(header, moves, over, result, extra=extra)


def _check_header(header: dict[str, Any], name: str) -> None:
    players = header.get("players")
    if header["engine"] not in ENGINE_IDS:
        raise RecordError(f"{name} is a game of {header['engine']!r}, which this tabletop-tui "
                          "does not have")
    if not (isinstance(players, list) and players
            and all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in players)):
        raise RecordError(f"{name} is damaged: its list of players is broken")
    if header.get("seed") is not None and type(header.get("seed")) is not int:
        raise RecordError(f"{name} is damaged: its seed is not a number")
    if not isinstance(header.get("options", {}), dict):
        raise RecordError(f"{name} is damaged: its options are broken")
    if header.get("kind", LEGACY_KIND) not in KINDS:
        raise RecordError(f"{name} is damaged: unknown kind of record")
    try:
        ClockSetting.from_public(header.get("clock"))
        out_of_time_marks(header.get("out_of_time"))
    except ValueError as exc:
        raise RecordError(f"{name} is damaged: {exc}") from None


# -- replaying -------------------------------------------------------------------------------
class Replay:
    """Every state of a recorded game, rebuilt with the engine: `states[n]` is the table after
    `n` moves, `events[n]` what move `n` showed everybody (events[0] is empty)."""

    def __init__(self, record: Record) -> None:
        head = record.header
        if type(head.get("seed")) is not int:
            raise RecordError("the host reveals the deal only at the end of a networked game: "
                              "this unfinished game cannot be replayed here (its host can "
                              "take it up again with r in Past games)")
        self.record = record
        self.engine: Engine = get_engine(record.engine_id)
        try:
            seats = [SeatInfo(name=p["name"], bot=p.get("bot")) for p in record.players]
            session = HostSession(record.engine_id, seats, head["seed"], head.get("options"))
            self.states = [session.state]
            self.events: list[list[dict[str, Any]]] = [[]]
            for seat, move in record.moves:
                self.events.append(session.submit(seat, move))
                self.states.append(session.state)
        except (IllegalMove, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"the record does not replay (it is damaged): {exc}") from None
        self.over = session.over
        self.result = session.result() if session.over else None

    def __len__(self) -> int:
        return len(self.states)

    def view(self, n: int, seat: int | None) -> dict[str, Any]:
        return self.engine.view(self.states[n], seat)

    def log(self, n: int) -> list[dict[str, Any]]:
        return [event for events in self.events[: n + 1] for event in events]

    def stops(self, coarse: bool = False) -> list[int]:
        """The states after which a trick, turn or card (`coarse`: a hand or round) ended,
        derived from the events; a game without such events stops at every change of turn."""
        kinds = ROUND_KINDS if coarse else TRICK_KINDS
        found = [n for n, events in enumerate(self.events)
                 if any(e.get("kind") in kinds for e in events)]
        if [n for n in found if n < len(self.states) - 1]:  # more than the game's end
            return found
        if coarse:
            return self.stops()
        turns = [self.engine.view(s, None).get("turn") for s in self.states]
        return [n for n in range(1, len(turns)) if turns[n] != turns[n - 1]]


# -- listing ---------------------------------------------------------------------------------
@dataclass
class Entry:
    """A line of the Past games list: the record, or why it cannot be opened."""

    path: Path
    record: Record | None
    error: str | None = None

    @property
    def started(self) -> float:
        return self.record.started if self.record else self.path.stat().st_mtime


def listing(folder: Path | None = None) -> list[Entry]:
    """Every record in the data directory, newest first; damaged ones too, with their error."""
    folder = folder or store.records_dir()
    entries = []
    for path in folder.glob("*.jsonl"):
        try:
            entries.append(Entry(path, load(path)))
        except RecordError as exc:
            entries.append(Entry(path, None, str(exc)))
    entries.sort(key=lambda e: (e.started, e.path.name), reverse=True)
    return entries


def winners(record: Record) -> list[int] | None:
    """The winning seats, from the record's end line, else by replaying it; None if unknown."""
    if not record.over:
        return None
    result = record.result
    if result is None:
        try:
            result = Replay(record).result
        except RecordError:
            return None
    found = (result or {}).get("winners")
    return [w for w in found if isinstance(w, int)] if isinstance(found, list) else None


def prune(older_than_days: float | None = None, keep: int | None = None,
          folder: Path | None = None, now: float | None = None) -> list[Path]:
    """Delete records older than `older_than_days` and beyond the newest `keep`; the paths
    removed. Only ever on request: nothing else deletes a record."""
    if older_than_days is None and keep is None:
        raise ValueError("say what to prune: --older-than DAYS and/or --keep N")
    now = time.time() if now is None else now
    removed = []
    for index, entry in enumerate(listing(folder)):
        old = older_than_days is not None and now - entry.started > older_than_days * 86400
        if old or (keep is not None and index >= keep):
            with contextlib.suppress(FileNotFoundError):
                entry.path.unlink()
                removed.append(entry.path)
    return removed


# -- writing ---------------------------------------------------------------------------------
def header(session: HostSession, kind: str, **fields: Any) -> dict[str, Any]:
    """A record's first line for `session`: the game without its moves, plus `fields`."""
    head = session.record()
    del head["moves"]
    return {"format": FORMAT, "version": VERSION, "kind": kind, "started": time.time(),
            **head, **fields}


def _path(tag: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = store.records_dir()
    path = folder / f"{stamp}-{tag}.jsonl"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stamp}-{tag}-{number}.jsonl"
    return path


class LocalRecorder:
    """Writes a local game's record as it is played, appending to `path` when resuming. Best
    effort: a disk that refuses costs the record, never the game. A seat whose clock runs
    out for the first time is written into the header at once (the file is written afresh),
    so a game taken up again still knows it. `fixed_seed`: the seed was chosen (`play
    --seed`), not drawn by the app: a practice game, which no rating counts."""

    def __init__(self, session: HostSession, humans: list[int], path: Path | None = None,
                 *, fixed_seed: bool = True) -> None:
        self.path: Path | None = path
        self._writer: store.RecordWriter | None = None
        self._head: dict[str, Any] = {}
        self._marks = session.clocks.marks()
        with contextlib.suppress(OSError, RecordError):
            head = header(session, "local", local=list(humans), fixed_seed=fixed_seed)
            if path is not None:
                head = load(path).header  # keep the original start and seats
            self.path = path or _path(f"local-{session.engine.id}")
            self._head = head
            self._writer = self._write_all(session)
        session.subscribe(lambda seat, move, events: self._moved(session, seat, move))
        session.on_rewind(lambda: self._rewound(session))
        if session.over:
            self._end(session)

    def _write_all(self, session: HostSession) -> store.RecordWriter:
        assert self.path is not None
        moves = [[s, m] for s, m in session.moves]
        return store.RecordWriter(self.path, self._head, moves, last=False)

    def _moved(self, session: HostSession, seat: int, move: dict[str, Any]) -> None:
        if self._writer is None:
            return
        try:
            marks = session.clocks.marks()
            if marks != self._marks:
                self._marks = marks
                self._head = {**self._head, "out_of_time": marks}
                self._writer.close()
                self._writer = self._write_all(session)
            else:
                self._writer.move(seat, move)
            if session.over:
                self._end(session)
        except OSError:
            self._writer = None

    def _rewound(self, session: HostSession) -> None:
        """A move was taken back: the record holds the moves that stand, written afresh."""
        if self._writer is None:
            return
        try:
            self._writer.close()
            self._writer = self._write_all(session)
        except OSError:
            self._writer = None

    def abandon(self, session: HostSession) -> bool:
        """End the record of a rated game its person leaves before the end, once it has begun:
        `abandoned`, every person's seat `left` (docs/records.md); a game not begun stays
        open. Whether the record now says so."""
        if self._writer is None or session.over or not session.moves:
            return False
        people = [seat for seat, info in enumerate(session.seats) if not info.bot]
        try:
            self._writer.finish(None, abandoned=True, left=people)
        except OSError:
            return False
        finally:
            self._writer = None
        return True

    def _end(self, session: HostSession) -> None:
        if self._writer is not None:
            with contextlib.suppress(OSError):
                self._writer.finish(session.result())
            self._writer = None


def _peer_header(game: dict[str, Any], seat: int | None, code: str | None,
                 seed: int | None) -> dict[str, Any]:
    players = [{"name": str(p.get("name", "")), "bot": p.get("bot"),
                **{k: p[k] for k in IDENTITY_FIELDS if isinstance(p.get(k), str)}}
               for p in game.get("players") or [] if isinstance(p, dict)]
    game_id = game.get("game_id") or game.get("commitment")
    clocks = {k: game[k] for k in ("clock", "out_of_time") if game.get(k) is not None}
    return {"format": FORMAT, "version": VERSION, "kind": "peer", "started": time.time(),
            "engine": game.get("engine"), "options": game.get("options") or {}, "seed": seed,
            "players": players, "game_id": game_id if isinstance(game_id, str) else None,
            "seat": seat, "code": code, **clocks}


def start_peer(start: dict[str, Any], seat: int | None, code: str | None) -> Path | None:
    """A peer's record of a networked game as it starts: who plays what, but no seed and no
    moves (the host reveals them only at the end), so the list shows the game and says why it
    cannot be replayed until then. None if the disk refuses."""
    try:
        path = _path(f"{code or 'net'}-peer")
        store.RecordWriter(path, _peer_header(start, seat, code, None), [], last=False).close()
    except (OSError, TypeError, ValueError):
        return None
    return path


# What of the host's reveal a peer's end line keeps: enough to check the seed again (the
# commitment is the header's `game_id`), and who had left when the game ended.
KEPT_FAIRNESS = ("secret", "salt", "contributions")


def save_peer(reveal: dict[str, Any], seat: int | None, code: str | None,
              verdict: tuple[bool, str, str], path: Path | None = None,
              result: dict[str, Any] | None = None, away: bool = False,
              closed: dict[str, Any] | None = None) -> Path | None:
    """A peer's record of a finished networked game, from the host's reveal (the seed and every
    move come only then), replacing the one `start_peer` began at `path`. `verdict` is this
    peer's check of the deal (ok, its sentence, its code), `result` the result the host
    announced, `away` whether this seated peer was away from its seat when the game ended
    (it learnt the end afterwards): only then may its own seat count as one that left;
    `closed` the host's signed close of a game it ended before its end (net.host.closing).
    None if the reveal holds no usable record or the disk refuses."""
    game = reveal.get("record")
    if not isinstance(game, dict) or "engine" not in game:
        return None
    head = _peer_header(game, seat, code, game.get("seed"))
    with contextlib.suppress(OSError, RecordError):
        if path is not None:
            head["started"] = load(path).started  # the game began when it began
    try:
        path = path or _path(f"{code or 'net'}-peer")
        writer = store.RecordWriter(path, head, list(game.get("moves") or []), last=False)
        left = reveal.get("left") if isinstance(reveal.get("left"), list) else []
        writer.finish(result, verified=verdict[0], verify_note=verdict[1],
                      verify_code=verdict[2], left=left, away=away,
                      fairness={k: reveal.get(k) for k in KEPT_FAIRNESS},
                      **({} if closed is None else {"closed": closed}))
    except (OSError, TypeError, ValueError):
        return None
    return path


def export(record: Record, target: Path) -> Path:
    """Write a finished game's record to `target` for a friend to open (`tabletop-tui replay`):
    everything but the writer's own secrets (room tokens, fairness secrets). RecordError for an
    unfinished game: its seed would show every hand still in play."""
    if not record.over:
        raise RecordError("only a finished game can be exported: an unfinished game's record "
                          "holds the deal, which would show every hand")
    head = {k: v for k, v in record.header.items() if k != "net"}
    head.update(format=FORMAT, version=VERSION, kind=record.kind)
    if record.code:
        head["code"] = record.code
    lines = [json.dumps(head)] + [json.dumps(m) for m in record.moves]
    lines.append(json.dumps({"over": True, "result": record.result, **record.extra}))
    target.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return target


__all__ = ["VERSION", "Entry", "LocalRecorder", "Record", "RecordError", "Replay", "export",
           "listing", "load", "parse", "prune", "save_peer", "start_peer", "winners"]
