"""Fair shuffles: the seed is made by everybody at the table, and checked by everybody at the end.

The host first commits to a secret: it publishes sha256("<secret>:<salt>") (the salt keeps
small secrets from being found by trying them all). Then every seated peer sends a random
contribution, and the seed is a hash of the secret, the salt and all contributions
(`joint_seed`): the host cannot pick the deal (its secret was fixed before it saw the
contributions) and no peer can (none knows the secret). Once the game is over the host reveals
secret, salt, contributions and the whole record; every peer then checks the commitment, that
its own contribution went in, that the seed follows from them, and that replaying the record
with the engine gives, state by state, exactly the views that peer was shown. A host that
changed the secret, dropped a contribution, dealt differently, or edited a move afterwards fails
the check. A host that fixed the seed (`--seed`, for practice and puzzles) says so at the start
and the verdict says so too: the replay can match, the shuffle was not random.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import msgpack

from engines import IllegalMove
from engines.base import TEST_OPTIONS
from net.table.session import HostSession, SeatInfo


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(secret: int, salt: str) -> str:
    return hashlib.sha256(f"{secret}:{salt}".encode()).hexdigest()


def new_contribution() -> str:
    return secrets.token_hex(16)


def good_contribution(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64 and value.isascii() and value.isalnum()


def joint_seed(secret: int, salt: str, contributions: list[list[Any]]) -> int:
    """The game's seed: the first 63 bits of sha256("<secret>:<salt>" + ":<seat>=<value>" for
    every contribution in seat order)."""
    text = f"{secret}:{salt}" + "".join(f":{seat}={value}" for seat, value in contributions)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str


def _plain(value: Any) -> Any:
    """What `value` looks like after a trip over the wire (tuples become lists, ...)."""
    return msgpack.unpackb(msgpack.packb(value), raw=False)


def verify(
    committed: str | None,
    reveal: dict[str, Any],
    seat: int | None,
    seen: dict[int, dict[str, Any]],
    result: dict[str, Any] | None,
    mine: list[Any] | None = None,
) -> Verdict:
    """Check a revealed game against the commitment and against what this peer saw: `seen`
    maps state numbers to the views received for `seat`, `result` is the announced result,
    `mine` is this peer's own contribution `[seat, value]` (None if it gave none)."""
    secret, salt, record = reveal.get("secret"), reveal.get("salt"), reveal.get("record")
    seed, fixed, given = reveal.get("seed"), reveal.get("fixed"), reveal.get("contributions")
    if committed is None:
        return Verdict(False, "the host never committed to a seed")
    if (type(secret) is not int or type(seed) is not int or not isinstance(salt, str)
            or not isinstance(record, dict) or not isinstance(given, list)):
        return Verdict(False, "the host's reveal is incomplete")
    if commitment(secret, salt) != committed:
        return Verdict(False, "the revealed secret does not match the host's commitment")
    if mine is not None and mine not in given:
        return Verdict(False, "your contribution to the seed was left out")
    if seed != (secret if fixed else joint_seed(secret, salt, given)):
        return Verdict(False, "the seed does not follow from the secret and the contributions")
    if record.get("seed") != seed:
        return Verdict(False, "the record was played with a different seed")
    stacked = sorted(set(record.get("options") or {}) & set(TEST_OPTIONS))
    if stacked:
        return Verdict(False, f"the host fixed the deal ({', '.join(stacked)})")
    try:
        seats = [SeatInfo(**p) for p in record["players"]]
        session = HostSession(record["engine"], seats, seed, record["options"])
        replayed = {0: session.engine.view(session.state, seat)}
        for mover, move in record["moves"]:
            session.submit(mover, move)
            if session.state_no in seen:
                replayed[session.state_no] = session.engine.view(session.state, seat)
    except (IllegalMove, KeyError, TypeError, ValueError) as exc:
        return Verdict(False, f"the record does not replay: {exc}")
    for state_no, view in seen.items():
        if state_no not in replayed:
            return Verdict(False, f"the record ends before state {state_no}")
        if _plain(replayed[state_no]) != view:
            return Verdict(False, f"the replay differs from what you saw at state {state_no}")
    if not session.over:
        return Verdict(False, "the record does not reach the end of the game")
    if result is not None and _plain(session.result()) != result:
        return Verdict(False, "the replay gives a different result")
    if fixed:
        return Verdict(True, f"the host chose the seed ({seed}): a practice deal, not a fair "
                             "shuffle; the game replays as played")
    return Verdict(True, "shuffles verified")
