"""The table as the host of games over days: one more adapter around `HostSession`.

A game over days is its seed's secret, its seats and its moves in the table's store
(net.days.store), never a process: whichever node a player reaches loads the game under the
store's write lock, rebuilds the session by replaying its moves (`session_of`), lets the
engine check and apply the new move (`HostSession.submit`, which refuses a move made on
another state), lets the table move for whoever is not a person at the keys (`settle`: bots,
a seat whose time ran out, standing orders in an answer window), and appends it all in the
same transaction with the state number checked (`DaysStore.save`). A table killed at any
moment has every move it answered for, and none half-written.

The table is the host, so it sees every hand, as the host's app does in a hosted game: the
players are told so where they choose this mode, and each seat is sent only its own view
(net.days.link).

A finished game leaves a record of the kind `host` (docs/records.md): the seed is drawn from
a secret whose commitment names the game in every seat's identity proof, and the record
reveals the secret, so anyone can check the deal and the moves, and the game counts for the
table's ladder like any other.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from engines import IllegalMove, get_engine
from engines.base import Move
from net import records
from net.days import clock, orders
from net.days.store import OPEN, OVER, PLAYING, DaysStore, Game, Player, Seat
from net.players import counted
from net.players.identity import Identity
from net.table import fairness
from net.table.session import BOT_LEVELS, HostSession, SeatInfo, StaleMove
from net.table.windows import PASS
from net.wire.text import clean

# How many games a player may be in at once (open or being played), as BGA: this many, plus
# one for every game they finished over days.
CAP_BASE = 21
# Who made a move, as the store and the record keep it.
BY_PLAYER, BY_BOT, BY_TIMEOUT, BY_ORDER = "player", "bot", "timeout", "order"
# The most moves the table makes for bots and orders after one move (a safety stop: a game
# of bots alone ends long before).
SETTLE_MOST = 10_000
MAX_NAME = 32  # as every form of the app (tui.screens.base.MAX_NAME)


class DaysError(ValueError):
    """A request the table refuses, with a sentence a player can read; nothing changed."""


def cap(player: Player | None) -> int:
    return CAP_BASE + (player.finished if player else 0)


def game_name(game: Game) -> str:
    """What names the game in the seats' identity proofs: the commitment to its secret."""
    return fairness.commitment(game.secret, game.salt)


def seed_of(game: Game) -> int:
    return fairness.joint_seed(game.secret, game.salt, [])


def session_of(game: Game) -> HostSession:
    """The game's session, rebuilt by replaying its moves from its seed."""
    seats = [SeatInfo(s.name, s.bot, s.ident if s.key else None, s.key, s.sig)
             for s in game.seats]
    session = HostSession(game.engine, seats, seed_of(game), game.options,
                          game_id=game_name(game))
    for seat, move, _by in game.moves:
        session.submit(seat, move)
    return session


@dataclass(frozen=True)
class SeatPlan:
    """A seat of a game to open: `me`, a bot level, an invitation, or open to anyone."""

    kind: str  # "me" | "bot" | "invite" | "open"
    value: str | None = None


def _person(store: DaysStore, me: Identity, name: str) -> Player:
    name = _name(name)
    player = store.player(me.fingerprint)
    if player is None:
        player = Player(me.fingerprint, name)
    elif player.name != name:
        player.name = name
    store.keep_player(player)
    return player


def _check_cap(store: DaysStore, player: Player) -> None:
    if store.active_count(player.ident) >= cap(player):
        raise DaysError(f"You are in {cap(player)} games over days already, the most you may "
                        f"be in at once (one more for every game you finish)")


def open_game(store: DaysStore, engine_id: str, plans: list[SeatPlan], me: Identity,
              name: str, now: float, *, days: int = 3, options: dict[str, Any] | None = None,
              listed: bool = True, orders_of: dict[str, str] | None = None) -> Game:
    """Open a game over days with `me` in the seat planned `me`; DaysError if it cannot be."""
    engine = get_engine(engine_id)
    try:
        clock.check_days(days)
        options = engine.resolve_options(options or {})
        my_orders = orders.check(orders_of or {})
    except (ValueError, KeyError) as exc:
        raise DaysError(str(exc)) from None
    if not engine.min_players <= len(plans) <= engine.max_players:
        raise DaysError(f"{engine.title} is played by {engine.min_players} to "
                        f"{engine.max_players} players")
    if [p.kind for p in plans].count("me") != 1:
        raise DaysError("You take exactly one seat of the game you open")
    game = Game(secrets.token_hex(8), engine_id, options, secrets.randbits(63),
                fairness.new_salt(), days, me.fingerprint, listed, OPEN, 0, [], now, now, [])
    for number, plan in enumerate(plans):
        seat = Seat(number, name, bank=clock.first_bank(days), orders=my_orders)
        if plan.kind == "bot":
            level = plan.value or "strong"
            if level not in BOT_LEVELS:
                raise DaysError(f"Bots play at {', '.join(BOT_LEVELS)}, not {level!r}")
            seat.name, seat.bot, seat.orders = f"{level} bot", level, {}
        elif plan.kind == "invite":
            if not (plan.value or "").strip():
                raise DaysError("An invitation names a player or a key's fingerprint")
            seat.name, seat.invited, seat.orders = "", plan.value.strip(), {}
        elif plan.kind == "open":
            seat.name, seat.orders = "", {}
        elif plan.kind != "me":
            raise DaysError(f"unknown kind of seat {plan.kind!r}")
        game.seats.append(seat)
    with store.writing():
        player = _person(store, me, name)
        _check_cap(store, player)
        me_seat = next(s for s, p in zip(game.seats, plans, strict=True) if p.kind == "me")
        _sit(game, me_seat, me, name)
        store.insert(game)
        _begin_if_full(store, game, now)
    return _settled(store, game.id, now) if game.status == PLAYING else game


