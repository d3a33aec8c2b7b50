"""Colour themes for the table, switchable while the app runs.

A theme is Textual's palette plus a few table-specific variables (felt, card, chip, pig ...)
that the shared widgets use in their CSS and markup. Every theme defines every variable, so a
widget written for one theme never breaks another; `TABLE_DEFAULTS` is the fallback the app
hands Textual for any theme (e.g. a built-in one picked from the command palette).
"""

from __future__ import annotations

from pathlib import Path

from textual.theme import Theme

# The app's stylesheet: layout and look of the screens, in terms of the theme variables.
STYLESHEET = Path(__file__).with_name("table.tcss")

DEFAULT_THEME = "default"

TABLE_DEFAULTS: dict[str, str] = {
    "felt": "#16402b",  # the table cloth behind the board
    "felt-edge": "#2f6b4a",  # borders of player areas on the cloth
    "card": "#f4efe1",  # a card's face
    "card-ink": "#1d1d1d",  # what is printed on it
    "card-dim": "#8a8578",  # printed but not counting (a run's higher cards)
    "card-edge": "#c9bfa3",
    "card-back": "#8c2f39",  # the back of a face-down card
    "chip": "#f2c14e",
    "pig": "#f4a6b8",
    "active": "#f2c14e",  # whose turn it is
    "you": "#8fd3ff",  # the seat(s) played at this terminal
    "rival": "#ff7ab8",  # the other seat, where a two-player table marks both (Scho K.O.)
    "choc-white": "#f1dfb6",  # white chocolate (Scho K.O.)
    "choc-dark": "#7a4424",  # dark chocolate
    "choc-white-top": "#fff6de",  # the same on level 2, a shade lighter
    "choc-dark-top": "#9c5c34",
    "choc-white-edge": "#9c7d4e",  # the seams framing each tile
    "choc-dark-edge": "#d9a878",
    "smartie": "#ff3b30",  # the sweet on a Smartie tile
}

THEMES: dict[str, Theme] = {
    "default": Theme(
        name="default",
        primary="#3f9f6b",
        secondary="#2f6b4a",
        accent="#f2c14e",
        warning="#f2a14e",
        error="#e0605f",
        success="#7ccf8a",
        foreground="#ecf2e8",
        background="#0f2c1e",
        surface="#16402b",
        panel="#1f5238",
        dark=True,
        variables={
            **TABLE_DEFAULTS,
            "footer-background": "#0b2217",
            "footer-key-foreground": "#f2c14e",
            "block-cursor-background": "#3f9f6b",
        },
    ),
    "high-contrast": Theme(
        name="high-contrast",
        primary="#ffffff",
        secondary="#ffff00",
        accent="#ffff00",
        warning="#ffff00",
        error="#ff5555",
        success="#00ff00",
        foreground="#ffffff",
        background="#000000",
        surface="#000000",
        panel="#1a1a1a",
        dark=True,
        variables={
            "felt": "#000000",
            "felt-edge": "#ffffff",
            "card": "#ffffff",
            "card-ink": "#000000",
            "card-dim": "#555555",
            "card-edge": "#ffffff",
            "card-back": "#000000",
            "chip": "#ffff00",
            "pig": "#ff88ff",
            "active": "#ffff00",
            "you": "#00ffff",
            "rival": "#ff55ff",
            "choc-white": "#e0e0e0",
            "choc-dark": "#9a4a0c",
            "choc-white-top": "#ffffff",
            "choc-dark-top": "#cc6a1c",
            "choc-white-edge": "#000000",
            "choc-dark-edge": "#000000",
            "smartie": "#ff0000",
            "footer-key-foreground": "#ffff00",
            "block-cursor-background": "#ffff00",
            "block-cursor-foreground": "#000000",
        },
    ),
}

THEME_NAMES: tuple[str, ...] = tuple(THEMES)
