"""Where chat goes in a table's log: where it was said. A host numbers its room's chat lines
("no") and says at which state of the game each was said ("at"; None: in the lobby), so a log
built afresh (a sync after a reconnect, a new screen after a rejoin) opens with the lobby's
chat and has every line between the events it came between, each once, however often the
host sends it again. A line without a number (a local table, an older host) goes at the end,
as it comes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# A log entry: ("event", event dict) is re-described on a language switch; ("note", text) is
# shown as it is; ("chat", chat line) is a line of chat.
Entry = tuple[str, Any]
Line = dict[str, Any]

# The lobby chat a game's log opens with: as many lines as a host sends a player who joins.
LOBBY_CHAT = 20


def number(line: Line) -> int | None:
    """The host's number of a chat line, or None if it has none."""
    no = line.get("no")
    return no if isinstance(no, int) and not isinstance(no, bool) else None


def said_at(line: Line) -> int | None:
    at = line.get("at")
    return at if isinstance(at, int) and not isinstance(at, bool) else None


def _lobby_line(entry: Entry) -> bool:
    return entry[0] == "chat" and number(entry[1]) is not None and said_at(entry[1]) is None


def place(entries: list[Entry], line: Line) -> int:
    """The index in `entries` where chat `line` belongs."""
    if number(line) is None:
        return len(entries)
    at = said_at(line)
    for index, entry in enumerate(entries):
        if at is None and not _lobby_line(entry):
            return index
        if at is not None and entry[0] == "event" and _event_no(entry[1]) > at:
            return index
    return len(entries)


def _event_no(event: Any) -> int:
    no = event.get("n") if isinstance(event, dict) else None
    return no if isinstance(no, int) else 0


def merged(entries: list[Entry], lines: Iterable[Line]) -> list[Entry]:
    """`entries` with the chat `lines` (numbered, in the order said) where they were said;
    of the lobby's chat only the last LOBBY_CHAT lines."""
    ordered = sorted((line for line in lines if number(line) is not None),
                     key=lambda line: number(line) or 0)
    lobby = [line for line in ordered if said_at(line) is None][-LOBBY_CHAT:]
    out = list(entries)
    for line in [*lobby, *(line for line in ordered if said_at(line) is not None)]:
        out.insert(place(out, line), ("chat", line))
    return out
