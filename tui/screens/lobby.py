"""A local table before it starts: who sits where (you, more people at this keyboard, bots of
a chosen strength), the game's options, the clocks (net.table.clocks) with about how long a
game takes, and an optional seed. Bad input gets one clear line and changes nothing; Start
hands a `LocalGame` to the app."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Select, Static, Switch

from engines import Engine, get_engine
from net.table import clocks
from net.table.clocks import ClockSetting
from net.table.session import SeatInfo
from tui import boards, prefs
from tui.i18n import tr
from tui.screens.base import MAX_NAME, KeySpec, TableScreen
from tui.widgets.clocks import setting_words
from tui.widgets.footer import Footer
from tui.widgets.text_input import TextInput

BOT_LEVELS = ("random", "strong", "expert")  # each has its label "lobby.bot_<level>"
SEAT_KINDS = ("person", *BOT_LEVELS)  # seat 0 is always "you"
MAX_SEED = 2**63


@dataclass
class LocalGame:
    """Everything needed to start (and restart) a local table."""

    engine_id: str
    seats: list[SeatInfo]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    clock: ClockSetting | None = None  # every seat's clock (net.table.clocks); None: none

    @property
    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if not seat.is_bot]


def clock_choices(engine: Engine, seats: int) -> list[tuple[str, str]]:
    """The clock presets as a lobby offers them, each in words, for a table of `seats`."""
    return [(setting_words(_public(clocks.preset(engine.id, name, seats))), name)
            for name in clocks.PRESETS]


def out_of_time_choices() -> list[tuple[str, str]]:
    return [(tr(f"clock.out.{choice}"), choice) for choice in clocks.OUT_OF_TIME]


def _public(setting: ClockSetting | None) -> dict[str, Any] | None:
    return None if setting is None else setting.public()


def clock_rows(engine: Engine, seats: int, chosen: str, out_of_time: str,
               ids: tuple[str, str]) -> ComposeResult:
    """The clock's fields of a lobby: the preset and, where the game can skip a turn, what
    happens to a seat out of time (else a line saying the bot moves for it)."""
    yield Static(tr("clock.label"), classes="lobby-heading")
    yield Select(clock_choices(engine, seats), value=chosen, allow_blank=False, id=ids[0],
                 classes="clock-select")
    if clocks.can_skip(engine):
        yield Select(out_of_time_choices(), value=out_of_time, allow_blank=False, id=ids[1],
                     classes="clock-select")
    else:
        yield Static(tr("clock.no_skip", game=engine.title), classes="clock-note")


def default_name(kind: str, number: int, humans: int) -> str:
    if kind == "you" and humans == 1:
        return tr("name.you")
    if kind in ("you", "person"):
        return tr("name.person", n=number)
    return tr("name.bot", n=number)


@dataclass
class SeatRow:
    kind: str  # "you", "person", "random" or "strong"
    name: str = ""


class LobbyScreen(TableScreen[LocalGame | None]):
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("f5", "press('start')", "lobby.start", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self, engine_id: str) -> None:
        super().__init__()
        self.engine_id = engine_id
        self.engine = get_engine(engine_id)
        boards.board_module(engine_id)  # registers the game's option labels
        saved = prefs.load()
        self.level = saved.bot_level if saved.bot_level in BOT_LEVELS else "strong"
        self.rows = [SeatRow("you", saved.name)] + [
            SeatRow(self.level) for _ in range(self.engine.min_players - 1)
        ]
        self.options: dict[str, Any] = dict(self.engine.options)
        self.clock = "none"  # the preset chosen (net.table.clocks.PRESETS)
        self.out_of_time = "bot"
        self.seed_text = ""
        self.error = ""

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lobby-box"):
            yield Static(tr("lobby.title", game=self.engine.title), id="lobby-title")
            yield Static(tr("lobby.seats"), classes="lobby-heading")
            for index, row in enumerate(self.rows):
                with Horizontal(classes="seat-row"):
                    yield Static(tr("lobby.seat", n=index + 1), classes="seat-label")
                    if row.kind == "you":
                        yield Static(tr("lobby.you"), classes="seat-kind")
                    else:
                        yield Select(
                            [(tr(self._kind_key(k)), k) for k in SEAT_KINDS],
                            value=row.kind,
                            allow_blank=False,
                            id=f"kind-{index}",
                            classes="seat-kind",
                        )
                    yield TextInput(
                        row.name,
                        placeholder=self._placeholder(index),
                        id=f"name-{index}",
                        classes="seat-name",
                        max_length=MAX_NAME,
                    )
            if self.engine.min_players != self.engine.max_players:  # else nothing to change
                with Horizontal(classes="lobby-buttons"):
                    yield Button(tr("lobby.add"), id="add")
                    yield Button(tr("lobby.remove"), id="remove")
            yield Static(tr("lobby.options"), classes="lobby-heading")
            if not self.options:
                yield Static(tr("lobby.no_options"))
            for name, value in self.options.items():
                if not self._offered(name):
                    continue
                with Horizontal(classes="option-row"):
                    label = tr(f"option.{self.engine_id}.{name}")
                    if isinstance(value, bool):
                        yield Switch(value, id=f"opt-{name}")
                    else:
                        yield Input(str(value), type="integer", id=f"opt-{name}")
                    yield Static(label, classes="option-label")
            yield from clock_rows(self.engine, len(self.rows), self.clock, self.out_of_time,
                                  ("clock", "out-of-time"))
            yield Static(self._estimate(), id="clock-estimate")
            yield Static(tr("lobby.seed"), classes="lobby-heading")
            yield Input(self.seed_text, type="integer", id="seed", placeholder="—")
            yield Static(Content(self.error), id="lobby-error")
            yield Button(tr("lobby.start"), id="start", variant="success")
        yield Footer()

    def _offered(self, name: str) -> bool:
        return self.engine.offers(name, len(self.rows))

    def _estimate(self) -> str:
        bots = sum(1 for row in self.rows if row.kind in BOT_LEVELS)
        people = len(self.rows) - bots
        return tr("clock.about", n=clocks.estimate_minutes(self.engine_id, people, bots,
                                                           self.clock))

    @staticmethod
    def _kind_key(kind: str) -> str:
        return "lobby.person" if kind == "person" else f"lobby.bot_{kind}"

    def _placeholder(self, index: int) -> str:
        humans = sum(1 for r in self.rows if r.kind in ("you", "person"))
        row = self.rows[index]
        number = self._number_of(index)
        return default_name(row.kind, number, humans)

    def _number_of(self, index: int) -> int:
        """People are numbered among people, bots among bots ("Player 2", "Bot 1")."""
        bot = self.rows[index].kind in BOT_LEVELS
        same = [i for i, r in enumerate(self.rows) if (r.kind in BOT_LEVELS) == bot]
        return same.index(index) + 1

    # -- reading the form --------------------------------------------------------------------
    def harvest(self) -> None:
        """Copy what was typed and picked back into the screen's state."""
        for index, row in enumerate(self.rows):
            if row.kind != "you":
                row.kind = str(self.query_one(f"#kind-{index}", Select).value)
            row.name = self.query_one(f"#name-{index}", Input).value.strip()
        for name, default in self.engine.options.items():
            if not self._offered(name):
                continue
            if isinstance(default, bool):
                self.options[name] = self.query_one(f"#opt-{name}", Switch).value
            else:
                self.options[name] = self.query_one(f"#opt-{name}", Input).value
        self.clock = str(self.query_one("#clock", Select).value)
        if clocks.can_skip(self.engine):
            self.out_of_time = str(self.query_one("#out-of-time", Select).value)
        self.seed_text = self.query_one("#seed", Input).value.strip()

    def on_select_changed(self, event: Select.Changed) -> None:
        """A seat changed between person and bot, or the clock changed: renumber the
        suggested names and say the game's length again, in place (recomposing here would
        remove the Select while it is still updating itself)."""
        event.stop()
        self.harvest()
        for index in range(len(self.rows)):
            self.query_one(f"#name-{index}", Input).placeholder = self._placeholder(index)
        self.query_one("#clock-estimate", Static).update(self._estimate())

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.harvest()
        self.error = ""
        if event.button.id == "add" and len(self.rows) < self.engine.max_players:
            self.rows.append(SeatRow(self.level))
        elif event.button.id == "remove" and len(self.rows) > self.engine.min_players:
            self.rows.pop()
        elif event.button.id == "start":
            game = self._game()
            if game is not None:
                self.dismiss(game)
                return
        await self.recompose()
        # Redrawn from scratch: put the keyboard back where it was (the button just pressed).
        if event.button.id and (again := self.query(f"#{event.button.id}")):
            again.first().focus()

    def _game(self) -> LocalGame | None:
        """The table as entered, or None with `self.error` saying what is wrong."""
        eng = self.engine
        if not eng.min_players <= len(self.rows) <= eng.max_players:
            self.error = tr(
                "lobby.bad_count", game=eng.title, lo=eng.min_players, hi=eng.max_players
            )
            return None
        seed: int | None = None
        if self.seed_text:
            try:
                seed = int(self.seed_text)
            except ValueError:
                seed = -1
            if not 0 <= seed < MAX_SEED:
                self.error = tr("lobby.bad_seed")
                return None
        options: dict[str, Any] = {}
        for name, default in eng.options.items():
            value = self.options[name]
            if not isinstance(default, bool):
                try:
                    value = int(value)
                except ValueError:
                    self.error = f"{tr(f'option.{self.engine_id}.{name}')}: {value!r}"
                    return None
            options[name] = value
        try:
            eng.resolve_options(options)
        except ValueError as exc:
            self.error = str(exc)
            return None
        seats = []
        for index, row in enumerate(self.rows):
            name = row.name or self._placeholder(index)
            bot = row.kind if row.kind in BOT_LEVELS else None
            seats.append(SeatInfo(name=name, bot=bot))
        clock = clocks.preset(self.engine_id, self.clock, len(seats), self.out_of_time)
        return LocalGame(self.engine_id, seats, options, seed, clock)

    def action_back(self) -> None:
        self.dismiss(None)
