"""The `tabletop-tui` command. Every argument is checked here, before anything starts, so a
typo costs one clear line and exit code 2 rather than a half-drawn screen. It also builds the
app for each command: screens never import this module or the app's."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn

from engines import ENGINE_IDS, get_engine
from net.discovery import DEFAULT_PORT, server_url
from net.home import write_private
from net.ssh import inside
from net.ssh.limits import SshLimits
from net.table import clocks
from net.table.session import BOT_LEVELS
from net.web.limits import WebLimits
from net.wire import codes
from tui.commands import days as days_command
from tui.commands import fair_play as fair_play_command
from tui.commands import learn as learn_command
from tui.commands import puzzles as puzzles_command
from tui.commands import review as review_command
from tui.commands import tournament as tournament_command

if TYPE_CHECKING:
    from textual.screen import Screen

    from net.ssh.server import SshConfig
    from net.web.server import WebConfig
    from tui.app import TabletopApp


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tabletop-tui: {message}\n")


def fail(message: str) -> NoReturn:
    print(f"tabletop-tui: {message}", file=sys.stderr)
    raise SystemExit(2)


# The module each serving part needs, from the `serve` extra (pyproject.toml).
SERVING = {"--ssh": "asyncssh", "--web": "textual_serve", "--db": "psycopg"}


def need_serving(option: str) -> None:
    """Stop with one line naming the pip command when `option`'s part of the `serve` extra is
    not installed (a player's install has none of them)."""
    import importlib.util

    if importlib.util.find_spec(SERVING[option]) is None:
        fail(f"{option} needs the serving parts, which are not installed: "
             "pip install 'tabletop-tui[serve]' (in a checkout: pip install '.[serve]')")


def parse_option(engine_id: str, text: str) -> tuple[str, Any]:
    """`name=value` for one of the game's lobby options, typed like the option's default."""
    eng = get_engine(engine_id)
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if name not in eng.options:
        known = ", ".join(eng.options) or "none"
        fail(f"{eng.title} has no option {name!r}; use -o NAME=VALUE with NAME one of: {known}")
    if not sep:
        fail(f"option {name} needs a value: -o {name}=VALUE (e.g. -o {name}=off)")
    default = eng.options[name]
    value = raw.strip().lower()
    if isinstance(default, bool):
        if value in ("1", "true", "yes", "on"):
            return name, True
        if value in ("0", "false", "no", "off"):
            return name, False
        fail(f"option {name} takes on or off, not {raw!r}")
    try:
        return name, int(value)
    except ValueError:
        fail(f"option {name} takes a whole number, not {raw!r}")


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not {text!r}") from None
    if not 0 <= seed < 2**63:
        raise argparse.ArgumentTypeError("seed must be between 0 and 2**63-1")
    return seed


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def _port(text: str) -> int:
    port = _count(text)
    if port > 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535 (0: any free one), not {port}")
    return port


def _at_least_one(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("expected 1 or more, not 0")
    return value


def _startups(text: str) -> tuple[int, int, int]:
    """`--ssh-max-startups`: START:RATE:FULL as OpenSSH's MaxStartups, or N (N:100:N, no
    turning away at random below N)."""
    parts = text.split(":")
    if len(parts) not in (1, 3):
        raise argparse.ArgumentTypeError(f"expected N or START:RATE:FULL, not {text!r}")
    start, rate, full = (_count(parts[0]), 100, _count(parts[0])) if len(parts) == 1 else \
        tuple(_count(part) for part in parts)
    if not 1 <= start <= full or rate > 100:
        raise argparse.ArgumentTypeError(
            f"expected 1 <= START <= FULL and a RATE of 0 to 100 percent, not {text!r}")
    return start, rate, full


def _seconds(least: float, most: float) -> Callable[[str], float]:
    """A number of seconds, `least` to `most`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(
                f"expected {least:g} to {most:g} seconds, not {text}")
        return value

    return parse


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected minutes, not {text!r}") from None
    if not 0 <= value <= 7 * 24 * 60:
        raise argparse.ArgumentTypeError("expected 0 (never) to 10080 minutes (a week)")
    return value


def _fill_after(text: str) -> float:
    from net.host.billboard import MAX_FILL_AFTER

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 <= value <= MAX_FILL_AFTER:
        raise argparse.ArgumentTypeError(f"expected 0 to {MAX_FILL_AFTER:g} seconds")
    return value


def _percent(text: str) -> float:
    """A whole percentage 0..100, as the share 0..1 it stands for."""
    if not (text.isdigit() and int(text) <= 100):
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, not {text!r}")
    return int(text) / 100


def _server(text: str) -> str:
    try:
        server_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _database(text: str) -> str:
    from net.players import ladder

    if not ladder.is_database(text):
        raise argparse.ArgumentTypeError("expected a PostgreSQL URL: postgresql://USER@HOST/DB")
    return text


def _game(text: str) -> str:
    if text not in ENGINE_IDS:
        raise argparse.ArgumentTypeError(
            f"unknown game {text!r}; choose one of: {', '.join(ENGINE_IDS)}"
        )
    return text


def _theme(text: str) -> str:
    from themes import THEME_NAMES

    if text not in THEME_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown theme {text!r}; choose one of: {', '.join(THEME_NAMES)}"
        )
    return text


def options_help() -> str:
    """Every game's -o options with their defaults, for --help."""
    lines = ["game options (-o NAME=VALUE):"]
    for engine_id in ENGINE_IDS:
        try:
            eng = get_engine(engine_id)
        except ImportError:
            continue
        listed = ", ".join(
            f"{name}={_shown(default)}" for name, default in eng.options.items()
        )
        lines.append(f"  {engine_id}: {listed or 'none'}")
    return "\n".join(lines)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _add_clock_options(parser: argparse.ArgumentParser) -> None:
    """`--clock` and `--out-of-time`, for `play` and `host` alike."""
    parser.add_argument("--clock", choices=clocks.PRESETS, default=None,
                        help="every seat's clock: a time bank plus some seconds a turn "
                        "(fast, normal, slow), the same time for every turn (move), or none")
    parser.add_argument("--out-of-time", choices=clocks.OUT_OF_TIME, default="bot",
                        help="a player whose time runs out: the strong bot moves for them "
                        "(default), or they are skipped (where the game lets a turn go by)")


def _clock(game: str, args: argparse.Namespace, seats: int) -> clocks.ClockSetting | None:
    """The clock asked for, or one line and exit 2 (a game that cannot skip a turn)."""
    try:
        return clocks.preset(game, args.clock or "none", seats, args.out_of_time)
    except ValueError as exc:
        fail(str(exc))


def _add_ssh_options(parser: argparse.ArgumentParser) -> None:
    """`--ssh PORT` and its options, for `serve` and `host` alike."""
    limits = SshLimits()
    ssh = parser.add_argument_group(
        "SSH table", "let anyone with an SSH client play here: ssh -p PORT HOST")
    ssh.add_argument("--ssh", type=_port, default=None, metavar="PORT",
                     help="also run an SSH server on PORT")
    ssh.add_argument("--ssh-host", default="", metavar="ADDR",
                     help="address the SSH server listens on (default: all, IPv4 and IPv6)")
    ssh.add_argument("--ssh-name", default=None, metavar="HOST",
                     help="the host name players reach the table by, for the ssh command "
                     "the lobby shows (default: the address each player came in on)")
    ssh.add_argument("--ssh-keys", default=None, metavar="FILE",
                     help="let in only the keys of this authorized_keys file")
    ssh.add_argument("--ssh-password", default=None, metavar="SECRET",
                     help="ask every player for this shared password")
    ssh.add_argument("--ssh-max-sessions", type=_at_least_one, default=limits.max_sessions,
                     metavar="N", help=f"sessions at once (default {limits.max_sessions})")
    ssh.add_argument("--ssh-per-address", type=_at_least_one, default=limits.per_address,
                     metavar="N", help="sessions at once from one address (IPv6: its /64) "
                     f"and for one player; as many logins at once (default {limits.per_address})")
    ssh.add_argument("--ssh-per-minute", type=_at_least_one, default=limits.per_minute,
                     metavar="N", help="new sessions per address per minute "
                     f"(default {limits.per_minute})")
    startups = f"{limits.startups_begin}:{limits.startups_rate}:{limits.max_startups}"
    ssh.add_argument("--ssh-max-startups", type=_startups, default=_startups(startups),
                     metavar="START:RATE:FULL", help="connections logging in at once, from all "
                     "addresses, as OpenSSH's MaxStartups: above START, RATE percent of "
                     "newcomers are turned away at random, rising to all at FULL; N alone: "
                     f"all at N (default {startups})")
    ssh.add_argument("--ssh-login-timeout", type=_seconds(1, 600), default=limits.login_timeout,
                     metavar="SEC", help="seconds a connection may take to log in (it must "
                     f"begin its key exchange within {limits.hello_timeout:g} s) "
                     f"(default {limits.login_timeout:g})")
    ssh.add_argument("--ssh-penalty", type=_seconds(0, 86400), default=limits.penalty_most,
                     metavar="SEC", help="the longest an address whose logins keep stalling or "
                     "failing is turned away, as OpenSSH's PerSourcePenalties "
                     f"(default {limits.penalty_most:g}; 0: never)")
    ssh.add_argument("--ssh-host-key", default=None, metavar="FILE",
                     help="the SSH host key (an OpenSSH private key file) instead of the one "
                     "made in the data directory: every SSH node of one table uses the same")
    ssh.add_argument("--ssh-trust-proxy", action="append", default=[], metavar="ADDRESS",
                     help="a load balancer in TCP mode in front of the SSH server (an address "
                     "or network; repeat for more): it must send a PROXY protocol v2 header "
                     "(HAProxy: send-proxy-v2), whose client address the per-address limits "
                     "count")
    ssh.add_argument("--ssh-idle", type=_minutes, default=limits.idle_minutes, metavar="MIN",
                     help="close a session after MIN minutes without a key pressed (a "
                     "`watch CODE` session: nor a move in the game it watches) "
                     f"(default {limits.idle_minutes:g}; 0: never)")


def _add_web_options(parser: argparse.ArgumentParser) -> None:
    """`--web PORT` and its options, for `serve` and `host` alike."""
    limits = WebLimits()
    web = parser.add_argument_group(
        "web table", "let anyone with a browser play here: http://HOST:PORT/ (behind a "
        "reverse proxy for TLS; see the README)")
    web.add_argument("--web", type=_port, default=None, metavar="PORT",
                     help="also serve the app in a browser tab on PORT")
    web.add_argument("--web-bind", default="127.0.0.1", metavar="ADDR",
                     help="address the web table listens on (default 127.0.0.1: put a reverse "
                     "proxy in front; 0.0.0.0 or :: for a LAN)")
    web.add_argument("--web-name", action="append", default=[], metavar="HOST",
                     help="a host name browsers reach the table by (repeat for more); "
                     "addresses and localhost are always taken, other names refused")
    web.add_argument("--web-password", default=None, metavar="SECRET",
                     help="ask every browser for this shared password")
    web.add_argument("--web-max-tabs", type=_at_least_one, default=limits.max_tabs,
                     metavar="N", help=f"tabs at once (default {limits.max_tabs})")
    web.add_argument("--web-per-address", type=_at_least_one, default=limits.per_address,
                     metavar="N", help="tabs at once from one address (IPv6: its /64) and for "
                     f"one browser (default {limits.per_address})")
    web.add_argument("--web-per-minute", type=_at_least_one, default=limits.per_minute,
                     metavar="N", help=f"new tabs per address per minute "
                     f"(default {limits.per_minute})")
    web.add_argument("--web-idle", type=_minutes, default=limits.idle_minutes, metavar="MIN",
                     help="close a tab after MIN minutes without a key pressed "
                     f"(default {limits.idle_minutes:g}; 0: never)")
    web.add_argument("--web-trust-proxy", action="append", default=[], metavar="ADDRESS",
                     help="a reverse proxy in front of the web table (an address or network; "
                     "repeat for more): the client address it sends in X-Forwarded-For is "
                     "what the per-address limits count")


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, built once a process (the SSH table's fork server builds it
    for every session: tui.preload); parsing a command line leaves it as it was."""
    parser = _Parser(
        prog="tabletop-tui",
        description="A terminal tabletop: play card and board games with friends or bots.",
        epilog=options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--lang", choices=("en", "de"), default=None, help="interface language")
    parser.add_argument("--theme", type=_theme, default=None,
                        help="colour theme (default, high-contrast)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a local game (hot-seat and bots)",
                          epilog=options_help(),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("game", type=_game, help=f"one of: {', '.join(ENGINE_IDS)}")
    play.add_argument("--bots", type=_count, default=None, help="number of bot players")
    play.add_argument("--humans", type=_count, default=1, help="people at this terminal")
    play.add_argument("--level", choices=BOT_LEVELS, default=None, help="bot strength")
    play.add_argument("--seed", type=_seed, default=None, help="fix the shuffle")
    play.add_argument("--name", action="append", default=[], metavar="NAME",
                      help="a player's name at this keyboard (repeat for each hot-seat player)")
    play.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    _add_clock_options(play)

    host = sub.add_parser("host", help="host a networked game and show its join code",
                          epilog=options_help(),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    host.add_argument("game", type=_game, nargs="?", default=None)
    host.add_argument("--server", type=_server, default=None,
                      help="use the relay at HOST:PORT or ws:// URL")
    host.add_argument("--lan", action="store_true", help="listen on the LAN and advertise it")
    host.add_argument("--port", type=_port, default=DEFAULT_PORT, help="relay port")
    host.add_argument("--resume", action="store_true", help="continue the last hosted game")
    host.add_argument("--headless", action="store_true", help="no screen: print code and result")
    host.add_argument("--bots", type=_count, default=0, help="bot seats (headless)")
    host.add_argument("--seats", type=_count, default=None, help="seats in all (headless)")
    host.add_argument("--level", choices=BOT_LEVELS, default=None, help="bot strength")
    host.add_argument("--seed", type=_seed, default=None, help="fix the shuffle")
    host.add_argument("--name", default=None, help="your name at the table")
    host.add_argument("--public", action="store_true",
                      help="list the room among the relay's open tables, for anyone to join")
    host.add_argument("--bots-after", type=_fill_after, default=None, metavar="SECONDS",
                      help="with --public: bots take the free seats after SECONDS, and the "
                           "game starts")
    host.add_argument("--min-finished", type=_percent, default=None, metavar="PERCENT",
                      help="at a public table: only people who finished at least PERCENT of "
                           "their games there take a seat (newcomers too)")
    host.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    _add_clock_options(host)
    _add_ssh_options(host)
    _add_web_options(host)

    tables = sub.add_parser("tables", help="list the open tables of a relay")
    tables.add_argument("game", type=_game, nargs="?", default=None)
    tables.add_argument("--server", type=_server, default=None,
                        help="the relay at HOST:PORT or ws:// URL (default: this machine's)")
    tables.add_argument("--json", action="store_true", help="one JSON object per table")

    join = sub.add_parser(
        "join", help="join a game by its code",
        epilog=f"Without CODE the code comes from the environment variable {codes.CODE_ENV}, "
        "else it is asked for (read from the first line of stdin when that is no terminal). "
        "Any user of this machine can see a command line (ps), but not your environment; a "
        "CODE given anyway is taken out of the process title.")
    join.add_argument("code", nargs="?", default=None,
                      help=f"the join code, e.g. K7QX-9MPA-B3CD (else ${codes.CODE_ENV}, "
                      "else asked for)")
    join.add_argument("--server", type=_server, default=None,
                      help="the relay at HOST:PORT or ws:// URL")
    join.add_argument("--watch", action="store_true", help="watch as a spectator")
    join.add_argument("--name", default=None, help="your name at the table")
    join.add_argument("--bot", choices=BOT_LEVELS, default=None, help="play headless as a bot")

    sub.add_parser(
        "back", help="go back to the table you have not left (else the menu)",
        description="Take up the table this player sat at when their app ended without them "
        "leaving it (a closed browser tab, a dropped SSH connection): a guest joins the room "
        "again and finds their seat, a host resumes the game. With no such table, the menu.")

    serve = sub.add_parser("serve", help="run a standalone relay (headless)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT)
    serve.add_argument("--secret-file", default=None, metavar="FILE",
                       help="the secret the relays of one table share, so any of them takes "
                            "over any room; with --ssh, its SSH players' identities are derived "
                            "from it, the same on every SSH node of the table (also "
                            "TABLETOP_TUI_RELAY_SECRET_FILE, or TABLETOP_TUI_RELAY_SECRET as hex)")
    serve.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                       help="a load balancer in front of this relay (an address or network; "
                            "repeat for more): the client address it forwards in "
                            "X-Forwarded-For is what the per-address limits count (also "
                            "TABLETOP_TUI_RELAY_PROXIES)")
    _add_ssh_options(serve)
    _add_web_options(serve)
    days_command.add_serve_options(serve)
    serve.add_argument("--relay", type=_server, default=None, metavar="URL",
                       help="with --ssh: run no relay here; the sessions host and join at this "
                       "one (the relays' load balancer of a table on several machines)")
    serve.add_argument("--db", type=_database, default=None, metavar="URL",
                       help="with --ssh: keep the table's ladder in this PostgreSQL database, "
                       "shared by every machine of the table (default: $TABLETOP_TUI_DB, else "
                       "an SQLite file in the data directory)")

    days_command.add_parser(sub)
    rules = sub.add_parser("rules", help="print a game's rules")
    rules.add_argument("game", type=_game)

    replay = sub.add_parser("replay", help="replay a game record file (Past games)")
    replay.add_argument("file", help="a record, e.g. one a friend exported")
    ladder = sub.add_parser(
        "players", help="print the ladder of this data directory (a table's with serve --ssh)",
        epilog="Counts the records of this data directory not counted yet first (into the "
        "database of $TABLETOP_TUI_DB when that is set, never into one --db names). Ratings are "
        "OpenSkill's cautious figure, mu - 3 sigma; bots are rated too.")
    ladder.add_argument("game", type=_game, nargs="?", default=None,
                        help="one game's ladder (default: every game's)")
    ladder.add_argument("--json", action="store_true", help="print JSON for scripts")
    ladder.add_argument("--db", type=_database, default=None, metavar="URL",
                        help="only read the ladder of a table's PostgreSQL database")
    fair_play_command.add_arguments(ladder, _game)
    learn_command.add_parser(sub)
    puzzles_command.add_parser(sub)
    tournament_command.add_parser(sub)
    review_command.add_parser(sub)
    kept = sub.add_parser("records", help="list the kept game records; --prune deletes some")
    kept.add_argument("--prune", action="store_true", help="delete the records selected below")
    kept.add_argument("--older-than", type=_count, default=None, metavar="DAYS",
                      help="with --prune: records older than DAYS days")
    kept.add_argument("--keep", type=_count, default=None, metavar="N",
                      help="with --prune: all but the newest N records")
    return parser


def _options(game: str, items: list[str]) -> dict[str, Any]:
    return dict(parse_option(game, item) for item in items)


def _check_players(game: str, total: int) -> None:
    try:
        get_engine(game).check_players(total)
    except ValueError as exc:
        fail(str(exc))


def _join_code(typed: str | None, retitle: bool) -> str:
    """The join code (tui.join_code says from where), or one line and exit 2: no full-screen
    app for a code that cannot be. `retitle`: take a typed code out of the process title."""
    from tui import join_code

    try:
        if typed is not None:
            if retitle:
                join_code.hide(typed)
            return codes.normalise_join(typed)
        return join_code.from_environment() or join_code.prompted()
    except codes.BadCode as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        raise SystemExit(130) from None


# What the terminal says after the app stopped on an error (Textual prints the error above).
CRASHED = ("the app stopped on an error (above). Nothing is lost: an unfinished game goes on with "
           "r in the menu's Past games (one you host also with `tabletop-tui host --resume`; "
           "your guests wait for you)")
# ... and in a session of an SSH table, where the error goes to the table's log instead.
SSH_CRASHED = ("the app stopped on an error, which the table has logged for its keeper. Nothing "
               "is lost: an unfinished game goes on with r in the menu's Past games (one you host "
               "also with `{resume}`; your guests wait for you)")


def ended(app: TabletopApp) -> None:
    """After the app: exit non-zero, with a line saying how to go on, if it crashed."""
    if app.return_code:
        crashed(app.crash_report)
        raise SystemExit(app.return_code)


def crashed(report: str) -> None:
    """The line after a crash. In a session of an SSH table (net.ssh.inside) the traceback
    `report` goes to the table's log rather than the player's screen."""
    path = inside.crash_report()
    if path is None:
        print(f"tabletop-tui: {CRASHED}", file=sys.stderr, flush=True)
        return
    with contextlib.suppress(OSError):
        write_private(path, report or "(no traceback)\n")
    line = SSH_CRASHED.format(resume=inside.ssh_command("resume"))
    print(f"tabletop-tui: {line}", file=sys.stderr, flush=True)


def _uncaught(kind: type[BaseException], error: BaseException,
              trace: TracebackType | None) -> None:
    """sys.excepthook in a session of an SSH table: an error outside the app's screens (while
    joining, say) is one line too."""
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    crashed("".join(traceback.format_exception(kind, error, trace)))


def _run(app: TabletopApp) -> None:
    app.run()
    ended(app)


def _play(args: argparse.Namespace) -> None:
    from tui import prefs
    from tui.app import local_app

    options = _options(args.game, args.option)
    eng = get_engine(args.game)
    humans = max(args.humans, len(args.name))
    bots = args.bots if args.bots is not None else max(eng.min_players - humans, 0)
    _check_players(args.game, humans + bots)
    level = args.level or prefs.load().bot_level
    clock = _clock(args.game, args, humans + bots)
    _run(local_app(args.game, humans, bots, level, args.seed, options, args.lang, args.theme,
                   names=args.name, clock=clock))


def way_back() -> Callable[[], Screen[Any]] | None:
    """The first screen that takes this player back to the table they have not left
    (tui.comeback): a host's game resumed, a guest's room joined again with their seat's
    token; None: no such table, the menu is all. A room that is gone or a game that cannot be
    taken up says so on that screen, over the menu."""
    from tui import comeback

    seat = comeback.seat()
    if seat is None:
        return None
    # Taken once: the way back writes it again when it succeeds (a seat taken, a game dealt);
    # a room that is gone for good is not tried at every start after.
    comeback.left()
    if seat.record is not None:
        from net.host.hosting import HostPlan
        from tui.screens.host import HostScreen

        plan = HostPlan(None, 0, resume=True, record=comeback.record_path(seat))
        return lambda: HostScreen(plan, auto=True)
    from tui.screens.join import JoinScreen

    code, name, server = seat.code or "", seat.name, seat.server
    return lambda: JoinScreen(code, name, server, auto=True)


def _back_app(args: argparse.Namespace) -> None:
    from tui.app import TabletopApp

    _run(TabletopApp(lang=args.lang, theme=args.theme, opening=way_back()))


def _ssh_config(args: argparse.Namespace) -> SshConfig | None:
    """The SSH table `--ssh` asks for, or None without `--ssh`."""
    if args.ssh is None:
        given = [flag for flag, value in (
            ("--ssh-keys", args.ssh_keys), ("--ssh-password", args.ssh_password),
            ("--ssh-host-key", args.ssh_host_key), ("--ssh-trust-proxy", args.ssh_trust_proxy),
            ("--relay", getattr(args, "relay", None) if args.web is None else None)) if value]
        if given:
            fail(f"{given[0]} needs --ssh PORT")
        return None

    need_serving("--ssh")
    from net.relay import addresses, tokens
    from net.ssh.access import Access
    from net.ssh.keys import host_key
    from net.ssh.server import SshConfig

    shared_key = Path(args.ssh_host_key) if args.ssh_host_key else None
    try:
        access = Access.load(args.ssh_keys, args.ssh_password)
        host_key(shared_key)  # made now if missing; a damaged one is one line, before anything
        trusted = addresses.networks(" ".join(args.ssh_trust_proxy))
    except ValueError as exc:
        fail(str(exc))
    try:  # a table on several machines derives its players' identities from it (serve only)
        secret = tokens.shared_secret() if args.command == "serve" else None
    except (OSError, ValueError) as exc:
        fail(f"cannot use the relay secret: {exc}")
    limits = SshLimits(max_sessions=args.ssh_max_sessions, per_address=args.ssh_per_address,
                       per_minute=args.ssh_per_minute, idle_minutes=args.ssh_idle,
                       startups_begin=args.ssh_max_startups[0],
                       startups_rate=args.ssh_max_startups[1],
                       max_startups=args.ssh_max_startups[2],
                       login_timeout=args.ssh_login_timeout,
                       penalty_most=args.ssh_penalty)
    return SshConfig(args.ssh, args.ssh_host, access, limits, name=args.ssh_name,
                     host_key=shared_key, secret=secret, trusted=trusted)


def _web_config(args: argparse.Namespace) -> WebConfig | None:
    """The web table `--web` asks for, or None without `--web`."""
    if args.web is None:
        given = [flag for flag, value in (
            ("--web-password", args.web_password), ("--web-name", args.web_name),
            ("--web-trust-proxy", args.web_trust_proxy)) if value]
        if given:
            fail(f"{given[0]} needs --web PORT")
        return None
    need_serving("--web")
    from net.relay import addresses
    from net.web.server import WebConfig

    if args.web_password is not None and not args.web_password:
        fail("--web-password needs a non-empty password")
    try:
        trusted = addresses.networks(" ".join(args.web_trust_proxy))
    except ValueError as exc:
        fail(str(exc))
    limits = WebLimits(max_tabs=args.web_max_tabs, per_address=args.web_per_address,
                       per_minute=args.web_per_minute, idle_minutes=args.web_idle)
    return WebConfig(args.web, args.web_bind, tuple(args.web_name), args.web_password, limits,
                     trusted)


def _say(text: str) -> None:
    print(f"tabletop-tui: {text}", flush=True)


def _shared_secret(path: str | None) -> None:
    """`serve --secret-file`: every relay of this process signs with that secret; one line
    and exit 2 for a file that cannot be used, before anything starts."""
    from net.relay import tokens

    if path is not None:
        os.environ[tokens.SECRET_FILE_ENV] = path
    try:
        tokens.shared_secret()
    except (OSError, ValueError) as exc:
        fail(f"cannot use the relay secret: {exc}")


def _trusted_proxies(given: list[str]) -> None:
    """`serve --trust-proxy`: the relay believes X-Forwarded-For from these balancers only;
    one line and exit 2 for one that is no address."""
    from net.relay import addresses

    if given:
        os.environ[addresses.PROXIES_ENV] = " ".join(given)
    try:
        addresses.trusted_proxies()
    except ValueError as exc:
        fail(f"cannot trust that proxy: {exc}")


def _host_app(args: argparse.Namespace, options: dict[str, Any]) -> None:
    """`tabletop-tui host [GAME]` with a screen: with a game (or --resume) the room opens at
    once. With `--ssh` the relay and an SSH server for it run alongside the app."""
    from net.host.hosting import HostPlan
    from tui.app import TabletopApp
    from tui.screens.host import HostScreen

    plan = HostPlan(args.game, args.seats or 0, options, server=args.server, lan=args.lan,
                    port=args.port, resume=args.resume, host_name=args.name,
                    level=args.level or "strong", seed=args.seed, clock=args.clock,
                    out_of_time=args.out_of_time, public=args.public,
                    fill_after=args.bots_after, min_finished=args.min_finished)
    if args.resume:  # nothing to take up is one line, not a form that cannot open
        from net.host.hosting import resumable

        try:
            resumable()
        except ValueError as exc:
            fail(str(exc))
    auto = args.game is not None or args.resume
    app = TabletopApp(lang=args.lang, theme=args.theme,
                      opening=lambda: HostScreen(plan, auto=auto))
    ssh = _ssh_config(args)
    web = _web_config(args)
    if ssh is None and web is None:
        _run(app)
        return
    import asyncio

    from net.ssh.server import hosting_with_table

    beside = None
    web_failed: tuple[type[OSError], ...] = ()  # the web table's own error, if it runs
    if web is not None:
        from net.web.server import WebUnavailable
        from net.web.server import beside as web_beside

        beside = web_beside(web, _say)
        web_failed = (WebUnavailable,)
    try:
        asyncio.run(hosting_with_table(ssh, plan, _say, app.run_async, beside))
    except OSError as exc:
        if ssh is None or isinstance(exc, web_failed):
            fail(str(exc))
        fail(f"cannot listen for SSH on {ssh.where}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    ended(app)


def _join_app(args: argparse.Namespace) -> None:
    """`tabletop-tui join CODE` with a screen. The room is joined before the screen opens, so
    a wrong code or a full table is one line on the terminal and exit code 2."""
    import asyncio

    from net.peer.remote import JoinError, RemoteLink
    from tui import prefs
    from tui.app import TabletopApp, default_language
    from tui.i18n import tr
    from tui.screens.host import login_name
    from tui.screens.net_lobby import PeerLobbyScreen

    def asking() -> None:  # the screen opens after the join: until then, a line on the terminal
        print(f"tabletop-tui: {tr('join.asking', lang=args.lang or default_language())}",
              flush=True)

    async def join_then_play() -> None:
        link = RemoteLink(args.code, args.name or prefs.load().name or login_name(),
                          server=args.server, watch=args.watch)
        link.on_asking = asking
        try:
            await link.connect()
        except JoinError as exc:
            fail(f"cannot join {codes.display(link.code)}: {exc.message}")
        app = TabletopApp(lang=args.lang, theme=args.theme,
                          opening=lambda: PeerLobbyScreen(link, link.engine))
        await app.run_async()
        ended(app)

    try:
        asyncio.run(join_then_play())
    except KeyboardInterrupt:
        raise SystemExit(130) from None


def replay_app(file: str, lang: str | None, theme: str | None) -> TabletopApp:
    """The app showing the record in `file`, or one line saying why it cannot and exit 2."""
    from net import records
    from tui.app import TabletopApp
    from tui.screens.replay import ReplayScreen

    try:
        replay = records.Replay(records.load(Path(file)))
    except records.RecordError as exc:
        fail(str(exc))
    return TabletopApp(lang=lang, theme=theme, opening=lambda: ReplayScreen(replay))


def _tables(args: argparse.Namespace) -> None:
    """`tabletop-tui tables`: the rooms waiting for players at a relay, for people and
    scripts; exit 2 with one line if the relay cannot say (as every error of the CLI)."""
    import asyncio
    import dataclasses
    import json

    from net.host.hosting import table_relay
    from net.peer.tables import TablesError, open_tables
    from net.players.ratings import shown

    server = server_url(args.server or table_relay() or f"127.0.0.1:{DEFAULT_PORT}")
    try:
        found = asyncio.run(open_tables(server, args.game))
    except TablesError as exc:
        fail(str(exc))
    if args.json:
        for table in found:
            print(json.dumps(dataclasses.asdict(table), ensure_ascii=False))
        return
    if not found:
        print("no open tables" + (f" of {args.game}" if args.game else ""))
        return
    for t in found:
        rating = "unrated" if t.rating is None else f"rated {shown(t.rating):.0f}"
        finished = "" if t.finished is None else f", finishes {t.finished:.0%}"
        bots = "" if t.bots_in is None else f", bots in {t.bots_in} s"
        print(f"{t.display_code}  {t.game:<16} {t.free}/{t.seats} free  {t.host} "
              f"({rating}{finished}), waiting {t.waiting} s{bots}")


def _records(args: argparse.Namespace) -> None:
    """List the kept records, or prune them: only ever on request."""
    import time

    from net import records

    if not args.prune:
        if args.older_than is not None or args.keep is not None:
            fail("--older-than and --keep select what --prune deletes: add --prune")
        for entry in records.listing():
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.started))
            if entry.record is None:
                print(f"{when}  {entry.path}  ({entry.error})")
                continue
            state = "over" if entry.record.over else "unfinished"
            print(f"{when}  {entry.path}  {entry.record.engine_id} {entry.record.kind} {state}")
        return
    try:
        removed = records.prune(args.older_than, args.keep)
    except ValueError as exc:
        fail(str(exc))
    for path in removed:
        print(f"removed {path}")
    print(f"{len(removed)} record(s) removed")


def _players(args: argparse.Namespace) -> None:
    """The ladder of every game (or one), from the store games are counted into here, caught
    up with this data directory's records first; or only read from the database `--db` names
    (a table's: the operator's own games are not the table's)."""
    import json
    import sqlite3

    from net.players import ladder
    from net.players.identity import BOT_PREFIX
    from net.players.ratings import PROVISIONAL_GAMES, provisional
    from net.players.store import StoreError
    from tui.screens.ratings import rating_of as shown_rating

    if args.db:
        need_serving("--db")
    try:
        store = ladder.open_store(args.db)
        try:
            if not args.db:
                ladder.catch_up(store)
            games = [args.game] if args.game else list(ENGINE_IDS)
            found = {game: store.ladder(game) for game in games}
        finally:
            store.close()
    except (StoreError, OSError, sqlite3.Error) as exc:
        fail(f"cannot read the ladder: {exc}")
    if args.json:
        _print(json.dumps({game: [
            {"place": s.place, "ident": s.ident, "name": s.name, "rating": round(s.skill.rating, 2),
             "mu": round(s.skill.mu, 4), "sigma": round(s.skill.sigma, 4), "games": s.games,
             "shown": round(s.skill.shown),
             "provisional": provisional(s.games, s.ident.startswith(BOT_PREFIX))}
            for s in standings] for game, standings in found.items()}, indent=2))
        return
    lines = []
    for game, standings in found.items():
        if not standings and not args.game:
            continue
        lines.append(f"{get_engine(game).title} ({game})")
        if not standings:
            lines.append("  no rated games yet")
        lines += [f"  {s.place:>3}. {s.ident:<24} {s.name[:24]:<24} "
                  f"{shown_rating(s.skill.rating, s.games, s.ident):>6} "
                  f"{s.games:>5} {'game' if s.games == 1 else 'games'}" for s in standings]
    if any(found.values()):
        lines.append(f"ratings: 1500 + 100 x (mu - 3 sigma); ? = provisional (fewer than "
                     f"{PROVISIONAL_GAMES} rated games); each bot level is one entry")
    if not any(found.values()) and not args.game:
        lines.append("no rated games yet: a game counts once it is over, its shuffle verified "
                     "and every person in it proven")
    _print("\n".join(lines))


def _table_database(args: argparse.Namespace) -> None:
    """`serve --db URL` (else $TABLETOP_TUI_DB): the table's ladder in that PostgreSQL database,
    reached and migrated before the table opens, then named to every session it starts."""
    from net.players import ladder
    from net.players.store import StoreError

    url = args.db or os.environ.get(ladder.DB_ENV)
    if not url:
        return
    if args.ssh is None:
        if args.db:
            fail("--db needs --ssh PORT (it keeps the ladder of an SSH table)")
        return
    if not ladder.is_database(url):
        fail(f"${ladder.DB_ENV} must be a PostgreSQL URL: postgresql://USER@HOST/DB")
    need_serving("--db")
    try:
        ladder.open_store(url).close()
    except StoreError as exc:
        fail(str(exc))
    os.environ[ladder.TABLE_ENV] = url


def _print(text: str) -> None:
    """`text` on stdout; a reader that stopped early (`| head`) is no error."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _check_home(args: argparse.Namespace) -> None:
    """A home that cannot be written: the app plays on without saving (one line says so);
    a command that exists to write there (a server, a headless seat, records, the ladder)
    stops with that line and exit 2. `rules` and `tables` write nothing."""
    from tui import unsaved

    if args.command in ("rules", "tables"):
        return
    headless = args.command == "serve" or getattr(args, "headless", False) or getattr(
        args, "bot", None) or args.command in ("records", "players", "tournament")
    if headless:
        if found := unsaved.problems():
            fail("; ".join(found.values()))
        return
    if line := unsaved.play_unsaved():
        print(f"tabletop-tui: {line}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> None:
    if inside.crash_report() is not None:
        sys.excepthook = _uncaught
    args = build_parser().parse_args(argv)
    command = args.command
    _check_home(args)
    if command == "play":
        _play(args)
    elif command == "host":
        if args.game is None and not args.resume:
            fail("host needs a game (or --resume)")
        options = _options(args.game, args.option) if args.game else {}
        if args.game:
            engine = get_engine(args.game)
            _clock(args.game, args, min(max(args.seats or 0, engine.min_players),
                                        engine.max_players))  # refused now, not in the room
        if args.headless:
            for flag in ("ssh", "web"):
                if getattr(args, flag) is not None:
                    fail(f"--{flag} needs the host's screen; for a table without one use "
                         f"serve --{flag}")
            if args.game and args.seats is not None:
                _check_players(args.game, args.seats)
            from net.headless import run_host

            args.level = args.level or "strong"
            raise SystemExit(run_host(args, options))
        _host_app(args, options)
    elif command == "join":
        args.code = _join_code(args.code, retitle=argv is None)
        if args.bot:
            from net.headless import run_join

            raise SystemExit(run_join(args))
        _join_app(args)
    elif command == "serve":
        _shared_secret(args.secret_file)
        _trusted_proxies(args.trust_proxy)
        ssh = _ssh_config(args)
        web = _web_config(args)
        _table_database(args)
        if ssh is not None or web is not None:
            from net.ssh.server import serve_with_ssh

            beside = None
            if web is not None:
                from net.web.server import beside as web_beside

                beside = web_beside(web, _say)
            beside = days_command.keeper_beside(args, beside)
            relay = server_url(args.relay) if args.relay else None
            raise SystemExit(serve_with_ssh(args.host, args.port, ssh, relay, beside))
        from net.relay.server import serve_forever

        serve_forever(args.host, args.port)
    elif command == "days":
        days_command.run(args)
    elif command == "tables":
        _tables(args)
    elif command == "replay":
        _run(replay_app(args.file, args.lang, args.theme))
    elif command == "review":
        review_command.run(args)
    elif command == "records":
        _records(args)
    elif command == "players" and args.fair_play:
        fair_play_command.run(args)
    elif command == "players":
        _players(args)
    elif command == "rules":
        from tui.help import rules_text

        _print(rules_text(args.game, args.lang or "en"))
    elif command == "back":
        _back_app(args)
    elif (command_run := getattr(args, "command_run", None)) is not None:
        if (opening := command_run(args)) is not None:  # a command of tui.commands
            from tui.app import TabletopApp

            _run(TabletopApp(lang=args.lang, theme=args.theme, opening=opening))
    else:
        from tui.app import TabletopApp

        _run(TabletopApp(lang=args.lang, theme=args.theme))


if __name__ == "__main__":
    main()
