"""The fair-shuffle verdict of a networked game in words: the results screen's line and the
warning a table shows as soon as a peer's check fails (net.table.fairness decides; this only
says it). Every reason the check can give is here in English (the check's own sentences) and
in German, so a player reads why a deal was not verified in their language.
"""

from __future__ import annotations

from typing import Any

from net.table.fairness import REASONS
from tui.i18n import register, tr

register(
    {
        "en": {
            **{f"fair.{code}": text for code, text in REASONS.items()},
            "results.unverified": "⚠ This deal was NOT verified: {why}",
            "results.verified_gaps": (
                "✔ Shuffles verified: the host's seed replays to this game, made without a "
                "part from {names} (no answer in time)."
            ),
            "results.practice": (
                "⚠ A practice deal, not a fair shuffle: the host chose the seed ({seed})."
            ),
        },
        "de": {
            "results.unverified": "⚠ Diese Partie wurde NICHT als fair bestätigt: {why}",
            "results.verified_gaps": (
                "✔ Mischen geprüft: der Startwert des Gastgebers ergibt dieses Spiel, ohne "
                "einen Teil von {names} (keine Antwort rechtzeitig)."
            ),
            "results.practice": (
                "⚠ Ein Übungsspiel, kein faires Mischen: der Gastgeber hat den Startwert "
                "gewählt ({seed})."
            ),
            "fair.verified": "Mischen geprüft",
            "fair.verified_gaps": (
                "Mischen geprüft, ohne einen Teil von {names} (keine Antwort rechtzeitig)"
            ),
            "fair.practice": (
                "der Gastgeber hat den Startwert gewählt ({seed}): ein Übungsspiel, kein "
                "faires Mischen; das Spiel lässt sich wie gespielt nachspielen"
            ),
            "fair.no_commitment": "der Gastgeber hat sich nie auf einen Startwert festgelegt",
            "fair.no_reveal": "der Gastgeber hat den Startwert nicht offengelegt",
            "fair.incomplete": "die Offenlegung des Gastgebers ist unvollständig",
            "fair.recommitted": "der Gastgeber hat seine Festlegung nachträglich geändert",
            "fair.commitment": (
                "das offengelegte Geheimnis passt nicht zur Festlegung des Gastgebers"
            ),
            "fair.bad_commit": (
                "die Festlegung des Gastgebers nennt nicht jeden Platz einmal und der Reihe "
                "nach"
            ),
            "fair.not_person": (
                "der Gastgeber hat {name} (Platz {n}) um einen Teil des Startwerts gebeten, "
                "einen Platz, den kein Gast spielt"
            ),
            "fair.not_asked": "der Gastgeber hat dich nicht um einen Teil des Startwerts gebeten",
            "fair.unchecked": (
                "du bist erst nach dem Festlegen des Startwerts an den Tisch gekommen, daher "
                "lässt sich dein Teil nicht prüfen"
            ),
            "fair.mine_missing": "dein Teil des Startwerts wurde weggelassen",
            "fair.mine_changed": "dein Teil des Startwerts wurde verändert",
            "fair.bad_parts": "die Liste der Teile des Startwerts ist fehlerhaft",
            "fair.extra": (
                "der Gastgeber hat einen Teil für {name} (Platz {n}) hinzugefügt, um den die "
                "Festlegung nicht gebeten hat"
            ),
            "fair.twice": "der Gastgeber hat {name} (Platz {n}) zwei Teile des Startwerts gegeben",
            "fair.missing": (
                "der Gastgeber hat {name} (Platz {n}) bei den Teilen des Startwerts weggelassen"
            ),
            "fair.order": "der Gastgeber hat die Teile des Startwerts umgestellt",
            "fair.fixed_late": (
                "der Gastgeber hat um Teile des Startwerts gebeten und den Startwert dann "
                "selbst gewählt"
            ),
            "fair.changed": (
                "der Gastgeber hat am Ende ein anderes Geben offengelegt, als er zu Beginn "
                "angekündigt hat"
            ),
            "fair.seed": "der Startwert folgt nicht aus dem Geheimnis und den Teilen",
            "fair.record_seed": "die Aufzeichnung wurde mit einem anderen Startwert gespielt",
            "fair.stacked": "der Gastgeber hat das Geben festgelegt ({options})",
            "fair.replay": "die Aufzeichnung lässt sich nicht nachspielen: {error}",
            "fair.short": "die Aufzeichnung endet vor Stand {state}",
            "fair.differs": (
                "das Nachspielen weicht bei Stand {state} von dem ab, was du gesehen hast"
            ),
            "fair.unfinished": "die Aufzeichnung reicht nicht bis zum Spielende",
            "fair.result": "das Nachspielen ergibt ein anderes Ergebnis",
            "fair.left_me": (
                "der Gastgeber sagt, du hättest das Spiel verlassen, aber du warst am Ende am "
                "Tisch"
            ),
            "fair.closed": (
                "das Schließen des Gastgebers passt nicht zu dem Spiel, das er offengelegt hat"
            ),
        },
    }
)


def why(code: Any, args: Any, note: str = "") -> str:
    """A verdict's reason in the current language; `note` (the check's English sentence) for
    a code this version does not know."""
    if isinstance(code, str) and code in REASONS and isinstance(args, dict):
        try:
            return tr(f"fair.{code}", **args)
        except (KeyError, IndexError):  # arguments that do not fit the sentence
            pass
    return note


def unverified_line(code: Any, args: Any, note: str = "") -> str:
    """The warning for a deal that was not verified, with why."""
    return tr("results.unverified", why=why(code, args, note))


def verify_line(result: dict[str, Any]) -> tuple[str, bool]:
    """A networked game's fair-shuffle line for the results screen, and whether it warns: did
    the revealed seed replay to this game, as the commit promised?"""
    code, args = result.get("verify_code"), result.get("verify_args") or {}
    note = str(result.get("verify_note", ""))
    if not result["verified"]:
        return unverified_line(code, args, note), True
    if result.get("fixed_seed"):  # a fixed seed is no shuffle
        return tr("results.practice", seed=args.get("seed", "?")), True
    if code == "verified_gaps":
        return tr("results.verified_gaps", names=args.get("names", "")), False
    return tr("results.verified"), False
