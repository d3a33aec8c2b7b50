"""Widgets every game's board shares: cards, token piles, player areas, the event log and the
action buttons. A new board should be assembled from these before inventing its own."""

from tui.widgets.actions import Action, ActionBar, ActionButton
from tui.widgets.cards import Card, CardStrip
from tui.widgets.log import EventLog
from tui.widgets.player import PlayerArea
from tui.widgets.scale import Scalable, largest_fitting, rescale
from tui.widgets.tokens import ChipPile, TokenPile

__all__ = [
    "Action",
    "ActionBar",
    "ActionButton",
    "Card",
    "CardStrip",
    "ChipPile",
    "EventLog",
    "PlayerArea",
    "Scalable",
    "TokenPile",
    "largest_fitting",
    "rescale",
]
