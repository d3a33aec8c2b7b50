"""Schöne Sch#!?e at the table: the card in the middle with its chips and pigs, every player's
cards grouped in runs (only a run's lowest card counts, so it is drawn brighter), pigs, and the
chip count of the seat on show; everybody else's chips stay "?" as in the printed game.
With the lucky-pig expansion a line in the middle says what the (oo) mark is. On a large
terminal everything is drawn a step larger (`tui.widgets.scale`)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tui.boards.base import GameBoard, MoveKey, Table, seat_name, seat_names
from tui.i18n import count_key, register, tr
from tui.widgets import ActionBar, Card, CardStrip, ChipPile, PlayerArea, TokenPile
from tui.widgets.cards import TALL_LINES
from tui.widgets.scale import CardSize, largest_fitting, rescale

PIG = "(oo)"
# Opponents' boxes side by side before the grid starts another row; fewer on a slim table.
COLUMNS = 3
SLIM_COLUMNS = 2
# Columns the words beside the centre card need (the longest sentence wraps below that).
INFO_WIDTH = 40


def card_points(runs: list[list[int]]) -> int:
    """What the cards score: each run counts only its lowest card."""
    return sum(run[0] for run in runs if run)


def labels(runs: list[list[int]]) -> list[list[str]]:
    return [[str(card) for card in run] for run in runs]


class Seat(PlayerArea):
    """One player's cards in runs, chips (or "?") and won pigs. An unused pig stands after
    the name, as the physical one stands in front of its owner; points go in the subtitle."""

    DEFAULT_CSS = """
    Seat > .holdings { height: 1; width: 1fr; }
    Seat > .holdings > * { margin-right: 3; }
    """

    def __init__(self, table: Table, seat: int) -> None:
        super().__init__(seat=seat, id=f"seat-{seat}", **table.occupant(seat))
        self.cards = CardStrip(mark_first=True, empty=tr("schoene.no_cards"))
        self.chips = ChipPile(None, classes="chips")
        self.pigs = TokenPile(0, symbol=PIG, tone="pig", classes="pigs")

    def compose(self) -> ComposeResult:
        yield self.cards
        with Horizontal(classes="holdings"):
            yield self.chips
            yield self.pigs

    def draw(self, table: Table) -> None:
        view = table.view
        me = self.seat == table.seat
        data = view["players"][self.seat]
        self.set_player(**table.occupant(self.seat))
        self.set_active(self.seat in view["to_act"])
        self.cards.show(labels(data["runs"]))
        chips = view["my_chips"] if me else data["chips"]
        self.chips.show(chips, tr(count_key("schoene.chips", chips)) if me else "")
        pigs = data["pigs_won"]
        self.pigs.display = pigs > 0
        self.pigs.show(pigs, tr(count_key("schoene.pigs_won", pigs)))
        points = card_points(data["runs"])
        if chips is None:
            note = tr("schoene.card_points", points=points)
        else:
            owned = data["pigs_won"] + (1 if data["pig_in_hand"] else 0)
            note = tr("schoene.score_now", score=points - chips - owned)
        self.set_extra(title=PIG if data["pig_in_hand"] else "", note=note)


class Board(GameBoard):
    """The Schöne Sch#!?e table for one seat."""

    DEFAULT_CSS = """
    Board #others { grid-gutter: 0 1; height: auto; grid-rows: auto; }
    Board #middle { height: 1fr; min-height: 7; align: center middle; }
    Board #centre { margin-right: 3; }
    Board #deck-card { margin: 1 2 0 0; }
    Board #centre-info { width: 1fr; max-width: 52; height: auto; }
    Board #centre-info > * { height: auto; }
    Board.-roomy #centre-info > * { margin-bottom: 1; }
    Board #status { text-style: bold; color: $active; }
    Board #deck { color: $text-muted; }
    Board #pigs-on { color: $pig; }
    Board #pig-legend { color: $text-muted; }
    Board #deck-card.-empty, Board.-slim #deck-card { display: none; }
    Board #pig-legend.-off, Board.-slim #pig-legend { display: none; }
    Board.-slim #centre { margin-right: 2; }
    """

    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 21)
    SLIM_SIZE: ClassVar[tuple[int, int] | None] = (45, 21)  # see `on_resize`
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = (
        MoveKey("t", "take", "schoene.key.take"),
        MoveKey("space,p", "pay", "schoene.key.pay", "space"),
        MoveKey("g", "pig", "schoene.key.pig"),
    )

    def compose(self) -> ComposeResult:
        table = self.table
        others = table.seats_from_me()
        self.seats = [Seat(table, seat) for seat in others]
        with Grid(id="others"):  # its columns follow the width (`on_resize`)
            yield from self.seats
        with Horizontal(id="middle"):
            yield Card("", face_down=True, id="deck-card")
            yield Card("", big=True, id="centre")
            with Vertical(id="centre-info"):
                yield ChipPile(0, id="on-card")
                yield Static("", id="pigs-on")
                yield Static("", id="deck")
                yield Static("", id="status")
                yield Static(Content(tr("schoene.pig_legend", pig=PIG)), id="pig-legend")
        if table.seat is not None:
            mine = Seat(table, table.seat)
            self.seats.append(mine)
            yield mine
        yield ActionBar(self.actions())

    def offers(self, move_type: str) -> bool:
        return move_type != "pig" or bool(self.table.view.get("lucky_pig"))

    def on_resize(self) -> None:
        """The largest step (cards, centre card, chips) at which the whole table still fits."""
        width, height = self.size
        # Narrower than the full layout (a phone held upright): two opponents to a row, no
        # face-down deck card beside the centre (its count is in the words) and no (oo) legend
        # (the rules, F1, say it), so the words beside the centre card fit.
        slim = self.outer_size.width < self.MIN_SIZE[0]
        self.set_class(slim, "-slim")
        others = len(self.table.seats_from_me())
        columns = SLIM_COLUMNS if slim else COLUMNS
        self.query_one("#others", Grid).styles.grid_size_columns = max(1, min(columns, others))
        rows = -(-others // columns)
        mine = self.table.seat is not None

        def fits(size: CardSize) -> bool:
            box = 2 + TALL_LINES * size.tile_rows + 1  # frame, cards, chips and pigs
            need_h = (rows + mine) * box + size.big[1] + 2  # + the action bar
            need_w = size.card[0] + 2 + size.big[0] + 3 + INFO_WIDTH
            return need_h <= height and need_w <= width

        step = largest_fitting(fits)
        rescale(self, step)
        # Air between the lines beside the centre card when the middle has the rows for it.
        self.set_class(step > 0 or height >= (rows + mine) * 4 + 12, "-roomy")

    def draw(self, table: Table) -> None:
        view = table.view
        for seat in self.seats:
            seat.draw(table)
        centre = view["centre"]
        self.query_one("#centre", Card).show(
            "" if centre is None else str(centre), face_down=centre is None
        )
        on_card = view["centre_chips"]
        self.query_one("#on-card", ChipPile).show(
            on_card, tr(count_key("schoene.on_card", on_card))
        )
        self.query_one("#pig-legend", Static).set_class(not view.get("lucky_pig"), "-off")
        pigs_on = self.query_one("#pigs-on", Static)
        pigs_on.display = bool(view["centre_pigs"])
        names = seat_names(table.names, view["centre_pigs"])
        pigs_on.update(Content(f"{PIG} {tr('schoene.pigs_on', names=names)}"))
        deck_left = view["deck_left"]
        deck_card = self.query_one("#deck-card", Card)
        deck_card.set_class(deck_left == 0, "-empty")
        deck_card.show(str(deck_left), face_down=True)
        self.query_one("#deck", Static).update(
            tr(count_key("schoene.deck_left", deck_left), count=deck_left)
        )
        self.query_one("#status", Static).update(Content(self.status_line(table)))

    def status_line(self, table: Table) -> str:
        view = table.view
        if view["over"]:
            return tr("game.over")
        if table.you in view["to_act"]:
            if view["my_chips"] == 0:
                return tr("schoene.must_take")
            return tr("schoene.your_move")
        return tr("game.turn_of", name=table.name(view["turn"]))

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        player = result["players"][seat]
        points, chips, pigs = player["card_points"], player["chips"], player["pigs"]
        text = tr(
            "schoene.result_line",
            points=tr(count_key("schoene.result.points", points), n=points),
            chips=tr(count_key("schoene.result.chips", chips), n=chips),
            pigs=tr(count_key("schoene.result.pigs", pigs), n=pigs),
        )
        return Vertical(
            CardStrip(labels(player["runs"]), mark_first=True, empty=tr("schoene.no_cards")),
            Static(text, classes="sum"),
            classes="detail",
        )


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Schöne event as a sentence: "Bot 2 paid a chip on 27"."""
    kind = event.get("kind", "")
    seat = event.get("seat")
    chips, pigs = int(event.get("chips", 0)), int(event.get("pigs", 0))
    fields = {
        "name": seat_name(names, seat),
        "card": event.get("card"),
        "chips": tr(count_key("schoene.n_chips", chips), lang=lang, n=chips),
        "pigs": tr(count_key("schoene.n_pigs", pigs), lang=lang, n=pigs),
    }
    if kind == "take" and pigs:
        kind = "take_pigs"
    return tr(f"schoene.event.{kind}", lang=lang, **fields)


register(
    {
        "en": {
            "stats.schoene.cards_taken": "Cards taken",
            "stats.schoene.longest_run": "Longest run",
            "stats.schoene.chips_left": "Chips left",
            "stats.schoene.chips_paid": "Chips paid",
            "stats.schoene.chips_won": "Chips taken",
            "stats.schoene.biggest_haul": "Most chips on a card",
            "stats.schoene.card_points": "Card points",
            "stats.schoene.pigs_taken": "Pigs taken",
            "option.schoene.lucky_pig": "Glücksschwein expansion (lucky pigs)",
            "schoene.key.take": "Take",
            "schoene.key.pay": "Pay a chip",
            "schoene.key.pig": "Place pig",
            "schoene.no_cards": "no cards yet",
            "schoene.chips.zero": "chips",
            "schoene.chips.one": "chip",
            "schoene.chips.many": "chips",
            "schoene.pigs_won.zero": "pigs won",
            "schoene.pigs_won.one": "pig won",
            "schoene.pigs_won.many": "pigs won",
            "schoene.score_now": "score now {score}",
            "schoene.card_points": "points {points}",
            "schoene.on_card.zero": "chips on the card",
            "schoene.on_card.one": "chip on the card",
            "schoene.on_card.many": "chips on the card",
            "schoene.pigs_on": "on it: {names}",
            "schoene.pig_legend": "{pig} = Glücksschwein: once instead of a chip",
            "schoene.deck_left.zero": "the last card",
            "schoene.deck_left.one": "1 more card to come",
            "schoene.deck_left.many": "{count} more cards to come",
            "schoene.your_move": "Your move: take it, or pay a chip",
            "schoene.must_take": "No chips left: you must take it",
            "schoene.result_line": "{points} − {chips} − {pigs}",
            "schoene.result.points.zero": "no card points",
            "schoene.result.points.one": "1 card point",
            "schoene.result.points.many": "{n} card points",
            "schoene.result.chips.zero": "no chips",
            "schoene.result.chips.one": "1 chip",
            "schoene.result.chips.many": "{n} chips",
            "schoene.result.pigs.zero": "no pigs",
            "schoene.result.pigs.one": "1 pig",
            "schoene.result.pigs.many": "{n} pigs",
            "schoene.event.reveal": "{card} is turned up.",
            "schoene.n_chips.zero": "no chips",
            "schoene.n_chips.one": "1 chip",
            "schoene.n_chips.many": "{n} chips",
            "schoene.n_pigs.zero": "no pigs",
            "schoene.n_pigs.one": "1 pig",
            "schoene.n_pigs.many": "{n} pigs",
            "schoene.event.take": "{name} took {card} with {chips}.",
            "schoene.event.take_pigs": "{name} took {card} with {chips} and {pigs}.",
            "schoene.event.pay": "{name} paid a chip on {card}.",
            "schoene.event.pig": "{name} placed a pig on {card}.",
            "schoene.event.pigs_out": (
                "Every pig lies on {card}: card and pigs leave the game. Next: {name}."
            ),
        },
        "de": {
            "stats.schoene.cards_taken": "Karten genommen",
            "stats.schoene.longest_run": "Längste Reihe",
            "stats.schoene.chips_left": "Chips übrig",
            "stats.schoene.chips_paid": "Chips gezahlt",
            "stats.schoene.chips_won": "Chips kassiert",
            "stats.schoene.biggest_haul": "Meiste Chips je Karte",
            "stats.schoene.card_points": "Kartenpunkte",
            "stats.schoene.pigs_taken": "Schweine genommen",
            "option.schoene.lucky_pig": "Erweiterung Glücksschwein",
            "schoene.key.take": "Nehmen",
            "schoene.key.pay": "Chip zahlen",
            "schoene.key.pig": "Schwein legen",
            "schoene.no_cards": "noch keine Karten",
            "schoene.chips.zero": "Chips",
            "schoene.chips.one": "Chip",
            "schoene.chips.many": "Chips",
            "schoene.pigs_won.zero": "Schweine gewonnen",
            "schoene.pigs_won.one": "Schwein gewonnen",
            "schoene.pigs_won.many": "Schweine gewonnen",
            "schoene.score_now": "jetzt {score} Punkte",
            "schoene.card_points": "Punkte {points}",
            "schoene.on_card.zero": "Chips auf der Karte",
            "schoene.on_card.one": "Chip auf der Karte",
            "schoene.on_card.many": "Chips auf der Karte",
            "schoene.pigs_on": "darauf: {names}",
            "schoene.pig_legend": "{pig} = Glücksschwein: einmal statt eines Chips",
            "schoene.deck_left.zero": "die letzte Karte",
            "schoene.deck_left.one": "noch 1 Karte",
            "schoene.deck_left.many": "noch {count} Karten",
            "schoene.your_move": "Du bist dran: nehmen oder Chip zahlen",
            "schoene.must_take": "Keine Chips mehr: du musst nehmen",
            "schoene.result_line": "{points} − {chips} − {pigs}",
            "schoene.result.points.zero": "keine Kartenpunkte",
            "schoene.result.points.one": "1 Kartenpunkt",
            "schoene.result.points.many": "{n} Kartenpunkte",
            "schoene.result.chips.zero": "keine Chips",
            "schoene.result.chips.one": "1 Chip",
            "schoene.result.chips.many": "{n} Chips",
            "schoene.result.pigs.zero": "keine Schweine",
            "schoene.result.pigs.one": "1 Schwein",
            "schoene.result.pigs.many": "{n} Schweine",
            "schoene.event.reveal": "{card} wird aufgedeckt.",
            "schoene.n_chips.zero": "keinem Chip",
            "schoene.n_chips.one": "1 Chip",
            "schoene.n_chips.many": "{n} Chips",
            "schoene.n_pigs.zero": "keinem Schwein",
            "schoene.n_pigs.one": "1 Schwein",
            "schoene.n_pigs.many": "{n} Schweinen",
            # "Name: ... genommen" reads right for "Du" and for "Bot 2" alike.
            "schoene.event.take": "{name}: {card} genommen, mit {chips}.",
            "schoene.event.take_pigs": "{name}: {card} genommen, mit {chips} und {pigs}.",
            "schoene.event.pay": "{name}: Chip auf {card} gezahlt.",
            "schoene.event.pig": "{name}: Schwein auf {card} gelegt.",
            "schoene.event.pigs_out": (
                "Alle Schweine liegen auf {card}: Karte und Schweine gehen aus dem Spiel. "
                "Als Nächstes: {name}."
            ),
        },
    }
)
