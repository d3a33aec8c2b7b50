"""Puzzles (menu → Puzzles, `tabletop-tui puzzles GAME`): a position of a real game on the
game's own board, as the seat to move saw it, and one move that is clearly best from there.

The player makes a move by the board's keys; the screen says right or wrong, shows the
expert's numbers for the top moves, and both new ratings (the player's puzzle rating and the
puzzle's: the puzzle is the opponent, net.puzzles.book), then serves the next puzzle: the
one never tried whose rating is closest to the player's. The board gets the puzzle's view
and legal moves and nothing else, and no hint key (the expert would give the answer away).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.events import Resize
from textual.widgets import Static

from engines import get_engine
from net.players.store import StoreError
from net.puzzles import book as puzzle_book
from net.puzzles.book import Attempt
from net.puzzles.puzzle import Puzzle, PuzzleError
from net.puzzles.rating import PuzzleSkill
from tui import boards
from tui.boards.base import GameBoard, Table, honest
from tui.i18n import register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.widgets import room
from tui.widgets.footer import Footer
from tui.widgets.topline import fit_parts

# Rows besides the board: the top bar (which says what to find) and the footer.
CHROME_HEIGHT = 2
# The names a puzzle's table shows: the player at the keys, and the others by seat.
YOU = "You"
OTHER = "Player {n}"


def puzzle_table(puzzle: Puzzle, answered: bool = False) -> Table:
    """The table of `puzzle` as its seat saw it: its view, and its legal moves until the
    player answered."""
    players = [{"name": YOU if seat == puzzle.seat else OTHER.format(n=seat + 1), "bot": None}
               for seat in range(int(puzzle.view.get("num_players") or puzzle.seat + 1))]
    return Table(seat=puzzle.seat, state_no=puzzle.state, view=puzzle.view,
                 legal=[] if answered else puzzle.legal, players=players, hints=False)


class PuzzleScreen(TableScreen[None]):
    DEFAULT_CSS = """
    PuzzleScreen #puzzle-top { height: 1; padding: 0 1; background: $panel; }
    PuzzleScreen #puzzle-verdict { height: auto; max-height: 9; padding: 0 1;
                                   display: none; background: $panel; }
    PuzzleScreen.-answered #puzzle-verdict { display: block; }
    PuzzleScreen #board-slot { height: 1fr; }
    PuzzleScreen.-too-small #board-slot { display: none; }
    PuzzleScreen.-too-small #too-small { display: block; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("n", "next", "puzzles.key.next", True),
        ("escape", "leave", "key.back", True),
        ("f1,question_mark", "app.rules", "key.rules", False),
        ("f2", "app.next_theme", "key.theme", False),
        ("f3", "app.next_language", "key.language", False),
    )

    def __init__(self, game: str) -> None:
        self.game = game
        self.title_of_game = get_engine(game).title
        self.ident = puzzle_book.my_ident()
        self.pool: list[Puzzle] = []
        self.puzzle: Puzzle | None = None
        self.answer: tuple[Any, Attempt] | None = None  # the move made and what it did
        self.rating = PuzzleSkill()
        self.trouble: str | None = None  # why ratings are not kept (a store that failed)
        super().__init__()

    def compose(self) -> ComposeResult:
        yield Static(id="puzzle-top")
        yield Vertical(id="board-slot")
        yield room.RoomNotice(id="too-small")
        yield Static(id="puzzle-verdict")
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        if self.puzzle is None:
            self._serve(skip=())
        await self._show()
        self._fit(self.size.width, self.size.height)

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width, event.size.height)
        self._update_top()

    def _fit(self, width: int, height: int) -> None:
        """Below the board's smallest size the screen asks for a larger window (or a phone
        turned) instead, and the hidden board takes no key."""
        need_w, need_h = boards.board_class(self.game).least_size()
        need = (need_w, need_h + CHROME_HEIGHT)
        too_small = room.too_small(need, width, height)
        shown_again = self.has_class("-too-small") and not too_small
        self.set_class(too_small, "-too-small")
        if too_small:
            self.set_focus(None)
            self.query_one(room.RoomNotice).say(need, width, height)
        elif shown_again:
            self._focus_board()

    def _focus_board(self) -> None:
        if self.answer is None and not self.has_class("-too-small"):
            for board in self.query(GameBoard):
                board.focus()

    async def retranslate(self) -> None:
        await super().retranslate()
        await self._show()

    # -- serving -----------------------------------------------------------------------------
    def _serve(self, skip: tuple[str, ...]) -> None:
        """The next puzzle for this player (None when none is left)."""
        self.answer = None
        try:
            with puzzle_book.opened() as book:
                self.pool = puzzle_book.pool(book, self.game)
                self.puzzle = book.next(self.pool, self.ident, skip)
                if self.ident is not None:
                    self.rating = book.player_rating(self.game, self.ident)
        except (StoreError, PuzzleError, OSError) as exc:
            # Without the store the shipped set still plays; nothing is rated.
            self.trouble = str(exc)
            try:
                self.pool = puzzle_book.shipped(self.game)
            except PuzzleError:
                self.pool = []
            fresh = [p for p in self.pool if p.id not in skip]
            self.puzzle = fresh[0] if fresh else None

    async def _show(self) -> None:
        self.set_class(self.answer is not None, "-answered")
        self._update_top()
        slot = self.query_one("#board-slot", Vertical)
        await slot.remove_children()
        puzzle = self.puzzle
        if puzzle is None:
            return
        board_class = boards.board_class(self.game)
        board = board_class(puzzle_table(puzzle, self.answer is not None), id="board")
        await slot.mount(board)
        if self.answer is None:
            self._focus_board()
        else:
            board.can_focus = False
            board.show_move(puzzle.best[0])
            self.query_one("#puzzle-verdict", Static).update(Content(self._verdict(board)))
        self.refresh_bindings()

    def task(self) -> str:
        """What the top bar asks of the player now."""
        if self.puzzle is None:
            return tr("puzzles.none" if self.pool else "puzzles.empty", game=self.title_of_game)
        return tr("puzzles.task" if self.answer is None else "puzzles.after")

    def _update_top(self) -> None:
        """The task first (it stays), then the game and the ratings, which give way to it
        in a narrow window."""
        parts = [self.task(), self.title_of_game]
        if self.puzzle is not None:
            parts.append(tr("puzzles.rated", rating=self._puzzle_rating().shown))
        if self.ident is not None and self.trouble is None:
            parts.append(tr("puzzles.yours", rating=self.rating.shown))
        else:
            parts.append(tr("puzzles.unrated"))
        line = fit_parts(parts, self.size.width - 2, droppable=[1, 2])
        self.query_one("#puzzle-top", Static).update(Content(line))

    def _puzzle_rating(self) -> PuzzleSkill:
        if self.answer is not None:
            return self.answer[1].puzzle_after
        assert self.puzzle is not None
        return PuzzleSkill(self.puzzle.rating)

    # -- answering ---------------------------------------------------------------------------
    async def on_game_board_move_chosen(self, message: GameBoard.MoveChosen) -> None:
        message.stop()
        puzzle = self.puzzle
        if puzzle is None or self.answer is not None:
            return
        solved = puzzle.solves(message.move)
        try:
            with puzzle_book.opened() as book:
                done = book.attempt(puzzle, None if self.trouble else self.ident, solved)
        except (StoreError, OSError) as exc:
            self.trouble = str(exc)
            it = PuzzleSkill(puzzle.rating)
            done = Attempt(solved, False, self.rating, self.rating, it, it)
        self.rating = done.player_after
        self.answer = (message.move, done)
        await self._show()

    def on_game_board_hint(self, message: GameBoard.Hint) -> None:
        """A board's line for the player (a key that does nothing now, and why)."""
        message.stop()
        self.notify(message.text, markup=False)

    def on_game_board_answering(self, message: GameBoard.Answering) -> None:
        message.stop()  # no interrupt window runs here: there is no table to ask for time

    def _verdict(self, board: GameBoard) -> str:
        assert self.answer is not None and self.puzzle is not None
        move, done = self.answer
        best = board.describe_move(self.puzzle.best[0])
        lines = [tr("puzzles.right", move=best) if done.solved
                 else tr("puzzles.wrong", move=board.describe_move(move), best=best)]
        numbers = ", ".join(tr("puzzles.number", move=board.describe_move(top.move),
                               win=honest(top.win))
                            for top in sorted(self.puzzle.top, key=lambda t: -t.win))
        lines.append(tr("puzzles.numbers", numbers=numbers))
        if done.rated:
            lines.append(tr("puzzles.ratings",
                            before=done.player_before.shown, after=done.player_after.shown,
                            change=_signed(done.player_after.shown - done.player_before.shown),
                            puzzle_before=done.puzzle_before.shown,
                            puzzle_after=done.puzzle_after.shown))
        elif self.ident is None or self.trouble is not None:
            lines.append(tr("puzzles.not_rated_nobody"))
        else:
            lines.append(tr("puzzles.not_rated_again"))
        lines.append(tr("puzzles.next_hint"))
        return "\n".join(lines)

    # -- keys --------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return self.answer is not None
        return True

    async def action_next(self) -> None:
        if self.answer is None:
            return
        last = (self.puzzle.id,) if self.puzzle is not None else ()
        self._serve(skip=last)
        await self._show()

    def action_leave(self) -> None:
        self.dismiss()


