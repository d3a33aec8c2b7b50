"""Past games: a game played at this terminal is kept, listed, replayed move by move from the
engine's own states, exported and opened again; a damaged or newer record says why it will
not open; an unfinished local game is taken up again from the list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList, Select, Static
from tui_helpers import MAX_STEPS, settle, wait_for_board

from engines import ENGINE_IDS, get_engine
from net import records
from net.records import store
from net.table.session import HostSession, SeatInfo
from tui import cli
from tui.app import TabletopApp, local_app
from tui.boards.base import GameBoard
from tui.screens.game import GameScreen
from tui.screens.menu import MENU_ITEMS, MenuScreen
from tui.screens.past_games import PastGamesScreen
from tui.screens.replay import SPEEDS, ReplayScreen
from tui.screens.results import ResultsScreen
from tui.widgets import EventLog

ENGINE = "schoko"  # a short game: two random bots finish it in a few dozen moves
SEED = 1


def replayed(seed: int = SEED) -> HostSession:
    """The same game the app's bots play, played here to know every state."""
    eng = get_engine(ENGINE)
    session = HostSession(ENGINE, [SeatInfo(f"Bot {i + 1}", "random") for i in range(2)], seed)
    session.run_bots()
    assert session.over and eng.is_over(session.state)
    return session


async def play_to_the_end(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(MAX_STEPS):
        await pilot.pause()
        if isinstance(pilot.app.screen, ResultsScreen):
            return
    raise AssertionError("the game did not end")


async def open_past_games(pilot) -> PastGamesScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    assert isinstance(app.screen, MenuScreen)
    app.screen.query_one("#menu", OptionList).highlighted = 0
    await pilot.press(*["down"] * MENU_ITEMS.index("past"), "enter")
    await settle(pilot)
    assert isinstance(app.screen, PastGamesScreen)
    return app.screen


def shown_view(screen: ReplayScreen) -> dict:
    return screen.query_one("#board", GameBoard).table.view


async def test_a_played_game_replays_move_by_move_and_exports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = replayed()
    eng = game.engine
    app = local_app(ENGINE, 0, 2, "random", seed=SEED, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot)
        await pilot.press("escape")  # the results screen's "menu"
        await settle(pilot)
        past = await open_past_games(pilot)
        assert len(past.shown()) == 1
        line = str(past.query_one("#past-list", OptionList).get_option_at_index(0).prompt)
        assert "Scho" in line and "local" in line and "won by" in line
        # The filter and the list are reached with Tab and Shift+Tab.
        assert isinstance(app.focused, OptionList)
        await pilot.press("shift+tab")
        assert isinstance(app.focused, Select)
        # Filter by another game with the keys: nothing of it yet; then all games again.
        other = ENGINE_IDS.index("chez_geek") + 1  # after "All games"
        await pilot.press("enter", *["down"] * other, "enter")
        await settle(pilot)
        assert past.game == "chez_geek" and past.shown() == []
        assert "No games yet" in str(past.query_one("#past-empty", Static).render())
        await pilot.press("enter", *["up"] * other, "enter")
        await settle(pilot)
        assert past.game == "all" and len(past.shown()) == 1
        await pilot.press("tab")
        assert isinstance(app.focused, OptionList)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.replay) == len(game.moves) + 1
        # Step to move 5: the board shows what seat 0 saw then, rebuilt by the engine.
        states = [HostSession(ENGINE, game.seats, SEED).state]
        for seat, move in game.moves:
            states.append(eng.apply(states[-1], seat, move))
        await pilot.press("right", "right", "right", "right", "right")
        await settle(pilot)
        assert screen.step_no == 5
        assert shown_view(screen) == eng.view(states[5], 0)
        assert "move 5/" in str(screen.query_one("#topbar", Static).render())
        await pilot.press("left")
        assert shown_view(screen) == eng.view(states[4], 0)
        # The log follows the timeline.
        log = screen.query_one("#log", EventLog).texts
        assert len(log) == sum(len(e) for e in screen.replay.events[:5])
        await pilot.press("end")
        assert shown_view(screen)["over"] and screen.step_no == len(game.moves)
        await pilot.press("home")
        assert screen.step_no == 0
        await pilot.press("n")  # the next trick or turn: a stop the events name
        first = screen.step_no
        assert first == screen.replay.stops()[0] > 0
        await pilot.press("n", "b")
        assert screen.step_no == first
        await pilot.press("N")  # the next round or hand (Scho K.O. has none: turns again)
        assert screen.step_no == screen.replay.stops(coarse=True)[1]
        await pilot.press("home")
        # Another seat's view, then every hand open (the game is over).
        await pilot.press("v")
        await settle(pilot)
        assert screen.query_one("#board", GameBoard).table.seat == 1
        await pilot.press("o")
        await settle(pilot)
        open_boards = screen.boards_shown()
        assert [b.table.seat for b in open_boards] == [0, 1]
        await pilot.press("right")
        assert all(b.table.view == eng.view(states[screen.step_no], b.table.seat)
                   for b in open_boards)
        # Playback at the fastest speed runs to the end.
        await pilot.press("s", "s")  # 4 moves a second
        assert screen.speed == len(SPEEDS) - 1
        await pilot.press("end", "left", "left", "left", "p")
        assert "playing 4/s" in str(screen.query_one("#topbar", Static).render())
        for _ in range(MAX_STEPS):
            await pilot.pause(0.05)
            if screen.step_no == screen.last:
                break
        assert screen.step_no == screen.last
        await pilot.press("f3")  # German, on the same step and view
        await settle(pilot)
        assert "Zug " in str(screen.query_one("#topbar", Static).render())
        assert screen.step_no == screen.last and len(screen.boards_shown()) == 2
        await pilot.press("x")  # export
        exported = list(tmp_path.glob("tabletop-schoko-*.jsonl"))
        assert len(exported) == 1
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PastGamesScreen)
    # A friend opens the exported file: the same game, nothing of the writer's own.
    again = records.load(exported[0])
    assert again.over and again.moves == [[s, m] for s, m in game.moves]
    assert "net" not in again.header
    opened = cli_replay_app(exported[0])
    async with opened.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = opened.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        assert shown_view(screen) == eng.view(game.state, 0)