def _name(name: str) -> str:
    """A player's name as the table keeps it: one clean line, `MAX_NAME` characters at most."""
    cleaned = clean(name, MAX_NAME)
    if not cleaned:
        raise DaysError("A player at a table needs a name")
    return cleaned


def _sit(game: Game, seat: Seat, me: Identity, name: str) -> None:
    name = _name(name)
    proof = me.prove(game_name(game), seat.seat, name)
    seat.ident, seat.name, seat.key, seat.sig = proof["ident"], name, proof["key"], proof["sig"]
    seat.invited = None


def take_seat(store: DaysStore, game_id: str, seat_no: int | None, me: Identity, name: str,
              now: float) -> Game:
    """Sit `me` in a free seat of an open game (the first one free for them if `seat_no` is
    None): one left open for anyone, or one waiting for their name or fingerprint."""
    with store.writing():
        game = store.load(game_id, with_moves=False)
        if game is None:
            raise DaysError("There is no such game at this table")
        if game.status != OPEN:
            raise DaysError("That game has no free seat any more")
        if game.seat_of(me.fingerprint):
            raise DaysError("You have a seat in that game already")
        free = [s for s in game.seats if s.free and (
            s.invited is None or s.invited == me.fingerprint
            or s.invited.casefold() == name.casefold())]
        if seat_no is not None:
            free = [s for s in free if s.seat == seat_no]
        if not free:
            raise DaysError("That seat is not free for you")
        player = _person(store, me, name)
        _check_cap(store, player)
        seat = free[0]
        _sit(game, seat, me, name)
        store.save_seat(game.id, seat)
        _begin_if_full(store, game, now)
    return _settled(store, game_id, now)


def _begin_if_full(store: DaysStore, game: Game, now: float) -> None:
    if any(s.free for s in game.seats):
        return
    session = session_of(game)
    game.status, game.to_act, game.turn_since = PLAYING, session.engine.to_act(session.state), now
    store.start(game)


def _settled(store: DaysStore, game_id: str, now: float) -> Game:
    """The game after the table made every move that is its own to make now."""
    return sweep(store, game_id, now) or _load(store, game_id)


def _load(store: DaysStore, game_id: str) -> Game:
    game = store.load(game_id)
    if game is None:
        raise DaysError("There is no such game at this table")
    return game


def play(store: DaysStore, game_id: str, ident: str, seat: int, move: Move, state_no: int,
         now: float) -> Game:
    """`ident` plays `move` for `seat` on state `state_no`. IllegalMove or StaleMove (the
    game moved on) if it cannot be applied; DaysError if the seat is not theirs; else the game
    as stored, with whatever the table played after it."""
    late = False
    with store.writing():
        game = _load(store, game_id)
        if game.status != PLAYING:
            raise DaysError("That game is not being played")
        if not (0 <= seat < len(game.seats)) or game.seats[seat].ident != ident:
            raise DaysError("That seat is not yours")
        session = session_of(game)
        players = store.players([s.ident for s in game.seats if s.ident])
        was = game.state_no
        new: list[tuple[int, Move, str]] = []
        _timeouts(game, session, players, now)  # a move after the time ran out is too late
        if game.seats[seat].timed_out is not None:
            late = True
        else:
            if state_no != game.state_no:
                raise StaleMove(f"The game moved on since you looked (it is at state "
                                f"{game.state_no}, your move was made on {state_no})")
            if session.windows.open:
                raise IllegalMove("Your standing orders answer windows in a game over days")
            before = session.state_no
            session.submit(seat, move, state_no)
            spent = clock.used(game.turn_since, now, _away(players, game.seats[seat].ident))
            game.seats[seat].bank = clock.after_move(game.seats[seat].bank, spent, game.days)
            new.append((seat, session.moves[-1][1], BY_PLAYER))
            _advanced(game, session, before, now)
        _settle(game, session, players, now, new)
        _store(store, game, session, was, new, now)
    _count(store, game)
    if late:
        raise DaysError("Your time ran out in this game: the table's bot plays your seat")
    return game


def set_orders(store: DaysStore, game_id: str, ident: str, given: object) -> dict[str, str]:
    """Keep `ident`'s standing orders for their seats of a game; DaysError if they are not
    seated there or the orders are no orders."""
    try:
        checked = orders.check(given)
    except ValueError as exc:
        raise DaysError(str(exc)) from None
    with store.writing():
        game = _load(store, game_id)
        seats = [s for s in game.seats if s.ident == ident]
        if not seats:
            raise DaysError("You have no seat in that game")
        for seat in seats:
            seat.orders = checked
            store.save_seat(game.id, seat)
    return checked


