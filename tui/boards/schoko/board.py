"""The Scho K.O. board: the layout drawn to scale on a pannable grid, your hand beside it, and a
ghost of the tile you are placing that says at once whether it fits and, if not, why.

The verdict comes from the engine (`problem`, asked of the layout the view shows), the same
judgement `apply` makes, so the board never calls a spot fine that the table then refuses.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from engines import get_engine
from engines.base import Move
from tui.boards.base import GameBoard, MoveKey, Table
from tui.boards.schoko.events import placement_words
from tui.boards.schoko.final import FinalTable
from tui.boards.schoko.ghost import Ghost, jump, nearest, spots
from tui.boards.schoko.hand import HandTiles
from tui.boards.schoko.looks import Picture, badges_for, legend, swatch
from tui.i18n import count_key, tr
from tui.widgets import ActionBar, PlayerArea
from tui.widgets.actions import Action
from tui.widgets.grid import GridCanvas

ENGINE: Any = get_engine("schoko")
# Cell sizes tried, largest first: as large as the layout and its margin allow, so the table
# fills a large terminal and zooms out as the layout grows.
CELL_SIZES: tuple[tuple[int, int], ...] = (
    (10, 5), (9, 4), (8, 4), (7, 3), (6, 3), (5, 2), (4, 2), (3, 1), (2, 1)
)
# Empty cells kept in sight round the layout, where the next tiles go (centring), and needed
# round it to draw the larger cells: a whole tile beside the layout.
MARGIN = 3
FIT_MARGIN = 2
HAND_KEYS = "1234"
LARGE_HAND = (4, 2)  # piece size of the hand in a tall board (with a wider panel)...
LARGE_HAND_HEIGHT = 34  # ...of at least this many rows
GROUPS_SHOWN = 6  # group sizes listed per player
# Keys that only make sense while placing a tile / choosing the colour.
PLACING = frozenset({"lay", "rotate", "level", "jump", "nudge", "pick"})
CHOOSING = frozenset({"colour"})


class Board(GameBoard):
    """The Scho K.O. table for one seat (or a spectator)."""

    DEFAULT_CSS = """
    Board { layout: vertical; }
    Board #status { height: auto; width: 1fr; text-style: bold; }
    Board #main { height: 1fr; }
    Board #grid { width: 1fr; height: 1fr; }
    Board #panel { width: 27; height: 1fr; padding-left: 1; }
    Board.-large #panel { width: 31; }
    Board #panel PlayerArea { height: 4; }
    Board #pile, Board #hand-title, Board #legend { height: 1; color: $text-muted; }
    Board #hand-title { color: $foreground; text-style: bold; }
    Board ActionBar { margin-top: 0; }
    """

    MIN_SIZE: ClassVar[tuple[int, int]] = (66, 20)
    VIEW_ACTIONS: ClassVar[frozenset[str]] = frozenset({"groups", "centre", "pan"})
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = (MoveKey("p", "pass", "schoko.key.pass"),)
    # A bot's tile lands somewhere on a layout of up to 32 tiles: give people time to see it.
    BOT_PACE: ClassVar[float] = 2.0

    def __init__(self, table: Table, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(table, id=id, classes=classes)
        self.ghost: Ghost | None = None
        self.highlight: int | None = None  # seat whose largest group is lit
        self.table_layout: Any = None
        self._layout_of = -1  # state_no the layout was rebuilt for
        self._region: tuple[int, int, int, int] | None = None
        self.picture = Picture()
        self._phase: tuple[bool, bool, bool] | None = None  # which keys apply, last drawn

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield GridCanvas(self._paint, id="grid")
            with Vertical(id="panel"):
                for seat in range(len(self.table.players)):
                    yield PlayerArea(
                        Static(id=f"info-{seat}"),
                        seat=seat,
                        id=f"seat-{seat}",
                        **self.table.occupant(seat),
                    )
                yield Static(id="pile")
                if self.table.seat is not None:
                    title = (tr("schoko.hand") if self.table.you is not None
                             else tr("schoko.hand_of", name=self.table.name(self.table.seat)))
                    yield Static(Content(title), id="hand-title")
                    yield HandTiles(id="hand")
                yield Static(id="legend")
        yield ActionBar(self.actions())

    def key_bindings(self) -> list[Binding]:
        arrows = [("up", 0, -1), ("down", 0, 1), ("left", -1, 0), ("right", 1, 0)]
        return [
            Binding("enter", "lay", tr("schoko.key.lay"), key_display="⏎"),
            Binding("r", "rotate", tr("schoko.key.rotate")),
            Binding("l", "level", tr("schoko.key.level")),
            Binding("n", "jump(1)", tr("schoko.key.next")),
            Binding("b", "jump(-1)", tr("schoko.key.prev"), show=False),
            *[
                Binding(key, f"nudge({dx}, {dy})", tr("schoko.key.move"), show=False)
                for key, dx, dy in arrows
            ],
            *[
                Binding(f"shift+{key}", f"pan({dx}, {dy})", tr("schoko.key.move"), show=False)
                for key, dx, dy in arrows
            ],
            *[
                Binding(key, f"pick({i})", tr("schoko.key.pick"), show=False)
                for i, key in enumerate(HAND_KEYS)
            ],
            Binding("w", "colour('white')", tr("schoko.key.white")),
            Binding("d", "colour('dark')", tr("schoko.key.dark")),
            Binding("g", "groups", tr("schoko.key.groups")),
            Binding("c", "centre", tr("schoko.key.centre"), show=False),
            *super().key_bindings(),
        ]

    def actions(self) -> list[Action]:
        return [
            Action("white", tr("schoko.key.white"), "w"),
            Action("dark", tr("schoko.key.dark"), "d"),
            Action("lay", tr("schoko.key.lay"), "⏎"),
            Action("rotate", tr("schoko.key.rotate"), "r"),
            Action("level", tr("schoko.key.level"), "l"),
            Action("jump", tr("schoko.key.next"), "n"),
            *super().actions(),
        ]

    # -- what may be done now -------------------------------------------------------------------
    def _my_turn(self) -> bool:
        view = self.table.view
        return self.table.you is not None and self.table.you in view["to_act"]

    def _choosing(self) -> bool:
        return self._my_turn() and self.table.view["colours"][0] is None

    def _placing(self) -> bool:
        return self._my_turn() and not self._choosing() and bool(self.table.view["hand"])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in PLACING:
            return False if self._choosing() else self._placing() or None
        if action in CHOOSING:
            return self._choosing()
        if action == "groups":
            return self.table.view["colours"][0] is not None
        return super().check_action(action, parameters)

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, table: Table) -> None:
        view = table.view
        if table.state_no != self._layout_of:
            self._layout_of = table.state_no
            self.table_layout = ENGINE.layout_of(view)
        self._sync_ghost()
        self._draw_players()
        self.query_one("#pile", Static).update(tr("schoko.pile", n=view["pile_size"]))
        if table.seat is not None:
            self._draw_hand()
        self._draw_grid()
        self._draw_status()
        bar = self.query_one(ActionBar)
        choosing = self._choosing()
        for name in ("white", "dark"):  # a mouse (or a phone's finger) chooses the colour too
            bar.set_state(name, enabled=choosing, visible=choosing)
        for name in ("lay", "rotate", "level", "jump"):
            bar.set_state(name, enabled=self._placing(), visible=not choosing)
        phase = (self._placing(), self._choosing(), view["colours"][0] is not None)
        if phase != self._phase:
            self._phase = phase
            self.refresh_bindings()

    def offers(self, move_type: str) -> bool:
        """Passing is shown only when it is the move left: with every tile in two colours, a
        tile in hand nearly always fits somewhere."""
        return move_type != "pass" or self.legal_move("pass") is not None

    def _sync_ghost(self) -> None:
        """Keep the ghost on a tile of the hand, and bring it to a spot where that tile fits
        when a turn starts."""
        if not self._placing():
            self.ghost = None
            return
        hand = self.table.view["hand"]
        if self.ghost is None or self.ghost.tile not in hand:
            start = self.ghost or Ghost(hand[0])
            tile = start.tile if start.tile in hand else hand[0]
            first = Ghost(tile, start.x, start.y, start.rot, start.level)
            self.ghost = nearest(self.table.legal, first)
            if not spots(self.table.legal, self.ghost):
                # This tile fits nowhere: start with one that fits somewhere.
                fitting = [m["tile"] for m in self.table.legal if m.get("type") == "place"]
                if fitting:
                    self.ghost = nearest(self.table.legal, Ghost(fitting[0], first.x, first.y))

    def _draw_players(self) -> None:
        view = self.table.view
        badges = badges_for(self.table)
        for seat in range(len(self.table.players)):
            area = self.query_one(f"#seat-{seat}", PlayerArea)
            area.set_player(**self.table.occupant(seat))
            area.set_active(not view["over"] and seat == view["turn"])
            held = view["hand_sizes"][seat]
            area.set_extra(note=tr(count_key("schoko.tiles", held), n=held))
            colour = view["colours"][seat]
            info = self.query_one(f"#info-{seat}", Static)
            if colour is None:
                info.update(Content.styled(tr("schoko.no_colour"), "$text-muted"))
                continue
            groups = view["groups"][seat]
            sizes = " ".join(map(str, groups[:GROUPS_SHOWN])) + (
                " …" if len(groups) > GROUPS_SHOWN else ""
            )
            info.update(
                Content("\n").join(
                    [
                        Content.assemble(
                            badges[seat].chip(),
                            " ",
                            swatch(colour),
                            f" {tr(f'schoko.colour.{colour}')}  ",
                            (str(view["scores"][seat]), "bold $accent"),
                        ),
                        Content.styled(tr("schoko.groups", sizes=sizes or "–"), "$text-muted"),
                    ]
                )
            )

    def _draw_hand(self) -> None:
        hand = self.table.view["hand"]
        ghost = self.ghost
        picked = hand.index(ghost.tile) if ghost is not None else None
        pieces = [
            ENGINE.pieces(tile, ghost.rot if ghost is not None and i == picked else 0)
            for i, tile in enumerate(hand)
        ]
        tiles = self.query_one("#hand", HandTiles)
        # Larger pieces when the panel has the rows for four tall tiles beside everything else.
        large = self.size.height >= LARGE_HAND_HEIGHT
        self.set_class(large, "-large")
        tiles.set_cell(LARGE_HAND if large else (2, 1))
        tiles.show(hand, picked, pieces, [_short(t) for t in hand])

    def _draw_grid(self, recentre: bool = False, follow: bool = True) -> None:
        view = self.table.view
        pic = Picture.of(view, badges_for(self.table))
        ghost = self.ghost
        if ghost is not None:
            colours = ENGINE.pieces(ghost.tile, ghost.rot)
            pic.ghost = dict(zip(ghost.cells(), colours, strict=True))
            pic.ghost_at = (ghost.x, ghost.y)
            pic.ghost_level = ghost.level
            pic.ghost_smartie = ghost.tile.endswith("s")
            pic.ghost_fits = self._problem() is None
        if self.highlight is not None and view["colours"][self.highlight] is not None:
            colour = view["colours"][self.highlight]
            pic.highlight = set(ENGINE.largest_group(self.table_layout, colour))
        self.picture = pic
        canvas = self.query_one("#grid", GridCanvas)
        if canvas.size.width == 0:
            return
        region = self._layout_region(pic, MARGIN)
        canvas.set_cell(canvas.largest_cell(self._layout_region(pic, FIT_MARGIN), CELL_SIZES))
        if recentre or region != self._region:
            self._region = region
            canvas.centre_on(region)
        if ghost is not None and follow:
            canvas.keep_in_sight((ghost.x, ghost.y, ghost.x + 1, ghost.y + 1))
        canvas.refresh()

    @staticmethod
    def _layout_region(pic: Picture, margin: int) -> tuple[int, int, int, int]:
        """The layout and `margin` empty cells round it (the first tile's spot when empty)."""
        if not pic.cells:
            return -margin, -margin, 1 + margin, 1 + margin
        xs = [x for x, _ in pic.cells]
        ys = [y for _, y in pic.cells]
        return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin

    def _paint(self, x: int, y: int) -> Any:
        return self.picture.look(x, y)

    def _problem(self) -> str | None:
        ghost = self.ghost
        if ghost is None:
            return None
        g = ghost
        return ENGINE.problem(self.table_layout, g.tile, g.x, g.y, g.rot, g.level)

    def _draw_status(self) -> None:
        self.query_one("#status", Static).update(self._status())
        legend = self._legend()
        view = self.table.view
        if self.highlight is not None and view["colours"][self.highlight] is not None:
            legend = Content.styled(
                tr(
                    "schoko.showing",
                    name=self.table.name(self.highlight),
                    size=view["scores"][self.highlight],
                ),
                "bold $accent",
            )
        self.query_one("#legend", Static).update(legend)

    def _legend(self) -> Content:
        view = self.table.view
        seats = [s for s in range(len(self.table.players)) if view["colours"][s] is not None]
        return legend([badges_for(self.table)[s] for s in seats] if view["tiles"] else [])

    def _status(self) -> Content:
        table, view = self.table, self.table.view
        if view["over"]:
            return Content(tr("game.over"))
        turn = view["turn"]
        if not self._my_turn():
            key = "schoko.waiting_colour" if view["colours"][0] is None else "schoko.waiting"
            return Content.styled(tr(key, name=table.name(turn)), "$text-muted")
        if self._choosing():
            return Content.styled(tr("schoko.choose"), "$active")
        if self.legal_move("place") is None:
            return Content.styled(tr("schoko.must_pass"), "$warning")
        ghost = self.ghost
        assert ghost is not None
        spot = tr("schoko.spot", tile=_short(ghost.tile), x=ghost.x, y=ghost.y, level=ghost.level)
        code = self._problem()
        if not spots(table.legal, ghost):
            return Content.styled(tr("schoko.no_spot"), "$warning")
        verdict = (
            (tr("schoko.fits"), "bold $success")
            if code is None
            else (tr(f"schoko.why.{code}"), "bold $error")
        )
        return Content.assemble(verdict, f" · {spot}")

    # -- hints -------------------------------------------------------------------------------
    def describe_move(self, move: Move | None) -> str:
        """A move as the table says it: the colour taken, or the tile laid and where, in the
        words of the log."""
        if move is not None and move.get("type") == "colour":
            return tr("schoko.hint.colour", choc=tr(f"schoko.choc.{move.get('colour')}"))
        if move is not None and move.get("type") == "place":
            return placement_words(move)
        return super().describe_move(move)

    def show_move(self, move: Move) -> None:
        """A hinted placement: the ghost goes there, turned and on its level, so enter lays
        it."""
        if move.get("type") == "place" and self._placing():
            self._set_ghost(Ghost(move["tile"], move["x"], move["y"], move["rot"], move["level"]))

    # -- choosing ----------------------------------------------------------------------------
    def _set_ghost(self, ghost: Ghost, follow: bool = True) -> None:
        """Show the ghost moved; `follow` pans to keep it in sight (not when the mouse moved
        it: the mouse is in sight already, and panning under it would drag the ghost on)."""
        self.ghost = ghost
        self._draw_hand()
        self._draw_grid(follow=follow)
        self._draw_status()

    def action_nudge(self, dx: int, dy: int) -> None:
        if self.ghost is not None:
            self._set_ghost(self.ghost.moved(dx, dy))

    def action_rotate(self) -> None:
        if self.ghost is not None:
            self._set_ghost(self.ghost.turned())

    def action_level(self) -> None:
        if self.ghost is not None:
            self._set_ghost(self.ghost.other_level())

    def action_jump(self, step: int = 1) -> None:
        if self.ghost is not None:
            self._set_ghost(jump(self.table.legal, self.ghost, step))

    def action_pick(self, index: int) -> None:
        hand = self.table.view["hand"]
        if self.ghost is not None and 0 <= index < len(hand):
            ghost = Ghost(hand[index], self.ghost.x, self.ghost.y, self.ghost.rot, self.ghost.level)
            if not spots(self.table.legal, ghost) or self.ghost.tile == ghost.tile:
                self._set_ghost(ghost)
            else:
                self._set_ghost(nearest(self.table.legal, ghost))

    def action_lay(self) -> None:
        ghost = self.ghost
        if ghost is None:
            return
        code = self._problem()
        move = ghost.move()
        if code is None and move in self.table.legal:
            self.post_message(self.MoveChosen(move))
        else:
            self.app.bell()

    def action_colour(self, colour: str) -> None:
        move = self.legal_move("colour", colour=colour)
        if move is not None:
            self.post_message(self.MoveChosen(move))

    def action_groups(self) -> None:
        """Light the largest group of each player in turn, then none."""
        order: list[int | None] = [*range(len(self.table.players)), None]
        self.highlight = order[(order.index(self.highlight) + 1) % len(order)]
        self._draw_grid()
        self._draw_status()

    def action_centre(self) -> None:
        self._draw_grid(recentre=True)

    def action_pan(self, dx: int, dy: int) -> None:
        self.query_one("#grid", GridCanvas).pan(dx, dy)

    def on_grid_canvas_resized(self, event: GridCanvas.Resized) -> None:
        self._draw_grid(recentre=True)
        if self.table.seat is not None:
            self._draw_hand()

    def on_grid_canvas_hovered(self, event: GridCanvas.Hovered) -> None:
        if self.ghost is not None and (event.x, event.y) != (self.ghost.x, self.ghost.y):
            g = self.ghost
            self._set_ghost(Ghost(g.tile, event.x, event.y, g.rot, g.level), follow=False)

    def on_grid_canvas_clicked(self, event: GridCanvas.Clicked) -> None:
        if self.ghost is None:
            return
        if (event.x, event.y) == (self.ghost.x, self.ghost.y):
            self.action_lay()
        else:
            self.on_grid_canvas_hovered(GridCanvas.Hovered(event.x, event.y))

    def on_hand_tiles_picked(self, event: HandTiles.Picked) -> None:
        self.action_pick(event.index)

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        """The placing buttons act here; others fall through to GameBoard's handler."""
        handlers = {
            "white": lambda: self.action_colour("white"),
            "dark": lambda: self.action_colour("dark"),
            "lay": self.action_lay,
            "rotate": self.action_rotate,
            "level": self.action_level,
            "jump": self.action_jump,
        }
        if event.name in handlers:
            event.stop()
            event.prevent_default()
            handlers[event.name]()

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        colour = result["colours"][seat]
        if colour is None:
            return None
        sizes = " ".join(map(str, result["groups"][seat][:GROUPS_SHOWN])) or "–"
        return Static(
            Content.assemble(
                swatch(colour),
                " ",
                tr("schoko.result", colour=tr(f"schoko.colour.{colour}"), sizes=sizes),
            ),
            classes="detail",
        )

    @classmethod
    def result_table(cls, result: dict[str, Any]) -> Widget | None:
        tiles = result.get("tiles")
        return FinalTable(tiles, id="final-table") if isinstance(tiles, list) and tiles else None


def _short(tile: str) -> str:
    """A tile's name short enough for the hand column: its mix."""
    return tr(f"schoko.mix.{tile[:2]}")
