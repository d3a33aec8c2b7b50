"""Why a room refused or closed, in the player's language.

The relay's and the host's sentences travel in English and often say more than a code can
(how long to wait, how many rooms an address holds): in English they are shown as they came.
In another language (or when no sentence came) the code (docs/protocol.md, Errors) picks a
sentence of ours, since a stranger's relay chooses the words it sends but not what a code
means here. A code we do not know keeps the sentence as it came. The two failures only the
player can mend (a mistyped code, an old program) are said in our words in every language.
"""

from __future__ import annotations

from net.wire.frames import VERSION
from tui.i18n import known, language, register, tr

register(
    {
        "en": {
            "neterror.ours.wrong_code": "Wrong join code: check the last four symbols",
            "neterror.ours.version": "This table speaks another protocol version: please "
                                     "update tabletop-tui (this one speaks protocol {v})",
            "neterror.busy": "The relay is full right now; try again later.",
            "neterror.bad_code": "That is not a join code: check it again.",
            "neterror.bad_server": "That server address is not valid (HOST:PORT).",
            "neterror.closed": "The connection to the relay was lost.",
            "neterror.code_taken": "Another room already uses this code.",
            "neterror.evicted": "The relay was full and closed this room.",
            "neterror.flood": "Too many messages at once: the connection was closed.",
            "neterror.host_away": "The host keeps going away; try again later.",
            "neterror.idle": "Nothing happened for too long: the connection was closed.",
            "neterror.kicked": "The host took you off the table.",
            "neterror.no_key": "This seat only comes back with the code: join again.",
            "neterror.no_room": "No room with this code was found: check the code and the "
                                "server.",
            "neterror.not_proven": "The host could not prove who it is: join again with the "
                                   "code.",
            "neterror.refused": "The host did not let you in (the table asks for a share of "
                                "finished games).",
            "neterror.replaced": "You now sit at this table from another window.",
            "neterror.room_closed": "The host closed the room.",
            "neterror.room_full": "The room is full.",
            "neterror.slow": "The connection was too slow and was closed.",
            "neterror.slow_down": "This room takes new players slowly just now (it is busy, "
                                  "or wrong codes were tried in it): wait a moment, then try "
                                  "again.",
            "neterror.exchanges": "This join ran its key exchanges with the code already (each "
                                  "is a guess for whoever answers it): join again if you trust "
                                  "this relay.",
            "neterror.table_full": "Every seat is taken; you can still watch.",
            "neterror.tampered": "The relay damages this table's messages: use another server "
                                 "or try again later.",
            "neterror.timeout": "The host did not answer; try again later.",
            "neterror.unknown_resume": "The host no longer knows your seat: join again with the "
                                       "code.",
            "neterror.unproven": "The host could not prove it gave you this seat; your seat key "
                                 "was not sent.",
            "neterror.unreachable": "The relay cannot be reached.",
        },
        "de": {
            "neterror.ours.wrong_code": "Falscher Beitrittscode: prüfe die letzten vier Zeichen",
            "neterror.ours.version": "Dieser Tisch spricht eine andere Protokollversion: bitte "
                                     "tabletop-tui aktualisieren (dieses spricht Protokoll {v})",
            "neterror.busy": "Der Relay-Server ist gerade voll; versuch es später noch einmal.",
            "neterror.bad_code": "Das ist kein Beitrittscode: prüf ihn noch einmal.",
            "neterror.bad_server": "Diese Server-Adresse ist ungültig (HOST:PORT).",
            "neterror.closed": "Die Verbindung zum Relay-Server ist abgebrochen.",
            "neterror.code_taken": "Diesen Code benutzt schon ein anderer Raum.",
            "neterror.evicted": "Der Relay-Server war voll und hat diesen Raum geschlossen.",
            "neterror.flood": "Zu viele Nachrichten auf einmal: die Verbindung wurde getrennt.",
            "neterror.host_away": "Der Gastgeber ist immer wieder weg; versuch es später.",
            "neterror.idle": "Zu lange nichts passiert: die Verbindung wurde getrennt.",
            "neterror.kicked": "Der Gastgeber hat dich vom Tisch genommen.",
            "neterror.no_key": "Zu diesem Platz geht es nur mit dem Code zurück: tritt neu bei.",
            "neterror.no_room": "Keinen Raum mit diesem Code gefunden: prüf den Code und den "
                                "Server.",
            "neterror.not_proven": "Der Gastgeber konnte sich nicht ausweisen: tritt mit dem "
                                   "Code neu bei.",
            "neterror.refused": "Der Gastgeber hat dich nicht hereingelassen (der Tisch "
                                "verlangt einen Anteil beendeter Spiele).",
            "neterror.replaced": "Du sitzt jetzt von einem anderen Fenster aus an diesem Tisch.",
            "neterror.room_closed": "Der Gastgeber hat den Raum geschlossen.",
            "neterror.room_full": "Der Raum ist voll.",
            "neterror.slow": "Die Verbindung war zu langsam und wurde getrennt.",
            "neterror.slow_down": "Dieser Raum nimmt gerade nur langsam neue Spieler auf (er ist "
                                  "beschäftigt, oder es wurden falsche Codes probiert): warte "
                                  "kurz und versuch es dann noch einmal.",
            "neterror.exchanges": "Dieser Beitritt hat seine Schlüsselaustausche mit dem Code "
                                  "schon gemacht (jeder ist ein Rateversuch für den, der "
                                  "antwortet): tritt neu bei, wenn du diesem Relay-Server "
                                  "traust.",
            "neterror.table_full": "Alle Plätze sind besetzt; mit „Zuschauen“ kannst du "
                                   "trotzdem dabei sein.",
            "neterror.tampered": "Der Relay-Server beschädigt die Nachrichten dieses Tisches: "
                                 "nimm einen anderen Server oder versuch es später.",
            "neterror.timeout": "Der Gastgeber hat nicht geantwortet; versuch es später.",
            "neterror.unknown_resume": "Der Gastgeber kennt deinen Platz nicht mehr: tritt mit "
                                       "dem Code neu bei.",
            "neterror.unproven": "Der Gastgeber konnte nicht beweisen, dass er dir diesen Platz "
                                 "gab; dein Platz-Schlüssel wurde nicht geschickt.",
            "neterror.unreachable": "Der Relay-Server ist nicht erreichbar.",
        },
    }
)


# The player's own mistakes, in our words in every language.
OURS = ("wrong_code", "version")


def why(code: str | None, message: str) -> str:
    """The reason to show for a refusal or a closed room with `code` and the sentence that
    came with it."""
    if code in OURS:
        return tr(f"neterror.ours.{code}", v=VERSION)
    key = f"neterror.{code}"
    if (message and language() == "en") or not code or not known(key):
        return message
    return tr(key)
