"""Learn to play: every lesson played to its end by keys, as a newcomer would, with the engine
applying each move the step asked for; a move of another kind refused with the step's words
and nothing changed; the lesson reached from the menu and from the command line; German words
for every step."""

from __future__ import annotations

import re

import pytest
from tui_helpers import settle

import tui.app
from net.records.store import last_record
from tui.app import TabletopApp
from tui.cli import main
from tui.i18n import set_language
from tui.learn.lesson import LESSONS, Expect, lesson_of
from tui.learn.link import LEARNER
from tui.learn.screen import LessonPanel, LessonScreen
from tui.screens.menu import MENU_ITEMS

# Bounds for the loops that wait on the app, so a broken lesson fails instead of hanging.
WAIT = 400

# Per game: a step that asks for a move, and keys that make a legal move of another kind there.
WRONG = {
    "schoene": (3, ("t",)),
    "zwergenamulett": (3, ("1", "enter")),
    "skipbo_breakers": (5, ("space", "enter")),
    "schoko": (6, ("enter",)),
    "chez_geek": (6, ("2", "enter")),
}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def panel_text(screen: LessonScreen) -> str:
    """What the lesson's panel in sight says (beside the table, or over it)."""
    for panel in screen.query(LessonPanel):
        if panel.display and panel.region.area:
            return flat(str(panel.render()))
    raise AssertionError("no lesson panel in sight")


async def open_lesson(pilot, game: str) -> LessonScreen:  # type: ignore[no-untyped-def]
    for _ in range(WAIT):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, LessonScreen) and screen.board is not None:
            assert screen.engine_id == game
            return screen
    raise AssertionError(f"no lesson on {pilot.app.screen}")


async def until(pilot, done, what: str = "") -> None:  # type: ignore[no-untyped-def]
    for _ in range(WAIT):
        if done():
            return
        await pilot.pause()
    raise AssertionError(f"the table did not get there: {what}")


def lesson_app(game: str, lang: str = "en") -> TabletopApp:
    app = TabletopApp(lang=lang, opening=lambda: LessonScreen(lesson_of(game), 0), bot_delay=0)
    return app


def can(screen: LessonScreen, expect: Expect) -> bool:
    """Whether the learner may now make a move `expect` takes, and the board shows the table
    as it is."""
    session = screen.lesson_link.session
    table = screen.shown_table
    if table is None or table.state_no != session.state_no:
        return False
    view = session.engine.view(session.state, LEARNER)
    return any(expect(move, view) for move in session.sync(LEARNER)["legal"])


def learners_turn(screen: LessonScreen) -> bool:
    return can(screen, lambda move, view: True)


async def play_lesson(pilot, screen: LessonScreen, lang: str = "en",  # type: ignore[no-untyped-def]
                      stop: int | None = None) -> None:
    """Every step by its keys (up to step `stop`, its move not made yet); each step's words
    on show first, and each move step's move applied by the engine before the next step."""
    link = screen.lesson_link
    steps = link.lesson.steps
    for n, step in enumerate(steps):
        await until(pilot, lambda n=n: link.step_no == n, f"step {n}, at {link.step_no}")
        await settle(pilot)
        while pilot.app.screen is not screen:  # a round's summary over the table: closed
            await pilot.press("enter")
            await settle(pilot)
        assert flat(step.says(lang)) in panel_text(screen), f"step {n}"
        if n in (len(steps) - 1, stop):
            return
        if step.expect is None:
            await pilot.press("f5")
        else:
            expect = step.expect
            while not can(screen, expect):
                await until(pilot, lambda step=step: can(screen, step.expect) or (
                    step.allow is not None and can(screen, step.allow)), f"step {n}'s move")
                if not can(screen, expect):  # a move the step lets pass meanwhile
                    await pilot.press(*step.allow_keys)
                    await settle(pilot)
            before = link.session.state_no
            view = link.session.engine.view(link.session.state, LEARNER)
            made = len(link.session.moves)
            await pilot.press(*step.keys)
            await until(pilot, lambda n=n: link.step_no == n + 1,
                        f"step {n}: {step.keys} made {link.session.moves[made:]}")
            assert link.session.state_no > before
            assert link.session.moves[made][0] == LEARNER
            assert step.expect(link.session.moves[made][1], view)


@pytest.mark.parametrize("game", list(LESSONS))
async def test_every_lesson_plays_to_its_end_by_keys(game: str) -> None:
    app = lesson_app(game)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_lesson(pilot, game)
        await play_lesson(pilot, screen)
        link = screen.lesson_link
        assert link.last
        # The last step lets the game go on: any legal move is taken.
        await until(pilot, lambda: learners_turn(screen) or link.session.over)
        if not link.session.over:
            before = link.session.state_no
            table = screen.shown_table
            assert table is not None
            await link.send_move(LEARNER, table.legal[-1], table.state_no)
            assert link.session.state_no > before
        # A lesson is practice: no record is written, nothing counts for a rating.
        assert not link.rated and link.record_path is None
        assert last_record() is None


