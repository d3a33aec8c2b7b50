"""Scho K.O.'s lesson: choosing a colour, the first tile, a Smartie tile on top, the contact
rule, and how the largest group scores.

The deal is stacked (the engine's test option), the learner starting: the bot lays its
first tile beside the learner's, so a Smartie tile of the learner's hand can go on top of
the two at once."""

from __future__ import annotations

from tui.learn.lesson import Lesson, Step, move_of, say

# The learner's four tiles, the bot's four, then the pile in order.
STACK = [
    "w3", "w2s", "w1", "w3s", "w2", "w1", "w3", "w1", "w2s", "w1s", "w1", "w2", "w2s",
    "w1", "w1", "w3", "w3", "w3", "w2s", "w3", "w3", "w2", "w3", "w3s", "w1s", "w2", "w2",
    "w1s", "w2", "w3s", "w1", "w1",
]


STEPS = (
    Step(say(
        "Welcome to Scho K.O., for two. Each tile shows four pieces of chocolate, white and "
        "dark; each of you owns one colour. When every tile is laid, your largest group of "
        "touching pieces of your colour scores a point a piece; the larger group wins.",
        "Willkommen bei Scho K.O., zu zweit. Jedes Plättchen zeigt vier Stücke Schokolade, "
        "weiße und dunkle; jeder von euch hat eine Farbe. Liegen alle Plättchen, zählt deine "
        "größte zusammenhängende Gruppe deiner Farbe einen Punkt je Stück; die größere "
        "Gruppe gewinnt.")),
    Step(say(
        "The table: on the left the layout, seen from above. On the right the two of you, "
        "the tiles left in the pile and your hand of four tiles (● marks a Smartie tile). "
        "After laying a tile you draw one, while the pile lasts.",
        "Der Tisch: links die Auslage, von oben gesehen. Rechts ihr beide, die Plättchen im "
        "Stapel und deine Hand mit vier Plättchen (● zeigt ein Smartie-Plättchen). Nach dem "
        "Legen ziehst du eins nach, solange der Stapel reicht.")),
    Step(say(
        "Keys: 1 to 4 pick a tile of your hand, the arrows move it over the layout, r turns "
        "it, n jumps to the next place where it may go, Enter lays it. l lifts a Smartie "
        "tile to the upper level, g lights each player's largest group. F1 shows the rules.",
        "Tasten: 1 bis 4 wählen ein Plättchen deiner Hand, die Pfeile schieben es über die "
        "Auslage, r dreht es, n springt zur nächsten Stelle, an die es darf, Enter legt es. "
        "l hebt ein Smartie-Plättchen in die obere Ebene, g zeigt die größte Gruppe jedes "
        "Spielers. F1 zeigt die Regeln.")),
    Step(say(
        "You start, so you choose your colour first; the bot gets the other. Your hand is "
        "mostly white: take white with w.",
        "Du fängst an und wählst darum zuerst deine Farbe; der Bot bekommt die andere. Deine "
        "Hand ist vor allem weiß: nimm Weiß mit w."),
        expect=move_of("colour", colour="white"), keys=("w",),
        why=say("Choose white with w.", "Wähl Weiß mit w.")),
    Step(say(
        "Now lay the first tile. It goes in the middle; turn it with r if you like. Lay the "
        "tile shown with Enter.",
        "Jetzt das erste Plättchen. Es kommt in die Mitte; mit r kannst du es drehen. Leg das "
        "gezeigte Plättchen mit Enter."),
        expect=move_of("place", level=1, tile="w3"), keys=("enter",),
        why=say("Lay the first tile of your hand (1), then Enter.",
                "Leg das erste Plättchen deiner Hand (1), dann Enter.")),
    Step(say(
        "The bot laid its tile against yours. Every tile after the first must touch at least "
        "two pieces of the layout along an edge (corners do not count), and at least one "
        "of those contacts must join two pieces of the same colour. A tile may stand half a "
        "tile off the others.",
        "Der Bot hat sein Plättchen an deins gelegt. Jedes weitere Plättchen muss mindestens "
        "zwei Stücke der Auslage an einer Kante berühren (Ecken zählen nicht), und mindestens "
        "eine dieser Berührungen muss zwei Stücke derselben Farbe verbinden. Ein Plättchen "
        "darf um ein halbes Plättchen versetzt liegen.")),
    Step(say(
        "A Smartie tile may also go on top, on the upper level: lying on at least two tiles, "
        "all four pieces over tiles below, and nothing is ever laid on a Smartie tile. The "
        "pieces it covers no longer count. Your first tile is one: press l, then n until you "
        "like the place, then Enter.",
        "Ein Smartie-Plättchen darf auch obenauf, in die obere Ebene: auf mindestens zwei "
        "Plättchen, alle vier Stücke über Plättchen darunter, und auf ein Smartie-Plättchen "
        "kommt nie etwas. Die Stücke darunter zählen nicht mehr. Dein erstes Plättchen ist "
        "eins: drück l, dann n, bis dir die Stelle gefällt, dann Enter."),
        expect=move_of("place", level=2), keys=("l", "n", "enter"),
        why=say("Lay a Smartie tile on the upper level: l, n, then Enter.",
                "Leg ein Smartie-Plättchen in die obere Ebene: l, n, dann Enter.")),
    Step(say(
        "Now a tile on the table itself: pick one, move it with the arrows or n to a place "
        "that grows your white, and lay it with Enter.",
        "Jetzt ein Plättchen auf den Tisch selbst: wähl eins, schieb es mit den Pfeilen oder "
        "n an eine Stelle, die dein Weiß wachsen lässt, und leg es mit Enter."),
        expect=move_of("place", level=1), keys=("4", "n", "enter"),
        why=say("Lay a tile on the lower level this time.",
                "Leg diesmal ein Plättchen in die untere Ebene.")),
    Step(say(
        "Only your largest group counts, so join your pieces up and cut the bot's apart. "
        "Press g to see each largest group. On equal groups the second largest decide, "
        "then the third. Who cannot lay a tile passes (p); two passes in a row end the game.",
        "Nur deine größte Gruppe zählt: Verbinde deine Stücke und trenne die des Bots. g "
        "zeigt die größte Gruppe jedes Spielers. Bei gleich großen Gruppen entscheiden die "
        "zweitgrößten, dann die drittgrößten. Wer nicht legen kann, passt (p); zweimal "
        "hintereinander Passen beendet das Spiel.")),
    Step(say(
        "That is the whole game. Play on until every tile is laid. F1 has every rule; Esc "
        "twice leaves.",
        "Das ist das ganze Spiel. Spiel weiter, bis alle Plättchen liegen. F1 zeigt alle "
        "Regeln; zweimal Esc verlässt das Spiel.")),
)

LESSON = Lesson("schoko", ("You", "Bot"), seed=4, steps=STEPS,
                options={"stack": STACK, "first": 0})
