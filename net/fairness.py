"""Fair shuffles: the host commits to the seed before the first card and reveals it at the end.

At the start the host publishes sha256("<seed>:<salt>") (the salt keeps small seeds from being
found by trying them all). Once the game is over it reveals seed, salt and the whole record;
every peer then checks that the commitment matches and that replaying the record with the
engine gives, state by state, exactly the views that peer was shown. A host that changed the
seed, dealt differently, or edited a move afterwards fails the check.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import msgpack

from engines import IllegalMove
from engines.base import TEST_OPTIONS
from net.session import HostSession, SeatInfo


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


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
) -> Verdict:
    """Check a revealed game against the commitment and against what this peer saw: `seen`
    maps state numbers to the views received for `seat`, `result` is the announced result."""
    seed, salt, record = reveal.get("seed"), reveal.get("salt"), reveal.get("record")
    if committed is None:
        return Verdict(False, "the host never committed to a seed")
    if type(seed) is not int or not isinstance(salt, str) or not isinstance(record, dict):
        return Verdict(False, "the host's reveal is incomplete")
    if commitment(seed, salt) != committed:
        return Verdict(False, "the revealed seed does not match the host's commitment")
    if record.get("seed") != seed:
        return Verdict(False, "the record was played with a different seed")
    fixed = sorted(set(record.get("options") or {}) & set(TEST_OPTIONS))
    if fixed:
        return Verdict(False, f"the host fixed the deal ({', '.join(fixed)})")
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
    return Verdict(True, "shuffles verified")
