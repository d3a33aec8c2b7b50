"""Undo and concede at a game: the words, and what the game screen asks before conceding.

Undo is the table's (net.table.undo): the screen only asks for it and shows the key while
the table says it may. Conceding is leaving, asked first: it ends the game for this seat as
leaving does (a rated game counts as a loss, last place with the penalty; a hosted room
with others in it closes, a guest's seat goes to a bot as the room's takeover rule says).
"""

from __future__ import annotations

from tui.i18n import register, tr

register({
    "en": {
        "game.key.undo": "Undo",
        "game.key.concede": "Concede",
        "game.undo": "{name} took back a move.",
        "game.undo.you": "You took back a move.",
        "game.concede": "Concede this game? It ends for you here, as leaving does.",
        "game.concede.rated": "Concede this rated game? It counts as a loss: last place, "
                              "with the penalty for leaving.",
        "game.concede.yes": "Concede",
        "game.concede.no": "Play on",
        "game.concede.note": "F8 concedes (it asks first).",
    },
    "de": {
        "game.key.undo": "Zurück",
        "game.key.concede": "Aufgeben",
        "game.undo": "{name} hat einen Zug zurückgenommen.",
        "game.undo.you": "Du hast einen Zug zurückgenommen.",
        "game.concede": "Dieses Spiel aufgeben? Es endet hier für dich, wie beim Verlassen.",
        "game.concede.rated": "Dieses gewertete Spiel aufgeben? Es zählt als verloren: letzter "
                              "Platz, mit dem Abzug fürs Verlassen.",
        "game.concede.yes": "Aufgeben",
        "game.concede.no": "Weiterspielen",
        "game.concede.note": "F8 gibt auf (mit Rückfrage).",
    },
})


def concede_question(rated: bool) -> str:
    """What the screen asks before conceding, saying what it costs."""
    return tr("game.concede.rated" if rated else "game.concede")


def undo_line(name: str, you: bool) -> str:
    """The log's line for an undo: who took a move back."""
    return tr("game.undo.you") if you else tr("game.undo", name=name)
