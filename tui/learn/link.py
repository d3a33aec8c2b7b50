"""The lesson's table: a `LocalLink` that asks the lesson before the engine.

Every move of the learner goes to the step on show first. A step that only explains takes
no move; a step that asks for a kind of move takes only that kind; anything else is refused
with the step's explanation and changes nothing. A move the step wants then goes to the
engine like any other (which may still refuse it with its own reason), and once it is
applied the lesson goes on to the next step. The last step takes any legal move: the game
is the learner's from there."""

from __future__ import annotations

from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo
from tui.learn.lesson import Lesson, Step

# The learner's seat at every lesson's table.
LEARNER = 0
# What the table says to an undo in a lesson.
NO_UNDO = "A lesson goes forward only: nothing is taken back here"


class LessonLink(LocalLink):
    """A lesson's table, played at this keyboard in seat 0 against the lesson's bots. It
    tells its listener {"type": "lesson", "step": n, "refused": bool} whenever the step on
    show changes or a move is refused (the game screen ignores the message; the lesson's
    screen draws it)."""

    def __init__(self, lesson: Lesson, bot_delay: float = 0.6) -> None:
        seats = [SeatInfo(name, None if seat == LEARNER else lesson.bot)
                 for seat, name in enumerate(lesson.names)]
        session = HostSession(lesson.engine_id, seats, lesson.seed, lesson.options)
        super().__init__(session, [LEARNER], bot_delay=bot_delay)
        # A lesson goes forward only: a move taken back would leave its step behind.
        session.undo.enabled = False
        self.lesson = lesson
        self.step_no = 0

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.step_no]

    @property
    def last(self) -> bool:
        """Whether the last step is on show: the lesson is done, the game goes on."""
        return self.step_no == len(self.lesson.steps) - 1

    async def start(self) -> None:
        await super().start()
        self._tell(refused=False)

    def go_on(self) -> bool:
        """The learner has read a step that only explains: on to the next. False (nothing
        happens) on a step that waits for a move, and on the last."""
        if self.step.expect is not None or self.last:
            return False
        self.step_no += 1
        self._tell(refused=False)
        return True

    def wanted(self, move: dict[str, object]) -> bool:
        """Whether the step on show takes this move (the engine still checks it is legal)."""
        if self.last:
            return True
        expect = self.step.expect
        view = self.session.engine.view(self.session.state, LEARNER)
        return expect is not None and expect(move, view)

    def allowed(self, move: dict[str, object]) -> bool:
        """Whether the step lets this move be made meanwhile, staying on show."""
        allow = self.step.allow
        view = self.session.engine.view(self.session.state, LEARNER)
        return allow is not None and allow(move, view)

    async def send_move(self, seat: int, move: dict[str, object], state_no: int) -> None:
        wanted = seat != LEARNER or self.wanted(move)
        if not wanted and not self.allowed(move):
            self._tell(refused=True)
            return
        made = len(self.session.moves)
        await super().send_move(seat, move, state_no)
        if wanted and len(self.session.moves) > made and not self.last:
            self.step_no += 1
            self._tell(refused=False)

    async def undo(self, seat: int, state_no: int) -> None:
        self.emit({"type": "error", "seat": seat, "message": NO_UNDO})

    def _tell(self, refused: bool) -> None:
        self.emit({"type": "lesson", "step": self.step_no, "refused": refused})
