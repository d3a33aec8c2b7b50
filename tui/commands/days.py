"""`tabletop-tui days ...`: play over days from scripts (the menu's "Play over days" is the
same thing on a screen), and the options `serve` takes for the games over days it hosts:
its keeper (net.days.keeper) and the mail server its notices go through.

Every line it prints is one JSON object, for scripts. The player is this installation's
identity (at an SSH or web table: the one the table gave the player), their games are the
ones in the store games are counted into here (at a table: the table's).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engines import ENGINE_IDS, IllegalMove
from net.days import clock, notices, people, table
from net.days.keeper import DaysKeeper
from net.days.link import with_store
from net.days.notices import NoticeError, Smtp
from net.days.store import DaysStore, Listing
from net.players import identity
from net.players.store import StoreError
from net.table.session import StaleMove

NO_IDENTITY = "play over days needs an identity (an SSH key at a table)"


def player_name() -> str:
    """The name the player goes by here: their settings' name, else their login's."""
    from tui import prefs

    return (prefs.load().name or os.environ.get("USER") or "player")[:32]


def player_language() -> str:
    """The language the player's notices speak: their settings' choice, else their
    environment's (as the app chooses it)."""
    from net.words import language
    from tui import prefs

    return prefs.load().language or language(os.environ)


def add_parser(sub: Any) -> None:
    days = sub.add_parser("days", help="play over days at a table (for scripts; JSON lines)")
    acts = days.add_subparsers(dest="act", metavar="ACTION", required=True)
    acts.add_parser("list", help="your games, your invitations and the open games")
    new = acts.add_parser("new", help="open a game over days")
    new.add_argument("game", choices=ENGINE_IDS)
    new.add_argument("--seat", action="append", default=[], metavar="KIND",
                     help="each other seat: open, bot:LEVEL or invite:NAME-OR-FINGERPRINT")
    new.add_argument("--days", type=int, default=3, choices=clock.DAYS_CHOICES)
    new.add_argument("--unlisted", action="store_true", help="by invitation only")
    join = acts.add_parser("join", help="take a free seat of a game")
    join.add_argument("id")
    join.add_argument("--seat", type=int, default=None)
    show = acts.add_parser("show", help="your view of a game and your legal moves")
    show.add_argument("id")
    move = acts.add_parser("move", help="make a move (JSON) on the state you saw")
    move.add_argument("id")
    move.add_argument("seat", type=int)
    move.add_argument("move")
    move.add_argument("--state", type=int, required=True)
    away = acts.add_parser("away", help="go on vacation for DAYS whole days")
    away.add_argument("days", type=int)
    acts.add_parser("back", help="come back from vacation early")
    notices = acts.add_parser("notices", help="where the table tells you it is your turn")
    notices.add_argument("--webhook", default="")
    notices.add_argument("--email", default="")
    orders = acts.add_parser("orders", help="your standing orders in a game's answer windows")
    orders.add_argument("id")
    orders.add_argument("answer", choices=("never", "nookie", "bot"))


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--smtp-host", default=None, metavar="HOST",
                       help="the mail server for the e-mails of play over days")
    serve.add_argument("--smtp-port", type=int, default=25, metavar="PORT")
    serve.add_argument("--smtp-from", default="tabletop-tui@localhost", metavar="ADDRESS")
    serve.add_argument("--days-private-webhooks", action="store_true",
                       help="let players' webhooks reach this table's own network")


Beside = Callable[[str, Any], Awaitable[Callable[[], Awaitable[None]]]]


