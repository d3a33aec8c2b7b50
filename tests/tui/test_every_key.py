"""No key in any state of any board crashes the app. For every game, positions are found by
playing at random (a few stacked deals besides for Chez Geek's rarer questions), each one is
taken up as a player would take up a saved game (Past games → resume), and in every state the
table then shows, every key the footer offers is pressed, with Esc, m, digits, arrows, Enter,
space and Tab besides. After every key the app must still run, the game screen keep a board
that shows the table as it is, and the keys still reach that board.

The bots wait (a long delay) unless an interrupt window asks them, so a state stays put while
its keys are pressed; a key that moves the game on leads into the next state, whose keys are
pressed in turn, and the position is taken up again for the keys still left."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from chez_helpers import HARMLESS, stack
from textual.pilot import Pilot
from tui_helpers import settle

from engines import ENGINE_IDS, get_engine
from engines.base import Engine
from net import records
from net.table.session import HostSession, SeatInfo
from tui.app import TabletopApp
from tui.boards.base import GameBoard
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen

# Keys pressed in every state besides the footer's (digits for the lists and the hand).
EXTRA_KEYS = ("escape", "m", "1", "9", "up", "down", "left", "right", "enter", "space", "tab")
# Keys never pressed: quitting ends the test, not a game.
NEVER = {"ctrl+q"}
# A hint starts a search in a thread: once a game is enough to show it does no harm.
ONCE_A_GAME = {"h"}
SEATS = 3
# Random games per game (and seeds) to find positions with; every state of the Chez Geek
# prompts must turn up among them.
WALKS = 12
WALK_MOVES = 600
KEYS_PER_VISIT = 60  # keys pressed before a position is taken up afresh
VISITS = 12  # the most times one position is taken up
NO_BOTS = 3600.0  # the bots' delay: they never move on their own during a test


Signature = tuple[Any, ...]


def game_signature(view: dict[str, Any], legal: list[dict[str, Any]]) -> Signature:
    """The kind of state the seat at the keys is in: the kinds of move it has, and for Chez
    Geek rather the question, the window or the phase it is in (its moves vary with the hand
    far more than its keys do)."""
    kinds = tuple(sorted({m.get("type") for m in legal}))
    if view.get("game") != "chez_geek":
        return (kinds,)
    prompt = view.get("prompt") or {}
    if prompt:
        return ("prompt", prompt.get("kind") if prompt.get("seat") == view["seat"] else None)
    window = view.get("window")
    if window is not None:
        return ("window", window.get("kind"), bool(legal), kinds != ("pass",))
    return ("turn", view.get("phase") if view["turn"] == view["seat"] else None)


@dataclass
class Position:
    """A game up to the first move at which its seat 0 was in one kind of state."""

    options: dict[str, Any]
    seats: int
    seed: int
    moves: list[tuple[int, dict[str, Any]]]
    signature: Signature
    acting: bool  # whether seat 0 may move there


@dataclass
class Sweep:
    """Which keys were pressed in which state (game state and what has the focus)."""

    pressed: dict[Signature, set[str]] = field(default_factory=lambda: defaultdict(set))
    left: dict[Signature, set[str]] = field(default_factory=dict)  # as last seen
    entry: dict[Signature, Signature] = field(default_factory=dict)  # position -> first state
    once: set[str] = field(default_factory=set)
    prompts: set[str] = field(default_factory=set)


def walk(eng: Engine, options: dict[str, Any], seed: int, found: dict[Signature, Position],
         seats: int) -> None:
    """One game at random, noting the first move at which each new kind of state appears."""
    state = eng.new_game(seats, seed, options)
    rng = random.Random(seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    while not eng.is_over(state) and len(moves) < WALK_MOVES:
        legal = eng.legal_moves(state, 0)
        sig = game_signature(eng.view(state, 0), legal)
        if sig not in found:
            found[sig] = Position(options, seats, seed, list(moves), sig, bool(legal))
        seat = eng.to_act(state)[0]
        move = rng.choice(eng.legal_moves(state, seat))
        state = eng.apply(state, seat, move)
        moves.append((seat, move))


def chez_stacks() -> list[dict[str, Any]]:
    """Deals where seat 0 soon meets Chez Geek's rarer questions: a Corporate Drone with a
    full hand fired by the other seat (discard to the new hand size), and a Nookie with Beer
    Goggles and a beer in the room (keep the roll, or play the card on it)."""
    fired = {"stack": stack("bier", "pizza", "nachos", "gullys", "ultra_slims",
                            "du_bist_gefeuert", "ueberfall",
                            "schlafen", "schlafen", "schlafen"),
             "jobs": ["arbeitsdrohne", "hiwi", "web_designer", "versuchskaninchen",
                      "support_hotline", "zeitarbeiter", "kellner"], "first": 0}
    goggles = {"stack": stack("schoensaufen", "schaeferstuendchen_jimmys", "bier",
                              "schaeferstuendchen_uni", "lebensabschnittspartner",
                              *HARMLESS[1:], "dosenravioli"),
               "jobs": ["hiwi", "web_designer", "arbeitsdrohne", "versuchskaninchen",
                        "support_hotline", "zeitarbeiter", "kellner"], "first": 0}
    return [fired, goggles]


def positions(game: str) -> list[Position]:
    eng = get_engine(game)
    seats = min(SEATS, eng.max_players)
    base: dict[str, Any] = {"window_seconds": 0} if game == "chez_geek" else {}
    found: dict[Signature, Position] = {}
    for seed in range(WALKS):
        walk(eng, base, seed, found, seats)
    if game == "chez_geek":
        for options in chez_stacks():
            for seed in range(WALKS * 4):
                walk(eng, {**base, **options}, seed, found, 2)
    return list(found.values())


def record_of(game: str, position: Position) -> Path:
    """The position as a saved local game, seat 0 at this keyboard and random bots."""
    seats = [SeatInfo("You")]
    seats += [SeatInfo(f"Bot {i}", bot="random") for i in range(1, position.seats)]
    session = HostSession(game, seats, position.seed, position.options)
    for seat, move in position.moves:
        session.submit(seat, move)
    path = records.LocalRecorder(session, [0]).path
    assert path is not None
    return path


def game_screen(app: TabletopApp) -> GameScreen | None:
    found = [s for s in app.screen_stack if isinstance(s, GameScreen)]
    return found[-1] if found else None


def ui_signature(app: TabletopApp) -> Signature | None:
    """The state the keys act on: the game's, and what is on top and has the focus."""
    screen = game_screen(app)
    board = screen.board if screen is not None else None
    if board is None:
        return None
    focused = type(app.focused).__name__ if app.focused is not None else None
    if app.screen is not screen:  # something over the table: the same in every state
        return ("over the table",), type(app.screen).__name__, focused
    return game_signature(board.table.view, board.table.legal), type(screen).__name__, focused


