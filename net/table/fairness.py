"""Fair shuffles: the seed is made by everybody at the table, and checked by everybody at the end.

The host first commits to a secret: it publishes sha256("<secret>:<salt>") (the salt keeps
small secrets from being found by trying them all) and names the seats it asks for a part,
the seated people. Then each of them sends a random contribution, and the seed is a hash of
the secret, the salt and the contributions (`joint_seed`): the host cannot pick the deal (its
secret was fixed before it saw the contributions) and no peer can (none knows the secret).

That holds only if the host cannot add, drop, swap or reorder parts once it has seen them:
each would give it another seed to choose from. So the list of parts is strict (`check_parts`):
exactly one entry per seat the commit named, in the commit's order, nothing else; the value is
the seat's own, or nil for a seat that did not answer in time (the one gap allowed, named in
every verdict: only the seat whose part it was can tell a late answer from one the host threw
away). Every peer checks the commit as it comes (`check_commit`), the list at the start, and
once the game is over (`verify`) the commitment, the list again, that the seed follows from
them, and that replaying the record with the engine gives, state by state, exactly the views
that peer was shown; and a peer that played its seat to the end refuses a reveal that says it
left (only the host's word says who left, and this peer knows better). A host that fixed the
seed (`--seed`, for practice and puzzles) says so at the start and the verdict says so too:
the replay can match, the shuffle was not random.

Verdicts carry a code and its arguments (`REASONS` has the English sentence for each), so a
screen can say them in the player's language.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from dataclasses import dataclass, field
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
    every contribution in the commit's seat order; a seat whose value is nil adds nothing)."""
    text = f"{secret}:{salt}" + "".join(f":{seat}={value}" for seat, value in contributions
                                        if value is not None)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


# What each verdict code says, in English; {name} and {n} name a seat (n counts from 1).
REASONS = {
    "verified": "shuffles verified",
    "verified_gaps": "shuffles verified, made without a part from {names} (no answer in time)",
    "practice": "the host chose the seed ({seed}): a practice deal, not a fair shuffle; the "
                "game replays as played",
    "no_commitment": "the host never committed to a seed",
    "no_reveal": "the host did not reveal the seed",
    "incomplete": "the host's reveal is incomplete",
    "recommitted": "the host changed its commitment after making it",
    "commitment": "the revealed secret does not match the host's commitment",
    "bad_commit": "the host's commit does not name each seat once, in seat order",
    "not_person": "the host asked {name} (seat {n}) for a part of the seed, a seat no guest "
                  "plays",
    "not_asked": "the host did not ask you for a part of the seed",
    "unchecked": "you came to the table after the seed was made, so your part of it cannot "
                 "be checked",
    "mine_missing": "your part of the seed was left out",
    "mine_changed": "your part of the seed was changed",
    "bad_parts": "the host's list of parts of the seed is malformed",
    "extra": "the host added a part for {name} (seat {n}), which the commit did not ask for",
    "twice": "the host gave {name} (seat {n}) two parts of the seed",
    "missing": "the host left {name} (seat {n}) out of the parts of the seed",
    "order": "the host reordered the parts of the seed",
    "fixed_late": "the host asked for parts of the seed, then chose the seed itself",
    "changed": "the host revealed another deal than it announced at the start",
    "seed": "the seed does not follow from the secret and the parts",
    "record_seed": "the record was played with a different seed",
    "stacked": "the host fixed the deal ({options})",
    "replay": "the record does not replay: {error}",
    "short": "the record ends before state {state}",
    "differs": "the replay differs from what you saw at state {state}",
    "unfinished": "the record does not reach the end of the game",
    "result": "the replay gives a different result",
    "left_me": "the host says you left the game, but you were at the table when it ended",
    "closed": "the host's close does not match the game it revealed",
}


@dataclass(frozen=True)
class Verdict:
    """`ok` and why: `code` is a key of `REASONS`, `args` fill its sentence in."""

    ok: bool
    code: str
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return REASONS[self.code].format(**self.args)


def _failed(code: str, **args: Any) -> Verdict:
    return Verdict(False, code, args)


def _player(players: Any, seat: int) -> dict[str, Any]:
    """What the host's list of players (or seat maps) says about `seat`; {} if nothing."""
    entry = players[seat] if isinstance(players, list) and 0 <= seat < len(players) else None
    return entry if isinstance(entry, dict) else {}


def _seat(players: Any, seat: int) -> dict[str, Any]:
    """The arguments that name `seat` in a reason: its name (as the host gave it) and number."""
    name = _player(players, seat).get("name")
    return {"name": name if isinstance(name, str) else "?", "n": seat + 1}


def _increasing(seats: Any) -> bool:
    """A list of distinct seat numbers in seat order."""
    return (isinstance(seats, list) and all(type(s) is int and s >= 0 for s in seats)
            and all(a < b for a, b in itertools.pairwise(seats)))


def check_commit(seats: Any, table: list[dict[str, Any]], me: int | None) -> Verdict | None:
    """What a peer can tell from a `commit` at once (None: nothing wrong). `seats` are the
    seats it asks for a part: each named once, in seat order, each a guest's (kind "person"
    in `table`, the latest seat maps: never the host's own seat, a bot's or an empty one, whose
    part the host would make up itself); a peer seated at `me` must be among them."""
    if not _increasing(seats):
        return _failed("bad_commit")
    for seat in seats:
        if _player(table, seat).get("kind") != "person":
            return _failed("not_person", **_seat(table, seat))
    if me is not None and me not in seats:
        return _failed("not_asked")
    return None