def keeper_beside(args: argparse.Namespace, inner: Beside | None) -> Beside:
    """What `serve --ssh/--web` runs beside its tables: the keeper of games over days (and
    `inner`, the web table, if any)."""
    smtp = Smtp(args.smtp_host, args.smtp_port, args.smtp_from) if args.smtp_host else None
    if args.days_private_webhooks:  # for the keeper and every session's Settings
        os.environ[notices.PRIVATE_ENV] = "1"
    keeper = DaysKeeper(smtp=smtp)

    async def start(url: str, forks: Any) -> Callable[[], Awaitable[None]]:
        stop_inner = await inner(url, forks) if inner is not None else None
        task = asyncio.get_running_loop().create_task(keeper.run())

        async def stop() -> None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if stop_inner is not None:
                await stop_inner()

        return stop

    return start


def _out(item: dict[str, Any]) -> None:
    print(json.dumps(item), flush=True)


def _listing(game: Listing, kind: str) -> dict[str, Any]:
    return {"kind": kind, "id": game.id, "game": game.engine, "days": game.days,
            "status": game.status, "state": game.state_no, "your_turn": game.my_turn,
            "seats": [{"name": n, "bot": b} for n, _i, b in game.seats], "yours": game.mine}


def _plans(given: list[str]) -> list[table.SeatPlan]:
    plans = [table.SeatPlan("me")]
    for item in given:
        kind, _, value = item.partition(":")
        plans.append(table.SeatPlan(kind, value or None))
    return plans


def run(args: argparse.Namespace) -> None:
    me = identity.mine()
    if me is None:
        raise SystemExit(f"tabletop-tui: {NO_IDENTITY}")
    name, now = player_name(), time.time()
    try:
        with_store(None, lambda store: _act(store, args, me, name, now))
    except (table.DaysError, IllegalMove, StaleMove, NoticeError, StoreError) as exc:
        reason = exc.reason if isinstance(exc, IllegalMove) else str(exc)
        _out({"error": reason})
        raise SystemExit(1) from None


def _act(store: DaysStore, args: argparse.Namespace, me: identity.Identity, name: str,
         now: float) -> None:
    ident, act = me.fingerprint, args.act
    if act == "list":
        for game in store.games_of(ident):
            _out(_listing(game, "mine"))
        for game in store.invited(ident, name):
            _out(_listing(game, "invited"))
        for game in store.listed():
            if not game.mine:
                _out(_listing(game, "open"))
    elif act == "new":
        game = table.open_game(store, args.game, _plans(args.seat), me, name, now,
                               days=args.days, listed=not args.unlisted)
        _out({"id": game.id, "status": game.status})
    elif act == "join":
        game = table.take_seat(store, args.id, args.seat, me, name, now)
        _out({"id": game.id, "status": game.status, "yours": game.seat_of(ident)})
    elif act == "show":
        _show(store, args.id, ident)
    elif act == "move":
        try:
            move = json.loads(args.move)
        except ValueError:
            raise table.DaysError("A move is a JSON object, e.g. {\"type\": \"take\"}") from None
        if not isinstance(move, dict):
            raise table.DaysError("A move is a JSON object, e.g. {\"type\": \"take\"}")
        game = table.play(store, args.id, ident, args.seat, move, args.state, now)
        _out({"id": game.id, "state": game.state_no, "status": game.status})
    elif act == "away":
        player = people.go_away(store, ident, name, args.days, now)
        _out({"away_until": player.away.end})
    elif act == "back":
        people.come_back(store, ident, name, now)
        _out({"back": True})
    elif act == "notices":
        player = people.set_notices(store, ident, name, args.webhook, args.email,
                                    lang=player_language())
        _out({"webhook": player.webhook, "email": player.email})
    elif act == "orders":
        _out({"orders": table.set_orders(store, args.id, ident, {"answer": args.answer})})


def _show(store: DaysStore, game_id: str, ident: str) -> None:
    game = store.load(game_id)
    if game is None:
        raise table.DaysError("There is no such game at this table")
    session = table.session_of(game)
    seats = [s.seat for s in game.seats if s.ident == ident] or [None]
    for seat in seats:
        _out({"id": game.id, "status": game.status, **session.sync(seat), "seat": seat,
              "to_act": game.to_act, "result": game.result})
