"""Which games count for a rating, decided from the record alone, so that a ladder needs
nobody's word: not the host's, not the player's own, not a server's.

A finished record counts when all of this holds (docs/records.md, "What counts for a rating"):
1. it replays with the engine, move by move, to the end, and to exactly the result its end
   line states (a record altered by one move either stops replaying or ends otherwise);
2. its deal was fair, in the sense its kind allows:
   - `local`: the app drew the seed (the header says `fixed_seed: false`; a seed given with
     `play --seed` makes a practice game) and the game's name in the proofs is that deal;
   - `host`: the record holds the host's whole fairness secret, so the check is redone here:
     the commitment (the game's name in the proofs) is sha256 of the secret and salt, and the
     seed follows from them and the guests' parts; a seed the host fixed does not count;
   - `peer`: the peer checked everything at the end (its part in the seed, every view it was
     shown against the replay) and its end line says `verified` with a code that is not a
     practice deal; the seed is checked again from the reveal it kept;
   - a tournament's duplicate table (`net.duplicate` in a host's record): the seed was fixed,
     but by the round's rule (net.tournament.duplicate): the revealed round seed matches the
     round's commitment and the table's seed is the one it gives for the round's label; a
     ladder counts it only if its own store published that commitment for that round before
     the game began (`duplicate_round`, net.players.ladder);
   and no test option stacked the deal;
3. every seat is somebody: a person proven by their signature for this very game and seat
   (net.players.identity), or a bot by its level; one person in two seats is refused, and so
   is a game of bots alone (ladders rate people, and bots by the games they play people);
4. a seat whose person left before the end is named in the end line's `left`, and only a
   person's seat can be; a peer's record names its own seat there only when the peer itself
   says it was away at the end (`away`): the host's word alone never makes it a leaver.

A rated local game counts from its first move, whether it ends or not (`abandoned`): left
by a key, its record ends `abandoned` at once; a game whose app was killed or whose terminal
was closed mid-crash stays unfinished, may be taken up again for `RESUME_SECONDS` from its
start, and counts once that time is over. Either way its person counts as having left: last,
with the penalty, the bots sharing first place.

A rated hosted game whose host's app died mid-game likewise counts from the host's own record
once `RESUME_SECONDS` passed without `host --resume`: as the host's leaving, the others as the
game stood (`_host_gone`).

A hosted game whose host closed the room before the end (the end line's `closed`) counts
from every record of it, the host's and each guest's (net.players.closing): its host's seats
are among those that `left`, its host signed the close, the record replays to the very state
it names, and the places are the engine's standing at that state, those who left last.

A game is one game however many records of it exist (the host's and each peer's): `key`
names it by engine, seed and the game's name in the proofs.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import get_engine
from engines.base import TEST_OPTIONS
from net import records
from net.players import closing, identity
from net.records import Record, RecordError, Replay
from net.table import fairness, windows
from net.table.session import BOT_LEVELS, HostSession, SeatInfo
from net.tournament import duplicate

# What a peer's end line names a fair deal by (net.table.fairness verdict codes).
FAIR_CODES = ("verified", "verified_gaps")

# How long a rated local game that did not end (an app killed, a terminal closed) may be
# taken up again before it counts as left by its person.
RESUME_SECONDS = 24 * 3600.0

# Why a record does not count, in English; the TUI says the same in the player's language.
REASONS = {
    "unfinished": "the game did not end",
    "damaged": "the record does not replay: {error}",
    "result": "the record replays to another result than it states",
    "practice": "the deal was chosen, not shuffled (a practice game)",
    "stacked": "test options fixed the deal",
    "unverified": "the shuffle was not verified",
    "unproven": "{name} (seat {n}) has no proven identity",
    "twice": "{name} plays two seats",
    "bots": "only bots played it",
    "left": "the record's list of players who left is broken",
    "left_self": "only the host says that {name} (seat {n}), whose record this is, left the "
                 "game",
    "unstarted": "the game was left before its first move",
    "level": "seat {n} names {level!r}, which is no bot level",
    "botmove": "seat {n}'s moves are not those of the {level} bot it names (move {move})",
    "pending": "the game is not over: it counts as left unless it is taken up again within "
               "a day of its start",
    "closed": "the host's signed close does not match the game",
    "duplicate": "the tournament's deal does not follow from the round's revealed seed "
                 "({why})",
    "unpublished": "this table published no such duplicate round before the game",
}


class Unrated(Exception):
    """A record that does not count, and why: `code` is a key of `REASONS`."""

    def __init__(self, code: str, **args: Any) -> None:
        super().__init__(REASONS[code].format(**args))
        self.code = code
        self.fields = args


@dataclass(frozen=True)
class SeatOutcome:
    """One seat of a counted game: who played it and how it ended for them."""

    ident: str  # a fingerprint (`id:...`) or a bot's identity (`bot:strong`)
    name: str
    place: int  # 1 is best; equal places tie
    left: bool  # its person left before the end (counted last, with a penalty)

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.left


@dataclass(frozen=True)
class Outcome:
    """A game that counts, as a ladder takes it."""

    key: str
    engine: str
    started: float
    seats: tuple[SeatOutcome, ...]


def game_key(engine: str, seed: int, game_id: str) -> str:
    """One name per game, whoever's record it comes from."""
    return hashlib.sha256(f"{engine} {seed} {game_id}".encode()).hexdigest()