def keys_now(app: TabletopApp) -> list[str]:
    shown = [key for key, active in app.screen.active_bindings.items()
             if active.binding.show and key not in NEVER]
    keys = list(dict.fromkeys([*shown, *EXTRA_KEYS]))
    # Esc last: it closes what the other keys are pressed in.
    return sorted(keys, key=lambda k: k == "escape")


async def caught_up(pilot: Pilot[None], screen: GameScreen) -> GameBoard:
    """Wait until the board shows the table as it is now (the bots answered a window)."""
    session = screen.link.session  # type: ignore[attr-defined]
    for _ in range(200):
        await pilot.pause()
        board = screen.board
        if board is not None and board.table.state_no == session.state_no:
            return board
    raise AssertionError(f"the board never caught up with state {session.state_no}")


async def assert_sane(pilot: Pilot[None], app: TabletopApp, key: str, where: Any) -> None:
    assert app.is_running and app.return_code is None, f"{key!r} in {where} ended the app"
    screen = game_screen(app)
    if screen is None:
        assert isinstance(app.screen, MenuScreen), app.screen  # Esc twice leaves the game
        return
    board = await caught_up(pilot, screen)
    assert board.is_mounted and board.region.area, f"no board after {key!r} in {where}"
    if app.screen is screen and not screen.has_class("-too-small"):
        focused = app.focused
        assert focused is not None and (focused is board or board in focused.ancestors), (
            f"after {key!r} in {where} the keys go to {focused}")


async def leave(pilot: Pilot[None], app: TabletopApp) -> None:
    """Back to the menu, closing the table as leaving it does."""
    while (screen := game_screen(app)) is not None:
        while app.screen is not screen:
            app.pop_screen()
            await pilot.pause()
        await screen.close_link()
        screen.dismiss()
        await pilot.pause()


async def visit(pilot: Pilot[None], app: TabletopApp, game: str, position: Position,
                sweep: Sweep) -> None:
    app.resume_local(record_of(game, position))
    screen = game_screen(app)
    assert screen is not None
    await caught_up(pilot, screen)
    await settle(pilot, 2)  # a list a prompt opens by itself, and its focus
    entry = ui_signature(app)
    if entry is not None:
        sweep.entry.setdefault(position.signature, entry)
    for _ in range(KEYS_PER_VISIT):
        where = ui_signature(app)
        if where is None:
            break
        board = game_screen(app).board  # type: ignore[union-attr]
        prompt = (board.table.view.get("prompt") or {}) if board is not None else {}
        if prompt.get("seat") == 0:
            sweep.prompts.add(str(prompt.get("kind")))
        left = [k for k in keys_now(app)
                if k not in sweep.pressed[where] and not (k in ONCE_A_GAME and k in sweep.once)]
        sweep.left[where] = set(left)
        if not left:
            break
        key = left[0]
        sweep.pressed[where].add(key)
        sweep.left[where].discard(key)
        if key in ONCE_A_GAME:
            sweep.once.add(key)
        await pilot.press(key)
        await assert_sane(pilot, app, key, where)
    await leave(pilot, app)


def unfinished(sweep: Sweep, position: Position) -> bool:
    """Whether the state the position opens in still has keys left (a state that passes by
    itself, such as a window the bots answer at once, is not waited for)."""
    entry = sweep.entry.get(position.signature)
    return entry is not None and entry[0] == position.signature and bool(
        sweep.left.get(entry, True))


@pytest.mark.parametrize("game", ENGINE_IDS)
async def test_every_key_in_every_state_leaves_the_app_running(game: str) -> None:
    app = TabletopApp(lang="en", bot_delay=NO_BOTS)
    sweep = Sweep()
    found = positions(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for position in found:
            for _ in range(VISITS):
                await visit(pilot, app, game, position, sweep)
                if not unfinished(sweep, position):
                    break
        assert app.is_running
    # Every state a player can act in was reached and had every key pressed (one the seat
    # only watches may pass at once: the bots answer windows without a delay).
    for position in found:
        assert not unfinished(sweep, position), (position.signature, sweep.left[
            sweep.entry[position.signature]])
    assert {sig[0] for sig in sweep.pressed} >= {p.signature for p in found if p.acting}
    if game == "chez_geek":
        assert {"room_loss", "hand_limit", "nookie", "rolled"} <= sweep.prompts
