"""The lesson's screen: the game screen with the lesson's panel.

Where the window has room to spare beside the table (160×50), the panel heads a wider side
column above the log. Elsewhere (80×24, where the table takes every column) it lies over the
top of the table, below the top bar, where the other players sit: F9 hides it to see what
it covers, and it comes back with the next step."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Static
from textual.widgets.option_list import Option

from tui import boards
from tui.i18n import language, register, tr
from tui.learn.lesson import Lesson, has_lesson, lesson_of
from tui.learn.link import LessonLink
from tui.screens.base import KeySpec
from tui.screens.game import GameScreen, LinkMessage
from tui.screens.menu import GamePickerScreen

# Columns of the side column when the window has this many to spare beside the board.
ROOMY_SIDE = 50


class LessonPanel(Static, can_focus=False):
    """A step of the lesson: where it is in the lesson, what it says, and what to press."""

    def show(self, link: LessonLink, refused: str | None) -> None:
        """`refused`: "move" after a move the step does not take, "key" after the key that
        goes on, pressed on a step that waits for a move; None: nothing was refused."""
        lang = language()
        step = link.step
        total = len(link.lesson.steps)
        parts: list[str | tuple[str, str]] = [
            (tr("learn.step", n=link.step_no + 1, total=total), "bold"), "\n", step.says(lang)]
        if refused:
            why = (tr("learn.waits") if refused == "key"
                   else step.refusal(lang) or tr("learn.read_first" if step.expect is None
                                                 else "learn.not_that"))
            parts += ["\n", ("✗ " + why, "bold $error")]
        elif step.expect is None and not link.last:
            parts += ["\n", ("▸ " + tr("learn.go_on"), "bold $accent")]
        self.update(Content.assemble(*parts))


class LessonScreen(GameScreen):
    """A lesson's table: a `LessonLink` (which checks each move against the step) and the
    panel that shows the step."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        *GameScreen.KEYS,
        ("f5", "go_on", "learn.key.next", True),
        ("f9", "toggle_lesson", "learn.key.panel", False),
    )
    CSS = """
    LessonScreen #lesson-side {
        height: auto; max-height: 70%; padding: 0 1 1 1; border-bottom: hkey $felt-edge;
    }
    LessonScreen.-roomy #side { width: {roomy}; }
    LessonScreen #lesson-over {
        position: absolute; overlay: screen; offset: 0 1; width: 100%; height: auto;
        max-height: 10;
        padding: 0 1; background: $surface; border: round $accent; display: none;
    }
    LessonScreen.-lesson-over #lesson-over { display: block; }
    LessonScreen.-lesson-over #lesson-side { display: none; }
    LessonScreen.-lesson-over.-lesson-hidden #lesson-over, LessonScreen.-too-small #lesson-over {
        display: none;
    }
    """.replace("{roomy}", str(ROOMY_SIDE))

    def __init__(self, lesson: Lesson, bot_delay: float | None = None) -> None:
        """`bot_delay`: the seconds between the bots' moves; None: the app's."""
        self.pace = boards.board_class(lesson.engine_id).BOT_PACE
        self.bot_delay = bot_delay
        self.lesson_link = LessonLink(lesson, bot_delay=(bot_delay or 0.0) * self.pace)
        self.refused: str | None = None
        super().__init__(self.lesson_link, lesson.engine_id)

    def side_top(self) -> ComposeResult:
        yield LessonPanel(id="lesson-side")

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield LessonPanel(id="lesson-over")

    def on_mount(self) -> None:
        if self.bot_delay is None:  # the app's pace (its tests' is none)
            self.lesson_link.bot_delay = float(getattr(self.app, "bot_delay", 0.6)) * self.pace
        self._show_step()

    def _fit(self, width: int, height: int) -> None:
        super()._fit(width, height)
        board_width = boards.board_class(self.engine_id).MIN_SIZE[0]
        roomy = width >= board_width + ROOMY_SIDE
        self.set_class(roomy, "-roomy")
        # Beside a table that leaves the side column its narrowest, a step would run long:
        # there it lies over the table's top instead, as where there is no side column.
        self.set_class(not roomy, "-lesson-over")

    async def retranslate(self) -> None:
        await super().retranslate()
        self._show_step()

    def on_link_message(self, message: LinkMessage) -> None:
        """The lesson's own messages (the game screen's handler takes the rest)."""
        data: dict[str, Any] = message.data
        if data.get("type") == "lesson":
            self.refused = "move" if data.get("refused") else None
            self.remove_class("-lesson-hidden")
            self._show_step()

    def _show_step(self) -> None:
        for panel in self.query(LessonPanel):
            panel.show(self.lesson_link, self.refused)
        over = self.query_one("#lesson-over", LessonPanel)
        over.border_subtitle = tr("learn.hide")

    def action_go_on(self) -> None:
        if self.lesson_link.go_on():
            return
        if not self.lesson_link.last:  # a step that waits for a move: say so again
            self.refused = "key"
            self.remove_class("-lesson-hidden")
            self._show_step()

    def action_toggle_lesson(self) -> None:
        self.toggle_class("-lesson-hidden")


register({
    "en": {
        "learn.step": "Lesson · step {n} of {total}",
        "learn.go_on": "Press F5 to go on.",
        "learn.read_first": "Read this step first, then press F5 to go on.",
        "learn.not_that": "Not that move now: this step asks for another one (see above).",
        "learn.waits": "This step goes on with your move, not with F5.",
        "learn.key.next": "Go on",
        "learn.key.panel": "Lesson",
        "learn.hide": "F9 hides the lesson, and shows it again",
    },
    "de": {
        "learn.step": "Lektion · Schritt {n} von {total}",
        "learn.go_on": "Weiter mit F5.",
        "learn.read_first": "Lies erst diesen Schritt, dann weiter mit F5.",
        "learn.not_that":
            "Diesen Zug gerade nicht: Dieser Schritt will einen anderen (siehe oben).",
        "learn.waits": "Dieser Schritt geht mit deinem Zug weiter, nicht mit F5.",
        "learn.key.next": "Weiter",
        "learn.key.panel": "Lektion",
        "learn.hide": "F9 blendet die Lektion aus und wieder ein",
    },
})


class LessonPickerScreen(GamePickerScreen):
    """The game picker of Learn to play: a game without a lesson yet is listed, not picked."""

    def __init__(self) -> None:
        super().__init__("menu.learn")

    def _options(self) -> list[Option]:
        options = super()._options()
        for option in options:
            if option.id is not None and not has_lesson(option.id):
                option.disabled = True
        return options


def open_lesson(app: App[Any], bot_delay: float, engine_id: str | None = None) -> None:
    """Open a game's lesson over the current screen; without a game, pick one first."""
    if engine_id is not None:
        app.push_screen(LessonScreen(lesson_of(engine_id), bot_delay))
        return

    def picked(engine_id: str | None) -> None:
        if engine_id is not None:
            app.push_screen(LessonScreen(lesson_of(engine_id), bot_delay))

    app.push_screen(LessonPickerScreen(), picked)