def _signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number)


register(
    {
        "en": {
            "puzzles.pick": "Puzzles of which game?",
            "puzzles.key.next": "Next puzzle",
            "puzzles.task": "Puzzle: find the best move",
            "puzzles.after": "Puzzle answered",
            "puzzles.rated": "puzzle {rating}",
            "puzzles.yours": "your puzzle rating {rating}",
            "puzzles.unrated": "not rated",
            "puzzles.none": "No puzzle of {game} is left for you: you solved them all",
            "puzzles.empty": "There are no puzzles of {game} here yet",
            "puzzles.right": "Right! {move} is the best move.",
            "puzzles.wrong": "Not this one: you chose {move}; the best move was {best}.",
            "puzzles.numbers": "The expert's share of the win after each: {numbers}",
            "puzzles.number": "{move} {win}%",
            "puzzles.ratings": "Your puzzle rating: {before} → {after} ({change}); "
                               "the puzzle's: {puzzle_before} → {puzzle_after}",
            "puzzles.not_rated_again": "Not rated: you tried this puzzle before.",
            "puzzles.not_rated_nobody": "Not rated: no player identity or store here.",
            "puzzles.next_hint": "n: next puzzle · Esc: back",
        },
        "de": {
            "puzzles.pick": "Rätsel zu welchem Spiel?",
            "puzzles.key.next": "Nächstes Rätsel",
            "puzzles.task": "Rätsel: finde den besten Zug",
            "puzzles.after": "Rätsel beantwortet",
            "puzzles.rated": "Rätsel {rating}",
            "puzzles.yours": "deine Rätselwertung {rating}",
            "puzzles.unrated": "ohne Wertung",
            "puzzles.none": "Kein Rätsel zu {game} ist mehr offen: du hast alle gelöst",
            "puzzles.empty": "Hier gibt es noch keine Rätsel zu {game}",
            "puzzles.right": "Richtig! {move} ist der beste Zug.",
            "puzzles.wrong": "Nicht dieser: du hast {move} gewählt, der beste Zug war {best}.",
            "puzzles.numbers": "Sieganteil laut Experte nach jedem Zug: {numbers}",
            "puzzles.number": "{move} {win} %",
            "puzzles.ratings": "Deine Rätselwertung: {before} → {after} ({change}); "
                               "die des Rätsels: {puzzle_before} → {puzzle_after}",
            "puzzles.not_rated_again": "Ohne Wertung: du hast dieses Rätsel schon versucht.",
            "puzzles.not_rated_nobody": "Ohne Wertung: hier gibt es keine Spieleridentität "
                                        "oder keinen Speicher.",
            "puzzles.next_hint": "n: nächstes Rätsel · Esc: zurück",
        },
    }
)
