"""The review in the app, by keys alone: from the results screen and from Past games, left
half way and taken up again, a decision tried again on the board before the better move
shows, the expert's reasons in English and German, and a replay with the review beside each
move. The review's budget is made small (the coach's factor) so the tests stay quick."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from test_past_games import open_past_games
from test_players_screens import open_players, recorded
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static
from tui_helpers import MAX_STEPS, settle

from bench.review import played_record
from engines import coach
from engines.search import Choice
from net.players import ladder
from net.records import review as records_review
from tui import i18n
from tui.app import TabletopApp, local_app
from tui.screens.coach_words import why
from tui.screens.fair_line import FairPlayLine
from tui.screens.player_page import PlayerPage
from tui.screens.replay import ReplayScreen
from tui.screens.results import ResultsScreen
from tui.screens.review import ReviewNote, ReviewScreen
from tui.screens.try_again import TryAgainScreen


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach, "BUDGET_FACTOR", {**coach.BUDGET_FACTOR, coach.REVIEW: 0.04})


def said(screen: ReviewScreen | TryAgainScreen, part: str) -> str:
    return str(screen.query_one(part, Static).render())


async def until(pilot: Pilot[None], check, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(MAX_STEPS):
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never: {what}")


async def finished(pilot: Pilot[None]) -> ReviewScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await until(pilot, lambda: screen.job.finished and screen.shown_rows == len(screen.job.rows),
                "the review finished")
    return screen


async def test_the_results_screen_opens_the_review_of_the_game_just_played() -> None:
    app = local_app("schoko", 0, 2, "random", seed=1, lang="en", bot_delay=0)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the game's end")
        await pilot.press("g")
        screen = await finished(pilot)
        rows = screen.job.rows
        assert rows and screen.query_one("#review-list", OptionList).option_count == len(rows)
        assert "Review of Scho K.O." in said(screen, "#review-top")
        # The better move stays hidden until asked for; then the reasons, in numbers.
        assert "t: try this position again" in said(screen, "#review-detail")
        await pilot.press("down", "s")
        detail = said(screen, "#review-detail")
        assert "Better:" in detail or "the expert's choice" in detail
        await pilot.press("w")
        assert "trial runs from what this seat could see" in said(screen, "#review-detail")
        assert "playouts" in said(screen, "#review-detail")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)


def held_after(judged: int, gate: threading.Event, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews wait after `judged` decisions until `gate` opens (or they are stopped): a
    review is still at work when the test leaves it, however fast the machine."""
    real = records_review.review

    def held(replay: Any, seat: int, **kw: Any) -> Any:
        progress, stop = kw.pop("progress"), kw["stop"]

        def slowed(done: int, total: int) -> None:
            progress(done, total)
            while done >= judged and not gate.is_set() and not stop():
                time.sleep(0.01)

        return real(replay, seat, progress=slowed, **kw)

    monkeypatch.setattr(records_review, "review", held)


async def test_a_past_games_review_is_left_taken_up_again_and_a_decision_tried_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach, "BUDGET_FACTOR", {**coach.BUDGET_FACTOR, coach.REVIEW: 0.3})
    gate = threading.Event()
    held_after(2, gate, monkeypatch)
    played_record("zwergenamulett", ["random", "strong", "strong"], 4)
    app = TabletopApp(lang="en")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        past = await open_past_games(pilot)
        await pilot.press("g")
        await settle(pilot)
        first = app.screen
        assert isinstance(first, ReviewScreen)
        assert first.query_one("#review-progress").display  # a bar while it works
        await until(pilot, lambda: first.job.done >= 2, "two decisions judged")
        await pilot.press("escape")  # left half way
        await settle(pilot)
        assert app.screen is past
        await until(pilot, lambda: first.job._stop.is_set(), "the review stopped")
        gate.set()
        await pilot.press("g")
        screen = await finished(pilot)
        assert screen is not first and not screen.query_one("#review-progress").display
        rows = screen.job.rows
        assert len(rows) >= 5
        # Try the third decision again: the board takes the player's keys.
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        trying = app.screen
        assert isinstance(trying, TryAgainScreen)
        assert "Try again: the position of move" in said(trying, "#try-top")
        assert trying.table.view["hand"]  # the seat's own hand, as at the decision
        for key in "123456789":
            await pilot.press(key, "enter")
            await settle(pilot)
            if trying.tried is not None:
                break
        assert trying.tried is not None
        await until(pilot, lambda: "In the game:" in said(trying, "#try-said"), "the verdict")
        assert "playouts" in said(trying, "#try-said")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        detail = said(screen, "#review-detail")
        assert "Better:" in detail or "the expert's choice" in detail  # shown after the try


async def test_a_replay_shows_the_review_beside_each_move() -> None:
    played_record("schoko", ["random", "strong"], 2)
    app = TabletopApp(lang="en")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await open_past_games(pilot)
        await pilot.press("enter")
        await settle(pilot)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("g")
        await settle(pilot)
        note = replay.query_one(ReviewNote)
        await until(pilot, lambda: note.job.finished, "the review finished")
        row = note.job.rows[0]
        for _ in range(row["state"] + 1):
            await pilot.press("right")
        await settle(pilot)
        text = str(note.render())
        assert f"{row['state']}: " in text and i18n.tr(f"review.grade.{row['grade']}") in text
        await pilot.press("right")  # the other seat's move: no grade of it
        await settle(pilot)
        assert f"{row['state']}: " not in str(note.render())
        await pilot.press("g")  # away again
        await settle(pilot)
        assert not replay.query(ReviewNote)
        await pilot.press("o", "g")  # every hand open: whose review? It says so.
        await settle(pilot)
        assert not replay.query(ReviewNote) and app.is_running


def test_the_reasons_read_in_english_and_german() -> None:
    judgement = coach.Judgement(
        move={"type": "b"}, best={"type": "a"}, before=0.62, after=0.41,
        grade=coach.MISTAKE, iterations=600,
        choices=(Choice({"type": "a"}, 450, 0.62), Choice({"type": "b"}, 150, 0.41)))
    english = why(judgement, lambda m: m["type"].upper())
    assert english == ("The expert made 600 trial runs from what this seat could see. A won "
                       "62% of its 450 playouts; the move made, B, 41% of its 150. It is sure "
                       "of the difference.")
    i18n.set_language("de")
    german = why(judgement, lambda m: m["type"].upper())
    assert german.startswith("Der Experte hat 600 Probeläufe gemacht")
    assert "A gewann 62 % seiner 450 Partien" in german and "sicher" in german


async def test_a_players_page_shows_their_own_fair_play_figures() -> None:
    for seed in range(2):
        recorded(seed)
    assert ladder.catch_up_here() == 2
    app = TabletopApp(lang="en")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        players = await open_players(pilot)
        await pilot.press("p")  # your own page
        await until(pilot, lambda: isinstance(app.screen, PlayerPage), "my page")
        line = app.screen.query_one(FairPlayLine)
        await until(pilot, lambda: line.shown is not None, "the fair-play figures")
        text = str(line.render())
        assert "Fair play: your move was the expert's in" in text and "(2 verified games)" in text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is players, "the ladder again")
        # A bot's page has none: its moves are checked to be its level's.
        table = players.query_one("#players-table", DataTable)
        table.move_cursor(row=[s.ident for s in players.shown].index("bot:strong"))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlayerPage), "the bot's page")
        await settle(pilot)
        assert not app.screen.query_one(FairPlayLine).display
