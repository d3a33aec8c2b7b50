"""The Zwergenamulett board: lays out the table and turns keys and clicks into moves. The
hand is picked from with a cursor, since a card played by one keypress could not be taken
back, while "7 Zwerge!" is one key, open to everybody at any time of a round."""

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
from tui.boards.zwergenamulett.counts import BACK_ROWS, SeatCounts, tricks_and_gold, wordy_room
from tui.boards.zwergenamulett.faces import FACES, GOLD, dwarves_in, face_name, grouped
from tui.boards.zwergenamulett.middle import show_trick
from tui.boards.zwergenamulett.summary import RoundSummary, offer_summary
from tui.i18n import count_key, tr, you_key
from tui.widgets import ActionBar, PlayerArea
from tui.widgets.actions import Action
from tui.widgets.cardrow import CardRow, Slot
from tui.widgets.scale import SIZES, CardSize, largest_fitting, rescale
from tui.widgets.trick import TrickArea

# Number keys pick a card of the hand; nine keys for nine faces, so every hand is covered.
PICK_KEYS = "123456789"
# Rows of the table besides the card faces: info line, opponents' boxes, the trick's title,
# captions and notes, the status line, your frame with its lifted and note rows, the buttons.
FRAME_ROWS = 1 + 3 + 3 + 1 + 4 + 1
# Cards a row must hold side by side (a hand of several faces, a trick of many players)
# before a larger step is worth it; a row may shrink its cards to SHRINK of their width.
ROW_CARDS = 5
SHRINK = 0.75


def seat_area(table: Table, seat: int, *children: Widget) -> PlayerArea:
    return PlayerArea(*children, seat=seat, id=f"seat-{seat}", **table.occupant(seat))


