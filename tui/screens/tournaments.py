"""Tournaments (menu → Tournaments): the table's tournaments, and for the one under the cursor
its standings after any round (tie-breaks named), that round's pairings and results, and
where you stand in it. `j` enters you, `s` sits you down at your table of the round in play
(the seat is reserved for you by a token only you are given), left and right pick the round.
`n` makes a new one, for whoever may organise here. It reads the table's store again every few
seconds, so the standings are live."""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from engines import get_engine
from net.entrant import may_organise, player_key
from net.peer import tokens
from net.players import ladder
from net.players.store import StoreError
from net.players.tournaments import OVER, Event, Tournaments
from net.wire.text import cells as cells_of
from net.wire.text import clean, fit
from tui import prefs
from tui.i18n import register, tr
from tui.screens.base import SLIM_BELOW, KeySpec, TableScreen
from tui.screens.host import login_name
from tui.widgets.footer import Footer

REFRESH = 3.0  # seconds between reads of the store while the screen is shown
SLIM_NAME = 14  # cells of a name in the standings on a phone


class TournamentsScreen(TableScreen[None]):
    DEFAULT_CSS = """
    TournamentsScreen #tn-box { height: 1fr; padding: 0 1; }
    TournamentsScreen #tn-title { text-style: bold; color: $accent; height: 1; }
    TournamentsScreen #tn-list { height: auto; max-height: 8; }
    TournamentsScreen #tn-head { height: auto; margin: 1 0 0 0; text-style: bold; }
    TournamentsScreen #tn-standings { height: 1fr; }
    TournamentsScreen #tn-pairings { height: auto; max-height: 8; }
    TournamentsScreen #tn-you { height: auto; color: $text-muted; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("j", "join", "tn.key.join", True),
        ("s", "sit", "tn.key.sit", True),
        ("n", "new", "tn.key.new", True),
        ("escape", "back", "key.back", True),
    )

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.chosen: str | None = None  # the tournament under the cursor
        self.round: int | None = None  # the round shown (None: the latest)
        self.trouble: str | None = None
        self.player_name = prefs.load().name or login_name()
        self.me = player_key(self.player_name)

    def key_bindings(self) -> list[Binding]:
        return [*super().key_bindings(),
                Binding("left", "round(-1)", tr("tn.key.round"), key_display="←→",
                        priority=True),
                Binding("right", "round(1)", tr("tn.key.round"), show=False, priority=True)]

    def compose(self) -> ComposeResult:
        with Vertical(id="tn-box"):
            yield Static(tr("menu.tournaments"), id="tn-title")
            yield DataTable(id="tn-list", cursor_type="row")
            yield Static(id="tn-head")
            standings = DataTable(id="tn-standings", cursor_type="none", zebra_stripes=True)
            standings.can_focus = False
            yield standings
            yield Static(id="tn-pairings")
            yield Static(id="tn-you")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tn-list", DataTable).focus()
        self.set_interval(REFRESH, self._fill)

    def on_screen_resume(self) -> None:
        self._fill()

    async def retranslate(self) -> None:
        await super().retranslate()
        self._fill()
        self.query_one("#tn-list", DataTable).focus()

    # -- reading ---------------------------------------------------------------------------
    def _with_store(self, work: Any) -> Any:
        """`work(Tournaments)` on the table's store, opened for it; None if it cannot be read
        (the reason shown)."""
        self.trouble = None
        try:
            store = ladder.open_store()
            try:
                return work(Tournaments(store))
            finally:
                store.close()
        except (StoreError, OSError, sqlite3.Error) as exc:
            self.trouble = str(exc)
            return None

    def _fill(self) -> None:
        found = self._with_store(lambda t: (t.events(), self._detail(t)))
        self.events, detail = found if found is not None else ([], None)
        listing = self.query_one("#tn-list", DataTable)
        with self.prevent(DataTable.RowHighlighted):  # refilled: the choice stays
            listing.clear(columns=True)
            slim = self.app.size.width < SLIM_BELOW  # a phone: what fits, the rest below
            columns = ["name", "status", "entered"] if slim else [
                "name", "game", "format", "starts", "status", "entered"]
            listing.add_columns(*(tr(f"tn.col.{c}") for c in columns))
            for event, entered in (detail or {}).get("counts", []):
                cells = {"name": Text(event.id), "game": Text(get_engine(event.engine).title),
                         "format": Text(describe(event)),
                         "starts": Text(dt.datetime.fromtimestamp(event.starts).strftime(
                             "%d.%m. %H:%M")),
                         "status": Text(tr(f"tn.status.{event.status}")),
                         "entered": Text(str(entered), justify="right")}
                listing.add_row(*(cells[c] for c in columns), key=event.id)
            at = next((i for i, e in enumerate(self.events) if e.id == self.chosen), None)
            if at is not None:
                listing.move_cursor(row=at)
        self._show(detail)

    def _detail(self, store: Tournaments) -> dict[str, Any]:
        """What the screen shows of the tournament under the cursor, read in one go."""
        counts = [(e, len(store.entrants(e.id))) for e in store.events()]
        if self.chosen is None and counts:
            self.chosen = counts[0][0].id
        event = next((e for e, _ in counts if e.id == self.chosen), None)
        if event is None:
            return {"counts": counts}
        rounds = store.rounds(event.id)
        finished = [r.round for r in rounds if r.finished is not None]
        shown = self.round if self.round is not None else (rounds[-1].round if rounds else 0)
        upto = min(shown, finished[-1]) if finished else 0
        entrants = store.entrants(event.id)
        in_play = [r.round for r in rounds if r.finished is None]
        seat = store.seat_of(event.id, in_play[-1], self.me) if in_play else None
        return {"counts": counts, "event": event, "rounds": rounds, "shown": shown,
                "upto": upto, "names": {e.player: e.name for e in entrants},
                "standings": store.standings(event.id, None if event.kind == "arena" else upto),
                "tables": store.tables(event.id, shown) if shown else [],
                "entered": any(e.player == self.me for e in entrants),
                "seat": None if seat is None else (in_play[-1], *seat)}

    def _show(self, detail: dict[str, Any] | None) -> None:
        head = self.query_one("#tn-head", Static)
        table = self.query_one("#tn-standings", DataTable)
        pairings = self.query_one("#tn-pairings", Static)
        you = self.query_one("#tn-you", Static)
        table.clear(columns=True)
        if self.trouble is not None or detail is None or "event" not in detail:
            head.update(Content(tr("rated.trouble", error=self.trouble) if self.trouble
                                else tr("tn.none")))
            pairings.update("")
            you.update("")
            return
        event: Event = detail["event"]
        arena = event.kind == "arena"
        slim = self.app.size.width < SLIM_BELOW  # a phone: initials, and names cut short
        if arena:
            head.update(Content(tr("tn.head.arena", name=event.id)))
            table.add_columns("#", tr("tn.col.player"), tr("tn.col.points"), tr("tn.col.wins"),
                              tr("tn.col.games"))
        else:
            head.update(Content(tr("tn.head.swiss", name=event.id, round=detail["upto"],
                                   rounds=event.rounds or "?")))
            table.add_columns("#", tr("tn.col.player"), tr("tn.col.score"),
                              "BH" if slim else "Buchholz", "SB" if slim else "Sonneborn-Berger")
        for row in detail["standings"]:
            mine = row["player"] == self.me
            name = clean(row["name"])
            if slim and cells_of(name) > SLIM_NAME:
                name = fit(name, SLIM_NAME - 1) + "…"
            style = "bold" if mine else ""
            cells = [Text(f"{'▸' if mine else ' '}{row['rank']}", style=style),
                     Text(name + (" 🔥" if row.get("on_fire") else ""),
                          style=style)]
            if arena:
                cells += [Text(f"{row['score']:g}", justify="right"),
                          Text(str(row["wins"]), justify="right"),
                          Text(str(row["games"]), justify="right")]
            else:
                cells += [Text(f"{row['score']:g}", justify="right"),
                          Text(f"{row['buchholz']:g}", justify="right"),
                          Text(f"{row['sonneborn_berger']:g}", justify="right")]
            table.add_row(*cells)
        pairings.update(Content(self._pairings(detail)))
        you.update(Content(self._you(event, detail)))

    def _pairings(self, detail: dict[str, Any]) -> str:
        if not detail["tables"]:
            return tr("tn.no_pairings")
        names = detail["names"]
        lines = [tr("tn.pairings", round=detail["shown"])]
        for table in detail["tables"]:
            seats = [clean(names.get(p, p)) if p is not None else tr("tn.bot")
                     for p in table.seats]
            outcome = table.outcome()
            result = ("" if outcome is None else "  " + "–".join(
                points(outcome.points(seat)) for seat in range(len(table.seats))))
            lines.append(f"  {table.board + 1}. {' – '.join(seats)}{result}")
        return "\n".join(lines)

    def _you(self, event: Event, detail: dict[str, Any]) -> str:
        if detail["seat"] is not None:
            return tr("tn.you.seat", round=detail["seat"][0])
        if detail["entered"]:
            return tr("tn.you.over" if event.status == OVER else "tn.you.entered")
        return tr("tn.you.out")

    # -- keys ------------------------------------------------------------------------------
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        key = event.row_key.value if event.row_key is not None else None
        if key is not None and key != self.chosen:
            self.chosen, self.round = key, None
            self._fill()

    def action_round(self, step: int) -> None:
        detail = self._with_store(self._detail)
        if not detail or not detail.get("rounds"):
            return
        last = detail["rounds"][-1].round
        self.round = max(1, min(last, detail["shown"] + step))
        self._fill()

    def action_join(self) -> None:
        if self.chosen is None:
            return

        def enter(store: Tournaments) -> str:
            try:
                store.enter(self.chosen or "", self.me, self.player_name)
            except ValueError as exc:
                return str(exc)
            return ""

        refused = self._with_store(enter)
        if refused:
            self.notify(refused, severity="warning")
        elif refused is not None:
            self.notify(tr("tn.joined", name=self.chosen))
        self._fill()

    def action_sit(self) -> None:
        detail = self._with_store(self._detail)
        if not detail or detail.get("seat") is None:
            self.notify(tr("tn.no_seat"), severity="warning")
            return
        from tui.screens.join import JoinScreen

        _, code, token, proof_key = detail["seat"]
        # The reserved seat is taken back by its token, as any seat of ours (net.peer.tokens).
        tokens.save_token(code, tokens.Saved(token, self.player_name, proof_key))
        self.app.push_screen(JoinScreen(code, self.player_name, auto=True))

    def action_new(self) -> None:
        if not may_organise(self.me):
            self.notify(tr("tn.new.refused"), severity="warning")
            return
        from tui.screens.tournament_new import NewTournamentScreen

        def made(tid: str | None) -> None:
            if tid is not None:
                self.chosen, self.round = tid, None
                self.notify(tr("tn.new.made", name=tid))
            self._fill()

        self.app.push_screen(NewTournamentScreen(self.me), made)

    def action_back(self) -> None:
        self.dismiss()


def points(value: float) -> str:
    """A game's points as players write them: 1, ½, 0, or two decimals at a larger table."""
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(value, f"{value:.2f}")


