"""`tabletop-tui tournament`: create, list, enter, run and read a tournament of the table's
store (net.players.tournaments; the store games are counted into, as `players` reads it).

    tournament new GAME --swiss 5 --start 20:00     a Swiss of five rounds, today at 20:00
    tournament new GAME --arena 60 --start now      an hour's arena
    tournament list [--json]
    tournament join ID [--name NAME] [--bot LEVEL]  enter; with --bot, play its rounds headless
    tournament run ID                               the director: pair and host every round
    tournament desk                                 direct each tournament when it starts
    tournament standings ID [--json]                by round, tie-breaks named; --json: all of it
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from engines import ENGINE_IDS, get_engine
from net.players import ladder
from net.players.store import StoreError
from net.players.tournaments import (
    MAX_MINUTES,
    MAX_ROUNDS,
    MONTH,
    Event,
    Tournaments,
    plan_event,
    start_time,
)
from net.table.clocks import PRESETS
from net.table.session import BOT_LEVELS
from net.wire.text import clean, fit


def fail(message: str) -> NoReturn:
    print(f"tabletop-tui: {message}", file=sys.stderr)
    raise SystemExit(2)


def _start(text: str) -> float:
    try:
        return start_time(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _rounds(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_ROUNDS:
        raise argparse.ArgumentTypeError(f"a Swiss has 1 to {MAX_ROUNDS} rounds")
    return int(text)


def _minutes(text: str) -> float:
    if not text.isdigit() or not 1 <= int(text) <= MAX_MINUTES:
        raise argparse.ArgumentTypeError(f"an arena lasts 1 to {MAX_MINUTES} minutes")
    return float(text)


def _month(text: str) -> str:
    if not MONTH.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is no month: write YYYY-MM")
    return text


def _game(text: str) -> str:
    if text not in ENGINE_IDS:
        raise argparse.ArgumentTypeError(f"unknown game {text!r}; choose one of: "
                                         f"{', '.join(ENGINE_IDS)}")
    return text


def add_parser(sub: Any) -> None:
    """Register `tournament` and its own commands."""
    parser = sub.add_parser("tournament", help="tournaments of this table: new, list, join, "
                                               "run, standings")
    parser.set_defaults(command_run=run)
    own = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = own.add_parser("new", help="create a tournament")
    new.add_argument("game", type=_game)
    kinds = new.add_mutually_exclusive_group(required=True)
    kinds.add_argument("--swiss", type=_rounds, metavar="ROUNDS", help="a Swiss of ROUNDS")
    kinds.add_argument("--roundrobin", action="store_true", help="everyone meets everyone")
    kinds.add_argument("--arena", type=_minutes, metavar="MINUTES", help="an arena")
    new.add_argument("--start", type=_start, default=None, metavar="WHEN",
                     help="now, HH:MM or an ISO date and time (default: in ten minutes)")
    new.add_argument("--seats", type=int, default=None, help="seats at a table (default: the "
                                                             "game's fewest, at least 2)")
    new.add_argument("--duplicate", action="store_true",
                     help="every table of a round plays the same deal")
    new.add_argument("--season", default=None, metavar="YYYY-MM",
                     help="an arena that counts for this month's season")
    new.add_argument("--id", default=None, help="its name (default: game and start)")
    listing = own.add_parser("list", help="the tournaments of this table")
    listing.add_argument("--json", action="store_true")
    join = own.add_parser("join", help="enter a tournament")
    join.add_argument("id")
    join.add_argument("--name", default=None, help="your name in it")
    join.add_argument("--bot", choices=BOT_LEVELS, default=None,
                      help="play its rounds from here with this bot (headless)")
    join.add_argument("--server", default=None, help="the relay of its tables")
    director = own.add_parser("run", help="direct a tournament: pair and host every round")
    director.add_argument("id")
    director.add_argument("--server", default=None, help="the relay to host its tables on")
    director.add_argument("--show-up", type=float, default=None, metavar="SECONDS",
                          help="how long a player has to sit down before forfeiting")
    director.add_argument("--clock", choices=PRESETS, default="normal",
                          help="the tables' clocks (default: normal)")
    season = own.add_parser("season", help="a season's standings: a month's arenas of a game")
    season.add_argument("game", type=_game)
    season.add_argument("month", nargs="?", type=_month, default=None,
                        help="YYYY-MM (default: this month)")
    season.add_argument("--json", action="store_true")
    desk = own.add_parser("desk", help="direct every tournament of this table when it starts "
                                       "(run it beside serve)")
    desk.add_argument("--server", default=None, help="the relay to host the tables on")
    standing = own.add_parser("standings", help="a tournament's standings")
    standing.add_argument("id")
    standing.add_argument("--json", action="store_true",
                          help="everything: the event, entries, rounds, tables and standings")


@contextmanager
def _events() -> Iterator[Tournaments]:
    try:
        store = ladder.open_store()
    except (StoreError, OSError, sqlite3.Error) as exc:
        fail(f"cannot open the table's store: {exc}")
    try:
        yield Tournaments(store)
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()


def run(args: argparse.Namespace) -> None:
    actions: dict[str, Callable[[argparse.Namespace, Tournaments], None]] = {
        "new": _new, "list": _list, "join": _join, "run": _direct, "standings": _standings,
        "season": _season, "desk": _desk}
    with _events() as events:
        try:
            actions[args.action](args, events)
        except ValueError as exc:
            fail(str(exc))


def _new(args: argparse.Namespace, events: Tournaments) -> None:
    from net.entrant import player_key

    kind = "swiss" if args.swiss else "roundrobin" if args.roundrobin else "arena"
    event = plan_event(args.game, kind, rounds=args.swiss or 0, minutes=args.arena or 0,
                       seats=args.seats, duplicate=args.duplicate, season=args.season,
                       tid=args.id, organiser=player_key("organiser"),
                       starts=args.start if args.start is not None else time.time() + 600)
    events.create(event)
    print(event.id)


def _list(args: argparse.Namespace, events: Tournaments) -> None:
    found = events.events()
    if args.json:
        print(json.dumps([{"id": e.id, "game": e.engine, "kind": e.kind, "rounds": e.rounds,
                           "seats": e.size, "starts": e.starts, "status": e.status,
                           "duplicate": e.duplicate, "season": e.season,
                           "entrants": len(events.entrants(e.id))} for e in found], indent=2))
        return
    if not found:
        print("no tournaments")
        return
    for e in found:
        when = dt.datetime.fromtimestamp(e.starts).strftime("%Y-%m-%d %H:%M")
        print(f"{e.id:<28} {e.engine:<16} {describe(e):<22} {when}  {e.status:<8} "
              f"{len(events.entrants(e.id))} entered")


def describe(event: Event) -> str:
    """Its format in a few words."""
    if event.kind == "arena":
        return f"arena, {event.length / 60:.0f} min"
    what = f"Swiss, {event.rounds} rounds" if event.kind == "swiss" else "round-robin"
    return what + (", duplicate" if event.duplicate else "")


def _join(args: argparse.Namespace, events: Tournaments) -> None:
    from net.entrant import Entry, player_key  # the network only for this command

    name = args.name or os.environ.get("USER") or "player"
    key = player_key(name)
    entrant = events.enter(args.id, key, name)
    print(f"entered {args.id} as {clean(entrant.name)} (number {entrant.entry})")
    if args.bot is None:
        return
    entry = Entry(events, args.id, key, name, level=args.bot, server=args.server)
    for number, verdict in enumerate(asyncio.run(entry.play_event()), 1):
        print(f"game {number}: {verdict.text}")


def _direct(args: argparse.Namespace, events: Tournaments) -> None:
    from net.director import Director
    from net.entrant import SHOW_UP

    director = Director(events, args.id, _relay(args, "run"), show_up=args.show_up or SHOW_UP,
                        clock=args.clock, ladders=events.db)
    director.event()
    asyncio.run(director.run())
    _standings(argparse.Namespace(id=args.id, json=False), events)


def _relay(args: argparse.Namespace, what: str) -> str:
    from net import discovery
    from net.host.hosting import table_relay

    relay = args.server or table_relay()
    if relay is None:
        fail(f"tournament {what} needs the relay its tables live on: --server HOST:PORT")
    return discovery.server_url(relay)


def _desk(args: argparse.Namespace, events: Tournaments) -> None:
    from net.director import Desk

    desk = Desk(events, _relay(args, "desk"), director={"ladders": events.db})
    asyncio.run(desk.run())


def _standings(args: argparse.Namespace, events: Tournaments) -> None:
    if args.json:
        print(json.dumps(events.export(args.id), indent=2, ensure_ascii=False))
        return
    event = events.event(args.id)
    if event is None:
        fail(f"there is no tournament {args.id}")
    print(f"{event.id}: {get_engine(event.engine).title}, {describe(event)} ({event.status})")
    for line in standings_lines(event, events.standings(args.id)):
        print(line)


def _season(args: argparse.Namespace, events: Tournaments) -> None:
    month = args.month or dt.datetime.now().strftime("%Y-%m")
    rows = events.season(args.game, month)
    if args.json:
        print(json.dumps({"game": args.game, "season": month, "standings": rows}, indent=2,
                         ensure_ascii=False))
        return
    print(f"{get_engine(args.game).title}: season {month}")
    if not rows:
        print("no arena of this season has been played yet")
        return
    print(f"{'#':>3}  {'player':<24} {'points':>6} {'wins':>4} {'games':>5} {'arenas':>6}")
    for r in rows:
        print(f"{r['rank']:>3}  {fit(r['name'], 24)} {r['score']:>6g} {r['wins']:>4} "
              f"{r['games']:>5} {r['arenas']:>6}")


def standings_lines(event: Event, rows: list[dict[str, Any]]) -> list[str]:
    """The standings as lines of text, the tie-breaks named in the heading."""
    if event.kind == "arena":
        head = f"{'#':>3}  {'player':<24} {'points':>6} {'wins':>4} {'games':>5}"
        return [head] + [f"{r['rank']:>3}  {fit(r['name'], 24)} {r['score']:>6g} {r['wins']:>4} "
                         f"{r['games']:>5}{'  on fire' if r['on_fire'] else ''}" for r in rows]
    head = (f"{'#':>3}  {'player':<24} {'score':>5} {'Buchholz':>8} {'Sonneborn-Berger':>16}  "
            "by round")
    return [head] + [f"{r['rank']:>3}  {fit(r['name'], 24)} {r['score']:>5g} "
                     f"{r['buchholz']:>8g} {r['sonneborn_berger']:>16g}  "
                     f"{' '.join(f'{p:g}' for p in r['rounds'])}" for r in rows]
