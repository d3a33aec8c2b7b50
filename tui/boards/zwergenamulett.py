"""Das Zwergenamulett at the table: the trick in the middle with who played what and which card
takes it, your hand as coloured cards (those that would take the trick marked), every player's
tricks and gold, and the "7 Zwerge!" call, which is open to everybody at any time of a round.

Won tricks are secret in this game, even from their owner, so the table never lists them: it
shows only how many tricks each player holds, plus your own won cards when the `memory_aid`
option is on. The trick just completed stays on show (faded) until the next card is played,
as it lies on a real table until somebody gathers it. When a round ends, its summary opens on
top of the table once per round and can be opened again with `s`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar
from weakref import WeakKeyDictionary

from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from tui.boards.base import GameBoard, MoveKey, Table
from tui.i18n import count_key, register, tr
from tui.widgets import ActionBar, PlayerArea
from tui.widgets.actions import Action
from tui.widgets.cardrow import SOFT_HYPHEN, CardRow, Face, Slot
from tui.widgets.trick import Play, TrickArea

# How each card looks: the German name as printed, points (a dwarf's worth for dwarves) and
# the card's colour. Dwarves keep their printed colours in every theme: they are the rule.
FACES: dict[str, Face] = {
    "drache": Face("Drache", "11"),
    "riese": Face("Riese", "10"),
    "magier": Face("Magier", "4"),
    "troll": Face("Troll", "3"),
    "fee": Face("Fee", "2"),
    "amulett": Face(f"Zwergen{SOFT_HYPHEN}amulett", "✦", ink="#fff3c4", paper="#6a3d9a"),
    "zwerg_rot": Face("Zwerg\nrot", "☻", ink="#ffffff", paper="#b3261e"),
    "zwerg_blau": Face("Zwerg\nblau", "☻", ink="#ffffff", paper="#1f56b5"),
    "doppelzwerg": Face(f"Doppel{SOFT_HYPHEN}zwerg", "☻☻", ink="#ffffff", paper="#7a4a22"),
}
DWARVES: dict[str, int] = {"zwerg_rot": 1, "zwerg_blau": 1, "doppelzwerg": 2}
GOLD = "●"
# Number keys pick a card of the hand; nine keys for nine faces, so every hand is covered.
PICK_KEYS = "123456789"
# The most cards a hand holds (two players) and thus the most tricks one player can win.
MOST_CARDS = 12

# Summaries already shown on a game screen (round number), so a board made afresh for another
# seat in hot-seat play does not pop the same summary up again.
_SUMMARY_SHOWN: WeakKeyDictionary[Screen[Any], int] = WeakKeyDictionary()


def face_name(card: str | None) -> str:
    """A card's name on one line, as printed ("Zwerg rot", "Doppelzwerg")."""
    if card is None or card not in FACES:
        return "?"
    return FACES[card].name.replace(SOFT_HYPHEN, "").replace("\n", " ")


def grouped(cards: Sequence[str]) -> list[tuple[str, int]]:
    """Identical cards stacked into (card, count), keeping the order given."""
    groups: list[tuple[str, int]] = []
    for card in cards:
        if groups and groups[-1][0] == card:
            groups[-1] = (card, groups[-1][1] + 1)
        else:
            groups.append((card, 1))
    return groups


def dwarves_in(cards: Sequence[str]) -> int:
    return sum(DWARVES.get(card, 0) for card in cards)


def counts_in_words(cards: int, tricks: int, gold: int) -> Content:
    return Content.assemble(
        tr(count_key("zwerg.n_cards", cards), n=cards),
        " · ",
        tr(count_key("zwerg.n_tricks", tricks), n=tricks),
        " · ",
        (GOLD, "bold $chip"),
        (f" {gold}", "bold"),
    )


def wordy_room() -> int:
    """Cells an opponent's box needs inside for the longest wording of its counts."""
    extremes = ((MOST_CARDS, 0), (0, MOST_CARDS), (MOST_CARDS, MOST_CARDS))
    return max(counts_in_words(c, t, 3).cell_length for c, t in extremes)


