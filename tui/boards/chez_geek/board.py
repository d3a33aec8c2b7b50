"""The Chez Geek board: the others' rooms across the top, the cards in play with the interrupt
banner in the middle, your own room with your hand below; keys and clicks become moves.

A card is played from the hand cursor (Enter; arrows or its number key move the cursor); when
the card needs a choice (whose room, which card, which person) the choices replace the hand
until one is taken or Esc goes back. Things are gathered for a shopping trip with space. In a
window, `a` answers with a card that can and `p` lets it go; `m` lists every move the seat has,
so nothing is out of reach of the keyboard. Cards grow with the terminal (`tui.widgets.scale`);
a window too short for a full table keeps only the job's bar in the others' frames.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from engines.base import Move
from tui.boards.base import GameBoard, MoveKey, Table
from tui.boards.chez_geek.banner import answers, reactions
from tui.boards.chez_geek.cards import CARDS, card_name, effects_line, job_name
from tui.boards.chez_geek.events import describe
from tui.boards.chez_geek.hand import PICK_KEYS, Hand
from tui.boards.chez_geek.info import CardInfo
from tui.boards.chez_geek.middle import Middle
from tui.boards.chez_geek.picker import Picker, asks, move_words, own_last
from tui.boards.chez_geek.rooms import RoomPanel, RoomsScreen, clip
from tui.boards.chez_geek.why import (
    why_no_answer,
    why_no_end,
    why_no_moves,
    why_no_pass,
    why_no_trip,
    why_not_card,
)
from tui.i18n import language, tr
from tui.widgets import ActionBar
from tui.widgets.actions import Action
from tui.widgets.scale import SIZES, CardSize, largest_fitting, rescale

ENDS = ("end_removals", "end_phase", "end_turn")
# Board actions the action bar offers besides the plain moves of MOVE_KEYS.
OWN_ACTIONS = ("card", "answer", "end", "moves")
DIE_FACES = {n: chr(0x267F + n) for n in range(1, 7)}  # ⚀ .. ⚅
DICE_SHOWN = 2  # the status line shows this turn's last few rolls
# The others' rooms side by side before the grid starts another row.
COLUMNS = 3
# Cards the hand row must hold side by side before a larger step is worth it; a row may
# shrink its cards to SHRINK of their width.
ROW_CARDS = 6
SHRINK = 0.75
# Rows besides the rooms, the middle and the hand: the status line, the detail line and the
# action bar; a room's frame; the middle's banner and news line.
CHROME_ROWS = 3
FRAME_ROWS = 2
MIDDLE_ROWS = 3
# The lines your own room's cards may take in a compact table, and any room at most.
OWN_LINES_COMPACT = 2
ROOM_LINES = 4
# The plays of other seats kept in sight until a key is pressed (the news line).
NEWS_KEPT = 2
NEWS_PLAYS = ("anytime", "cancel", "tv", "free_play")


class Board(GameBoard):
    """The Chez Geek table for one seat (or a spectator)."""

    DEFAULT_CSS = """
    Board { layout: vertical; }
    Board #status { height: 1; width: 1fr; color: $text-muted; }
    Board #others { grid-gutter: 0 1; height: auto; grid-rows: auto; }
    Board #detail { height: 1; width: 1fr; color: $text-muted; }
    Board #choices { height: auto; width: 1fr; }
    Board.-compact Picker { max-height: 8; }
    Board ActionBar { margin-top: 0; }
    """

    MIN_SIZE: ClassVar[tuple[int, int]] = (72, 20)
    VIEW_ACTIONS: ClassVar[frozenset[str]] = frozenset({"rooms"})
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = (MoveKey("p", "pass", "cg.key.pass"),)
    SCORE_LABEL: ClassVar[str] = "cg.score"

    def __init__(self, table: Table, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(table, id=id, classes=classes)
        self.basket: list[int] = []  # hand positions picked for a shopping trip
        self.picker: Picker | None = None
        self._auto_opened: int | None = None  # the state a prompt's choices opened at
        self.news: list[dict[str, Any]] = []  # others' plays not yet seen (see take_events)
        # The most lines of cards the others' rooms and your own room take (see on_resize).
        self.room_lines = (1, OWN_LINES_COMPACT)

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        table = self.table
        others = table.seats_from_me()
        yield Static(id="status")
        with Grid(id="others") as grid:
            grid.styles.grid_size_columns = max(1, min(COLUMNS, len(others)))
            for seat in others:
                yield RoomPanel(table, seat)
        yield Middle(id="middle")
        if table.seat is not None:
            yield RoomPanel(table, table.seat, Vertical(Hand(id="hand"), id="choices"))
            yield Static(id="detail")
        yield ActionBar(self.actions())

    def describe_move(self, move: Move | None) -> str:
        """A hint names a move as the move picker does."""
        if move is None:
            return super().describe_move(move)
        return move_words(move, self.table.view, self.table.names)

    def key_bindings(self) -> list[Binding]:
        return [
            Binding("enter", "card", tr("cg.key.card"), key_display="⏎"),
            Binding("a", "answer", tr("cg.key.answer")),
            *super().key_bindings(),
            Binding("e", "end", tr("cg.key.end")),
            Binding("m", "moves", tr("cg.key.moves")),
            Binding("i", "info", tr("cg.key.info")),
            Binding("v", "rooms", tr("cg.key.rooms")),
            Binding("space", "basket", tr("cg.key.basket"), key_display="␣", show=False),
            Binding("left,up,k", "cursor(-1)", tr("cg.key.left"), show=False),
            Binding("right,down,j,l", "cursor(1)", tr("cg.key.right"), show=False),
            *[Binding(key, f"pick({index})", tr("cg.key.pick"), show=False)
              for index, key in enumerate(PICK_KEYS)],
        ]

    def actions(self) -> list[Action]:
        return [
            Action("card", tr("cg.key.card"), "⏎"),
            Action("answer", tr("cg.key.answer"), "a"),
            *super().actions(),
            Action("end", tr("cg.key.end"), "e"),
            Action("moves", tr("cg.key.moves"), "m"),
        ]

    def on_resize(self) -> None:
        """The largest step at which the whole table fits with one line of cards in every
        room: the others' rooms (in rows of three), the middle, your room and your hand. The
        rows left over let the rooms' cards take more lines (a few at most: the middle shows
        the cards in play in the rest). When even the smallest step does not fit, the others'
        frames keep only their bars and one line of cards (compact)."""
        width, height = self.size
        view = self.table.view
        mine = self.table.seat is not None
        rows = -(-len(self.table.seats_from_me()) // COLUMNS)
        cards = max(ROW_CARDS, len(view.get("hand") or []))

        def need(size: CardSize, compact: bool = False) -> int:
            tiles = size.tile_rows  # a room's cards: one line of tiles
            other = FRAME_ROWS + (0 if compact else 1) + tiles
            # The lifted row, the faces, the notes (left out when compact); your room.
            hand = 1 + size.rows + (0 if compact else 1)
            room = OWN_LINES_COMPACT if compact else tiles
            own = FRAME_ROWS + 1 + room + hand if mine else 0
            return CHROME_ROWS + rows * other + MIDDLE_ROWS + own

        def fits(size: CardSize) -> bool:
            return need(size) <= height and cards * (int(size.width * SHRINK) + 1) + 6 <= width

        step = largest_fitting(fits)
        compact = need(SIZES[step]) > height
        self.set_class(compact, "-compact")
        rescale(self, step)
        for hand in self.query(Hand):
            hand.row.notes = not compact
        spare = max(0, height - need(SIZES[step], compact)) // 2
        self.room_lines = (1, OWN_LINES_COMPACT) if compact else (
            min(ROOM_LINES, 1 + spare // max(rows, 1)), min(ROOM_LINES, 1 + spare))
        if self._mounted:
            self.draw(self.table)

    # -- what others played (the news line) --------------------------------------------------
    def take_events(self, events: list[dict[str, Any]], *, whole_log: bool = False) -> None:
        """Keep the last plays of other seats (a cancel, a reaction in your turn) until a key
        is pressed: at 80 columns there is no log beside the table, and a bot's answer is
        gone from the top line as soon as the next thing happens. A new turn starts afresh."""
        if whole_log:
            self.news = []
        for event in events:
            if event.get("kind") == "turn":
                self.news = []
            elif (event.get("kind") == "play" and event.get("as") in NEWS_PLAYS
                  and event.get("seat") != self.table.seat):
                self.news = [*self.news, event][-NEWS_KEPT:]
        if self._mounted:
            self._draw_middle(self.table)

    def on_key(self) -> None:
        """Any key pressed at this table: what the others played has been seen."""
        if self.news:
            self.news = []
            self._draw_middle(self.table)

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, table: Table) -> None:
        width = max(20, self.size.width - 2)
        self.query_one("#status", Static).update(Content(clip(self._status(table), width)))
        compact = self.has_class("-compact")
        others, own = self.room_lines
        for panel in self.query(RoomPanel):
            if panel.seat == table.seat:
                panel.draw(table, lines=own)
            else:
                panel.draw(table, compact=compact, lines=others)
        self._draw_middle(table)
        if table.seat is not None:
            self._draw_hand(table, width)
            self._keep_picker(table)
        bar = self.query_one(ActionBar)
        live = {
            "card": bool(table.legal) and table.seat is not None,
            "answer": bool(self._answers(table)),
            "end": self._end_move(table) is not None,
            "moves": bool(self._all_moves(table)),
        }
        for name, enabled in live.items():
            bar.set_state(name, enabled=enabled)

    def _draw_middle(self, table: Table) -> None:
        width = max(20, self.size.width - 4)
        news = [describe(e, table.names, language()) for e in self.news]
        self.query_one(Middle).draw(table, clip(self._phase_hint(table), width), news)

    def _status(self, table: Table) -> str:
        view = table.view
        if view.get("over"):
            winners = ", ".join(table.name(s) for s in view["winners"])
            return tr("cg.status.over", names=winners)
        return self._dice_words(table) + self._turn_words(table)

    def _dice_words(self, table: Table) -> str:
        """The dice rolled this turn, newest last: "⚅ 6 Anna: a call · "."""
        words = [
            tr("cg.status.die", face=DIE_FACES.get(r.get("die"), "?"), die=r.get("die"),
               name=table.name(r.get("seat")), what=tr(f"cg.roll.{r.get('for')}"))
            for r in (table.view.get("rolls") or [])[-DICE_SHOWN:]
        ]
        return " ".join(words) + " · " if words else ""

    def _turn_words(self, table: Table) -> str:
        view = table.view
        discard = view.get("discard_pile") or []
        top = tr("cg.status.top", card=card_name(discard[-1])) if discard else ""
        return tr(
            "cg.status.line",
            n=view.get("turn_no"),
            name=table.name(view.get("turn")),
            phase=tr(f"cg.phase.{view.get('phase')}"),
            income=view.get("income"),
            ft=view.get("free_time"),
            draw=view.get("draw_pile"),
            discard=len(discard),
            top=top,
            jobs=view.get("job_pile"),
        )

    def _phase_hint(self, table: Table) -> str:
        view = table.view
        if view.get("over"):
            return ""
        if table.you is None or view.get("turn") != table.you:
            return tr("cg.hint.others", name=table.name(view.get("turn")),
                      phase=tr(f"cg.phase.{view.get('phase')}"))
        return tr(f"cg.hint.{view.get('phase')}")

    def _draw_hand(self, table: Table, width: int) -> None:
        hand = self.query_one(Hand)
        cards = list(table.view.get("hand") or [])
        ids = [c.get("card") for c in cards]
        self.basket = [i for i in self.basket if i < len(cards) and ids[i] in CARDS
                       and CARDS[ids[i]].type == "thing"]
        if not self._can_shop(table):
            self.basket = []
        playable = set()
        for move in table.legal:
            playable.add(move.get("card"))
            playable.update(move.get("cards") or [])
        hand.draw(cards, self.basket, playable)
        detail = ""
        selected = hand.selected
        if selected is not None and table.you is not None:  # a replay has no cursor to read
            effects = effects_line(selected.get("effects") or []) or tr("cg.detail.plain")
            detail = tr("cg.detail.line", card=card_name(selected.get("card")), effects=effects)
        if self.basket:
            trip = [ids[i] for i in self.basket]
            detail = tr("cg.detail.basket", cards=", ".join(card_name(c) for c in trip),
                        cost=sum(CARDS[c].cost for c in trip))
        self.query_one("#detail", Static).update(Content(clip(detail, width)))

    # -- what the seat can do ----------------------------------------------------------------
    def _answers(self, table: Table) -> list[Move]:
        window = table.view.get("window")
        if window is None or table.view.get("prompt") is not None:
            return []
        if window.get("kind") == "response":
            return answers(table.legal)
        return reactions(table.legal)

    @staticmethod
    def _end_move(table: Table) -> Move | None:
        return next((m for m in table.legal if m.get("type") in ENDS), None)

    @staticmethod
    def _all_moves(table: Table) -> list[Move]:
        return [m for m in table.legal if m.get("type") != "pass"]

    def _can_shop(self, table: Table) -> bool:
        return any(m.get("type") == "shop" for m in table.legal)

    def _card_moves(self, cid: str) -> list[Move]:
        return [
            m for m in self.table.legal
            if m.get("card") == cid or (m.get("type") == "shop" and m.get("cards") == [cid])
        ]

    # -- keys --------------------------------------------------------------------------------
    def action_move(self, move_type: str) -> None:
        own = {"card": self.action_card, "answer": self.action_answer, "end": self.action_end,
               "moves": self.action_moves}
        if move_type in own:
            own[move_type]()
            return
        self._close_picker()
        if move_type == "pass" and self.legal_move("pass") is None:
            self._refuse(why_no_pass(self.table))
            return
        super().action_move(move_type)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in (*OWN_ACTIONS, "basket", "info", "cursor", "pick") \
                and self.table.seat is None:
            return False
        if action == "move" and parameters == ("pass",) and self.table.seat is not None:
            return True  # a key that cannot let anything go says why
        return super().check_action(action, parameters)

    def _refuse(self, why: str) -> None:
        """A key that does nothing now says why (in the log, and on the table)."""
        self.post_message(self.Hint(why))

    def action_cursor(self, step: int) -> None:
        if self.table.seat is None:
            return
        self.query_one(Hand).move(step)
        self.draw(self.table)

    def action_pick(self, index: int) -> None:
        """The hand card with this number goes under the cursor."""
        hand = self.query_one(Hand)
        if index >= len(hand.cards):
            self._refuse(tr("cg.no.no_card_n", n=len(hand.cards)))
            return
        hand.cursor = index
        self.draw(self.table)

    def action_card(self) -> None:
        table = self.table
        hand = self.query_one(Hand) if table.seat is not None else None
        if hand is None:
            return
        if self.basket:
            trip = sorted(hand.cards[i]["card"] for i in self.basket)
            move = next((m for m in table.legal if m.get("type") == "shop"
                         and m.get("cards") == trip), None)
            if move is None:
                self._refuse(why_no_trip(table, trip))
                return
            self.basket = []
            self._send(move)
            return
        selected = hand.selected
        if selected is None:
            return
        moves = self._card_moves(selected["card"])
        if not moves:
            self._refuse(why_not_card(table, selected["card"]))
            return
        self._choose(card_name(selected["card"]), moves, "")

    def action_basket(self) -> None:
        if self.table.seat is None:
            return
        hand = self.query_one(Hand)
        selected = hand.selected
        if selected is None or selected.get("type") != "thing":
            self._refuse(tr("cg.no.not_a_thing"))
            return
        if not self._can_shop(self.table):
            self._refuse(why_no_trip(self.table, [selected["card"]]))
            return
        index = hand.cursor
        self.basket = [i for i in self.basket if i != index] if index in self.basket \
            else [*self.basket, index]
        self.draw(self.table)

    def action_answer(self) -> None:
        self._choose(tr("cg.picker.answer"), self._answers(self.table), why_no_answer(self.table))
        if self.picker is not None and self.table.view.get("window") is not None:
            self.post_message(self.Answering())  # the window waits for the choice, capped

    def action_end(self) -> None:
        move = self._end_move(self.table)
        if move is None:
            self._refuse(why_no_end(self.table))
            return
        self._send(move)

    def action_moves(self) -> None:
        self._choose(tr("cg.picker.moves"), self._all_moves(self.table), why_no_moves(self.table),
                     always_list=True)

    def action_info(self) -> None:
        if self.table.seat is None:
            return
        selected = self.query_one(Hand).selected
        if selected is not None and selected.get("card") in CARDS:
            self.app.push_screen(CardInfo(selected["card"]))

    def action_rooms(self) -> None:
        """Every room in words over the table."""
        self.app.push_screen(RoomsScreen(self.table))

    def on_hand_clicked(self, event: Hand.Clicked) -> None:
        event.stop()
        self.query_one(Hand).cursor = event.index
        self.draw(self.table)

    # -- choosing ----------------------------------------------------------------------------
    def _choose(self, title: str, moves: list[Move], none: str, always_list: bool = False) -> None:
        """One move is made at once, unless it names a target (that is always shown first);
        several are listed, those against the player's own room last."""
        if not moves:
            self._refuse(none)
        elif len(moves) == 1 and not always_list and not asks(moves[0]):
            self._send(moves[0])
        else:
            self._open_picker(title, own_last(moves, self.table.view))

    def _open_picker(self, title: str, moves: list[Move], focus: bool = True) -> None:
        self._close_picker()
        self.picker = Picker(title, moves, self.table.view, self.table.names)
        self.query_one(Hand).display = False
        self.query_one("#choices", Vertical).mount(self.picker)
        if focus:
            self.picker.focus()

    def _close_picker(self) -> None:
        if self.picker is None:
            return
        had_focus = self.picker.has_focus
        self.picker.remove()
        self.picker = None
        self.query_one(Hand).display = True
        if had_focus:
            self.focus()

    def _keep_picker(self, table: Table) -> None:
        """Choices the table no longer offers go; a prompt for this seat opens its choices."""
        if self.picker is not None and any(m not in table.legal for m in self.picker.moves):
            self._close_picker()
        prompt = table.view.get("prompt")
        if (
            self.picker is None
            and prompt is not None
            and prompt.get("seat") == table.seat
            and self._auto_opened != table.state_no
            and table.legal
        ):
            self._auto_opened = table.state_no
            hidden = self.screen.has_class("-too-small") if self.is_attached else False
            self._open_picker(tr(f"cg.prompt.{prompt.get('kind')}.short"), list(table.legal),
                              focus=self.has_focus and not hidden)

    def on_focus(self) -> None:
        """The focus the screen gives the board goes on to an open list, so it takes keys at
        once: a list that comes back on a board built afresh (a resync, a resumed game, a
        language switch, a window made large enough again) opened while nothing had the
        focus."""
        if self.picker is not None:
            self.picker.focus()

    def on_picker_picked(self, event: Picker.Picked) -> None:
        event.stop()
        self._send(event.move)

    def on_picker_closed(self, event: Picker.Closed) -> None:
        event.stop()
        self._close_picker()

    def _send(self, move: Move) -> None:
        self._close_picker()
        self.post_message(self.MoveChosen(move))

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        """The job and how far its goal was reached."""
        try:
            job, slack, goal = result["jobs"][seat], result["scores"][seat], result["goals"][seat]
        except (KeyError, IndexError, TypeError):
            return None
        return Static(Content(tr("cg.result", job=job_name(job), slack=slack, goal=goal)))