def check_parts(
    asked: list[int] | None,
    given: Any,
    players: Any,
    mine: list[Any] | None,
    me: int | None,
    fixed: bool = False,
    announced: bool = False,
) -> Verdict | None:
    """The parts of the seed a `start` (or the reveal) lists, against the commit (None:
    nothing wrong). `asked` are the seats the commit named (None: this peer saw no commit),
    `players` the table's players (`{name, bot}` per seat), `mine` the `[seat, value]` this
    peer sent (None: none), `me` its seat (None: a spectator), `fixed` whether the host says
    it fixed the seed, `announced` whether the commit said so before any part came (a
    tournament's duplicate table asks for parts only for the identity proofs that come with
    them). The rule: exactly one `[seat, value]` per seat named, in the commit's
    order, nothing else; `value` is that seat's part, or nil for a seat that did not answer in
    time; never a bot's seat; a seated peer's own part is in it, unchanged."""
    if not isinstance(given, list) or not all(
        isinstance(p, list) and len(p) == 2 and type(p[0]) is int
        and (p[1] is None or good_contribution(p[1])) for p in given
    ):
        return _failed("bad_parts")
    if fixed and asked is not None and not announced:
        return _failed("fixed_late")
    column = [seat for seat, _ in given]
    values = dict(given)
    if mine is not None:
        if values.get(mine[0]) is None:
            return _failed("mine_missing")
        if values[mine[0]] != mine[1]:
            return _failed("mine_changed")
    elif me is not None and not fixed:
        return _failed("unchecked" if asked is None else "not_asked")
    expected = asked if asked is not None else sorted(set(column))
    for seat in column:
        if seat not in expected:
            return _failed("extra", **_seat(players, seat))
        if column.count(seat) > 1:
            return _failed("twice", **_seat(players, seat))
    for seat in expected:
        if seat not in column:
            return _failed("missing", **_seat(players, seat))
    if column != expected:
        return _failed("order")
    for seat in column:
        entry = _player(players, seat)
        if not entry or entry.get("bot") is not None:
            return _failed("not_person", **_seat(players, seat))
    return None


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
    *,
    asked: list[int] | None = None,
    start: dict[str, Any] | None = None,
    present: bool = False,
    announced: bool = False,
) -> Verdict:
    """Check a revealed game against the commitment and against what this peer saw: `seen`
    maps state numbers to the views received for `seat`, `result` is the announced result,
    `mine` is this peer's own contribution `[seat, value]` (None if it gave none), `asked`
    the seats the commit named, `start` the `start` frame (None: not seen) and `present`
    whether this peer played its seat when the game ended (the last move reached it live): a
    reveal whose `left` names that seat then says what this peer knows to be false;
    `announced` whether the commit said the seed is fixed (a duplicate table's, whose `start`
    names no seed: see `check_parts`).

    A reveal with `closed` (its host closed the room before the end, net.host.closing) must
    replay to the state it names and not beyond, to a game not over: `result` is None then.
    Its signature is the players' floor's to check (net.peer.deal)."""
    secret, salt, record = reveal.get("secret"), reveal.get("salt"), reveal.get("record")
    seed, fixed, given = reveal.get("seed"), reveal.get("fixed"), reveal.get("contributions")
    if committed is None:
        return _failed("no_commitment")
    if (type(secret) is not int or type(seed) is not int or not isinstance(salt, str)
            or not isinstance(record, dict) or not isinstance(given, list)):
        return _failed("incomplete")
    if commitment(secret, salt) != committed:
        return _failed("commitment")
    left = reveal.get("left", [])
    if not isinstance(left, list):
        return _failed("incomplete")
    if present and seat is not None and seat in left:
        return _failed("left_me")
    wrong = check_parts(asked, given, record.get("players"), mine, seat, bool(fixed),
                        announced)
    if wrong is not None:
        return wrong
    said_fixed = start is not None and (start.get("fixed_seed") is not None
                                        or (announced and fixed is True))
    if start is not None and (given != start.get("contributions") or bool(fixed) != said_fixed):
        return _failed("changed")
    if seed != (secret if fixed else joint_seed(secret, salt, given)):
        return _failed("seed")
    if record.get("seed") != seed:
        return _failed("record_seed")
    stacked = sorted(set(record.get("options") or {}) & set(TEST_OPTIONS))
    if stacked:
        return _failed("stacked", options=", ".join(stacked))
    try:
        seats = [SeatInfo(**p) for p in record["players"]]
        session = HostSession(record["engine"], seats, seed, record["options"])
        replayed = {0: session.engine.view(session.state, seat)}
        for mover, move in record["moves"]:
            session.submit(mover, move)
            if session.state_no in seen:
                replayed[session.state_no] = session.engine.view(session.state, seat)
    except (IllegalMove, KeyError, TypeError, ValueError) as exc:
        return _failed("replay", error=str(exc))
    for state_no, view in seen.items():
        if state_no not in replayed:
            return _failed("short", state=state_no)
        if _plain(replayed[state_no]) != view:
            return _failed("differs", state=state_no)
    closed = reveal.get("closed")
    if closed is not None:
        if (not isinstance(closed, dict) or closed.get("state") != len(record["moves"])
                or session.over):
            return _failed("closed")
    elif not session.over:
        return _failed("unfinished")
    if result is not None and _plain(session.result()) != result:
        return _failed("result")
    if fixed:
        return Verdict(True, "practice", {"seed": seed})
    gaps = [_seat(record["players"], s)["name"] for s, value in given if value is None]
    if gaps:
        return Verdict(True, "verified_gaps", {"names": ", ".join(gaps)})
    return Verdict(True, "verified")
