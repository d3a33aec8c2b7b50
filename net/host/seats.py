"""Who sits where at a hosted table, and who may claim a seat.

A person's claim to a seat is a secret token the host hands out on their first join: coming
back with it gives the seat back, from whoever plays it now, so a dropped connection or a
restarted terminal does not cost anybody their hand. A name alone is no claim: anyone with the
code can type a name, so taking an away seat back by name needs the host's yes (and then earns
a token of its own; the old one stays valid). A seat also keeps the resumption keys its
person's sessions left (net.wire.resume), which bring them back without the join code, and
the one-time ticket that lets them past a full room at the relay. These rules live here,
apart from the host's networking, so they can be read and tested in one place.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from net.players.reputation import Word


def new_token() -> str:
    return secrets.token_urlsafe(16)


# Resumption keys a seat keeps: one per device (or data directory) its person joined from.
KEPT_KEYS = 4


@dataclass
class Seat:
    """A seat at the table as the host keeps it."""

    name: str = ""
    bot: str | None = None  # bot level for a bot seat
    token: str = ""  # proves a person's claim to the seat when they come back
    spare: list[str] = field(default_factory=list)  # tokens handed out on reclaims by name
    cid: int | None = None  # the relay connection playing it now
    local: bool = False  # played at the host's own terminal
    auto: bool = False  # a bot plays it while its person is away
    keys: list[str] = field(default_factory=list)  # resumption keys (hex), newest last
    ticket: str = ""  # the one-time ticket for the relay its person holds now
    identity: str = ""  # its person's identity key (hex), as their hello gave it
    proof: dict[str, str] | None = None  # their identity, proven for this game
    word: Word | None = None  # the table's word on its proven person (net.host.standing)

    @property
    def empty(self) -> bool:
        return not (self.bot or self.local or self.token)

    @property
    def connected(self) -> bool:
        return self.local or self.bot is not None or self.cid is not None

    def public(self) -> dict[str, Any]:
        kind = "empty" if self.empty else "bot" if self.bot else "host" if self.local else "person"
        shown = {"name": self.name, "bot": self.bot, "kind": kind,
                 "connected": self.connected, "auto": self.auto}
        if self.word is not None and kind in ("host", "person"):
            shown.update((k, v) for k, v in self.word.items() if v is not None)
        return shown

    @property
    def tokens(self) -> list[str]:
        return [t for t in (self.token, *self.spare) if t]

    def holds(self, token: str | None) -> bool:
        """Whether `token` is one of this seat's (compared in constant time)."""
        return bool(token) and any(secrets.compare_digest(t, str(token)) for t in self.tokens)

    def forget_tokens(self) -> None:
        self.token, self.spare, self.keys, self.ticket = "", [], [], ""
        self.identity, self.proof, self.word = "", None, None

    def add_key(self, key: bytes) -> None:
        """Remember a session's resumption key (a few: each device its person used)."""
        if key.hex() not in self.keys:
            self.keys = [*self.keys, key.hex()][-KEPT_KEYS:]

    def claim(self, cid: int, name: str | None) -> None:
        """Connection `cid` plays this seat now, under `name` (None: the seat keeps its name),
        and the seat gets a token if it has none yet."""
        self.cid, self.auto = cid, False
        if name is not None:
            self.name = name
        self.token = self.token or new_token()


def bot_seat(seat_no: int, level: str) -> Seat:
    return Seat(name=f"Bot {seat_no + 1}", bot=level)


@dataclass
class Peer:
    cid: int
    name: str
    seat: int | None  # None: a spectator


def seat_for(seats: list[Seat], name: str, token: str | None, watch: bool,
             started: bool) -> tuple[int | None, str]:
    """Which seat a joining connection may have, and why: "token" (its own, whoever plays it
    now), "name" (an away seat of that name once the game runs: only with the host's yes),
    "free" (the first empty seat in the lobby); (None, "watch") for a spectator and
    (None, "full") when there is no seat for it."""
    for i, seat in enumerate(seats):
        if seat.holds(token):
            return i, "token"
    if watch:
        return None, "watch"
    if started:
        for i, seat in enumerate(seats):
            if seat.token and seat.cid is None and seat.name.casefold() == name.casefold():
                return i, "name"
        return None, "full"
    for i, seat in enumerate(seats):
        if seat.empty:
            return i, "free"
    return None, "full"


def left_seats(dealt: list[dict[str, Any]], seats: list[Seat]) -> list[int]:
    """The seats a person was dealt (`dealt`: the game's players as the record names them)
    that a bot plays now: taken over after they left, or removed by the host. Said at the
    end, they count as last for the ratings (net.players.counted)."""
    return [i for i, (player, seat) in enumerate(zip(dealt, seats, strict=True))
            if not player.get("bot") and (seat.auto or seat.bot is not None)]


def players(seats: list[Seat]) -> list[dict[str, Any]]:
    """The players as every table message lists them: who sits where and who is there."""
    return [{"name": s.name, "bot": s.bot, "connected": s.connected, "auto": s.auto}
            for s in seats]