def _plain(value: Any) -> Any:
    """`value` as a record's JSON gives it back."""
    return json.loads(json.dumps(value))


def outcome(record: Record, now: float | None = None) -> Outcome:
    """The counted game `record` shows; Unrated saying why it does not count. `now` (the
    time, by default the clock's) decides whether an unfinished local game counts as left."""
    if not record.over or record.extra.get("abandoned") is True:
        return _abandoned(record, time.time() if now is None else now)
    if "closed" in record.extra:
        return _closed(record)
    seed, game_id, idents = _counting(record)
    try:
        replay = Replay(record)
    except RecordError as exc:
        raise Unrated("damaged", error=str(exc)) from None
    if not replay.over:
        raise Unrated("unfinished")
    if record.result is None or _plain(replay.result) != record.result:
        raise Unrated("result")
    _check_bots(record, seed)
    players = record.players
    left = _left(record, players) | _out_of_time(record)
    places = get_engine(record.engine_id).places(replay.result or {})
    return _outcome(record, seed, game_id, idents, places, left)


def is_rated(record: Record) -> bool:
    """Whether the game `record` holds counts for the ladder as it stands, from its first
    move on: its deal and its players would count (not whether it is over)."""
    try:
        _counting(record)
    except Unrated:
        return False
    return True


def is_rated_file(path: Path) -> bool:
    """`is_rated` of the record at `path`; False for one that cannot be read."""
    try:
        return is_rated(records.load(path))
    except RecordError:
        return False


def _counting(record: Record) -> tuple[int, str, list[str]]:
    """(seed, game name, each seat's identity) of a record whose deal and players count;
    Unrated otherwise (rules 2 and 3 of the module docstring)."""
    head = record.header
    seed, game_id = head.get("seed"), head.get("game_id")
    if type(seed) is not int or not isinstance(game_id, str):
        raise Unrated("unverified")
    _check_deal(record, seed, game_id)
    idents: list[str] = []
    for seat, entry in enumerate(record.players):
        level = entry.get("bot")
        if level is not None and level not in BOT_LEVELS:
            raise Unrated("level", n=seat + 1, level=str(level))
        ident = identity.proven(entry, game_id, seat)
        if ident is None:
            raise Unrated("unproven", name=str(entry["name"]), n=seat + 1)
        if not ident.startswith(identity.BOT_PREFIX) and ident in idents:
            raise Unrated("twice", name=str(entry["name"]))
        idents.append(ident)
    if all(ident.startswith(identity.BOT_PREFIX) for ident in idents):
        raise Unrated("bots")
    return seed, game_id, idents


def _cut_short(record: Record) -> tuple[int, str, list[str], Replay]:
    """(seed, game name, identities, replay) of a rated game that ended before its end (left
    or closed) after its first move; Unrated otherwise. A game played to its end is counted
    by its result, never as cut short."""
    seed, game_id, idents = _counting(record)
    if not record.moves:
        raise Unrated("unstarted")
    try:
        replay = Replay(record)
    except RecordError as exc:
        raise Unrated("damaged", error=str(exc)) from None
    if replay.over:
        raise Unrated("result")
    return seed, game_id, idents, replay