class SeatCounts(Widget):
    """Cards in hand, tricks won and gold of one player: in words when there is room, else as
    "▮5 ▣2 ●1" (the tooltip and the rules page spell the symbols out)."""

    DEFAULT_CSS = "SeatCounts { height: 1; width: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.counts = (0, 0, 0)
        self.wordy = False

    def set_wordy(self, wordy: bool) -> None:
        """Words or symbols: decided by the board for all seats alike, so that boxes a cell
        apart in width do not read differently."""
        if wordy != self.wordy:
            self.wordy = wordy
            self.refresh()

    def show(self, cards: int, tricks: int, gold: int) -> None:
        if (cards, tricks, gold) != self.counts:
            self.counts = (cards, tricks, gold)
            self.tooltip = tr("zwerg.counts_tip", cards=cards, tricks=tricks, gold=gold)
            self.refresh()

    def render(self) -> Content:
        cards, tricks, gold = self.counts
        if self.wordy:
            return counts_in_words(cards, tricks, gold)
        return Content.assemble(
            ("▮", "$text-muted"),
            (str(cards), "bold"),
            " ",
            ("▣", "$text-muted"),
            (str(tricks), "bold"),
            " ",
            (GOLD, "bold $chip"),
            (str(gold), "bold"),
        )


def seat_area(table: Table, seat: int, *children: Widget) -> PlayerArea:
    player = table.players[seat]
    return PlayerArea(
        *children,
        name=table.name(seat),
        seat=seat,
        you=seat == table.seat,
        bot=player.get("bot"),
        connected=player.get("connected", True),
        id=f"seat-{seat}",
    )


class RoundSummary(ModalScreen[None]):
    """How a round ended, over the table: every player's points with the amulet bonus and who
    took gold, or how the "7 Zwerge!" call went."""

    DEFAULT_CSS = """
    RoundSummary { align: center middle; }
    RoundSummary > #summary-box {
        width: auto; max-width: 90%; height: auto; max-height: 90%;
        border: heavy $accent; background: $felt; padding: 1 2;
    }
    RoundSummary #summary-title { text-style: bold; color: $accent; width: auto; }
    RoundSummary #summary-body { width: auto; margin: 1 0; }
    RoundSummary #summary-hint { color: $text-muted; width: auto; }
    """

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,escape,space,s", "close", show=False),
    ]

    def __init__(self, summary: dict[str, Any], names: list[str]) -> None:
        super().__init__()
        self.summary = summary
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-box"):
            yield Static(tr("zwerg.summary.title", round=self.summary["round"]), id="summary-title")
            yield Static(summary_text(self.summary, self.names), id="summary-body")
            yield Static(tr("zwerg.summary.hint"), id="summary-hint")

    def on_mount(self) -> None:
        # The app stylesheet gives every Screen an opaque background, which beats this
        # class's CSS; an inline style lets the table show through, dimmed.
        backdrop = Color.parse(self.app.theme_variables.get("background", "black"))
        self.styles.background = backdrop.with_alpha(0.6)

    def on_click(self) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


