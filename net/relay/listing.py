"""Open tables: rooms a host lists at its relay as open to anyone, so a stranger at a public
table finds a game without being handed a code. A listing is public on purpose: its whole
join code is in it (so the relay that lists a room could sit in the middle of its key
exchange; a public room's privacy is that of a public place), with the game, the seats still
free and the host's name. A name comes with the host's identity key and a signature over the
room code, the name and the key (net.wire.public), so the relay puts a rating or a finished
share beside a name only for the key's holder. An address group lists a few rooms at most,
and so does its wider network (an IPv6 /48, an IPv4 /24: net.relay.addresses.network), or
one subscriber with a /48's 65,536 /64s could bury everyone else's.

`GET /tables` (net.relay.server) shows the rooms whose host is here now, those closest to
starting first, a page at a time: an answer is bounded however many rooms are listed.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from net.relay import addresses
from net.relay.limits import Limits
from net.relay.rooms import Room, RoomBook
from net.wire import codes, public
from net.wire.frames import MAX_NAME, Frame, ProtocolError
from net.wire.text import printable

# What a game id, or a bot level, looks like to a relay (which knows no games).
WORD = re.compile(r"[a-z][a-z0-9_]{0,23}")
MAX_SEATS = 16
MAX_FILL_AFTER = 3600.0

# A table's word on a player (net.players): the rating at a game, and the finished share.
Reputation = Callable[[str, str], dict[str, float | None]]


@dataclass(frozen=True)
class Listing:
    game: str
    seats: int
    free: int
    code: str  # the whole join code, normal form
    name: str
    ident: str | None  # the host's fingerprint, proven by the listing's signature
    since: float  # when the room was first listed (monotonic)
    fill_after: float | None  # seconds after `since` when bots take the free seats
    level: str | None  # ... of that level
    min_finished: float | None  # the finished share the host asks of players (0..1)
    network: str  # its host's wider network (net.relay.addresses.network)


def _word(frame: Frame, field: str) -> str:
    value = frame[field]
    if not WORD.fullmatch(value):
        raise ProtocolError("bad_field", f"'{field}' must be a lower-case word of 1-24 symbols")
    return value


def _name(text: str) -> str:
    if not 0 < len(text) <= MAX_NAME or not printable(text):
        raise ProtocolError("bad_field", f"'name' must be 1-{MAX_NAME} printable characters "
                                         "on one line (docs/protocol.md)")
    return text


def _within(value: float | None, field: str, top: float) -> float | None:
    if value is not None and not 0 <= value <= top:
        raise ProtocolError("bad_field", f"'{field}' must be between 0 and {top:g}")
    return value


def read(room: Room, frame: Frame, since: float, network: str) -> Listing:
    """A `list` frame of `room`'s host as a listing; ProtocolError says what is wrong."""
    seats, free = frame["seats"], frame["free"]
    if not (1 <= seats <= MAX_SEATS and 0 <= free <= seats):
        raise ProtocolError("bad_field", f"'seats' must be 1-{MAX_SEATS}, 'free' 0 to 'seats'")
    secret = frame["secret"]
    if len(secret) != codes.SECRET_LENGTH or not set(secret) <= set(codes.ALPHABET):
        raise ProtocolError("bad_field", "'secret' must be the last 4 symbols of the join code "
                                         "in normal form")
    code = room.code + secret
    name = _name(frame["name"])
    key, sig = frame.get("key"), frame.get("sig")
    ident = None
    if key is not None or sig is not None:
        ident = public.proven(room.code, name, key or b"", sig or b"")
        if ident is None:
            raise ProtocolError("bad_field", "'sig' does not list this room under 'name' "
                                             "with 'key'")
    level = _word(frame, "level") if frame.get("level") is not None else None
    return Listing(_word(frame, "game"), seats, free, code, name, ident, since,
                   _within(frame.get("fill_after"), "fill_after", MAX_FILL_AFTER), level,
                   _within(frame.get("min_finished"), "min_finished", 1.0), network)


class Billboard:
    """The public rooms of one relay."""

    def __init__(self, book: RoomBook, limits: Limits,
                 reputation: Reputation | None = None) -> None:
        self.book = book
        self.limits = limits
        self.reputation = reputation

    def put(self, room: Room, frame: Frame) -> None:
        """List `room` (or update its listing) from its host's `list` frame."""
        since = room.listing.since if room.listing is not None else time.monotonic()
        network = (addresses.network(room.host.addr) if room.host is not None
                   else room.owner)
        listing = read(room, frame, since, network)
        if room.listing is None:
            self._room_for(room, network)
        room.listing = listing
        self.book.listed.add(room.code)

    def _room_for(self, room: Room, network: str) -> None:
        """ProtocolError("public_limit") if `room`'s address group, or its network, lists as
        many rooms as it may already."""
        listed = [self.book.rooms[code] for code in self.book.listed]
        mine = sum(1 for other in listed if other.owner == room.owner)
        if mine >= self.limits.public_per_address:
            raise ProtocolError("public_limit", f"{addresses.describe(room.owner)} lists "
                                                f"{mine} public rooms already: this room "
                                                "stays private")
        near = sum(1 for other in listed
                   if other.listing is not None and other.listing.network == network)
        if near >= self.limits.public_per_network:
            raise ProtocolError("public_limit", f"{addresses.describe(network)} lists "
                                                f"{near} public rooms already: this room "
                                                "stays private")

    def drop(self, room: Room) -> None:
        room.listing = None
        self.book.listed.discard(room.code)

    def page(self, game: str | None = None, number: int = 0) -> dict[str, Any]:
        """Page `number` (from 0) of the listed rooms whose host is here (of `game`), for
        `GET /tables`: those closest to starting first (the fewest free seats, then the
        soonest bots, then the longest waiting), `tables_page` rows at most, with the page's
        number, how many pages there are and how many rooms in all."""
        now = time.monotonic()
        shown = []
        for code in self.book.listed:
            room = self.book.rooms[code]
            listing = room.listing
            if room.host is None or listing is None or (game and listing.game != game):
                continue
            shown.append(listing)
        shown.sort(key=lambda ls: (ls.free, _bots_left(ls, now), ls.since, ls.code))
        size = self.limits.tables_page
        pages = max(1, -(-len(shown) // size))
        number = min(max(0, number), pages - 1)
        rows = [self._row(ls, now) for ls in shown[number * size:(number + 1) * size]]
        return {"tables": rows, "page": number, "pages": pages, "total": len(shown)}

    def _row(self, listing: Listing, now: float) -> dict[str, Any]:
        waited = now - listing.since
        word: dict[str, float | None] = {"rating": None, "finished": None}
        if self.reputation is not None and listing.ident is not None:
            word.update(self.reputation(listing.ident, listing.game))
        left = _bots_left(listing, now)
        bots_in = None if left == math.inf else round(left)
        return {"code": codes.display(listing.code), "game": listing.game,
                "seats": listing.seats, "free": listing.free, "host": listing.name,
                "identity": listing.ident, **word, "waiting": round(waited),
                "bots_in": bots_in, "level": listing.level,
                "min_finished": listing.min_finished}


def _bots_left(listing: Listing, now: float) -> float:
    """Seconds until bots take the listing's free seats (infinity: they never do)."""
    if listing.fill_after is None:
        return math.inf
    return max(0.0, listing.fill_after - (now - listing.since))