def cli_replay_app(path: Path) -> TabletopApp:
    """What `tabletop-tui replay FILE` runs, without running it."""
    app = cli.replay_app(str(path), lang="en", theme=None)
    assert isinstance(app, TabletopApp)
    return app


def test_damaged_and_newer_records_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = replayed()
    good = tmp_path / "good.jsonl"
    head = records.header(game, "local", local=[])
    lines = [json.dumps(head)] + [json.dumps([s, m]) for s, m in game.moves]
    good.write_text("\n".join(lines) + "\n")
    assert len(records.Replay(records.load(good))) == len(game.moves) + 1

    newer = tmp_path / "newer.jsonl"
    newer.write_text(good.read_text().replace('"version": 1', '"version": 99', 1))
    with pytest.raises(records.RecordError, match="newer tabletop-tui"):
        records.load(newer)

    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join([lines[0], "{nonsense", *lines[1:]]) + "\n")
    with pytest.raises(records.RecordError, match="damaged: line 2"):
        records.load(damaged)

    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([lines[0], json.dumps([0, {"type": "fly"}])]) + "\n")
    with pytest.raises(records.RecordError, match="does not replay"):
        records.Replay(records.load(forged))

    for path, words in ((newer, "newer tabletop-tui"), (damaged, "damaged"),
                        (tmp_path / "none.jsonl", "cannot read")):
        with pytest.raises(SystemExit) as exit_:
            cli.main(["replay", str(path)])
        assert exit_.value.code == 2
        assert words in capsys.readouterr().err


async def test_the_list_says_why_a_damaged_record_will_not_open() -> None:
    (store.records_dir() / "20260101-120000-local-schoko.jsonl").write_text("not json\n")
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        past = await open_past_games(pilot)
        assert "not a tabletop-tui game record" in str(
            past.query_one("#past-list", OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PastGamesScreen)  # nothing opened, a message instead
        assert any("not a tabletop-tui game record" in str(n.message)
                   for n in app._notifications)


async def test_an_unfinished_local_game_resumes_from_the_list_and_replays_only_own_seat() -> None:
    # A game with a person who left after the bot's first moves: unfinished, on disk.
    app = local_app(ENGINE, 1, 1, "random", seed=SEED, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_board(pilot)
        await settle(pilot)
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        past = await open_past_games(pilot)
        entry = past.shown()[0]
        assert entry.record is not None and not entry.record.over
        assert entry.record.own_seats() == [0]
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.viewers == [0]
        await pilot.press("v", "o")  # no other seat, no open cards before the end
        await settle(pilot)
        assert screen.query_one("#board", GameBoard).table.seat == 0
        await pilot.press("x")  # an unfinished game is not exported: its seed shows every hand
        assert any("only a finished game" in str(n.message) for n in app._notifications)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        session = app.screen.link.session  # type: ignore[attr-defined]
        taken_up = entry.record.moves
        assert [list(m) for m in session.moves[: len(taken_up)]] == taken_up
        assert app.screen.link.seats == [0]  # type: ignore[attr-defined]