def summary_text(summary: dict[str, Any], names: list[str]) -> Content:
    """The body of a round summary: a points table after a played-out round, a sentence after
    a call; then who took gold and who paid a chip back."""

    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    lines: list[Content] = []
    gold_to: list[int] = list(summary.get("gold_to") or [])
    if summary.get("ended_by") == "claim":
        key = (
            "zwerg.summary.claim_true"
            if summary.get("claim_success")
            else "zwerg.summary.claim_false"
        )
        claimant = summary.get("claimant")
        lines.append(Content(tr(key, name=name(claimant), dwarves=summary.get("claim_dwarves"))))
    else:
        points: list[int] = summary.get("points") or []
        cards: list[int] = summary.get("card_points") or []
        bonus: list[int] = summary.get("amulet_bonus") or []
        width = max([len(n) for n in names] + [len(tr("zwerg.summary.player"))])
        head = (
            f"{tr('zwerg.summary.player'):<{width}}  {tr('zwerg.summary.cards'):>6}"
            f"  {tr('zwerg.summary.amulet'):>7}  {tr('zwerg.summary.total'):>6}"
        )
        lines.append(Content.styled(head, "$text-muted"))
        winners = set(summary.get("winners") or [])
        for seat, total in enumerate(points):
            extra = f"+{bonus[seat]}" if seat < len(bonus) and bonus[seat] else "—"
            row = (
                f"{name(seat):<{width}}  {cards[seat] if seat < len(cards) else '?':>6}"
                f"  {extra:>7}  {total:>6}"
            )
            style = "bold $accent" if seat in winners else ""
            mark = (f"  {GOLD} +1", "bold $chip") if seat in gold_to else ("", "")
            lines.append(Content.assemble((row, style), mark))
    lines.append(Content(""))
    if gold_to:
        who = ", ".join(name(s) for s in gold_to)
        lines.append(Content(tr(count_key("zwerg.summary.gold_to", len(gold_to)), names=who)))
    else:
        lines.append(Content(tr("zwerg.summary.no_gold")))
    if summary.get("gold_back") is not None:
        lines.append(Content(tr("zwerg.summary.gold_back", name=name(summary["gold_back"]))))
    return Content("\n").join(lines)


