"""Choosing among several moves (whose room, which card, which person, where a removal goes):
a list in place of the hand, walked with the arrow keys or clicked, and left with Esc, so every
choice has a way back. Each move is read out in words."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engines.base import Move, View
from tui.boards.base import GameBoard, seat_name
from tui.boards.chez_geek.cards import CARDS, card_name, card_names
from tui.i18n import tr


def ref_card(view: View, ref: object) -> tuple[int | None, str]:
    """The owner and card id of room card `ref` ((None, "?") if it is not on the table)."""
    for seat, player in enumerate(view["players"]):
        for entry in player["room"]:
            if entry["ref"] == ref:
                return seat, entry["card"]
    return None, "?"


# Fields of a move that name whom or what a card hits: such a move is always shown in a list
# before it is made, even when it is the only one (a single key must not throw out your cat).
CHOICE_FIELDS = ("target", "seat", "with", "take")


def asks(move: Move) -> bool:
    """Whether the move names a target the player should see before it is made."""
    return any(field in move for field in CHOICE_FIELDS)


def hits_own_room(move: Move, view: View) -> bool:
    """Whether the move throws out or takes a card of the player's own room."""
    return "target" in move and ref_card(view, move["target"])[0] == view["seat"]


def own_last(moves: list[Move], view: View) -> list[Move]:
    """The moves in their order, those against the player's own room last."""
    return sorted(moves, key=lambda m: hits_own_room(m, view))


def _room(view: View, names: list[str], seat: object) -> str:
    if seat == view["seat"]:
        return tr("cg.your_room")
    return tr("cg.room_of", name=seat_name(names, seat))


def move_words(move: Move, view: View, names: list[str]) -> str:
    """A legal move as what it does, in a few words."""
    kind = move.get("type")
    card = move.get("card")
    if kind == "call":
        return tr("cg.mv.call", card=card_name(card), room=_room(view, names, move.get("to")))
    if kind == "remove":
        _, cid = ref_card(view, card)
        to = move.get("to")
        where = tr("cg.to_discard") if to is None else _room(view, names, to)
        return tr("cg.mv.remove", card=card_name(cid), where=where)
    if kind == "activity":
        return tr("cg.mv.activity", card=card_name(card), cost=CARDS[card].cost)
    if kind == "shop":
        cards = list(move.get("cards") or [])
        return tr("cg.mv.shop", cards=card_names(cards), cost=sum(CARDS[c].cost for c in cards))
    if kind == "play":
        return _play_words(move, view, names)
    if kind == "choose":
        if isinstance(card, int):
            _, cid = ref_card(view, card)
            return tr("cg.mv.choose_room", card=card_name(cid))
        return tr("cg.mv.choose_hand", card=card_name(card))
    if kind == "take":
        return tr("cg.mv.take", n=move.get("value"))
    if kind in ("cancel", "tv", "discard"):
        return tr(f"cg.mv.{kind}", card=card_name(card))
    return tr(f"cg.mv.{kind}")


def _play_words(move: Move, view: View, names: list[str]) -> str:
    words = tr("cg.mv.play", card=card_name(move.get("card")))
    if "target" in move:
        owner, cid = ref_card(view, move["target"])
        words += " " + tr("cg.mv.target", card=card_name(cid), room=_room(view, names, owner))
    if "seat" in move:
        words += " " + tr("cg.mv.on_seat", name=seat_name(names, move["seat"]))
    if "with" in move:
        words += " " + tr("cg.mv.with", card=card_name(move["with"]))
    if "take" in move:
        words += " " + tr("cg.mv.take_back", card=card_name(move["take"]))
    return words


class Picker(OptionList):
    """The moves to choose from; `Picked(move)` on Enter or a click, `Closed` on Esc."""

    DEFAULT_CSS = """
    Picker { height: auto; max-height: 12; padding: 0 1; }
    Picker, Picker:focus { border: round $accent; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape,backspace", "close", "Back", key_display="Esc"),
    ]

    class Picked(Message):
        def __init__(self, move: Move) -> None:
            super().__init__()
            self.move = move

    class Closed(Message):
        """The picker was left without a choice."""

    def __init__(self, title: str, moves: list[Move], view: View, names: list[str]) -> None:
        self.moves = moves
        options = [
            Option(Content(f"{i + 1 if i < 9 else ' '} {move_words(m, view, names)}"))
            for i, m in enumerate(moves)
        ]
        # No id: a list replaced by another is still leaving the DOM while the new one comes
        # in, and two widgets may not share an id (`m` over an open list once crashed here).
        super().__init__(*options)
        self.border_title = Content(title)
        self.border_subtitle = Content(tr("cg.picker.keys"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Picked(self.moves[event.option_index]))

    def on_key(self, event: Any) -> None:
        """1-9 pick the move with that number at once (a number past the list says so; it
        must not reach the hand hidden behind the list)."""
        if event.character and event.character.isdigit() and event.character != "0":
            index = int(event.character) - 1
            event.stop()
            event.prevent_default()
            if index < len(self.moves):
                self.post_message(self.Picked(self.moves[index]))
            else:
                self.post_message(GameBoard.Hint(tr("cg.no.no_choice_n", n=len(self.moves))))

    def action_close(self) -> None:
        self.post_message(self.Closed())
