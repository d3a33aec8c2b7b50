"""Finding a game at a public table: the open tables its relay lists (net.relay.listing), read
over plain HTTP, and "Quick play"'s choice among them. The relay may be a stranger's, so every
row is checked before it is believed: a row that is not what the protocol says is left out,
its words are cleaned, and a join code in it is only ever typed into the normal join. An
answer too long is read as far as it fits, not refused: a flood of rows (one network's
thousands of listings) must not hide every room listed before it.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from net.wire import codes
from net.wire.frames import MAX_NAME
from net.wire.text import clean

TIMEOUT = 5.0
MAX_WORD = 64  # a game id or a fingerprint is far shorter
MAX_BYTES = 1024 * 1024  # read of an answer at most; the rows before the cut are taken
MAX_ROWS = 500  # rows taken of one answer (a relay's page holds 50)
_SPACE = re.compile(r"\s*")


class TablesError(Exception):
    """The open tables cannot be had from that relay (the message says why)."""


class RelayUnreachable(TablesError):
    """Nothing answers at the relay's address (no relay runs there, or no network)."""


@dataclass(frozen=True)
class OpenTable:
    code: str  # the whole join code, normal form
    game: str
    seats: int
    free: int
    host: str
    identity: str | None
    rating: float | None
    finished: float | None  # the host's finished share, 0..1
    waiting: int  # seconds the room has been listed
    bots_in: int | None  # seconds until bots take the free seats
    min_finished: float | None

    @property
    def display_code(self) -> str:
        return codes.display(self.code)


def tables_url(server: str, game: str | None = None, page: int = 0) -> str:
    """The HTTP address of a relay's open tables, from its websocket address."""
    parts = urlsplit(server)
    scheme = "https" if parts.scheme == "wss" else "http"
    query = "&".join(([f"game={quote(game)}"] if game else [])
                     + ([f"page={page}"] if page else []))
    return urlunsplit((scheme, parts.netloc, "/tables", query, ""))


def _number(value: Any, low: float, high: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ValueError(value)
    return float(value)


def _row(row: Any) -> OpenTable | None:
    """One listed room, or None for a row that is not what the protocol says."""
    try:
        seats, free, waiting = row["seats"], row["free"], row["waiting"]
        if not all(type(n) is int for n in (seats, free, waiting)) or not 0 <= free <= seats:
            return None
        identity, bots_in = row.get("identity"), row.get("bots_in")
        if not (identity is None or isinstance(identity, str)) or not (
                bots_in is None or type(bots_in) is int):
            return None
        if not (isinstance(row["game"], str) and isinstance(row["host"], str)):
            return None
        # A stranger's words: clean before anybody draws them (net.wire.text).
        return OpenTable(codes.normalise_join(row["code"]), clean(row["game"], MAX_WORD),
                         seats, free, clean(row["host"], MAX_NAME),
                         None if identity is None else clean(identity, MAX_WORD),
                         _number(row.get("rating"), -1e6, 1e6),
                         _number(row.get("finished"), 0, 1), waiting, bots_in,
                         _number(row.get("min_finished"), 0, 1))
    except (KeyError, TypeError, ValueError, AttributeError, codes.BadCode):
        return None


def _fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            return answer.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise TablesError(f"the relay answered {exc.code}: it may be older than open "
                          "tables") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RelayUnreachable(f"cannot reach the relay: {reason}") from None


def _rows(body: bytes) -> list[Any]:
    """The rows of a `/tables` answer; of an answer cut short (over `MAX_BYTES`, or broken off
    after some rows), the whole rows before the cut, at most `MAX_ROWS`: a relay that sends
    too much hides nothing that came before it. TablesError if there is no list at all."""
    text = body.decode("utf-8", errors="replace")
    try:
        rows = json.loads(text)["tables"]
    except (ValueError, KeyError, TypeError):
        rows = _leading_rows(text)
    if not isinstance(rows, list):
        raise TablesError("the relay's answer is no list of open tables")
    return rows[:MAX_ROWS]


def _leading_rows(text: str) -> list[Any]:
    """The rows that can be read of a `{"tables": [...` broken off somewhere."""
    start = re.match(r'\s*\{\s*"tables"\s*:\s*\[', text)
    if start is None:
        raise TablesError("the relay's answer is no list of open tables")
    decoder, rows, at = json.JSONDecoder(), [], start.end()
    while len(rows) < MAX_ROWS:
        at = _SPACE.match(text, at).end()
        try:
            row, at = decoder.raw_decode(text, at)
        except ValueError:
            break
        rows.append(row)
        at = _SPACE.match(text, at).end()
        if not text.startswith(",", at):
            break
        at += 1
    return rows


async def open_tables(server: str, game: str | None = None, page: int = 0) -> list[OpenTable]:
    """The rooms waiting for players at the relay `server` (a websocket URL), of `game`,
    in the relay's order (those about to start first): page `page` of the relay's answer
    (a relay older than pages answers them all), the rows that fit if it sends too much."""
    body = await asyncio.to_thread(_fetch, tables_url(server, game, page))
    found = (_row(row) for row in _rows(body[:MAX_BYTES]))
    return [t for t in found if t is not None and (game is None or t.game == game)]


def best(tables: list[OpenTable], game: str, finished: float | None = None) -> \
        OpenTable | None:
    """Quick play's room: of `game`, with a free seat, whose minimum finished share the
    player (`finished`; None: no games yet, which no minimum holds against) meets; the one
    closest to starting, then the one waiting longest."""
    fits = [t for t in tables if t.game == game and t.free > 0 and (
        finished is None or t.min_finished is None or finished >= t.min_finished)]
    return min(fits, key=lambda t: (t.free, -t.waiting), default=None)
