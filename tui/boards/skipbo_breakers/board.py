"""The Skip-Bo Breakers board: lays out the table and turns keys and clicks into plays.

A play is several tiles at once, so tiles are selected first (cursor and space, or a click) and
sent with enter; the line under the trick says what the selection makes and whether it beats
the table before anything is sent. Keyboard players can instead walk the legal plays of one set
type with up/down (t changes the type), and j gives a joker its next useful value.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from engines.base import Move
from tui.boards.base import GameBoard, MoveKey, Table
from tui.boards.skipbo_breakers.middle import TrickView
from tui.boards.skipbo_breakers.picker import KINDS, Picker
from tui.boards.skipbo_breakers.summary import HandSummary, offer_summary
from tui.boards.skipbo_breakers.tiles import face, kind_name, not_a_set, set_words
from tui.i18n import count_key, tr, you_key
from tui.widgets import ActionBar, PlayerArea
from tui.widgets.actions import Action
from tui.widgets.cardrow import CardRow, Slot
from tui.widgets.scale import SIZES, CardSize, largest_fitting, rescale

# Rows the table takes at step 0 of tui.widgets.scale (80×24 leaves the board 22), with and
# without a hand of one's own; a larger step adds its taller faces to the trick and the hand,
# and room for the trick one play per line.
ROWS = 21
SPECTATOR_ROWS = 13
TRICK_LINES = 6
# A hand shows up to 16 groups (15 numbers and the jokers), mostly some 12; cards may shrink to
# about this share of their step's width before the step is too large for the window.
HAND_GROUPS = 12
SHRINK = 0.5


def seat_area(table: Table, seat: int, *children: Widget) -> PlayerArea:
    return PlayerArea(*children, seat=seat, id=f"seat-{seat}", **table.occupant(seat))


class Board(GameBoard):
    """The Skip-Bo Breakers table for one seat (or a spectator)."""

    DEFAULT_CSS = """
    Board { layout: vertical; }
    Board #info { height: auto; width: 1fr; color: $text-muted; }
    Board #others { height: auto; width: 1fr; }
    Board #others > PlayerArea { width: 1fr; }
    Board #others .counts { width: 1fr; height: auto; }
    Board #middle { height: 1fr; min-height: 6; align: center middle; }
    Board #reading { height: auto; width: 1fr; text-align: center; text-style: bold; }
    Board #hint { height: auto; width: 1fr; text-align: center; color: $text-muted; }
    Board ActionBar { margin-top: 0; }
    Board.-roomy #middle { min-height: 10; }
    Board.-roomy ActionBar { margin-top: 1; }
    """

    MIN_SIZE: ClassVar[tuple[int, int]] = (64, 21)
    # Its rows of tiles shrink to any width (`CardRow`) and a hand has at most fifteen kinds
    # of tile, two cells each even then: the same table plays on a phone held upright.
    SLIM_SIZE: ClassVar[tuple[int, int] | None] = (45, 21)
    VIEW_ACTIONS: ClassVar[frozenset[str]] = frozenset({"summary"})
    SCORE_LABEL: ClassVar[str] = "sbb.score"
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = (
        MoveKey("p", "pass", "sbb.key.pass", refused="sbb.no_pass_lead"),
    )

    def __init__(self, table: Table, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(table, id=id, classes=classes)
        self.picker = Picker()

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        table = self.table
        others = table.seats_from_me()
        yield Static(id="info")
        with Horizontal(id="others"):
            for seat in others:
                yield seat_area(table, seat, Static(classes="counts", id=f"counts-{seat}"))
        with Vertical(id="middle"):
            yield TrickView(id="trick")
        if table.seat is not None:
            yield Static(id="reading")
            yield Static(id="hint")
            yield seat_area(
                table,
                table.seat,
                CardRow(lift=True, notes=True, empty=tr("sbb.hand_empty"), id="hand"),
            )
        yield ActionBar(self.actions())

    def key_bindings(self) -> list[Binding]:
        return [
            Binding("enter", "play", tr("sbb.key.play"), key_display="⏎"),
            Binding("space", "take", tr("sbb.key.take"), key_display="␣"),
            Binding("left,h", "step(-1)", tr("sbb.key.left"), show=False),
            Binding("right,l", "step(1)", tr("sbb.key.right"), show=False),
            Binding("backspace,x", "drop", tr("sbb.key.drop"), show=False),
            Binding("c", "clear", tr("sbb.key.clear"), show=False),
            Binding("down", "walk(1)", tr("sbb.key.next_play"), key_display="↓"),
            Binding("up", "walk(-1)", tr("sbb.key.prev_play"), show=False),
            Binding("t", "kind", tr("sbb.key.kind"), show=False),
            Binding("j", "joker", tr("sbb.key.joker"), show=False),
            *super().key_bindings(),
            Binding("s", "summary", tr("sbb.key.summary"), show=False),
        ]

    def actions(self) -> list[Action]:
        return [
            Action("play", tr("sbb.key.play"), "⏎"),
            *super().actions(),
            Action("clear", tr("sbb.key.clear"), "c"),
        ]

    def on_resize(self) -> None:
        """The largest step at which the whole table fits; from step 1 on, the trick is
        listed one play per line."""
        width, height = self.size
        mine = self.table.seat is not None

        def fits(size: CardSize) -> bool:
            grow = size.rows - SIZES[0].rows
            need_h = (ROWS if mine else SPECTATOR_ROWS) + (1 + mine) * grow
            need_h += TRICK_LINES if grow else 0
            need_w = HAND_GROUPS * (int(size.width * SHRINK) + 1) + 6
            return need_h <= height and need_w <= width

        step = largest_fitting(fits)
        rescale(self, step)
        if (step > 0) != self.has_class("-roomy"):
            self.set_class(step > 0, "-roomy")
            self.draw(self.table)

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, table: Table) -> None:
        view = table.view
        self._draw_seats(table)
        self.query_one("#info", Static).update(self._info(table))
        self.query_one(TrickView).show(table, self.size.width, self.has_class("-roomy"))
        if table.seat is not None:
            mine = view["turn"] == table.you and not view["over"]
            self.picker.update(view["hand"], view["table"], table.legal if mine else [])
            self._draw_choice()
        offer_summary(self)

    def _draw_seats(self, table: Table) -> None:
        view = table.view
        last_say = {e["seat"]: e for e in view["trick"]}
        for area in self.query(PlayerArea):
            seat = area.seat
            area.set_player(**table.occupant(seat))
            area.set_active(not view["over"] and seat == view["turn"])
            left = view["tiles_left"][seat]
            tiles = tr(count_key("sbb.tiles", left), n=left)
            points = tr("sbb.points", n=view["scores"][seat])
            if seat == table.seat:
                area.set_extra(note=f"{tiles} · {points}")
                continue
            said = last_say.get(seat)
            doing = ""
            if said is not None and said["pass"]:
                doing = f" · {tr('sbb.trick_passed')}"
            self.query_one(f"#counts-{seat}", Static).update(f"{tiles} · {points}{doing}")

    def _info(self, table: Table) -> Content:
        view = table.view
        goal = view["points_to_win"]
        parts = [tr("sbb.hand_no", hand=view["hand_no"]), tr("sbb.to_win", points=goal)]
        if view["hand_winner"] is not None and not view["over"]:
            name = table.name(view["hand_winner"])
            parts.append(tr(you_key("sbb.went_out", name), name=name))
        elif view["first_draw"] and not view["trick"] and view["last_trick"] is None:
            name = table.name(view["leader"])
            parts.append(tr(you_key("sbb.first_draw", name), name=name))
        return Content(" · ").join(Content(p) for p in parts)

    def _draw_choice(self) -> None:
        """The hand with cursor and selection, and the two lines about the selection."""
        picker, view = self.picker, self.table.view
        slots = []
        for index, (tile, count) in enumerate(picker.groups):
            chosen = picker.chosen.get(tile, 0)
            slots.append(
                Slot(
                    face(tile),
                    # One counter a tile: "×4" held, "2/4" of them picked (a single one
                    # picked shows by its lift alone), so two never run into each other.
                    count=count if not chosen else 1,
                    corner=f"{chosen}/{count}" if chosen and count > 1 else "",
                    lifted=chosen > 0,
                    below="▲" if index == picker.cursor else "",
                    strong=index == picker.cursor,
                )
            )
        self.query_one("#hand", CardRow).show(slots)
        self.query_one("#reading", Static).update(self._reading_line())
        self.query_one("#hint", Static).update(self._hint_line())
        mine = view["turn"] == self.table.you and not view["over"]
        self.query_one(ActionBar).set_state("play", enabled=picker.move() is not None)
        self.query_one(ActionBar).set_state("clear", enabled=bool(picker.chosen))
        self.set_class(mine, "-my-turn")

    def _reading_line(self) -> Content:
        picker, view = self.picker, self.table.view
        tiles = picker.tiles()
        mine = view["turn"] == self.table.you and not view["over"]
        if not tiles:
            prefix = tr("sbb.your_lead" if view["table"] is None else "sbb.your_turn")
            if not mine:
                return Content(tr("sbb.waiting", name=self.table.name(view["turn"])))
            return Content(f"{prefix}: {tr('sbb.nothing_picked')}")
        reading = picker.reading()
        if reading is None:
            return Content.styled(not_a_set(tiles), "$error")
        words = set_words(reading["set"], reading["rank"], reading["tiles"], reading["values"])
        verdict, ok = self._verdict(reading)
        style = "$success" if ok else "$warning"
        return Content.assemble((words, "bold"), " · ", (verdict, style))

    def _verdict(self, reading: dict[str, Any]) -> tuple[str, bool]:
        """Whether the reading beats the table, in words."""
        top = self.table.view["table"]
        if top is None:
            return tr("sbb.leads_with"), True
        name = self.table.name(top["seat"])
        words = set_words(top["set"], top["rank"], top["tiles"], top["values"])
        if self.picker.beats(reading):
            key, ok = "sbb.beats", True
        elif top["set"] == "breaker":
            key, ok = "sbb.only_breaker", False
        elif (reading["set"], reading["size"]) != (top["set"], top["size"]):
            key, ok = "sbb.wrong_shape", False
        else:
            key, ok = "sbb.does_not_beat", False
        return tr(you_key(key, name), name=name, set=words), ok

    def _hint_line(self) -> str:
        picker, view = self.picker, self.table.view
        parts = []
        others = picker.others()
        if others:
            shown = [
                "-".join(str(v) for v in sorted(r["values"])) if r["rank"] != 16 else "SB"
                for r in others[:4]
            ]
            parts.append(tr("sbb.other_values", others=", ".join(shown)))
        if view["turn"] == self.table.you and not view["over"]:
            kind = picker.walk_kind()
            at, count = picker.position()
            name = kind_name(kind)
            if count:
                parts.append(tr("sbb.list_pos", kind=name, at=at or "–", count=count))
            else:
                parts.append(tr("sbb.no_plays_of_kind", kind=name))
            others = [kind_name(k) for k in KINDS if k != kind and picker.plays_of(k)]
            if others:
                parts.append(tr("sbb.other_kinds", kinds=", ".join(others)))
        return " · ".join(parts)

    # -- hints -------------------------------------------------------------------------------
    def describe_move(self, move: Move | None) -> str:
        """A play in the table's words: the set, its numbers, what its jokers stand for."""
        if move is not None and move.get("type") == "play":
            found = self.picker.engine.set_of(move["tiles"], move["values"])
            if found is not None:
                words = set_words(found["set"], found["rank"], move["tiles"], move["values"])
                return tr("sbb.hint.play", set=words)
        if move is not None and move.get("type") == "pass":
            return tr("sbb.hint.pass")
        return super().describe_move(move)

    def show_move(self, move: Move) -> None:
        """A hinted play is selected, with its joker values, so enter plays it."""
        if move.get("type") == "play":
            self.picker.select(move)
            self._changed()

    # -- choosing ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play":
            return True if self.picker.move() is not None else None
        if action in ("step", "take", "drop", "clear", "walk", "kind", "joker"):
            return self.table.seat is not None and bool(self.picker.groups)
        if action == "summary":
            return self.table.view["hand_summary"] is not None
        return super().check_action(action, parameters)

    def _changed(self) -> None:
        self._draw_choice()
        self.refresh_bindings()

    def action_step(self, delta: int) -> None:
        self.picker.step(delta)
        self._changed()

    def action_take(self) -> None:
        self.picker.take()
        self._changed()

    def action_drop(self) -> None:
        self.picker.drop()
        self._changed()

    def action_clear(self) -> None:
        self.picker.clear()
        self._changed()

    def action_walk(self, delta: int) -> None:
        self.picker.walk(delta)
        self._changed()

    def action_kind(self) -> None:
        self.picker.next_kind()
        self._changed()

    def action_joker(self) -> None:
        self.picker.next_reading()
        self._changed()

    def action_play(self) -> None:
        move = self.picker.move()
        if move is not None:
            self.picker.clear()
            self.post_message(self.MoveChosen(move))

    def action_summary(self) -> None:
        summary = self.table.view["hand_summary"]
        if summary is not None:
            goal = self.table.view["points_to_win"]
            self.app.push_screen(HandSummary(summary, self.table.names, goal))

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        """A click on a tile of the hand selects one more of it (past the last: none)."""
        event.stop()
        if event.row.id == "hand":
            self.picker.point(event.index)
            self.picker.take()
            self._changed()

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        """Play and Clear act on the selection; Pass falls through to GameBoard's handler,
        which Textual calls after this one unless the default is prevented."""
        if event.name in ("play", "clear"):
            event.stop()
            event.prevent_default()
            self.action_play() if event.name == "play" else self.action_clear()

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        last = result.get("last_hand") or {}
        left = list(last.get("tiles_left") or [])
        if last.get("winner") == seat:
            ending = tr("sbb.result_went_out")
        else:
            n = left[seat] if seat < len(left) else 0
            ending = tr(count_key("sbb.result_left", n), n=n)
        hands = int(result.get("hands") or 0)
        return Vertical(
            Static(ending),
            Static(tr(count_key("sbb.result_hands", hands), hands=hands), classes="sum"),
            classes="detail",
        )
