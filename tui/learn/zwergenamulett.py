"""Das Zwergenamulett's lesson: taking a trick over with the same card, dwarves of one
colour, leading, an amulet taking any trick, and seven dwarves won and announced.

The deal is stacked (the engine's test option) for three players, Bot 1 leading: the bots
hold none of the amulets and Bot 2 none of Bot 1's cards, so the learner's cards decide the
first tricks, and the learner's dwarves come to eight by the fourth."""

from __future__ import annotations

from collections import Counter

from engines.zwergenamulett.rules import DECK
from tui.learn.lesson import Lesson, Step, move_of, say

HANDS = (
    "fee troll zwerg_blau magier amulett drache doppelzwerg zwerg_rot",  # the learner
    "fee fee troll troll zwerg_blau zwerg_blau magier magier",  # Bot 1
    "riese riese riese drache drache doppelzwerg zwerg_rot zwerg_rot",  # Bot 2
)
DEALT = [card for hand in HANDS for card in hand.split()]
STACK = [*DEALT, *(Counter(DECK) - Counter(DEALT)).elements()]


STEPS = (
    Step(say(
        "Welcome to Das Zwergenamulett, a game of tricks. A round is over when the hands are "
        "played out; whoever then has the most points in the tricks they took wins a gold "
        "chip. Three gold chips win the game.",
        "Willkommen beim Zwergenamulett, einem Stichspiel. Eine Runde endet, wenn alle "
        "Karten gespielt sind; wer dann die meisten Punkte in seinen Stichen hat, bekommt "
        "einen Goldchip. Drei Goldchips gewinnen das Spiel.")),
    Step(say(
        "The table: the top line says the round and the gold left in the pool. Below it "
        "the bots: cards in hand, tricks taken, gold. In the middle the trick being played. "
        "At the bottom your hand: the number on a card is its points (Drache 11, Riese 10, "
        "Magier 4, Troll 3, Fee 2; amulets and dwarves 0), ×2 means you hold two.",
        "Der Tisch: oben die Runde und das Gold, das noch im Topf liegt. Darunter die Bots: "
        "Karten auf der Hand, genommene Stiche, Gold. In der Mitte der laufende Stich. Unten "
        "deine Hand: Die Zahl auf einer Karte sind ihre Punkte (Drache 11, Riese 10, Magier "
        "4, Troll 3, Fee 2; Amulette und Zwerge 0), ×2 heißt: zweimal.")),
    Step(say(
        "Keys: ← and → move along your hand (or press a card's number), Enter plays the card "
        "that stands raised. z, pressed twice, announces seven dwarves; more on that later. "
        "h asks for a hint, F6 shows the whole log, F1 the rules.",
        "Tasten: ← und → gehen über deine Hand (oder die Zahl der Karte drücken), Enter spielt "
        "die angehobene Karte. Zweimal z sagt sieben Zwerge an; dazu später mehr. h gibt "
        "einen Tipp, F6 zeigt das ganze Protokoll, F1 die Regeln.")),
    Step(say(
        "Bot 1 led a blue dwarf. Whoever plays the same card on the one led takes the trick "
        "over: the last card like the led one wins it. Bot 2's red dwarf did not: a dwarf "
        "beats only its own colour. ▲ marks your cards that would take it. Play your blue "
        "dwarf (Zwerg blau).",
        "Bot 1 hat einen blauen Zwerg ausgespielt. Wer dieselbe Karte darauf legt, übernimmt "
        "den Stich: Die letzte Karte wie die ausgespielte gewinnt ihn. Der rote Zwerg von "
        "Bot 2 zählt nicht: Ein Zwerg schlägt nur seine eigene Farbe. ▲ zeigt, welche deiner "
        "Karten ihn nehmen würden. Spiel deinen blauen Zwerg."),
        expect=move_of("play", card="zwerg_blau"), keys=("7", "enter"),
        why=say("Play your Zwerg blau here: it takes the trick over.",
                "Spiel hier deinen blauen Zwerg: Er übernimmt den Stich.")),
    Step(say(
        "The trick is yours, so you lead the next one, with any card you like. Lead your "
        "Fee (2 points) and see what the bots do.",
        "Der Stich gehört dir, also spielst du den nächsten aus, mit jeder Karte, die du "
        "willst. Spiel deine Fee aus und sieh, was die Bots tun."),
        expect=move_of("play", card="fee"), keys=("4", "enter"),
        why=say("Lead your Fee this time.", "Spiel diesmal deine Fee aus.")),
    Step(say(
        "Bot 1 had a Fee too and took your trick over; now Bot 1 leads. You need not play "
        "the same card even when you hold it: any card may be played.",
        "Bot 1 hatte auch eine Fee und hat deinen Stich übernommen; jetzt spielt Bot 1 aus. "
        "Dieselbe Karte musst du nie legen, auch wenn du sie hast: Jede Karte ist erlaubt.")),
    Step(say(
        "An amulet takes any trick, whatever was led; only a later amulet beats it. The "
        "dwarves in this trick are worth having: play your amulet.",
        "Ein Amulett nimmt jeden Stich, egal was ausgespielt wurde; nur ein späteres Amulett "
        "schlägt es. Die Zwerge in diesem Stich lohnen sich: Spiel dein Amulett."),
        expect=move_of("play", card="amulett"), keys=("4", "enter"),
        why=say("Play your amulet here: it takes this trick.",
                "Spiel hier dein Amulett: Es nimmt diesen Stich.")),
    Step(say(
        "Dwarves score nothing alone, but at the round's end one amulet in your tricks "
        "counts a point for every dwarf you took (a brown Doppelzwerg counts two). Your "
        "tricks lie face down and may not be looked at again: keep count. You took 6 dwarves.",
        "Zwerge zählen allein nichts, aber am Ende der Runde zählt ein Amulett in deinen "
        "Stichen einen Punkt für jeden genommenen Zwerg (ein brauner Doppelzwerg zählt zwei). "
        "Deine Stiche liegen verdeckt und dürfen nicht mehr angesehen werden: Zähl mit. Du "
        "hast 6 Zwerge.")),
    Step(say(
        "A Doppelzwerg is beaten only by another Doppelzwerg (or an amulet), and neither "
        "bot has one left. Lead yours.",
        "Ein Doppelzwerg wird nur von einem Doppelzwerg (oder einem Amulett) geschlagen, und "
        "keiner der Bots hat noch einen. Spiel deinen aus."),
        expect=move_of("play", card="doppelzwerg"), keys=("5", "enter"),
        why=say("Lead your Doppelzwerg.", "Spiel deinen Doppelzwerg aus.")),
    Step(say(
        "That makes 8 dwarves in your tricks. With seven or more you may announce it at any "
        "moment and win the round at once: press z, then z again. A false announcement "
        "costs you a gold chip and ends the round for nobody's gain.",
        "Das sind 8 Zwerge in deinen Stichen. Mit sieben oder mehr darfst du das jederzeit "
        "ansagen und gewinnst die Runde sofort: drück z und noch einmal z. Eine falsche "
        "Ansage kostet dich einen Goldchip und beendet die Runde ohne Sieger."),
        expect=move_of("claim_seven"), keys=("z", "z"),
        why=say("Announce your seven dwarves now: z, then z again.",
                "Sag jetzt deine sieben Zwerge an: z und noch einmal z.")),
    Step(say(
        "Your first gold chip (Enter closes the round's summary). A round without such an "
        "announcement ends when the hands are played out: everyone adds up the points in "
        "their tricks, plus one amulet's worth; the most points take a gold chip (a tie "
        "gives one to each). Each round, the next player leads the first trick.",
        "Dein erster Goldchip (Enter schließt die Übersicht der Runde). Eine Runde ohne "
        "solche Ansage endet, wenn alle Karten gespielt sind: Jeder zählt die Punkte in "
        "seinen Stichen, dazu ein Amulett; die meisten Punkte bekommen einen Goldchip (bei "
        "Gleichstand jeder). Jede Runde spielt der Nächste den ersten Stich aus.")),
    Step(say(
        "That is the whole game. Play on, round by round, until someone has three gold "
        "chips. F1 has every rule; Esc twice leaves.",
        "Das ist das ganze Spiel. Spiel weiter, Runde um Runde, bis jemand drei Goldchips "
        "hat. F1 zeigt alle Regeln; zweimal Esc verlässt das Spiel.")),
)

LESSON = Lesson("zwergenamulett", ("You", "Bot 1", "Bot 2"), seed=3, steps=STEPS,
                options={"stack": STACK, "first": 1})