def sweep(store: DaysStore, game_id: str, now: float) -> Game | None:
    """Let the table make what moves are its own in this game now (bots, seats whose time ran
    out, standing orders); the game if any was made."""
    with store.writing():
        game = store.load(game_id)
        if game is None or game.status != PLAYING:
            return None
        session = session_of(game)
        players = store.players([s.ident for s in game.seats if s.ident])
        new: list[tuple[int, Move, str]] = []
        was = game.state_no
        _settle(game, session, players, now, new)
        if not new and game.to_act == session.engine.to_act(session.state):
            return None
        _store(store, game, session, was, new, now)
    _count(store, game)
    return game


def _away(players: dict[str, Player], ident: str | None) -> clock.Away:
    player = players.get(ident or "")
    return player.away if player else clock.Away()


def _advanced(game: Game, session: HostSession, before: int, now: float) -> None:
    if session.state_no != before:
        game.turn_since = now
    game.state_no = session.state_no
    game.to_act = session.engine.to_act(session.state)


def _timeouts(game: Game, session: HostSession, players: dict[str, Player], now: float) -> None:
    """Mark the people to act whose time ran out: the strong bot plays them from now on."""
    if session.over or session.windows.open:
        return
    for number in session.engine.to_act(session.state):
        seat = game.seats[number]
        if seat.bot is None and seat.timed_out is None and clock.left(
                seat.bank, game.turn_since, now, _away(players, seat.ident)) <= 0:
            seat.timed_out = session.state_no


def _settle(game: Game, session: HostSession, players: dict[str, Player], now: float,
            new: list[tuple[int, Move, str]]) -> None:
    """Make every move that is the table's to make, until a person must move or the end."""
    for _ in range(SETTLE_MOST):
        _timeouts(game, session, players, now)
        if session.over:
            break
        chosen = _next(game, session)
        if chosen is None:
            break
        seat, move, by = chosen
        before = session.state_no
        session.submit(seat, move)
        new.append((seat, session.moves[-1][1], by))
        _advanced(game, session, before, now)
    if session.over and game.status != OVER:
        game.status, game.to_act = OVER, []
        game.result = json.loads(json.dumps(session.result()))
        game.record = record_text(game, session, new)


def _next(game: Game, session: HostSession) -> tuple[int, Move, str] | None:
    window = session.windows.open
    for number in session.engine.to_act(session.state):
        seat = game.seats[number]
        if seat.bot is not None or seat.timed_out is not None:
            level = seat.bot or "strong"
            move = session.choose_for(number, level)
            if move is None and window:
                move = PASS
            if move is not None:
                return number, move, BY_BOT if seat.bot else BY_TIMEOUT
        elif window:
            return number, orders.answer(session, number, seat.orders), BY_ORDER
    return None


def _store(store: DaysStore, game: Game, session: HostSession, was: int,
           new: list[tuple[int, Move, str]], now: float) -> None:
    game.moves.extend(new)
    store.save(game, was, new, now)
    if game.status == OVER:
        for seat in game.seats:
            if seat.ident and seat.bot is None:
                store.rows("UPDATE days_players SET finished = finished + 1 WHERE ident = ?",
                           (seat.ident,))


def record_text(game: Game, session: HostSession,
                new: list[tuple[int, Move, str]] | None = None,
                local: list[int] | None = None) -> str:
    """The finished game's record (docs/records.md, kind `host`): the table's secret
    revealed, the seats whose time ran out and the moves standing orders made."""
    moves = game.moves + list(new or [])
    head = records.header(
        session, "host", started=game.created, days=game.id,
        net={"fixed": False, "commitment": game_name(game), "secret": game.secret,
             "salt": game.salt, "contributions": [],
             "local": [seat in (local or []) for seat in range(len(game.seats))]},
        out_of_time=[[s.seat, s.timed_out] for s in game.seats if s.timed_out is not None],
        orders=[n for n, (_s, _m, by) in enumerate(moves, 1) if by == BY_ORDER])
    lines = [head, *([seat, move] for seat, move in session.moves),
             {"over": True, "result": json.loads(json.dumps(session.result()))}]
    return "".join(json.dumps(line) + "\n" for line in lines)


def own_record(game: Game, ident: str) -> str | None:
    """A finished game's record as `ident` keeps it in Past games: their seats marked theirs."""
    if game.record is None:
        return None
    head, _, rest = game.record.partition("\n")
    header = json.loads(head)
    header["net"]["local"] = [s.ident == ident for s in game.seats]
    return json.dumps(header) + "\n" + rest


def _count(store: DaysStore, game: Game) -> None:
    """A finished game counts for the table's ladder, from its record alone."""
    if game.status != OVER or game.record is None:
        return
    try:
        found = counted.outcome(records.parse(game.record, f"game {game.id}"))
    except (counted.Unrated, records.RecordError):
        return
    store.db.add_game(found)
