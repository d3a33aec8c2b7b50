"""Skip-Bo Breakers' lesson: leading a set, beating it with the same kind higher, winning a
trick, a Breaker, a joker, passing, and how a hand is scored.

The deal is stacked (the engine's test option) for three players, the learner leading; the
bots' answers to each of the learner's plays follow from it."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tui.learn.lesson import Expect, Lesson, Step, kind, say

# The learner's twenty tiles, then the bots' (twenty each), then the four left out.
STACK: list[Any] = [
    3, 4, 5, 9, 9, 9, "SB", 12, 13, 1, 1, 2, 7, 7, 10, 11, 14, 15, 6, 8,
    12, 2, 5, 13, "SB", "SB", 3, 4, 7, 13, 11, 8, 15, 8, 6, 10, 4, 2, 7, 15,
    "SB", 6, 9, 1, 10, 14, 8, 13, 5, 11, 14, 1, 15, 3, 5, 10, 12, 11, 12, 3,
    6, 2, 14, 4,
]


def play(*tiles: Any, values: tuple[int, ...] | None = None) -> Expect:
    """Playing exactly these tiles (standing for `values`, when a joker is among them)."""

    def expect(move: dict[str, Any], view: dict[str, Any]) -> bool:
        if move.get("type") != "play":
            return False
        same = Counter(map(str, move.get("tiles", []))) == Counter(map(str, tiles))
        return same and (values is None or sorted(move.get("values", [])) == sorted(values))

    return expect


STEPS = (
    Step(say(
        "Welcome to Skip-Bo Breakers: be the first to play out all your tiles. Whoever "
        "does wins the hand and scores a point for every tile the others still hold; 50 "
        "points win the game.",
        "Willkommen bei Skip-Bo Breakers: Spiel als Erster alle deine Steine aus. Wer das "
        "schafft, gewinnt die Runde und bekommt einen Punkt für jeden Stein, den die anderen "
        "noch haben; 50 Punkte gewinnen das Spiel.")),
    Step(say(
        "The table: at the top the bots, with how many tiles they hold and their points. In "
        "the middle the set to beat. At the bottom your hand, equal tiles stacked (×2 means "
        "two); SB is a joker.",
        "Der Tisch: oben die Bots, mit der Zahl ihrer Steine und ihren Punkten. In der Mitte "
        "der Satz, den es zu schlagen gilt. Unten deine Hand, gleiche Steine gestapelt (×2 "
        "heißt: zwei); SB ist ein Joker.")),
    Step(say(
        "Keys: ← and → move along your hand, Space takes one more tile of the stack you are "
        "on into your choice, Enter plays the choice, c clears it, p passes. ↓ and ↑ walk "
        "through the plays you have. h asks for a hint, F1 shows the rules.",
        "Tasten: ← und → gehen über deine Hand, Leertaste nimmt einen Stein mehr vom Stapel, "
        "auf dem du stehst, in deine Auswahl, Enter spielt die Auswahl, c leert sie, p passt. "
        "↓ und ↑ gehen durch deine möglichen Züge. h gibt einen Tipp, F1 zeigt die Regeln.")),
    Step(say(
        "You lead, with any set: one tile, a pair, pairs in a row (4 4 5 5), a straight "
        "(three or more numbers in a row) or a Breaker. Play the straight 3 4 5: take the 3, "
        "the 4 and the 5, then Enter.",
        "Du spielst aus, mit jedem Satz: ein Stein, ein Paar, Paare in Folge (4 4 5 5), eine "
        "Straße (drei oder mehr Zahlen in Folge) oder ein Breaker. Spiel die Straße 3 4 5: "
        "nimm die 3, die 4 und die 5, dann Enter."),
        expect=play(3, 4, 5),
        keys=("right", "right", "space", "right", "space", "right", "space", "enter"),
        why=say("Play the straight 3 4 5 this time.", "Spiel diesmal die Straße 3 4 5.")),
    Step(say(
        "Bot 1 beat it with 4 5 6 and Bot 2 with 10 11 12: the same kind of set, with as "
        "many tiles, and higher. Nothing else beats it. Your 13 14 15 does: play it.",
        "Bot 1 hat mit 4 5 6 überboten und Bot 2 mit 10 11 12: derselbe Satz, mit gleich "
        "vielen Steinen, und höher. Nichts anderes schlägt ihn. Deine 13 14 15 schon: "
        "spiel sie."),
        expect=play(13, 14, 15),
        keys=("right",) * 5 + ("space", "right", "space", "right", "space", "enter"),
        why=say("Beat it with 13 14 15.", "Überbiete mit 13 14 15.")),
    Step(say(
        "Both bots passed after you, so the trick is yours: its tiles are set aside and you "
        "lead again. Lead your pair of 1s.",
        "Beide Bots haben nach dir gepasst, also gehört dir der Stich: Seine Steine kommen "
        "beiseite und du spielst wieder aus. Spiel dein Paar Einsen aus."),
        expect=play(1, 1), keys=("right", "space", "space", "enter"),
        why=say("Lead the pair of 1s.", "Spiel das Paar Einsen aus.")),
    Step(say(
        "Bot 1 answered 15 15: no pair is higher. But three or four equal numbers are a "
        "Breaker, and a Breaker beats any set; only a higher Breaker beats it (four tiles "
        "beat three). Play your 9 9 9.",
        "Bot 1 hat 15 15 gelegt: Kein Paar ist höher. Aber drei oder vier gleiche Zahlen "
        "sind ein Breaker, und ein Breaker schlägt jeden Satz; nur ein höherer Breaker "
        "schlägt ihn (vier Steine schlagen drei). Spiel deine 9 9 9."),
        expect=play(9, 9, 9), keys=("right",) * 4 + ("space",) * 3 + ("enter",),
        why=say("Play your Breaker 9 9 9.", "Spiel deinen Breaker 9 9 9.")),
    Step(say(
        "SB is a joker: it stands for any number in one tile, a pair, pairs in a row or a "
        "straight, but never in a Breaker. Lead 6 7 8 with the SB as 9 (j would choose "
        "another number for it).",
        "SB ist ein Joker: Er steht für jede Zahl in einem Einzelstein, einem Paar, Paaren "
        "in Folge oder einer Straße, aber nie in einem Breaker. Spiel 6 7 8 mit dem SB als "
        "9 aus (j wählt eine andere Zahl für ihn)."),
        expect=play(6, 7, 8, "SB", values=(6, 7, 8, 9)),
        keys=("left",) * 3 + ("space", "right", "space", "right", "space")
        + ("right",) * 4 + ("space", "enter"),
        why=say("Lead 6 7 8 and the SB as 9.", "Spiel 6 7 8 und den SB als 9 aus.")),
    Step(say(
        "Bot 2's 12 13 14 15 is more than you can beat. Pass with p. Whoever passed may "
        "still play when the turn comes round again in the same trick.",
        "Gegen 12 13 14 15 von Bot 2 kommst du nicht an. Pass mit p. Wer gepasst hat, darf "
        "wieder spielen, wenn er im selben Stich wieder an die Reihe kommt."),
        expect=kind("pass"), keys=("p",),
        why=say("Pass here with p.", "Pass hier mit p.")),
    Step(say(
        "A hand ends when someone has played their last tile: they score a point for each "
        "tile left in the others' hands. Then all tiles are dealt afresh and the winner "
        "leads. The first to 50 points wins.",
        "Eine Runde endet, wenn jemand seinen letzten Stein gespielt hat: Er bekommt einen "
        "Punkt für jeden Stein, den die anderen noch haben. Dann wird neu verteilt und der "
        "Gewinner spielt aus. Wer zuerst 50 Punkte hat, gewinnt.")),
    Step(say(
        "That is the whole game. Play on: shed awkward tiles early, keep a Breaker for the "
        "moment it wins a trick. F1 has every rule; Esc twice leaves.",
        "Das ist das ganze Spiel. Spiel weiter: Werd sperrige Steine früh los, heb dir einen "
        "Breaker für den Moment auf, in dem er einen Stich gewinnt. F1 zeigt alle Regeln; "
        "zweimal Esc verlässt das Spiel.")),
)

LESSON = Lesson("skipbo_breakers", ("You", "Bot 1", "Bot 2"), seed=5, steps=STEPS,
                options={"stack": STACK, "first": 0})
