"""The host's yes or no when somebody asks for an away seat back by name alone.

A seat comes back by its token without asking anybody; a name is no proof (anyone with the
code can type one), so the host's terminal asks its person. Used by the host's room and table
screens; a headless host has nobody to ask and refuses such requests (see net.host).
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from net.host.authority import NetHost
from tui.i18n import register, tr
from tui.screens.overlays import ConfirmScreen

register(
    {
        "en": {
            "reclaim.question": (
                "{name} asks for seat {seat} ({owner}) back, without its token: the seat's "
                "player is away. Only say yes if you know it is them."
            ),
            "reclaim.yes": "Give the seat",
            "reclaim.no": "Refuse",
        },
        "de": {
            "reclaim.question": (
                "{name} möchte Platz {seat} ({owner}) ohne dessen Schlüssel zurück: der Spieler "
                "ist weg. Nur zustimmen, wenn du weißt, dass er es ist."
            ),
            "reclaim.yes": "Platz geben",
            "reclaim.no": "Ablehnen",
        },
    }
)


class ReclaimPrompt(ConfirmScreen):
    """ConfirmScreen's keys (y / n, Esc) and safe default (Enter refuses)."""


def ask_reclaim(screen: Screen[Any], host: NetHost, request: dict[str, Any]) -> None:
    """Show `request` ({"type": "reclaim", "cid", "seat", "name"}) and pass on the answer."""
    seat = int(request["seat"])
    question = tr("reclaim.question", name=request["name"], seat=seat + 1,
                  owner=host.seats[seat].name)
    screen.app.push_screen(ReclaimPrompt(question, tr("reclaim.yes"), tr("reclaim.no")),
                           lambda yes: host.answer_reclaim(int(request["cid"]), bool(yes)))