class Board(GameBoard):
    """The Zwergenamulett table for one seat (or a spectator)."""

    DEFAULT_CSS = """
    Board { layout: vertical; }
    Board #info { height: auto; width: 1fr; color: $text-muted; }
    Board #others { height: auto; width: 1fr; }
    Board #others > PlayerArea { width: 1fr; }
    Board #middle { height: 1fr; min-height: 7; align: center middle; }
    Board #status {
        height: auto; width: 1fr; text-align: center; text-style: bold; color: $active;
    }
    Board #won { height: auto; padding: 0 1; color: $text-muted; }
    Board ActionBar { margin-top: 0; }
    """

    MIN_SIZE: ClassVar[tuple[int, int]] = (66, 22)
    VIEW_ACTIONS: ClassVar[frozenset[str]] = frozenset({"summary"})
    SCORE_LABEL: ClassVar[str] = "zwerg.score"  # the result's scores are gold chips
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = (MoveKey(
        "z", "claim_seven", "zwerg.key.claim", confirm="zwerg.confirm_claim"
    ),)

    def __init__(self, table: Table, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(table, id=id, classes=classes)
        self.picked: str | None = None  # the card of the hand under the cursor
        self.groups: list[tuple[str, int]] = []

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        table = self.table
        # Every seat but this one; all of them for a spectator.
        others = table.seats_from_me()
        self.counts: dict[int, SeatCounts] = {seat: SeatCounts() for seat in others}
        yield Static(id="info")
        with Horizontal(id="others"):
            for seat in others:
                yield seat_area(table, seat, self.counts[seat])
        with Vertical(id="middle"):
            yield TrickArea(id="trick")
        yield Static(id="status")
        if table.seat is not None:
            yield seat_area(
                table,
                table.seat,
                CardRow(lift=True, notes=True, empty=tr("zwerg.hand_empty"), id="hand"),
                Static(id="won"),
            )
        yield ActionBar(self.actions())

    def on_resize(self) -> None:
        """The largest step at which the trick and the hand fit; opponents' counts in words
        when every box has room for the longest wording."""
        width, height = self.size
        view = self.table.view
        mine = self.table.seat is not None
        cards = max(ROW_CARDS, view["num_players"])

        def fits(size: CardSize) -> bool:
            faces = (1 + mine) * size.rows
            larger = size.rows > SIZES[0].rows
            title_gap = 1 if larger else 0
            backs = BACK_ROWS if larger else 0
            won = 1 if mine and view["my_won"] is not None else 0
            need_h = FRAME_ROWS - (0 if mine else 4) + title_gap + backs + won + faces
            need_w = cards * (int(size.width * SHRINK) + 1) + 6  # frame and padding
            return need_h <= height and need_w <= width

        rescale(self, largest_fitting(fits))
        if self.counts:
            room = (self.size.width - 2) // len(self.counts) - 4
            wordy = room >= wordy_room()
            for counts in self.counts.values():
                counts.set_wordy(wordy)

    def describe_move(self, move: Move | None) -> str:
        """A hint names the card by its printed name ("play Zwergenamulett")."""
        if move is not None and move.get("type") == "play":
            return tr("zwerg.hint_play", card=face_name(move.get("card")))
        return super().describe_move(move)

    def key_bindings(self) -> list[Binding]:
        picks = [
            Binding(key, f"pick({index})", tr("zwerg.key.pick"), show=False)
            for index, key in enumerate(PICK_KEYS)
        ]
        return [
            Binding("enter,space", "play_picked", tr("zwerg.key.play"), key_display="⏎"),
            Binding("left,h", "step(-1)", tr("zwerg.key.left"), key_display="←"),
            Binding("right,l", "step(1)", tr("zwerg.key.right"), key_display="→"),
            *picks,
            *super().key_bindings(),
            Binding("s", "summary", tr("zwerg.key.summary")),
        ]

    def actions(self) -> list[Action]:
        return [Action("play", tr("zwerg.key.play"), "⏎"), *super().actions()]

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, table: Table) -> None:
        self._draw_seats(table)
        show_trick(self.query_one("#trick", TrickArea), table)
        self.query_one("#info", Static).update(self._info(table))
        self.query_one("#status", Static).update(Content(self._status(table)))
        if table.seat is not None:
            self._draw_hand(table)
        self.query_one(ActionBar).set_state("play", enabled=self._can_play())
        offer_summary(self)

    def _draw_seats(self, table: Table) -> None:
        view = table.view
        for area in self.query(PlayerArea):
            seat = area.seat
            area.set_player(**table.occupant(seat))
            # Everybody may call in this game, so "to_act" is everyone: the turn is `turn`.
            area.set_active(not view["over"] and seat == view["turn"])
            tricks, gold = view["tricks_won"][seat], view["gold"][seat]
            if seat in self.counts:
                self.counts[seat].show(view["hand_sizes"][seat], tricks, gold)
            else:
                area.set_extra(note=tricks_and_gold(tricks, gold))

    def _info(self, table: Table) -> Content:
        view = table.view
        parts: list[Content] = [Content(tr("zwerg.round", round=view["round"]))]
        if view["round_leader"] is not None:
            leader = table.name(view["round_leader"])
            parts.append(Content(tr(you_key("zwerg.round_leader", leader), name=leader)))
        parts.append(
            Content.assemble(
                tr("zwerg.pool"), " ", (GOLD, "bold $chip"), (f" {view['gold_pool']}", "bold")
            )
        )
        parts.append(Content(tr("zwerg.to_win", gold=view["gold_to_win"])))
        return Content(" · ").join(parts)

    def _status(self, table: Table) -> str:
        view = table.view
        if view["over"]:
            return tr("game.over")
        if view["turn"] != table.you or table.you is None:
            if table.you is None:
                return tr("game.turn_of", name=table.name(view["turn"]))
            name = table.name(view["turn"])
            return tr(you_key("zwerg.waiting", name), name=name)
        if not view["trick"]:
            return tr("zwerg.your_lead")
        if view["would_overtrump"]:
            return tr("zwerg.your_turn_can_take")
        return tr("zwerg.your_turn_cannot_take")

    def _draw_hand(self, table: Table) -> None:
        view = table.view
        old = [card for card, _ in self.groups]
        self.groups = grouped(view["hand"])
        cards = [card for card, _ in self.groups]
        if self.picked not in cards:
            # Keep the cursor where it was in the row when its card has gone.
            at = old.index(self.picked) if self.picked in old else 0
            self.picked = cards[min(at, len(cards) - 1)] if cards else None
        my_turn = view["turn"] == table.you and not view["over"]
        takes = set(view["would_overtrump"])
        slots = [
            Slot(
                FACES[card],
                corner=PICK_KEYS[index] if index < len(PICK_KEYS) else "",
                count=count,
                lifted=my_turn and card == self.picked,
                below=tr("zwerg.takes") if card in takes else "",
                strong=card in takes,
            )
            for index, (card, count) in enumerate(self.groups)
        ]
        self.query_one("#hand", CardRow).show(slots)
        won = self.query_one("#won", Static)
        my_won = view["my_won"]
        won.display = my_won is not None
        if my_won is not None:
            listed = ", ".join(
                face_name(card) + (f" ×{n}" if n > 1 else "") for card, n in grouped(my_won)
            )
            dwarves = dwarves_in(my_won)
            won.update(
                tr(
                    "zwerg.my_won",
                    cards=listed or tr("zwerg.nothing"),
                    dwarves=tr(count_key("zwerg.n_dwarves", dwarves), n=dwarves),
                )
            )

    # -- choosing ----------------------------------------------------------------------------
    def _can_play(self) -> bool:
        return self.picked is not None and self.legal_move("play", card=self.picked) is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play_picked":
            return True if self._can_play() else None
        if action in ("step", "pick"):
            return bool(self.groups) or None
        if action == "summary":
            return self.table.view["round_summary"] is not None
        return super().check_action(action, parameters)

    def _pick(self, card: str) -> None:
        if card != self.picked:
            self.picked = card
            self._draw_hand(self.table)
            self.query_one(ActionBar).set_state("play", enabled=self._can_play())
            self.refresh_bindings()

    def action_step(self, delta: int) -> None:
        cards = [card for card, _ in self.groups]
        if cards:
            at = cards.index(self.picked) if self.picked in cards else 0
            self._pick(cards[(at + delta) % len(cards)])

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.groups):
            self._pick(self.groups[index][0])

    def action_play_picked(self) -> None:
        move = None if self.picked is None else self.legal_move("play", card=self.picked)
        if move is not None:
            self.post_message(self.MoveChosen(move))

    def action_summary(self) -> None:
        summary = self.table.view["round_summary"]
        if summary is not None:
            self.app.push_screen(RoundSummary(summary, self.table.names))

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        """A click picks a card; a click on the picked card plays it."""
        event.stop()
        if event.index >= len(self.groups):
            return
        card = self.groups[event.index][0]
        if card == self.picked:
            self.action_play_picked()
        else:
            self._pick(card)

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        """"Play card" plays the picked card; other buttons fall through to GameBoard's
        handler, which Textual calls after this one unless the default is prevented."""
        if event.name == "play":
            event.stop()
            event.prevent_default()
            self.action_play_picked()

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        gold = result["gold"][seat]
        chips = Content.assemble(
            (GOLD * gold, "bold $chip"), f"  {tr('zwerg.result_gold', gold=gold)}"
        )
        return Vertical(
            Static(chips),
            Static(
                tr(count_key("zwerg.result_rounds", result["rounds"]), rounds=result["rounds"]),
                classes="sum",
            ),
            classes="detail",
        )
