"""What a ladder keeps, behind one small interface: an SQLite file in a data directory
(net.players.sqlite) or a PostgreSQL database a table's machines share (net.players.postgres)
implements it, both over the one schema and statement list of net.players.sql.

A store takes counted games (net.players.counted) and moves its ratings with each
(net.players.ratings), one ladder per game, keyed by identity. It answers the screens and the
`players` command: a game's ladder, one player's place in it, their games and opponents.
Every implementation must hold to this:
- `add_game` is atomic and counts a game once, however many records of it arrive and from
  however many processes at once (many SSH sessions of one table): one writer at a time, and
  the ratings a game starts from read inside the same transaction that writes its result;
- its schema has a version, kept in the store, and migrations to the newest are applied when
  it is opened; a store newer than the code is refused, never rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol
from urllib.parse import urlsplit

from net.players.counted import Outcome
from net.players.ratings import Skill


def shown(url: str) -> str:
    """`url` as messages may print it: its password left out."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        return parts._replace(netloc=f"{parts.username or ''}:***@{host}").geturl()
    except ValueError:
        return url.partition("://")[0] + "://…"


class StoreError(Exception):
    """A store that cannot be used (written by a newer tabletop-tui, damaged), with a
    sentence saying so."""


@dataclass(frozen=True)
class Change:
    """What one counted game did to one seat's rating."""

    seat: int
    ident: str
    name: str
    place: int
    left: bool
    before: Skill
    after: Skill

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class Standing:
    """A player's line in a game's ladder."""

    place: int
    ident: str
    name: str
    skill: Skill
    games: int


@dataclass(frozen=True)
class Summary:
    """A player at one game: their rating and what their counted games add up to (a bot level
    that held several seats of a game counts its best)."""

    engine: str
    skill: Skill
    games: int
    wins: int
    mean_place: float
    finished: int  # games they played to the end


@dataclass(frozen=True)
class Played:
    """One counted game in a player's history, with their rating after it."""

    key: str
    started: float
    seats: int
    place: int
    left: bool
    after: Skill


@dataclass(frozen=True)
class Opponent:
    """Someone a player met at one game: how often, and how often the player finished ahead."""

    ident: str
    name: str
    games: int
    ahead: int


class SeatRow(NamedTuple):
    """A seat an SSH player was given, kept for their return (net.peer.tokens): bearer
    secrets, read only by their owner's sessions."""

    name: str
    token: str
    proof_key: str | None
    resume_key: str | None
    ticket: str | None
    deal: str | None = None  # the deal as the player checked it so far (net.peer.deal), JSON


class Ladders(Protocol):
    """A store of ladders (see the module docstring for what every implementation keeps to)."""

    def add_game(self, outcome: Outcome) -> list[Change]:
        """Count `outcome` and move the ratings of its players; a game counted before is left
        as it is. Either way: what it did to each seat's rating."""
        ...

    def changes(self, key: str) -> list[Change]:
        """What the counted game `key` did to each seat's rating ([] if it was not counted)."""
        ...

    def ladder(self, engine: str, limit: int | None = None) -> list[Standing]:
        """The ladder of a game, best first."""
        ...

    def standing(self, engine: str, ident: str) -> tuple[Standing, int] | None:
        """A player's line in a game's ladder and how many are on it; None if not on it."""
        ...

    def summary(self, ident: str) -> list[Summary]:
        """A player at each game they have counted games of."""
        ...

    def history(self, ident: str, engine: str) -> list[Played]:
        """A player's counted games of one game, in the order they were counted."""
        ...

    def opponents(self, ident: str, engine: str, limit: int = 5) -> list[Opponent]:
        """Whom a player met most at one game, most often first."""
        ...

    def seat(self, owner: str, room: str) -> SeatRow | None:
        """The seat `owner` keeps for `room` (a hash of its join code); None if none. There is
        no way to list what others keep."""
        ...

    def keep_seat(self, owner: str, room: str, seat: SeatRow) -> None:
        """Keep `seat` for `owner`'s return to `room` (their newest few dozen are kept)."""
        ...

    def place(self, owner: str) -> str | None:
        """Where `owner` (an SSH player, as for seats) sits now, as JSON text; None if
        nowhere."""
        ...

    def keep_place(self, owner: str, place: str | None) -> None:
        """Keep where `owner` sits (JSON text; None: nowhere), replacing what was kept."""
        ...

    def settings(self, owner: str) -> str | None:
        """The settings `owner` (an SSH player, as for seats) last kept, as JSON text; None if
        never."""
        ...

    def keep_settings(self, owner: str, settings: str) -> None:
        """Keep `owner`'s settings (JSON text), replacing what they kept before."""
        ...

    def name(self, ident: str) -> str | None:
        """The name a player had in their latest counted game."""
        ...

    def seen(self, source: str, stamp: str) -> bool:
        """Whether the record `source` was looked at as it is now (`stamp`)."""
        ...

    def note(self, source: str, stamp: str, status: str) -> None:
        """Remember that `source`, as it is now, was looked at, and what came of it."""
        ...

    def close(self) -> None: ...
