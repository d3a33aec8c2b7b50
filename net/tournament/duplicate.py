"""Duplicate rounds: every table of a round plays the same deal, seat for seat, and a player
is scored against those who sat in the same seat of that deal at the other tables, so the luck
of the deal cancels out.

The round's seed is the organiser's secret, committed before the round (`commit`, published
with the pairings) and revealed after it. A table's deal seed is not the joint seed of its
players but `deal_seed(round seed, label)`: the first 63 bits of HMAC-SHA256 keyed with the
round seed over a label that names the tournament and the round and nothing of the table, so
every table of the round gets the same seed and every player can recompute it. A client
checks its table (`table_check`, the app's and the headless entry's one check, on top of
`check`): the revealed round seed matches the commitment, and its table's seed is the one the
round seed gives. A table dealt from any other seed fails. The same `check` decides whether
such a table's record counts for ratings (net.players.counted).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from net.tournament.scoring import Outcome

# Why a table's deal is not the round's, in English (a code, as net.table.fairness verdicts).
REASONS = {
    "commitment": "the revealed round seed does not match the commitment made with the pairings",
    "seed": "this table was not dealt from the round's seed",
    "malformed": "the round seed or its commitment is malformed",
    "replay": "the table's own reveal does not replay to this game",
}

# The round is still on: its seed is not revealed yet, so the table cannot be checked yet.
PENDING = "pending"


def new_round_seed() -> str:
    return secrets.token_hex(32)


def commit(round_seed: str) -> str:
    """What the pairings publish: sha256 of the round seed (256 random bits: no salt needed)."""
    return hashlib.sha256(f"duplicate:{round_seed}".encode()).hexdigest()


def label(tournament: str, round_no: int) -> str:
    """What the round's deal is made for: the tournament and round, never a table."""
    return f"tabletop-tui duplicate {tournament} round {round_no}"


def deal_seed(round_seed: str, what: str) -> int:
    """Every table's seed in the round named by `what`."""
    digest = hmac.new(round_seed.encode(), what.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check(commitment: object, round_seed: object, what: str, seed: object) -> str | None:
    """A client's check of its table (None: the deal is the round's; else a `REASONS` code)."""
    if not (isinstance(commitment, str) and isinstance(round_seed, str) and type(seed) is int):
        return "malformed"
    if not hmac.compare_digest(commit(round_seed), commitment):
        return "commitment"
    if deal_seed(round_seed, what) != seed:
        return "seed"
    return None


def table_check(result: dict[str, Any], commitment: str, round_seed: str | None,
                what: str) -> str | None:
    """A player's whole check of its duplicate table, the same in the app and in the headless
    entry: `result` is the game's end as its link checked it (net.table.fairness), whose
    practice verdict names the seed the record replays from; `round_seed` is None until the
    round closes. None: the round's deal; `PENDING`; else a `REASONS` code (`replay`: the
    table's reveal itself failed, and its own verdict says why)."""
    if not result.get("verified"):
        return "replay"
    if result.get("verify_code") != "practice":  # shuffled at the table: not the round's deal
        return "seed"
    if round_seed is None:
        return PENDING
    return check(commitment, round_seed, what, (result.get("verify_args") or {}).get("seed"))


def rescore(games: Sequence[Outcome]) -> list[Outcome]:
    """A duplicate round's games, each seat scored against the same seat at the other tables
    of the same size: the share of them it finished better placed than (equal places half);
    a seat nobody else played scores by its own table's places."""
    by_seat: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for t, game in enumerate(games):
        for seat, player in enumerate(game.seats):
            if player is not None and player not in game.absent:
                by_seat[len(game.seats), seat].append((t, game.places[seat]))
    out = []
    for t, game in enumerate(games):
        points = []
        for seat, player in enumerate(game.seats):
            rivals = [place for other, place in by_seat[len(game.seats), seat] if other != t]
            if player is None or player in game.absent:
                points.append(0.0)
            elif rivals:
                mine = game.places[seat]
                points.append(sum(1.0 if mine < p else 0.5 if mine == p else 0.0
                                  for p in rivals) / len(rivals))
            else:
                points.append(game.points(seat))
        out.append(replace(game, scored=tuple(points)))
    return out
