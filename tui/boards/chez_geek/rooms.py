"""The shared flat: every player's room as a panel on the table. Its first line is the job, as
a card, with the race to the job's goal as a bar; then the room's cards, each in its kind's
colour with its value; what else lies in front of the player (lasting cards, the bonus pool)
is written in the frame. `v` opens every room in words over the table: the job's values
and perk, and what each card in a room does."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from tui.boards.base import Table
from tui.boards.chez_geek.cards import CARDS, card_name, effects_line, job_line, job_name
from tui.boards.chez_geek.faces import goal_bar, job_label, job_style, room_face
from tui.i18n import tr
from tui.widgets import CardStrip, PlayerArea

# Cells the goal's bar takes at most, and at least.
BAR_MAX, BAR_MIN = 24, 6


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def entry_text(entry: dict[str, Any]) -> str:
    """A card in a room in words: its name and slack, with its bonus tokens ("Bier 1+1")."""
    tokens = int(entry.get("tokens") or 0)
    value = f"{entry.get('value')}{tokens:+d}" if tokens else str(entry.get("value"))
    return f"{card_name(entry.get('card'))} {value}"


class GoalLine(Widget):
    """The job as a card, then the slack's race to the goal as a bar as wide as there is
    room for: "[ Slacker ] ███████░░░░ 7/15"."""

    DEFAULT_CSS = """
    GoalLine { height: 1; width: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__(classes="goal")
        self.shown: tuple[Any, int, int] = (None, 0, 1)

    def show(self, job: object, slack: int, goal: int) -> None:
        if (job, slack, goal) != self.shown:
            self.shown = (job, slack, goal)
            self.refresh()

    def render(self) -> Content:
        job, slack, goal = self.shown
        numbers = f" {slack}/{goal}"
        label = clip(job_label(job), max(4, self.size.width - len(numbers) - 1))
        room = self.size.width - len(label) - len(numbers) - 1
        bar = goal_bar(slack, goal, min(BAR_MAX, room)) if room >= BAR_MIN else ""
        return Content.assemble((label, job_style()), " ", (bar, "$active"), (numbers, "bold"))


class RoomPanel(PlayerArea):
    """One player's room. `extra` widgets (the hand, for the seat at the keys) go below."""

    def __init__(self, table: Table, seat: int, *extra: Widget) -> None:
        self.goal = GoalLine()
        # Tall tiles only while the room's cards fit on one line: rooms side by side keep to
        # about one height, and a full room reads better as a block of labels.
        self.cards = CardStrip(empty=tr("cg.room.empty"), tall_lines=1, classes="room")
        super().__init__(self.goal, self.cards, *extra, seat=seat,
                         id=f"room-{seat}", **table.occupant(seat))

    def draw(self, table: Table, compact: bool = False, lines: int | None = None) -> None:
        """`compact`: a short window; the slack and the job go into the frame's subtitle, and
        the room's cards keep to one line. `lines`: the most lines the room's cards take."""
        view = table.view
        player = view["players"][self.seat]
        self.set_player(**table.occupant(self.seat))
        self.set_active(self.seat == view.get("turn") and not view.get("over"))
        hand = tr("cg.room.hand", n=player["hand_count"])
        goal = f"{player['slack']}/{player['goal']} {job_name(player['job'])}"
        # What lies in front of the player goes into the frame, so a panel's height is its
        # bar and its cards alone (the board plans the table's rows with that).
        extras = extra_words(view, self.seat, turn_values=False)
        self.set_extra(note=goal if compact else " · ".join([hand, *extras]))
        self.goal.display = not compact
        self.goal.show(player["job"], player["slack"], player["goal"])
        self.cards.limit(1 if compact else lines)
        self.cards.show([[room_face(e, _kind(e))] for e in player["room"]])


def _kind(entry: dict[str, Any]) -> str:
    card = CARDS.get(entry.get("card"))
    return card.type if card is not None else "thing"


def extra_words(view: dict[str, Any], seat: int, turn_values: bool = True) -> list[str]:
    """What lies in front of a player besides the room's cards (and with `turn_values` the
    income and free time left to the player whose turn it is; the table's status line has
    them already)."""
    player = view["players"][seat]
    words = []
    if turn_values and seat == view.get("turn") and not view.get("over"):
        words.append(tr("cg.room.turn_values", income=view.get("income"),
                        ft=view.get("free_time")))
    if player["bonus_pool"]:
        words.append(tr("cg.room.pool", n=player["bonus_pool"]))
    if player["lasting"]:
        words.append(tr("cg.room.lasting", cards=", ".join(
            card_name(c) for c in player["lasting"])))
    return words


def room_lines(table: Table, seat: int) -> list[str]:
    """A room in words, as `v` shows it: the job's values and perk, what lies in front of the
    player, and every card with its value and what it does."""
    view = table.view
    player = view["players"][seat]
    lines = [
        f"{table.name(seat)} · {job_name(player['job'])} · {player['slack']}/{player['goal']} · "
        f"{tr('cg.room.hand', n=player['hand_count'])}",
        "   " + job_line(player["job"]),
    ]
    extras = extra_words(view, seat)
    if extras:
        lines.append("   " + " · ".join(extras))
    if not player["room"]:
        lines.append("   " + tr("cg.room.empty"))
    for entry in player["room"]:
        card = CARDS.get(entry.get("card"))
        what = effects_line(card.keywords) if card is not None else ""
        lines.append(f"   • {entry_text(entry)}" + (f"  ({what})" if what else ""))
    return lines


class RoomsScreen(ModalScreen[None]):
    """Every room in words over the table (`v`): the seat at the keys first."""

    DEFAULT_CSS = """
    RoomsScreen { align: center middle; }
    RoomsScreen > Vertical {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    RoomsScreen VerticalScroll { height: auto; max-height: 1fr; }
    RoomsScreen .rooms-room { margin-bottom: 1; }
    RoomsScreen #rooms-keys { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape,enter,v,space", "close", tr("cg.key.close"), key_display="Esc"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        table = self.table
        order = ([] if table.seat is None else [table.seat]) + table.seats_from_me()
        with Vertical():
            with VerticalScroll():
                for seat in order:
                    yield Static(Content("\n".join(room_lines(table, seat))),
                                 classes="rooms-room")
            yield Static(Content(tr("cg.info.close")), id="rooms-keys")

    def action_close(self) -> None:
        self.dismiss(None)
