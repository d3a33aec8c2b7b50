"""Schöne Sch#!?e's lesson: pay, take with the chips, a run, the lucky pig, the score.

The deal is stacked (the engine's test option): a 10 that the bots pay on too, so it comes
back with chips; an 11 that makes a run with it; a 26 worth the pig. The learner starts."""

from __future__ import annotations

from tui.learn.lesson import Lesson, Step, kind, say

# The cards in the order they come up; the rest of the 33 follow in order (the bottom 9 of
# the stack are the ones put away unseen).
OPENING = (10, 11, 26, 14, 31, 19, 5, 22)
STACK = [*OPENING, *(card for card in range(3, 36) if card not in OPENING)]

STEPS = (
    Step(say(
        "Welcome to Schöne Sch#!?e. Every card you take counts its number against you, "
        "every chip you hold counts one in your favour. The lowest score wins.",
        "Willkommen bei Schöne Sch#!?e. Jede Karte, die du nimmst, zählt ihre Zahl gegen "
        "dich, jeder Chip in deiner Hand einen Punkt für dich. Die wenigsten Punkte gewinnen.")),
    Step(say(
        "The table: in the middle the card on offer (a 10) with the chips paid onto it, and "
        "beside it the pile still to come. Nine cards were put away unseen, so not every "
        "number turns up. At the top sit the bots, at the bottom you: your cards and your "
        "chips, whose number only you can see.",
        "Der Tisch: in der Mitte die Karte, um die es geht (eine 10), mit den Chips darauf, "
        "daneben der Stapel, der noch kommt. Neun Karten liegen ungesehen beiseite, nicht "
        "jede Zahl kommt also vor. Oben sitzen die Bots, unten du: deine Karten und deine "
        "Chips, deren Zahl nur du siehst.")),
    Step(say(
        "On your turn you do one of two things: t takes the card, Space pays a chip onto it "
        "(\"no thanks\"). Once a game, g puts your lucky pig (oo) down instead of a chip. "
        "h asks for a hint, F1 shows the rules, F6 the whole log.",
        "Wenn du dran bist, tust du eins von beidem: t nimmt die Karte, Leertaste zahlt einen "
        "Chip darauf (\"nein danke\"). Einmal im Spiel legt g dein Glücksschwein (oo) statt "
        "eines Chips. h gibt einen Tipp, F1 zeigt die Regeln, F6 das ganze Protokoll.")),
    Step(say(
        "Ten points for nothing is too much. Pay a chip: press Space. Then the next player "
        "must pay or take, and so on round the table.",
        "Zehn Punkte für nichts sind zu viel. Zahl einen Chip: drück die Leertaste. Dann muss "
        "der Nächste zahlen oder nehmen, und so weiter reihum."),
        expect=kind("pay"), keys=("space",),
        why=say("Not this time: pay a chip with Space. You will take a card in a moment.",
                "Diesmal nicht: zahl einen Chip mit der Leertaste. Gleich nimmst du eine "
                "Karte.")),
    Step(say(
        "The bots paid too, so the 10 is back with 3 chips on it. Take it with t: the card "
        "is yours, and so are its chips. Whoever takes a card turns up the next one and "
        "goes again.",
        "Die Bots haben auch gezahlt: Die 10 ist mit 3 Chips zurück. Nimm sie mit t: Die "
        "Karte gehört dir und ihre Chips auch. Wer eine Karte nimmt, deckt die nächste auf "
        "und ist gleich wieder dran."),
        expect=kind("take"), keys=("t",),
        why=say("Take the 10 now with t: its chips make up for some of its points.",
                "Nimm jetzt die 10 mit t: Ihre Chips machen einen Teil ihrer Punkte wett.")),
    Step(say(
        "An 11, right next to your 10. Cards in a row (a run) count only their lowest: "
        "10 and 11 together still cost you just 10. Take it with t.",
        "Eine 11, direkt neben deiner 10. Karten in einer Reihe zählen nur mit der "
        "niedrigsten: 10 und 11 kosten zusammen nur 10. Nimm sie mit t."),
        expect=kind("take"), keys=("t",),
        why=say("Take the 11 with t: in a run with your 10 it costs nothing.",
                "Nimm die 11 mit t: In der Reihe mit deiner 10 kostet sie nichts.")),
    Step(say(
        "A 26 is dear. Put your lucky pig on it with g, in place of a chip: you sit this "
        "card out while the others pay or take it, and play again from the next card.",
        "Eine 26 ist teuer. Leg mit g dein Glücksschwein darauf, statt eines Chips: Bei "
        "dieser Karte setzt du aus, während die anderen zahlen oder nehmen, und ab der "
        "nächsten spielst du wieder mit."),
        expect=kind("pig"), keys=("g",),
        why=say("Use the pig on this one: press g.",
                "Nimm hier das Schwein: drück g.")),
    Step(say(
        "Watch the bots pay on the 26 until one of them takes it, with every chip on it and "
        "your pig. A pig you win, or never use, counts one point off, like a chip.",
        "Sieh zu, wie die Bots auf die 26 zahlen, bis einer sie nimmt, mit allen Chips und "
        "deinem Schwein. Ein gewonnenes oder nie gelegtes Schwein zählt einen Punkt ab, "
        "wie ein Chip.")),
    Step(say(
        "With no chips left a player must take. The game ends when the last card is taken. "
        "Then each run counts its lowest card, each chip and pig one point off: the "
        "bottom line of your row shows your score so far.",
        "Wer keine Chips mehr hat, muss nehmen. Das Spiel endet, wenn die letzte Karte "
        "genommen ist. Dann zählt jede Reihe ihre niedrigste Karte, jeder Chip und jedes "
        "Schwein einen Punkt ab: Unten in deiner Zeile steht dein Stand.")),
    Step(say(
        "That is the whole game. Play it to the end: pay while a card is dear, take it once "
        "its chips make up for it or it fits a run. F1 has every rule (what happens when "
        "every pig lands on one card, too); Esc twice leaves.",
        "Das ist das ganze Spiel. Spiel es zu Ende: Zahl, solange eine Karte teuer ist, nimm "
        "sie, wenn ihre Chips sie aufwiegen oder sie in eine Reihe passt. F1 zeigt alle "
        "Regeln (auch, was geschieht, wenn alle Schweine auf einer Karte liegen); zweimal "
        "Esc verlässt das Spiel.")),
)

LESSON = Lesson("schoene", ("You", "Bot 1", "Bot 2"), seed=1, steps=STEPS,
                options={"stack": STACK, "first": 0, "lucky_pig": True})
