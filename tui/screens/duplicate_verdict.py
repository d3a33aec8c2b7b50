"""The verdict line of a game played at a tournament's duplicate table: such a table's seed is
fixed (the round's, the same at every table), so the ordinary verdict would call it a practice
deal. What is true instead: before the round closes, that it was dealt from the round's
committed seed and is checked when the round closes; after it, the check itself
(`net.tournament.duplicate.table_check`, the headless entry's check too), verified or the
failure named. The round comes from the table's store, where the app found the seat.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from net.players import ladder
from net.players.store import StoreError
from net.players.tournaments import Tournaments
from net.tournament import duplicate
from tui.i18n import register, tr
from tui.screens.verdict import verify_line

register(
    {
        "en": {
            "dup.pending": (
                "⧗ Dealt from the round's committed seed; checked when the round closes."
            ),
            "dup.verified": (
                "✔ The round's deal, verified: the seed revealed after round {n} matches the "
                "commitment made with its pairings, and this table was dealt from it."
            ),
            "dup.failed": "⚠ NOT the round's deal: {why}",
            "dup.commitment": (
                "the revealed round seed does not match the commitment made with the pairings"
            ),
            "dup.seed": "this table was not dealt from the round's seed",
            "dup.malformed": "the round seed or its commitment is malformed",
            "rated.why.duplicate": (
                "the tournament's deal does not follow from the round's revealed seed ({why})"
            ),
            "rated.why.unpublished": "this table published no such duplicate round before "
                                     "the game",
        },
        "de": {
            "dup.pending": (
                "⧗ Aus dem festgelegten Startwert der Runde gegeben; geprüft, sobald die "
                "Runde endet."
            ),
            "dup.verified": (
                "✔ Das Geben der Runde, geprüft: der nach Runde {n} offengelegte Startwert "
                "passt zur Festlegung mit der Auslosung, und dieser Tisch wurde daraus gegeben."
            ),
            "dup.failed": "⚠ NICHT das Geben der Runde: {why}",
            "dup.commitment": (
                "der offengelegte Startwert der Runde passt nicht zur Festlegung mit der "
                "Auslosung"
            ),
            "dup.seed": "dieser Tisch wurde nicht aus dem Startwert der Runde gegeben",
            "dup.malformed": "der Startwert der Runde oder seine Festlegung ist fehlerhaft",
            "rated.why.duplicate": (
                "das Geben des Turniers folgt nicht aus dem offengelegten Startwert der Runde"
            ),
            "rated.why.unpublished": "dieser Tisch hat vor der Partie keine solche "
                                     "Duplicate-Runde veröffentlicht",
        },
    }
)


def duplicate_round(code: str) -> tuple[str, Any] | None:
    """(tournament, round row) of the duplicate round whose table has join code `code`, from
    the table's store (None: none, or the store cannot be read: the ordinary verdict then)."""
    try:
        store = ladder.open_store()
        try:
            return Tournaments(store).duplicate_round_of(code)
        finally:
            store.close()
    except (StoreError, OSError, sqlite3.Error):
        return None


def duplicate_line(result: dict[str, Any], code: str | None) -> tuple[str, bool, bool]:
    """The verdict line of a game that ended with `result` at the table `code`, whether it
    warns, and whether it waits for the round to close (look again then)."""
    found = duplicate_round(code) if code else None
    if found is None:
        return (*verify_line(result), False)
    tid, row = found
    revealed = row.seed if row.finished is not None else None
    wrong = duplicate.table_check(result, row.commitment, revealed,
                                  duplicate.label(tid, row.round))
    if wrong is None:
        return tr("dup.verified", n=row.round), False, False
    if wrong == duplicate.PENDING:
        return tr("dup.pending"), False, True
    if wrong == "replay":
        return (*verify_line(result), False)
    return tr("dup.failed", why=tr(f"dup.{wrong}")), True, False
