"""End-of-game statistics on the screens: the results of the game just played show them (at
80×24 behind `t`, at 160×50 under the players' rows), and Past games and the replay show them
for any finished record, worked out from the record. Every statistic has its words in English
and German, and seven players' columns fit 80 columns."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from stacked_games import SCHOENE_MOVES, SCHOENE_OPTIONS, SCHOENE_STATS
from test_past_games import open_past_games
from textual.app import App
from textual.widgets import Static
from tui_helpers import MAX_STEPS, settle, wait_for_board

from engines import ENGINE_IDS, get_engine
from engines.stats import Stat, replay, statistics
from net import records
from net.table.session import HostSession, SeatInfo
from tui import boards, i18n
from tui.app import TabletopApp
from tui.screens.game import GameScreen
from tui.screens.replay import ReplayScreen
from tui.screens.results import ResultsScreen
from tui.screens.stats import StatsOverlay
from tui.widgets.stats import StatsTable

NAMES = ["Ada", "Bea", "Cem"]
# Cem won (the lowest score), then Ada, then Bea: the order of the results and their columns.
ORDER = [2, 0, 1]


def record_schoene(moves: int) -> Path:
    """The stacked Schöne game of stacked_games, its first `moves` moves played, as Bea's local
    record (Ada and Cem are bots)."""
    seats = [SeatInfo("Ada", "strong"), SeatInfo("Bea"), SeatInfo("Cem", "strong")]
    session = HostSession("schoene", seats, 1, SCHOENE_OPTIONS)
    recorder = records.LocalRecorder(session, [1])
    for seat, move in SCHOENE_MOVES[:moves]:
        session.submit(seat, move)
    assert recorder.path is not None
    return recorder.path


def screen_lines(app: App[Any]) -> list[str]:
    """The window's text, row by row: what a player sees, cut where the window cuts it."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def row_on_screen(app: App[Any], label: str) -> list[str]:
    """The cells after `label` in the statistics table on the screen (inside its frame)."""
    for line in screen_lines(app):
        if label in line:
            return line.split(label, 1)[1].strip(" │").split()
    raise AssertionError(f"no {label!r} on the screen:\n" + "\n".join(screen_lines(app)))


def shows_the_stacked_game(app: App[Any]) -> None:
    header = next(line for line in screen_lines(app) if "Statistics" in line and "Ada" in line)
    assert re.search(r"Cem\s+Ada\s+Bea", header)
    for label, name in (("Cards taken", "cards_taken"), ("Longest run", "longest_run"),
                        ("Chips left", "chips_left"), ("Pigs taken", "pigs_taken")):
        assert row_on_screen(app, label) == [str(SCHOENE_STATS[name][s]) for s in ORDER]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_results_show_the_statistics_of_the_game_just_played(
    size: tuple[int, int],
) -> None:
    path = record_schoene(len(SCHOENE_MOVES) - 1)  # Bea has the last card to take
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.resume_local(path)  # as `r` in Past games does
        await wait_for_board(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("t")  # Bea takes 25: the game is over
        for _ in range(MAX_STEPS):
            await pilot.pause()
            if isinstance(app.screen, ResultsScreen):
                break
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        await settle(pilot)
        assert screen.query_one("#results-stats", StatsTable)
        if size == (160, 50):  # room for both: the statistics under the players' rows
            shows_the_stacked_game(app)
            assert all(row.display for row in screen.query(".result-row"))
        else:
            assert "t Statistics" in "\n".join(screen_lines(app))
        await pilot.press("t")  # the statistics alone
        await settle(pilot)
        shows_the_stacked_game(app)
        assert not any(row.display for row in screen.query(".result-row"))
        assert "t Standings" in "\n".join(screen_lines(app))
        await pilot.press("t")  # and the players again
        await settle(pilot)
        assert all(row.display for row in screen.query(".result-row"))
        if size == (80, 24):
            await pilot.press("f3")  # German: the statistics' words follow
            await pilot.press("t")
            await settle(pilot)
            assert row_on_screen(app, "Längste Reihe") == ["3", "1", "12"]
            assert "t Rangfolge" in screen_lines(app)[-1] and "Beenden" in screen_lines(app)[-1]


async def test_a_past_game_shows_its_statistics_from_the_list_and_the_replay() -> None:
    record_schoene(5)  # an unfinished game: no statistics while its cards are secret
    record_schoene(len(SCHOENE_MOVES))
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        past = await open_past_games(pilot)
        assert [e.record.over for e in past.shown() if e.record] == [True, False]
        assert "t Statistics" in screen_lines(app)[-1] and "Quit" in screen_lines(app)[-1]
        await pilot.press("f3")
        await settle(pilot)
        assert "t Statistik" in screen_lines(app)[-1] and "Beenden" in screen_lines(app)[-1]
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, StatsOverlay)
        shows_the_stacked_game(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is past
        await pilot.press("enter")  # the replay, at its start
        await settle(pilot)
        replay_screen = app.screen
        assert isinstance(replay_screen, ReplayScreen)
        await pilot.press("end")
        await settle(pilot)
        assert "t: statistics" in str(replay_screen.query_one("#topbar", Static).render())
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, StatsOverlay)
        shows_the_stacked_game(app)
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert app.screen is past
        await pilot.press("down", "t")  # the unfinished game
        await settle(pilot)
        assert app.screen is past
        assert any("Only a finished game has statistics" in str(n.message)
                   for n in app._notifications)


def finished_statistics(engine_id: str, seats: int) -> list[list[Stat]]:
    eng = get_engine(engine_id)
    state, moves, rng = eng.new_game(seats, 2), [], random.Random(2)
    while not eng.is_over(state):
        seat = sorted(eng.to_act(state), key=lambda s: s != eng.turn(state))[0]
        move = eng.bots["random"].choose(eng, state, seat, rng) or {"type": "pass"}
        moves.append((seat, move))
        state = eng.apply(state, seat, move)
    return statistics(replay(eng, seats, 2, None, moves))


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_every_statistic_has_short_words_in_both_languages(engine_id: str) -> None:
    boards.board_module(engine_id)  # registers the game's words
    for stat in finished_statistics(engine_id, get_engine(engine_id).min_players)[0]:
        for lang in i18n.LANGUAGES:
            key = f"stats.{engine_id}.{stat.name}"
            assert key in i18n.keys(lang), f"{key} has no words in {lang}"
            assert len(i18n.tr(key, lang=lang)) <= 24, f"{key} is too long in {lang}"


async def test_seven_players_fit_80_columns() -> None:
    names = [f"Player with a long name {n}" for n in range(1, 8)]
    stats = [[Stat("cards_taken", 10 + seat), Stat("longest_run", seat, "max")]
             for seat in range(7)]
    boards.board_module("schoene")

    class Table(App[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            yield StatsTable("schoene", names, stats, list(range(7)))

    app = Table()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        header = screen_lines(app)[0]
        # Long names are cut in the middle, so the columns still tell the players apart.
        assert header.count("…") == 7
        assert re.search(r"\s+".join(rf"\S*…\S* {n}" for n in range(1, 8)), header)
        assert row_on_screen(app, "Cards taken") == [str(10 + s) for s in range(7)]
        assert row_on_screen(app, "Longest run") == [str(s) for s in range(7)]
