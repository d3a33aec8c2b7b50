"""The record a host keeps of its game, and reading it back to take the room over again.

Besides the game itself (engine, options, players, seed and moves: enough to replay it) the
header holds what only the host knew: the room's code and host token, so the relay hands the
room back; each seat's token, so its person can reclaim it; and the fairness salt, so the seed
revealed at the end still matches the commitment the peers got at the start. That is what
lets `tabletop-tui host --resume` continue a game after a crash.

`Recorder` writes it as the game goes; `restore` puts a `NetHost` back as the record left it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engines import IllegalMove
from net import records
from net.host.seats import Seat
from net.players import counted
from net.records import store
from net.table.session import HostSession

if TYPE_CHECKING:
    from net.host.authority import NetHost


def new_path(code: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return store.records_dir() / f"{stamp}-{code}.jsonl"


def header(session: HostSession, net: dict[str, Any]) -> dict[str, Any]:
    """The record's first line: the game without its moves, plus the host's `net` secrets."""
    return records.header(session, "host", code=net.get("code"), net=net)


def rewrite(writer: store.RecordWriter, head: dict[str, Any],
            session: HostSession) -> store.RecordWriter:
    """The record again with a new header (a new seat token was handed out); moves are kept."""
    writer.close()
    moves = [[seat, move] for seat, move in session.moves]
    with contextlib.suppress(OSError, ValueError):  # the game began when it began
        head = {**head, "started": store.read_record(writer.path)[0].get("started")}
    return store.RecordWriter(writer.path, head, moves)


def load(path: Path) -> tuple[dict[str, Any], list[list[Any]], dict[str, Any]]:
    """The header, the moves and the host's `net` part of an unfinished game's record."""
    head, moves, over = store.read_record(path)
    if over:
        raise ValueError("the last hosted game is already over; nothing to resume")
    return head, moves, head.get("net") or {}


def host_name(head: dict[str, Any], net: dict[str, Any]) -> str | None:
    """The name of the first seat played at the host's own terminal, if there was one."""
    local = net.get("local") or []
    return next((p["name"] for p, mine in zip(head["players"], local, strict=False) if mine),
                None)


def seats(head: dict[str, Any], net: dict[str, Any]) -> list[Seat]:
    """The seats as they were, with their tokens, resumption keys and tickets, nobody
    connected yet."""
    count = len(head["players"])
    local = net.get("local") or []
    tokens = net.get("tokens") or [""] * count
    spare = net.get("spare") or [[] for _ in range(count)]
    keys = net.get("keys") or [[] for _ in range(count)]
    tickets = net.get("tickets") or [""] * count
    return [Seat(name=player["name"], bot=player["bot"], token=token or "",
                 spare=[str(t) for t in spare[i]] if i < len(spare) else [],
                 local=bool(local[i]) if i < len(local) else False,
                 keys=[str(k) for k in keys[i]] if i < len(keys) else [],
                 ticket=str(tickets[i] or "") if i < len(tickets) else "")
            for i, (player, token) in enumerate(zip(head["players"], tokens, strict=True))]


