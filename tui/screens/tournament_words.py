"""The menu's word for Tournaments, registered where the menu can have it without loading
the tournaments screen (tui/screens/tournaments.py holds the rest of its words)."""

from tui.i18n import register

register({"en": {"menu.tournaments": "Tournaments"}, "de": {"menu.tournaments": "Turniere"}})
