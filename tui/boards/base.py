"""What every game's board is: a widget that draws one seat's view and turns keys and clicks
into moves. The game screen owns the link, the log and the hot-seat handoff; a board only
draws and chooses, so a new game is one module in tui/boards/ and nothing else in the TUI.

How a board plugs in (see tui/boards/__init__.py for the registry):
- subclass `GameBoard`, set `MIN_SIZE`, `MOVE_KEYS` (and `SCORE_LABEL`, and `SLIM_SIZE` if
  the table can be played on a phone held upright);
- `compose()` builds the widgets for `self.table` (the seat and player count never change
  for one board: the screen makes a new board when the seat on show changes);
- `draw(table)` updates those widgets in place; it runs on mount and after every message;
- post `GameBoard.MoveChosen(move)` for moves that are not a plain MOVE_KEY (e.g. playing a
  clicked card); plain ones are handled here, from keys and from the `ActionBar`;
- override `offers()` to hide a move the game does not have this time (an expansion that is
  switched off), `result_detail()` to show a player's cards etc. on the results screen, and
  `result_table()` to show the table as it ended below them (how the players rank is the
  engine's `standing`: the results list and the ratings order them alike);
- draw the view of `table.seat`, but prompt ("Your turn: ...", key hints) only `table.you`:
  a replay (`table.replay`) draws a seat's view with nobody at the keys, in the third person;
- write a module-level `describe(event, names, lang) -> str` for the event log (and override
  `take_events()` to keep some of those events on the table itself);
- override `describe_move(move)` if a hint ("h": what the expert would play, from this seat's
  view, searched in a worker thread) should name a move better than its MOVE_KEYS label or
  its fields do, and `show_move(move)` to bring the hinted move to the board's selection
  (the tiles picked, a ghost moved there), so one more key plays it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar, TypedDict
from weakref import WeakKeyDictionary

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from engines import coach, get_engine
from engines.base import Move, View
from tui.bindings import bindings_over
from tui.i18n import localised_name, register, third_person, tr
from tui.widgets.actions import Action, ActionBar


@dataclass(frozen=True)
class MoveKey:
    """A move type bound to keys: `keys` in Textual's syntax ("space,p"), `label` an i18n key,
    `display` how the key is written in the footer and on the button."""

    keys: str
    move: str
    label: str
    display: str = ""
    # An i18n key: the move ends a round for everyone at once, so the first press only says
    # this ("press z again to ...") and a second press within CONFIRM_SECONDS makes it.
    confirm: str = ""
    # An i18n key: what pressing the key says while this seat is to act but may not make the
    # move (its key is dimmed then, and would otherwise do nothing at all).
    refused: str = ""


# How long a move that needs a second press waits for it.
CONFIRM_SECONDS = 3.0
# The key that asks the expert bot for a hint, in every game. It wins over a board's own use
# of the letter (some boards bind "h" as a vim-style alias of ←, which keeps working).
HINT_KEY = "h"
# Seconds after a hint's search before another may start. A search takes a core for most of a
# second: one player holding "h" down (over SSH, many to a machine) must not take a core each.
HINT_REST = 2.0


class HintDesk:
    """The hint searches of one app (one terminal, or one SSH session): one at a time, none
    within HINT_REST of the last, and a position asked about again answered from its search
    (which would only find the same: its randomness is seeded by the position). Kept per app,
    not per board, as a board made afresh must not start a search beside a running one (a
    worker's thread cannot be stopped, only forgotten)."""

    def __init__(self) -> None:
        self.busy = False
        self.done_at = -HINT_REST
        self.answer: tuple[Table, str, Move | None] | None = None  # the last: for, text, move
        self.queued = False  # a hint asked for during the rest waits for its end

    def answered(self, table: Table) -> tuple[str, Move | None] | None:
        last = self.answer
        if last is None or (last[0].view, last[0].legal) != (table.view, table.legal):
            return None
        return last[1], last[2]

    def rest_left(self) -> float:
        """Seconds until a new search may start."""
        return max(0.0, self.done_at + HINT_REST - time.monotonic())

    def refusal(self) -> str | None:
        """Why no search may start now (an i18n key), or None."""
        if self.busy:
            return "board.hint_busy"
        if time.monotonic() - self.done_at < HINT_REST:
            return "board.hint_rest"
        return None


_DESKS: WeakKeyDictionary[App[Any], HintDesk] = WeakKeyDictionary()


def honest(share: float) -> int:
    """A search's chance as a whole percentage that never claims a certainty the search did
    not find: 99.6% is 99, not 100 (a "100% to win" game was lost 67-66)."""
    percent = round(share * 100)
    if share < 1:
        percent = min(percent, 99)
    if share > 0:
        percent = max(percent, 1)
    return percent


def chance(win: float, playouts: int) -> dict[str, Any]:
    """A search's share of the win in honest words: "about 9 in 10" (never "always": the
    playouts are samples, and a "100% to win" game was lost 67-66), with the 95% margin of
    its playouts (Wilson's interval) and their number, for the hint line's words."""
    z = 1.96
    n = max(1, playouts)
    middle = (win + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(win * (1 - win) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = max(0, math.floor((middle - half) * 100))
    high = min(100, math.ceil((middle + half) * 100))
    tenths = min(9, max(1, round(win * 10)))
    key = "board.hint_most" if win >= 0.95 else "board.hint_least" if win <= 0.05 else \
        "board.hint_tenths"
    return {"chance": tr(key, n=tenths), "low": low, "high": high, "playouts": playouts}


def hint_desk(app: App[Any]) -> HintDesk:
    return _DESKS.setdefault(app, HintDesk())


def _without_hint_key(binding: Binding) -> Binding:
    """`binding` without HINT_KEY among its keys, unless it is the hint binding itself."""
    keys = binding.key.split(",")
    if binding.action == "hint" or HINT_KEY not in keys:
        return binding
    return replace(binding, key=",".join(k for k in keys if k != HINT_KEY))


def seat_name(names: Sequence[str], seat: object) -> str:
    """The name in `seat`, or "?" for anything that is not a seat: event and summary fields
    come from the wire, so a bad one must not break the log."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def distinct_names(names: Sequence[str]) -> list[str]:
    """Names as a table shows them: two players called "root" become "root" and "root (2)",
    so a log line or a trick always says which one."""
    shown: list[str] = []
    for name in names:
        candidate, number = name, 1
        while candidate in shown:
            number += 1
            candidate = f"{name} ({number})"
        shown.append(candidate)
    return shown


def seat_names(names: Sequence[str], seats: Iterable[object]) -> str:
    """Several seats' names in one comma-separated list, for a sentence."""
    return ", ".join(seat_name(names, seat) for seat in seats)


class Occupant(TypedDict):
    """Who sits in a seat, in the keywords `PlayerArea` takes, so every board frames its
    players alike."""

    name: str
    you: bool
    bot: str | None
    connected: bool


@dataclass
class Table:
    """One seat's picture of the table, as the link delivered it."""

    seat: int | None  # whose view this is (None: a spectator)
    state_no: int
    view: View
    legal: list[Move]
    players: list[dict[str, Any]]  # {"name", "bot", optionally "connected"} per seat
    result: dict[str, Any] | None = None
    local_seats: tuple[int, ...] = field(default_factory=tuple)
    clock: dict[str, Any] | None = None  # an open interrupt window's countdown (net.table.windows)
    clocks: dict[str, Any] | None = None  # every seat's game clock, if any (net.table.clocks)
    # Whether "h" may ask the expert for a hint: always at a local table, at a networked one
    # only when its host allows it.
    hints: bool = True
    # A past game on show (Past games): `seat`'s view is drawn, but nobody sits at the keys,
    # so every seat is spoken of in the third person and nothing prompts anyone.
    replay: bool = False

    @property
    def you(self) -> int | None:
        """The seat of the person at the keys, whom the board prompts ("Your lead: ..."):
        `seat`, except for a spectator and in a replay (None). Boards draw the view of `seat`
        and address `you`."""
        return None if self.replay else self.seat

    def name(self, seat: int | None) -> str:
        return seat_name(self.names, seat)

    @property
    def names(self) -> list[str]:
        """Every seat's name as shown. In a replay the default name of the player at the keys
        ("You") becomes the seat's number ("Player 1"): nobody is "you" there, and a sentence
        with "You" as its subject would be in the second person."""
        names = [localised_name(str(p["name"])) for p in self.players]
        if self.replay:
            names = [third_person(name, seat) for seat, name in enumerate(names)]
        return distinct_names(names)

    def occupant(self, seat: int) -> Occupant:
        player = self.players[seat]
        return Occupant(
            name=self.name(seat),
            you=seat == self.you,
            bot=player.get("bot"),
            connected=player.get("connected", True),
        )

    def seats_from_me(self) -> list[int]:
        """Every seat in turn order starting after this one (clockwise round the table)."""
        count = len(self.players)
        start = 0 if self.seat is None else self.seat + 1
        return [(start + i) % count for i in range(count) if (start + i) % count != self.seat]


class GameBoard(Widget, can_focus=True):
    """Base of every game's board. Holds the focus while a game runs, so its keys are live and
    listed in the footer; disabled moves are dimmed there, moves the game lacks are hidden."""

    DEFAULT_CSS = """
    GameBoard { width: 1fr; height: 1fr; background: $felt; padding: 0 1; overflow-y: auto; }
    GameBoard:focus { background-tint: $foreground 0%; }
    """

    # Smallest width × height (in cells) of the board's full layout; the screen puts the log
    # beside it only when there is room for both.
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    # Smallest width × height at which the board still plays well on a phone held upright
    # (about 45×30 in a browser), in a slim layout it picks by its own width or in the same one
    # shrunk; None: it does not. Below the smallest size the board has, the screen shows a
    # notice instead (`tui.widgets.room`: "turn your phone" or "make the window larger").
    SLIM_SIZE: ClassVar[tuple[int, int] | None] = None
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = ()
    # Board actions a spectator may use too (looking at a summary); every other key binding
    # and the action buttons are for players only.
    VIEW_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    # What the results screen calls a player's score.
    SCORE_LABEL: ClassVar[str] = "results.score"
    # How many of the app's pauses before a bot's move it waits at a local table: where a move
    # takes a moment to find (a tile laid somewhere on a large layout), people need longer.
    BOT_PACE: ClassVar[float] = 1.0

    class MoveChosen(Message):
        """The player at this terminal chose `move`; the screen sends it to the table."""

        def __init__(self, move: Move) -> None:
            super().__init__()
            self.move = move

    class Answering(Message):
        """The player at this terminal is choosing an answer to an open interrupt window:
        the screen asks the table for their time (net.table.windows), and everyone sees it."""

    class Hint(Message):
        """A line for the player at this terminal only (not an event of the game): the screen
        shows it on its hint line under the table (`tui.widgets.hint_line`)."""

        def __init__(self, text: str, move: Move | None = None) -> None:
            super().__init__()
            self.text = text
            self.move = move  # the move a hint names, which the board then shows

    @classmethod
    def least_size(cls) -> tuple[int, int]:
        """The smallest width × height the board can be drawn in at all."""
        return cls.SLIM_SIZE or cls.MIN_SIZE

    def __init__(self, table: Table, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.table = table
        self._live: tuple[tuple[bool, bool], ...] = ()
        self._mounted = False
        self._armed: tuple[str, float] | None = None  # a confirm-move pressed once, and when
        # Bindings built per instance, so their labels are in the language of the moment.
        self._bindings = bindings_over(self, self.own_bindings())

    # -- what a subclass provides ------------------------------------------------------------
    def draw(self, table: Table) -> None:
        """Update the board's widgets to show `table`."""
        raise NotImplementedError

    def offers(self, move_type: str) -> bool:
        """False if this game, with these options, has no such move at all."""
        return True

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        """A widget with `seat`'s end-of-game holdings for the results screen."""
        return None

    @classmethod
    def result_table(cls, result: dict[str, Any]) -> Widget | None:
        """A widget with the table as the game left it, under the players' rows on the
        results screen (a game whose outcome lies on the table, as a layout of tiles)."""
        return None

    def take_events(self, events: list[dict[str, Any]], *, whole_log: bool = False) -> None:
        """The public events as they happen (the log's, in order), for a board that keeps
        some in sight of its own; `whole_log`: every event so far, for a board just built or
        a table synced afresh. Most boards draw the view alone and need none."""

    # -- shared machinery --------------------------------------------------------------------
    def key_bindings(self) -> list[Binding]:
        bindings = [
            Binding(k.keys, f"move({k.move!r})", tr(k.label), key_display=k.display or None)
            for k in self.MOVE_KEYS
        ]
        if self.table.seat is not None and self.table.hints:
            bindings.append(Binding(HINT_KEY, "hint", tr("board.hint")))
        return bindings

    def own_bindings(self) -> list[Binding]:
        """`key_bindings()`, less the moves for a spectator: someone watching has no keys to
        press but those that only look."""
        bindings = self.key_bindings()
        if self.table.seat is not None:
            return [_without_hint_key(b) for b in bindings]
        return [b for b in bindings if b.action.partition("(")[0] in self.VIEW_ACTIONS]

    def actions(self) -> list[Action]:
        """The ActionBar entries matching MOVE_KEYS (mouse and keys offer the same moves)."""
        return [Action(k.move, tr(k.label), k.display or k.keys) for k in self.MOVE_KEYS]

    def on_mount(self) -> None:
        self._mounted = True
        if self.table.seat is None:
            for bar in self.query(ActionBar):
                bar.display = False
        self.show(self.table)

    def show(self, table: Table) -> None:
        """Draw `table` and bring keys and buttons up to date (once mounted; until then the
        newest table is kept and drawn on mount)."""
        self.table = table
        if not self._mounted:
            return
        self.draw(table)
        # Which keys are live changes far less often than the table; refreshing the footer
        # rebuilds it, so only do that when it changed.
        live = tuple(
            (self.offers(k.move), self.legal_move(k.move) is not None) for k in self.MOVE_KEYS
        )
        if live == self._live:
            return
        self._live = live
        self.refresh_bindings()
        for bar in self.query(ActionBar):
            for key, (offered, legal) in zip(self.MOVE_KEYS, live, strict=True):
                bar.set_state(key.move, enabled=legal, visible=offered)

    def legal_move(self, move_type: str, **fields: Any) -> Move | None:
        """The legal move of this type (matching `fields`), if the seat on show has one."""
        for move in self.table.legal:
            if move.get("type") == move_type and all(move.get(k) == v for k, v in fields.items()):
                return move
        return None

    def action_move(self, move_type: str) -> None:
        move = self.legal_move(move_type)
        if move is None:
            return
        key = next((k for k in self.MOVE_KEYS if k.move == move_type), None)
        if key is not None and key.confirm:
            now = time.monotonic()
            armed, self._armed = self._armed, None
            if armed is None or armed[0] != move_type or now - armed[1] > CONFIRM_SECONDS:
                self._armed = (move_type, now)
                key_name = key.display or key.keys.split(",")[0]
                self.post_message(self.Hint(tr(key.confirm, key=key_name)))
                return
        self.post_message(self.MoveChosen(move))

    # -- hints -------------------------------------------------------------------------------
    def describe_move(self, move: Move | None) -> str:
        """A move in words for a hint: its MOVE_KEYS label when it is a plain key move, else
        its type and fields (a board may say it better)."""
        if move is None:
            return tr("board.hint_pass")
        key = next((k for k in self.MOVE_KEYS if k.move == move.get("type")), None)
        if key is not None and len(move) == 1:
            return tr(key.label)
        fields = [
            " ".join(map(str, v)) if isinstance(v, list) else str(v)
            for k, v in move.items()
            if k != "type"
        ]
        return " ".join([str(move.get("type")), *fields])

    def show_move(self, move: Move) -> None:
        """Make `move` the board's selection (a board that has one overrides this)."""

    def on_game_board_hint(self, event: Hint) -> None:
        """The hinted move, still legal, is shown as the board's selection; the hint itself
        goes on to the screen's hint line."""
        if event.move is not None and event.move in self.table.legal:
            self.show_move(event.move)

    def on_key(self, event: events.Key) -> None:
        """A dimmed move key says why it does nothing now (MoveKey.refused)."""
        table = self.table
        if table.seat is None or table.seat not in table.view.get("to_act", ()):
            return
        for key in self.MOVE_KEYS:
            pressed = bool(key.refused) and event.key in key.keys.split(",")
            if pressed and self.offers(key.move) and self.legal_move(key.move) is None:
                self.post_message(self.Hint(tr(key.refused)))

    def action_hint(self) -> None:
        """Ask the expert what it would play from this seat, in a worker thread: the search
        takes about a second and must not stop the table. How often is the HintDesk's say."""
        table = self.table
        if table.seat is None or not table.hints or not table.legal:
            return
        desk = hint_desk(self.app)
        if (answered := desk.answered(table)) is not None:
            self.post_message(self.Hint(*answered))
            return
        if (why := desk.refusal()) is not None:
            if why == "board.hint_rest" and not desk.queued:  # asked by itself after the rest
                desk.queued = True
                self.set_timer(desk.rest_left(), partial(self._ask_again, desk))
            self.post_message(self.Hint(tr(why)))
            return
        desk.busy = True
        self.post_message(self.Hint(tr("board.hint_thinking")))
        self.run_worker(
            lambda: self._think_once(desk, table), thread=True, exclusive=True, group="hint"
        )

    def _ask_again(self, desk: HintDesk) -> None:
        """A hint asked for during the rest, asked once it is over (for the table as it is
        then)."""
        desk.queued = False
        self.action_hint()

    def _think_once(self, desk: HintDesk, table: Table) -> None:
        try:
            self._think(desk, table)
        finally:
            desk.done_at = time.monotonic()
            desk.busy = False

    def _think(self, desk: HintDesk, table: Table) -> None:
        """The hint line for `table` (runs in a worker thread; posting a message is safe from
        there). Only the view and the legal moves go in: the expert never sees more."""
        eng = get_engine(table.view["game"])
        rng = random.Random(table.state_no)
        expert = coach.coach(eng, coach.budget(eng, coach.HINT))
        analysis = expert.analyse(table.view, table.legal, rng)
        if analysis is None or not analysis.best.visits:
            # Nothing to search (or a move the expert leaves to its guide): name what the
            # expert would play then, without its `decide`, which may note the move as made.
            move = (analysis.best.move if analysis is not None
                    else expert.guide.decide(table.view, table.legal, rng))
            text = tr("board.hint_plain", move=self.describe_move(move))
            desk.answer = (table, text, move)
            self.post_message(self.Hint(text, move))
            return
        best, *rest = analysis.choices
        text = tr("board.hint_line", move=self.describe_move(best.move),
                  **chance(best.win, best.visits))
        if rest and rest[0].visits:
            text += tr("board.hint_next", move=self.describe_move(rest[0].move),
                       **chance(rest[0].win, rest[0].visits))
        desk.answer = (table, text, best.move)
        self.post_message(self.Hint(text, best.move))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":
            return self.table.hints and self.table.seat is not None and bool(self.table.legal)
        if action == "move" and parameters:
            move_type = str(parameters[0])
            if not self.offers(move_type):
                return False
            return True if self.legal_move(move_type) is not None else None
        return True

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        event.stop()
        self.action_move(event.name)


register(
    {
        "en": {
            "board.hint": "Hint",
            "board.hint_thinking": "Hint: thinking…",
            "board.hint_line": "Hint: {move}: won {chance} of the search's playouts "
                               "({low}–{high}%, {playouts} played)",
            "board.hint_next": "; next best {move}: {chance}",
            "board.hint_tenths": "about {n} in 10",
            "board.hint_most": "nearly all",
            "board.hint_least": "hardly any",
            "board.hint_plain": "Hint: {move}",
            "board.hint_pass": "let it pass",
            "board.hint_busy": "Hint: still thinking about the last one",
            "board.hint_rest": "Hint: coming in a moment (the last search is resting)",
        },
        "de": {
            "board.hint": "Tipp",
            "board.hint_thinking": "Tipp: denke nach …",
            "board.hint_line": "Tipp: {move}: gewinnt in den Probespielen der Suche {chance} "
                               "({low}–{high} %, {playouts} gespielt)",
            "board.hint_next": "; danach {move}: {chance}",
            "board.hint_tenths": "etwa {n} von 10 Mal",
            "board.hint_most": "fast immer",
            "board.hint_least": "fast nie",
            "board.hint_plain": "Tipp: {move}",
            "board.hint_pass": "durchlassen",
            "board.hint_busy": "Tipp: denke noch über den letzten nach",
            "board.hint_rest": "Tipp: kommt gleich (die letzte Suche ruht noch)",
        },
    }
)