def describe(event: Event) -> str:
    if event.kind == "arena":
        return tr("tn.format.arena", minutes=f"{event.length / 60:.0f}")
    what = (tr("tn.format.swiss", rounds=event.rounds) if event.kind == "swiss"
            else tr("tn.format.roundrobin"))
    return what + (tr("tn.format.duplicate") if event.duplicate else "")


register(
    {
        "en": {
            "tn.col.name": "Tournament",
            "tn.col.game": "Game",
            "tn.col.format": "Format",
            "tn.col.starts": "Starts",
            "tn.col.status": "Status",
            "tn.col.entered": "Entered",
            "tn.col.player": "Player",
            "tn.col.score": "Score",
            "tn.col.points": "Points",
            "tn.col.wins": "Wins",
            "tn.col.games": "Games",
            "tn.status.open": "open",
            "tn.status.running": "running",
            "tn.status.over": "over",
            "tn.format.swiss": "Swiss, {rounds} rounds",
            "tn.format.roundrobin": "round-robin",
            "tn.format.arena": "arena, {minutes} min",
            "tn.format.duplicate": ", duplicate",
            "tn.head.swiss": "{name}: standings after round {round} of {rounds} (tie-breaks: "
                             "Buchholz BH, then Sonneborn-Berger SB)",
            "tn.head.arena": "{name}: points by place, 2 a win; two wins in a row double the "
                             "next until one is not won",
            "tn.pairings": "Round {round}:",
            "tn.no_pairings": "No pairings yet.",
            "tn.bot": "strong bot",
            "tn.none": "No tournaments at this table yet.",
            "tn.you.seat": "Your table of round {round} is ready: press s to sit down.",
            "tn.you.entered": "You are entered. Your table appears here when its round begins.",
            "tn.you.over": "It is over: these are the final standings.",
            "tn.you.out": "You are not entered: press j to enter.",
            "tn.joined": "You entered {name}.",
            "tn.no_seat": "You have no table waiting for you.",
            "tn.key.join": "Enter",
            "tn.key.sit": "Sit down",
            "tn.key.round": "Round",
            "tn.key.new": "New",
            "tn.new.refused": "Only this table's organisers create tournaments here.",
            "tn.new.made": "{name} is open for entries.",
        },
        "de": {
            "tn.col.name": "Turnier",
            "tn.col.game": "Spiel",
            "tn.col.format": "Format",
            "tn.col.starts": "Beginn",
            "tn.col.status": "Stand",
            "tn.col.entered": "Gemeldet",
            "tn.col.player": "Spieler",
            "tn.col.score": "Punkte",
            "tn.col.points": "Punkte",
            "tn.col.wins": "Siege",
            "tn.col.games": "Spiele",
            "tn.status.open": "offen",
            "tn.status.running": "läuft",
            "tn.status.over": "beendet",
            "tn.format.swiss": "Schweizer System, {rounds} Runden",
            "tn.format.roundrobin": "Rundenturnier",
            "tn.format.arena": "Arena, {minutes} Min.",
            "tn.format.duplicate": ", Duplicate",
            "tn.head.swiss": "{name}: Stand nach Runde {round} von {rounds} (Wertung bei "
                             "Gleichstand: Buchholz BH, dann Sonneborn-Berger SB)",
            "tn.head.arena": "{name}: Punkte nach Platz, 2 für einen Sieg; zwei Siege in Folge "
                             "verdoppeln die nächsten, bis eines nicht gewonnen wird",
            "tn.pairings": "Runde {round}:",
            "tn.no_pairings": "Noch keine Paarungen.",
            "tn.bot": "starker Bot",
            "tn.none": "An diesem Tisch gibt es noch keine Turniere.",
            "tn.you.seat": "Dein Tisch in Runde {round} ist bereit: s drücken zum Hinsetzen.",
            "tn.you.entered": "Du bist gemeldet. Dein Tisch erscheint hier, wenn seine Runde "
                              "beginnt.",
            "tn.you.over": "Es ist vorbei: das ist der Endstand.",
            "tn.you.out": "Du bist nicht gemeldet: j drücken zum Melden.",
            "tn.joined": "Du bist für {name} gemeldet.",
            "tn.no_seat": "Kein Tisch wartet auf dich.",
            "tn.key.join": "Melden",
            "tn.key.sit": "Hinsetzen",
            "tn.key.round": "Runde",
            "tn.key.new": "Neu",
            "tn.new.refused": "Hier legen nur die Veranstalter dieses Tisches Turniere an.",
            "tn.new.made": "{name} ist offen für Meldungen.",
        },
    }
)