@pytest.mark.parametrize("game", list(LESSONS))
async def test_a_lesson_in_german_at_80x24(game: str) -> None:
    """The same lesson in German in the smallest window: the panel lies over the table."""
    app = lesson_app(game, "de")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(pilot, game)
        assert screen.has_class("-narrow")
        assert screen.query_one("#lesson-over").region.height > 0
        await play_lesson(pilot, screen, "de")


@pytest.mark.parametrize("game", list(WRONG))
async def test_a_move_of_the_wrong_kind_is_refused_with_the_steps_words(game: str) -> None:
    number, keys = WRONG[game]
    app = lesson_app(game)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_lesson(pilot, game)
        link = screen.lesson_link
        await play_lesson(pilot, screen, stop=number)
        step = link.lesson.steps[number]
        assert step.expect is not None
        # F5 on a step that waits for a move says the move moves it on.
        await pilot.press("f5")
        await settle(pilot)
        assert link.step_no == number and "not with F5" in panel_text(screen)
        await until(pilot, lambda: can(screen, step.expect))
        state, moves = link.session.state_no, len(link.session.moves)
        await pilot.press(*keys)
        await settle(pilot)
        why = step.refusal("en")
        assert why is not None and flat(why) in panel_text(screen)
        assert link.session.state_no == state and len(link.session.moves) == moves
        assert link.step_no == number
        # The move the step asks for still goes through.
        await pilot.press(*step.keys)
        await until(pilot, lambda: link.step_no == number + 1)
        assert link.session.state_no > state


async def test_a_move_while_a_step_explains_waits_for_f5() -> None:
    app = lesson_app("schoene")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(pilot, "schoene")
        link = screen.lesson_link
        await until(pilot, lambda: learners_turn(screen))
        state = link.session.state_no
        await pilot.press("t")  # a legal move: take the card
        await settle(pilot)
        assert "then press F5" in panel_text(screen)
        assert link.session.state_no == state and link.step_no == 0
        # F9 hides the panel over the table; the next step brings it back.
        await pilot.press("f9")
        await settle(pilot)
        assert not screen.query_one("#lesson-over").display
        await pilot.press("f5")
        await settle(pilot)
        assert link.step_no == 1 and screen.query_one("#lesson-over").display


def test_every_step_has_its_own_german_words() -> None:
    for game in LESSONS:
        lesson = lesson_of(game)
        assert lesson.steps[-1].expect is None, f"{game}: the last step lets the game go on"
        for n, step in enumerate(lesson.steps):
            for words in (step.text, step.why):
                if words:
                    assert words.get("de") and words["de"] != words["en"], f"{game} {n}"
            assert (step.expect is None) == (not step.keys), f"{game} {n}"
            assert step.expect is None or step.why, f"{game} {n}: no refusal"


async def test_the_menu_opens_a_lesson_with_keys() -> None:
    app = TabletopApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*["down"] * MENU_ITEMS.index("learn"), "enter")
        await settle(pilot)
        await pilot.press("enter")  # the first game of the picker
        screen = await open_lesson(pilot, "schoene")
        assert flat(lesson_of("schoene").steps[0].says("en")) in panel_text(screen)


async def test_the_learn_command_starts_the_lesson(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    started: list[TabletopApp] = []
    monkeypatch.setattr(tui.app.TabletopApp, "run", lambda self: started.append(self))
    main(["--lang", "de", "learn", "schoene"])
    (app,) = started
    app.bot_delay = 0
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_lesson(pilot, "schoene")
        assert flat(lesson_of("schoene").steps[0].says("de")) in panel_text(screen)
        await play_lesson(pilot, screen, "de")
    set_language("en")


def test_the_learn_command_refuses_a_game_without_a_lesson(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as ended:
        main(["learn", "nosuchgame"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert "nosuchgame" in err and "schoene" in err


# Keys a newcomer might try anywhere in a lesson: the lesson's own, the language, the rules,
# the log, conceding (asked first: Esc keeps playing), undo (a lesson has none), the
# overlays a board opens, and keys that move a cursor.
STRAY_KEYS = ("f9", "f9", "f5", "f3", "f5", "f3", "f1", "f6", "f8", "u", "m", "i", "v", "1", "9",
              "up", "down", "left", "right", "tab")


@pytest.mark.parametrize("game", list(LESSONS))
async def test_stray_keys_in_a_lesson_crash_nothing_and_the_language_follows(game: str) -> None:
    app = lesson_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(pilot, game)
        link = screen.lesson_link
        for key in STRAY_KEYS:
            await pilot.press(key)
            await settle(pilot, 2)
            for _ in range(3):  # whatever the key opened over the table, closed again
                if pilot.app.screen is not screen:
                    await pilot.press("escape")
                    await settle(pilot)
            assert pilot.app.screen is screen, key
        assert app.is_running and screen.is_attached and not link.session.over
        # Two F5s went on from the first steps (both explain), the language came back.
        assert link.step_no == 2
        assert flat(link.step.says("en")) in panel_text(screen)
        await pilot.press("f3")
        await settle(pilot)
        assert flat(link.step.says("de")) in panel_text(screen)