def restore(host: NetHost, path: Path, header: dict[str, Any], moves: list[list[Any]],
            net: dict[str, Any]) -> None:
    """Put a fresh `host` back where the record at `path` left its game. ValueError for a
    damaged record (a crash may have cut it short, or someone edited it)."""
    try:
        host.session = HostSession.from_record({**header, "moves": moves})
        host.session.undo.enable([i for i, p in enumerate(header["players"]) if not p.get("bot")])
        host.rated = counted.is_rated_file(path)
        host.set_hints(bool(net.get("hints", False)))
        host.uplink.code, host.uplink.host_token = net["code"], net["host_token"]
        # A record from before protocol 3 has no secret: the room gets a new one.
        host.keys.secret = net.get("join_secret") or host.keys.secret
        host.keys.wrong_tries = int(net.get("wrong_tries", 0))
        dealer = host.dealer
        dealer.salt, dealer.commitment = net["salt"], net["commitment"]
        dealer.secret = net.get("secret", host.session.seed)
        dealer.contributions = net.get("contributions", [])
        dealer.number = int(net.get("deal", 1))
        if net.get("fixed"):
            host.seed = host.session.seed
        # A tournament's duplicate table stays one: its record keeps the round it was dealt
        # for (net.players.counted) and the seed its director reveals when the round closes.
        duplicate = net.get("duplicate")
        host.duplicate = dict(duplicate) if isinstance(duplicate, dict) else None
        host.seats[:] = seats(header, net)
    except (KeyError, TypeError, ValueError, AttributeError, IllegalMove) as exc:
        raise ValueError(f"the record {path.name} is damaged and cannot be resumed "
                         f"({type(exc).__name__}: {exc})") from None
    host.recorder.path = path
    if host.keep_record:
        host.recorder.writer = store.RecordWriter(path, host.recorder.header(), moves)


class Recorder:
    """One `NetHost`'s record on disk, written as the game goes. If the disk refuses (full,
    read-only, no such folder), the table is told and the game goes on without a record:
    losing it costs only `--resume`, while stopping would cost the game."""

    def __init__(self, host: NetHost) -> None:
        self.host = host
        self.path: Path | None = None
        self.writer: store.RecordWriter | None = None

    def forget(self) -> None:
        """A rematch keeps a record of its own."""
        self.writer, self.path = None, None

    def header(self) -> dict[str, Any]:
        host = self.host
        assert host.session is not None
        dealer = host.dealer
        return header(host.session, {
            "code": host.room, "join_secret": host.keys.secret,
            "host_token": host.uplink.host_token, "salt": dealer.salt,
            "commitment": dealer.commitment, "tokens": [s.token for s in host.seats],
            "spare": [s.spare for s in host.seats], "secret": dealer.secret,
            "keys": [s.keys for s in host.seats], "tickets": [s.ticket for s in host.seats],
            "contributions": dealer.contributions, "deal": dealer.number,
            "fixed": host.seed is not None, **({"duplicate": host.duplicate}
                                               if host.duplicate is not None else {}),
            "local": [s.local for s in host.seats], "takeover": host.takeover,
            "level": host.level, "hints": host.hints, "wrong_tries": host.keys.wrong_tries,
        })

    def open(self) -> None:
        def write() -> None:
            self.path = new_path(self.host.room)
            self.writer = store.RecordWriter(self.path, self.header(), [])

        self._write(write)

    def save_header(self) -> None:
        """The header again (a seat token was handed out, a wrong code was tried)."""
        writer, session = self.writer, self.host.session
        if writer is None or session is None:
            return

        def write() -> None:
            self.writer = rewrite(writer, self.header(), session)

        self._write(write)

    def move(self, seat: int, move: dict[str, Any]) -> None:
        if (writer := self.writer) is not None:
            self._write(lambda: writer.move(seat, move))

    def finish(self, result: dict[str, Any], left: list[int]) -> None:
        """The end line: the result, and the seats whose person left before it (`left`)."""
        if (writer := self.writer) is not None:
            self._write(lambda: writer.finish(result, left=left))
        self.writer = None

    def closed(self, left: list[int], closed: dict[str, Any]) -> None:
        """The end line of a game its host closed before the end (net.host.closing)."""
        if (writer := self.writer) is not None:
            self._write(lambda: writer.finish(None, left=left, closed=closed))
        self.writer = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    def _write(self, write: Callable[[], None]) -> None:
        try:
            write()
        except OSError as exc:
            if self.writer is not None:
                with contextlib.suppress(OSError):
                    self.writer.close()
            self.writer, self.path = None, None
            self.host.notice(f"the game record cannot be written ({exc.strerror or exc}): "
                             "the game goes on, but cannot be resumed after a crash")