class Board(GameBoard):
    """The Zwergenamulett table for one seat (or a spectator)."""

    DEFAULT_CSS = """
    Board { layout: vertical; }
    Board #info { height: 1; width: 1fr; color: $text-muted; }
    Board #others { height: auto; width: 1fr; }
    Board #others > PlayerArea { width: 1fr; }
    Board #middle { height: 1fr; min-height: 7; align: center middle; }
    Board #status { height: 1; width: 1fr; text-align: center; text-style: bold; color: $active; }
    Board #seat-me { padding: 0; }
    Board #won { height: auto; padding: 0 1; color: $text-muted; }
    Board ActionBar { margin-top: 0; }
    """

    MIN_SIZE: ClassVar[tuple[int, int]] = (66, 22)
    MOVE_KEYS: ClassVar[tuple[MoveKey, ...]] = (MoveKey("z", "claim_seven", "zwerg.key.claim"),)

    def __init__(self, table: Table, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(table, id=id, classes=classes)
        self.picked: str | None = None  # the card of the hand under the cursor
        self.groups: list[tuple[str, int]] = []

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        table = self.table
        others = (
            table.seats_from_me() if table.seat is not None else list(range(len(table.players)))
        )
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
        """Opponents' counts in words when every box has room for the longest wording."""
        if self.counts:
            room = (self.size.width - 2) // len(self.counts) - 4
            wordy = room >= wordy_room()
            for counts in self.counts.values():
                counts.set_wordy(wordy)

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
        view = table.view
        self._draw_seats(table)
        self._draw_trick(table)
        self.query_one("#info", Static).update(self._info(table))
        self.query_one("#status", Static).update(self._status(table))
        if table.seat is not None:
            self._draw_hand(table)
        self.query_one(ActionBar).set_state("play", enabled=self._can_play())
        self._maybe_show_summary(view)

    def _draw_seats(self, table: Table) -> None:
        view = table.view
        for area in self.query(PlayerArea):
            seat = area.seat
            player = table.players[seat]
            area.set_player(
                table.name(seat),
                you=seat == table.seat,
                bot=player.get("bot"),
                connected=player.get("connected", True),
            )
            # Everybody may call in this game, so "to_act" is everyone: the turn is `turn`.
            area.set_active(not view["over"] and seat == view["turn"])
            if seat in self.counts:
                self.counts[seat].show(
                    view["hand_sizes"][seat], view["tricks_won"][seat], view["gold"][seat]
                )
            else:
                tricks, gold = view["tricks_won"][seat], view["gold"][seat]
                note = Content.assemble(
                    tr(count_key("zwerg.n_tricks", tricks), n=tricks), f" · {GOLD} {gold}"
                )
                area.set_extra(note=note.plain)

    def _draw_trick(self, table: Table) -> None:
        view = table.view
        trick_area = self.query_one("#trick", TrickArea)
        count = view["num_players"]
        trick: list[dict[str, Any]] = view["trick"]
        last = view["last_trick"]
        if not trick and last is not None:
            cards = last["cards"]
            plays = [Play(table.name(c["seat"]), FACES[c["card"]]) for c in cards]
            winner = next(i for i, c in enumerate(cards) if c["seat"] == last["winner"])
            key = "zwerg.last_trick" if last["round"] == view["round"] else "zwerg.last_trick_of"
            trick_area.show(
                plays,
                title=Content.styled(
                    tr(key, name=table.name(last["winner"]), round=last["round"]), "$text-muted"
                ),
                winner=winner,
                winner_note=tr("zwerg.took"),
                faded=True,
            )
            return
        plays = [Play(table.name(c["seat"]), FACES[c["card"]]) for c in trick]
        winner = None
        if trick:
            winner = next(i for i, c in enumerate(trick) if c["seat"] == view["trick_winner"])
        leader = view["leader"]
        waiting: list[str] = []
        if leader is not None and not view["over"]:
            waiting = [table.name((leader + i) % count) for i in range(len(trick), count)]
        if view["over"]:
            title = Content.styled(tr("game.over"), "bold $accent")
        elif trick:
            title = Content.assemble(
                tr("zwerg.led", card=face_name(view["trick_led"])),
                " · ",
                (tr("zwerg.taking", name=table.name(view["trick_winner"])), "bold $accent"),
            )
        else:
            title = Content(tr("zwerg.leads", name=table.name(leader)))
        trick_area.show(
            plays,
            title=title,
            waiting=waiting,
            winner=winner,
            winner_note=tr("zwerg.takes"),
            next_note=tr("zwerg.next"),
        )

    def _info(self, table: Table) -> Content:
        view = table.view
        parts: list[Content] = [Content(tr("zwerg.round", round=view["round"]))]
        if view["round_leader"] is not None:
            parts.append(Content(tr("zwerg.round_leader", name=table.name(view["round_leader"]))))
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
        if view["turn"] != table.seat or table.seat is None:
            if table.seat is None:
                return tr("game.turn_of", name=table.name(view["turn"]))
            return tr("zwerg.waiting", name=table.name(view["turn"]))
        if not view["trick"]:
            return tr("zwerg.your_lead")
        if view["would_overtrump"]:
            return tr("zwerg.your_turn_can_take")
        return tr("zwerg.your_turn_cannot_take")

    def _draw_hand(self, table: Table) -> None:
        view = table.view
        hand: list[str] = view["hand"]
        old = [card for card, _ in self.groups]
        self.groups = grouped(hand)
        cards = [card for card, _ in self.groups]
        if self.picked not in cards:
            # Keep the cursor where it was in the row when its card has gone.
            at = old.index(self.picked) if self.picked in old else 0
            self.picked = cards[min(at, len(cards) - 1)] if cards else None
        my_turn = view["turn"] == table.seat and not view["over"]
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
            won.update(
                tr("zwerg.my_won", cards=listed or tr("zwerg.nothing"), dwarves=dwarves_in(my_won))
            )
        tricks, gold = view["tricks_won"][table.seat], view["gold"][table.seat]
        area = self.query_one(f"#seat-{table.seat}", PlayerArea)
        area.set_extra(note=f"{tr(count_key('zwerg.n_tricks', tricks), n=tricks)} · {GOLD} {gold}")

    def _maybe_show_summary(self, view: dict[str, Any]) -> None:
        summary = view["round_summary"]
        if not self.is_mounted:
            return
        if view["over"]:
            # The results screen comes next, and the game screen later leaves by popping the
            # top screen: no summary may be left open above it.
            if isinstance(self.app.screen, RoundSummary):
                self.app.screen.dismiss()
            return
        if summary is None:
            return
        screen = self.screen
        if _SUMMARY_SHOWN.get(screen, 0) >= summary["round"]:
            return
        _SUMMARY_SHOWN[screen] = summary["round"]
        self.app.push_screen(RoundSummary(summary, self.table.names))

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
        if event.name == "play":
            event.stop()
            self.action_play_picked()
        else:
            super().on_action_bar_chosen(event)

    @classmethod
    def result_detail(cls, result: dict[str, Any], seat: int) -> Widget | None:
        gold = result["gold"][seat]
        chips = Content.assemble(
            (GOLD * gold, "bold $chip"), f"  {tr('zwerg.result_gold', gold=gold)}"
        )
        return Vertical(
            Static(chips),
            Static(tr("zwerg.result_rounds", rounds=result["rounds"]), classes="sum"),
            classes="detail",
        )


def describe(event: dict[str, Any], names: list[str], lang: str) -> str:
    """One Zwergenamulett event as a sentence. Play events never name the card: won tricks are
    secret, and the log is kept for the whole game."""

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def name_list(seats: Sequence[int]) -> str:
        return ", ".join(name(s) for s in seats)

    kind = event.get("kind", "")
    if kind == "play":
        return tr("zwerg.event.play", lang=lang, name=name(event.get("seat")))
    if kind == "trick":
        count = int(event.get("cards_count", 0))
        return tr("zwerg.event.trick", lang=lang, name=name(event.get("seat")), count=count)
    if kind == "claim":
        key = "zwerg.event.claim_true" if event.get("success") else "zwerg.event.claim_false"
        return tr(key, lang=lang, name=name(event.get("seat")), dwarves=event.get("dwarves"))
    if kind == "round_end":
        winners = list(event.get("winners") or [])
        won = tr(
            count_key("zwerg.event.round_won", len(winners)), lang=lang, names=name_list(winners)
        )
        if event.get("ended_by") == "claim":
            return tr("zwerg.event.round_claimed", lang=lang, round=event.get("round"), won=won)
        points = list(event.get("points") or [])
        bonus = list(event.get("amulet_bonus") or [])
        scores = ", ".join(
            f"{name(seat)} {total}"
            + (
                tr("zwerg.event.bonus", lang=lang, n=bonus[seat])
                if seat < len(bonus) and bonus[seat]
                else ""
            )
            for seat, total in enumerate(points)
        )
        return tr(
            "zwerg.event.round_end", lang=lang, round=event.get("round"), scores=scores, won=won
        )
    if kind in ("gold", "gold_back"):
        return tr(f"zwerg.event.{kind}", lang=lang, name=name(event.get("seat")))
    if kind == "game_over":
        winners = list(event.get("winners") or [])
        key = count_key("zwerg.event.game_over", len(winners))
        return tr(key, lang=lang, names=name_list(winners))
    if kind == "round_start":
        return tr(
            "zwerg.event.round_start",
            lang=lang,
            round=event.get("round"),
            name=name(event.get("leader")),
        )
    return tr("zwerg.event.unknown", lang=lang, kind=kind)


register(
    {
        "en": {
            "option.zwergenamulett.memory_aid": "Memory aid: show me my own won cards",
            "zwerg.key.claim": "7 Zwerge!",
            "zwerg.key.play": "Play card",
            "zwerg.key.pick": "Pick card",
            "zwerg.key.left": "Left",
            "zwerg.key.right": "Right",
            "zwerg.key.summary": "Round summary",
            "zwerg.hand_empty": "no cards in hand",
            "zwerg.n_cards.zero": "no cards",
            "zwerg.n_cards.one": "1 card",
            "zwerg.n_cards.many": "{n} cards",
            "zwerg.n_tricks.zero": "no tricks",
            "zwerg.n_tricks.one": "1 trick",
            "zwerg.n_tricks.many": "{n} tricks",
            "zwerg.counts_tip": "{cards} cards in hand · {tricks} tricks won · {gold} gold",
            "zwerg.round": "Round {round}",
            "zwerg.round_leader": "{name} led off",
            "zwerg.pool": "pool",
            "zwerg.to_win": "{gold} gold wins",
            "zwerg.led": "{card} led",
            "zwerg.taking": "{name} is taking it",
            "zwerg.leads": "{name} leads the next trick",
            "zwerg.last_trick": "Last trick: {name} took it",
            "zwerg.last_trick_of": "Last trick of round {round}: {name} took it",
            "zwerg.takes": "▲ takes",
            "zwerg.took": "★ took",
            "zwerg.next": "to play",
            "zwerg.waiting": "{name} is to play · z: call 7 Zwerge! any time",
            "zwerg.your_lead": "Your lead: pick a card with ←/→ or 1–9, then enter",
            "zwerg.your_turn_can_take": "Your turn: ▲ marks the cards that would take the trick",
            "zwerg.your_turn_cannot_take": "Your turn: no card of yours can take this trick",
            "zwerg.my_won": "Your won cards: {cards} (☻ {dwarves} dwarves)",
            "zwerg.nothing": "none yet",
            "zwerg.summary.title": "Round {round} is over",
            "zwerg.summary.hint": "enter: back to the table · s: show this again",
            "zwerg.summary.player": "Player",
            "zwerg.summary.cards": "cards",
            "zwerg.summary.amulet": "amulet",
            "zwerg.summary.total": "total",
            "zwerg.summary.claim_true": (
                "{name} called 7 Zwerge! and showed {dwarves} dwarves: the round is theirs."
            ),
            "zwerg.summary.claim_false": (
                "{name} called 7 Zwerge! but could not show seven dwarves: "
                "the round ends without a winner."
            ),
            "zwerg.summary.gold_to.zero": "Nobody takes gold.",
            "zwerg.summary.gold_to.one": "A gold chip for {names}.",
            "zwerg.summary.gold_to.many": "A gold chip each for {names}.",
            "zwerg.summary.no_gold": "Nobody takes gold.",
            "zwerg.summary.gold_back": "{name} gave a gold chip back.",
            "zwerg.result_gold": "{gold} gold",
            "zwerg.result_rounds": "after {rounds} rounds",
            "zwerg.event.play": "{name} played a card.",
            "zwerg.event.trick": "{name} took the trick ({count} cards).",
            "zwerg.event.claim_true": "{name} called 7 Zwerge! and showed {dwarves} dwarves.",
            "zwerg.event.claim_false": "{name} called 7 Zwerge! but could not show seven dwarves.",
            "zwerg.event.round_won.zero": "Nobody won it.",
            "zwerg.event.round_won.one": "{names} won it.",
            "zwerg.event.round_won.many": "{names} won it together.",
            "zwerg.event.bonus": " (amulet +{n})",
            "zwerg.event.round_end": "Round {round} scores: {scores}. {won}",
            "zwerg.event.round_claimed": "Round {round} ends with the call. {won}",
            "zwerg.event.gold": "{name} took a gold chip.",
            "zwerg.event.gold_back": "{name} gave a gold chip back.",
            "zwerg.event.game_over.zero": "The game is over.",
            "zwerg.event.game_over.one": "{names} won the game!",
            "zwerg.event.game_over.many": "{names} shared the win!",
            "zwerg.event.round_start": "Round {round} is dealt; first lead: {name}.",
            "zwerg.event.unknown": "({kind})",
        },
        "de": {
            "option.zwergenamulett.memory_aid": "Gedächtnisstütze: eigene Stiche zeigen",
            "zwerg.key.claim": "7 Zwerge!",
            "zwerg.key.play": "Karte spielen",
            "zwerg.key.pick": "Karte wählen",
            "zwerg.key.left": "Links",
            "zwerg.key.right": "Rechts",
            "zwerg.key.summary": "Rundenergebnis",
            "zwerg.hand_empty": "keine Karten auf der Hand",
            "zwerg.n_cards.zero": "keine Karten",
            "zwerg.n_cards.one": "1 Karte",
            "zwerg.n_cards.many": "{n} Karten",
            "zwerg.n_tricks.zero": "keine Stiche",
            "zwerg.n_tricks.one": "1 Stich",
            "zwerg.n_tricks.many": "{n} Stiche",
            "zwerg.counts_tip": "{cards} Karten auf der Hand · {tricks} Stiche · {gold} Gold",
            "zwerg.round": "Runde {round}",
            "zwerg.round_leader": "{name} hat ausgespielt",
            "zwerg.pool": "Vorrat",
            "zwerg.to_win": "{gold} Gold gewinnt",
            "zwerg.led": "{card} ausgespielt",
            "zwerg.taking": "{name} sticht",
            "zwerg.leads": "{name} spielt aus",
            "zwerg.last_trick": "Letzter Stich: an {name}",
            "zwerg.last_trick_of": "Letzter Stich von Runde {round}: an {name}",
            "zwerg.takes": "▲ sticht",
            "zwerg.took": "★ Stich",
            "zwerg.next": "am Zug",
            "zwerg.waiting": "{name} ist am Zug · z: jederzeit 7 Zwerge! rufen",
            "zwerg.your_lead": "Du spielst aus: Karte mit ←/→ oder 1–9 wählen, dann Enter",
            "zwerg.your_turn_can_take": "Du bist dran: ▲ zeigt, welche Karten stechen würden",
            "zwerg.your_turn_cannot_take": "Du bist dran: keine deiner Karten sticht hier",
            "zwerg.my_won": "Deine Stiche: {cards} (☻ {dwarves} Zwerge)",
            "zwerg.nothing": "noch keine",
            "zwerg.summary.title": "Runde {round} ist vorbei",
            "zwerg.summary.hint": "Enter: zurück zum Tisch · s: wieder zeigen",
            "zwerg.summary.player": "Spieler",
            "zwerg.summary.cards": "Karten",
            "zwerg.summary.amulet": "Amulett",
            "zwerg.summary.total": "Summe",
            "zwerg.summary.claim_true": (
                "{name}: 7 Zwerge! gerufen und {dwarves} Zwerge gezeigt, die Runde ist gewonnen."
            ),
            "zwerg.summary.claim_false": (
                "{name}: 7 Zwerge! gerufen, aber keine sieben Zwerge gezeigt; "
                "die Runde endet ohne Sieger."
            ),
            "zwerg.summary.gold_to.zero": "Niemand bekommt Gold.",
            "zwerg.summary.gold_to.one": "Ein Goldstück für {names}.",
            "zwerg.summary.gold_to.many": "Je ein Goldstück für {names}.",
            "zwerg.summary.no_gold": "Niemand bekommt Gold.",
            "zwerg.summary.gold_back": "{name}: ein Goldstück zurückgegeben.",
            "zwerg.result_gold": "{gold} Gold",
            "zwerg.result_rounds": "nach {rounds} Runden",
            "zwerg.event.play": "{name}: Karte gespielt.",
            "zwerg.event.trick": "{name}: Stich bekommen ({count} Karten).",
            "zwerg.event.claim_true": "{name}: 7 Zwerge! gerufen und {dwarves} Zwerge gezeigt.",
            "zwerg.event.claim_false": (
                "{name}: 7 Zwerge! gerufen, aber keine sieben Zwerge gezeigt."
            ),
            "zwerg.event.round_won.zero": "Niemand hat sie gewonnen.",
            "zwerg.event.round_won.one": "Gewonnen: {names}.",
            "zwerg.event.round_won.many": "Gemeinsam gewonnen: {names}.",
            "zwerg.event.bonus": " (Amulett +{n})",
            "zwerg.event.round_end": "Runde {round} zählt: {scores}. {won}",
            "zwerg.event.round_claimed": "Runde {round} endet mit dem Ruf. {won}",
            "zwerg.event.gold": "{name}: ein Goldstück bekommen.",
            "zwerg.event.gold_back": "{name}: ein Goldstück zurückgegeben.",
            "zwerg.event.game_over.zero": "Das Spiel ist aus.",
            "zwerg.event.game_over.one": "Das Spiel gewinnt: {names}!",
            "zwerg.event.game_over.many": "Den Sieg teilen sich: {names}!",
            "zwerg.event.round_start": "Runde {round} wird gegeben; es spielt aus: {name}.",
            "zwerg.event.unknown": "({kind})",
        },
    }
)