def _abandoned(record: Record, now: float) -> Outcome:
    """A rated local game its person left before the end (see the module docstring): they
    count as last with the penalty, the bots share first place."""
    if record.kind == "host" and not record.over:
        return _host_gone(record, now)
    if record.kind != "local":
        raise Unrated("unfinished")
    seed, game_id, idents, _replay = _cut_short(record)
    if not record.over and now < record.started + RESUME_SECONDS:
        raise Unrated("pending")
    _check_bots(record, seed)
    left = {seat for seat, entry in enumerate(record.players) if not entry.get("bot")}
    places = [2 if seat in left else 1 for seat in range(len(idents))]
    return _outcome(record, seed, game_id, idents, places, left)


def _host_gone(record: Record, now: float) -> Outcome:
    """A rated hosted game whose host's app died mid-game and was not taken up again
    (`host --resume`) within `RESUME_SECONDS` of its start: its host's own record counts it
    as the host's leaving (its seats at this terminal last, with the penalty), everyone else
    as the game stood. The guests hold no seed, so only the host's ladder and the table's
    (whose sessions write the host's record) can count it."""
    seed, game_id, idents, replay = _cut_short(record)
    if now < record.started + RESUME_SECONDS:
        raise Unrated("pending")
    mine = (record.header.get("net") or {}).get("local") or []
    left = {seat for seat, here in enumerate(mine)
            if here is True and seat < len(record.players) and not record.players[seat].get("bot")}
    if not left:
        raise Unrated("unfinished")
    _check_bots(record, seed)
    places = closing.stood(replay.engine, replay.states[-1])
    return _outcome(record, seed, game_id, idents, places, left | _out_of_time(record))


def _closed(record: Record) -> Outcome:
    """A hosted game its host closed before the end (net.players.closing): the host's seats
    left, the others placed as the game stood at the state the host signed."""
    seed, game_id, idents, replay = _cut_short(record)
    named = _left(record, record.players)
    if not closing.check(record.extra.get("closed"), record.players, game_id,
                         len(record.moves), sorted(named)):
        raise Unrated("closed")
    _check_bots(record, seed)
    places = closing.stood(replay.engine, replay.states[-1])
    return _outcome(record, seed, game_id, idents, places, named | _out_of_time(record))


def _outcome(record: Record, seed: int, game_id: str, idents: list[str], places: list[int],
             left: set[int]) -> Outcome:
    seats = tuple(SeatOutcome(ident, str(entry["name"]), place, seat in left)
                  for seat, (ident, entry, place) in enumerate(zip(idents, record.players,
                                                                   places, strict=True)))
    return Outcome(game_key(record.engine_id, seed, game_id), record.engine_id,
                   record.started, seats)


def checked_levels(engine_id: str) -> tuple[str, ...]:
    """The bot levels whose every move a record can be checked against: those that decide
    the same way for the same state and seed (the expert on a fixed budget of iterations,
    never on a budget of seconds)."""
    bots = get_engine(engine_id).bots
    return tuple(level for level in BOT_LEVELS
                 if getattr(bots[level], "seconds", None) is None)


def _check_bots(record: Record, seed: int) -> None:
    """Every move of a seat the record names a bot is the move that bot makes there: the
    table's bots decide from the seed, the state number and the seat alone
    (`HostSession.choose_for`), so anyone can replay a record and ask them. A seat relabelled
    (a `strong` bot's seat called `expert`) fails."""
    levels = checked_levels(record.engine_id)
    seats = [SeatInfo(name=str(p["name"]), bot=p.get("bot")) for p in record.players]
    session = HostSession(record.engine_id, seats, seed, record.header.get("options"))
    for number, (seat, move) in enumerate(record.moves, 1):
        level = seats[seat].bot
        # A bot's pass in an interrupt window is the table's, applied when the window closes
        # (net.table.windows), not asked of the bot at that state: it is not checked.
        if (level in levels and move != windows.PASS
                and _plain(session.choose_for(seat, level)) != move):
            raise Unrated("botmove", n=seat + 1, level=str(level), move=number)
        session.submit(seat, move)


def _out_of_time(record: Record) -> set[int]:
    """The people's seats whose clock ran out: from then on the table's bot played them
    whenever their time ran out again, so the result is not theirs alone; they count as
    having left (last, with the penalty), as README and docs/records.md say."""
    marks = record.header.get("out_of_time") or []
    return {seat for seat, _state in marks
            if 0 <= seat < len(record.players) and not record.players[seat].get("bot")}


def _check_deal(record: Record, seed: int, game_id: str) -> None:
    """Unrated unless the deal was fair as far as this kind of record can show (see the
    module docstring)."""
    head, kind = record.header, record.kind
    if set(head.get("options") or {}) & set(TEST_OPTIONS):
        raise Unrated("stacked")
    if kind == "local":
        if head.get("fixed_seed") is not False:
            raise Unrated("practice")
        if game_id != f"local {record.engine_id} {seed}":
            raise Unrated("unverified")
        return
    if kind == "host":
        net = head.get("net") or {}
        if net.get("fixed") is True and "duplicate" in net:
            _check_duplicate(net, seed, game_id)
            return
        if net.get("fixed") is not False:
            raise Unrated("practice")
        if net.get("commitment") != game_id:
            raise Unrated("unverified")
        _check_seed(net, seed, game_id)
        return
    code = record.extra.get("verify_code")
    if code not in FAIR_CODES or record.extra.get("verified") is not True:
        raise Unrated("practice" if code == "practice" else "unverified")
    _check_seed(record.extra.get("fairness") or {}, seed, game_id)


def duplicate_round(record: Record) -> tuple[str, int, str] | None:
    """(tournament, round, commitment) of a duplicate table's host record, which a ladder
    counts only if its store published that commitment for that round; None for any other
    record (or one whose block is malformed: `outcome` refuses that one)."""
    if record.kind != "host":
        return None
    found = duplicate_round_block((record.header.get("net") or {}).get("duplicate"))
    return None if found is None else found[:3]


def _check_duplicate(net: dict[str, Any], seed: int, game_id: str) -> None:
    """A fixed seed that counts: the round's (net.tournament.duplicate.check) for the label
    of the tournament and round the record names, and the host's commitment (the game's name
    in the proofs) made over that very seed, so the identities proven for it are this game's."""
    found = duplicate_round_block(net["duplicate"])
    if found is None:
        raise Unrated("duplicate", why=duplicate.REASONS["malformed"])
    tid, number, promise, round_seed = found
    wrong = duplicate.check(promise, round_seed, duplicate.label(tid, number), seed)
    if wrong is not None:
        raise Unrated("duplicate", why=duplicate.REASONS[wrong])
    secret, salt = net.get("secret"), net.get("salt")
    if (secret != seed or not isinstance(salt, str)
            or fairness.commitment(seed, salt) != game_id or net.get("commitment") != game_id):
        raise Unrated("unverified")


def duplicate_round_block(block: object) -> tuple[str, int, str, object] | None:
    """(tournament, round, commitment, revealed round seed) of a record's duplicate block."""
    if not isinstance(block, dict):
        return None
    tid, number, promise = block.get("tournament"), block.get("round"), block.get("commitment")
    if not (isinstance(tid, str) and type(number) is int and isinstance(promise, str)):
        return None
    return tid, number, promise, block.get("round_seed")


def _check_seed(kept: dict[str, Any], seed: int, game_id: str) -> None:
    """The seed follows from the secret, salt and parts kept, and they from the commitment
    that names the game."""
    secret, salt, parts = kept.get("secret"), kept.get("salt"), kept.get("contributions")
    if type(secret) is not int or not isinstance(salt, str) or not isinstance(parts, list):
        raise Unrated("unverified")
    try:
        fair = (fairness.commitment(secret, salt) == game_id
                and fairness.joint_seed(secret, salt, parts) == seed)
    except (TypeError, ValueError):
        fair = False
    if not fair:
        raise Unrated("unverified")


def _left(record: Record, players: list[dict[str, Any]]) -> set[int]:
    """The seats whose person left before the end (the end line's `left`)."""
    left = record.extra.get("left", [])
    if not (isinstance(left, list) and all(type(s) is int for s in left)
            and len(set(left)) == len(left)
            and all(0 <= s < len(players) and not players[s].get("bot") for s in left)):
        raise Unrated("left")
    own = record.header.get("seat")
    if record.kind == "peer" and own in left and record.extra.get("away") is not True:
        raise Unrated("left_self", name=str(players[own]["name"]), n=own + 1)
    return set(left)
