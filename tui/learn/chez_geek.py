"""Chez Geek's lesson: a turn's phases, calling a person, a shopping trip, an activity, ending
a phase and the turn, stopping the bot's person with a cancel, and winning on slack.

Two players, the learner the Slacker (goal 15) against the Drummer bot, the learner first;
the deal, the jobs and the dice are stacked (the engine's test options), every die a 6, so
each call succeeds. The windows wait for the learner (no countdown), who lets them go with p;
the bot holds only Things, so it never stops the learner's cards."""

from __future__ import annotations

from collections import Counter

from engines import get_engine
from tui.learn.lesson import Lesson, Step, kind, move_of, say

ENGINE = get_engine("chez_geek")
DECK = [cid for cid, card in ENGINE.cards.items() for _ in range(card.copies)]
OPENING = [
    # the learner's five cards, the bot's five, then the draw pile
    "lebensabschnittspartner", "bier", "rollenspiel", "worueber_geredet", "meister_der_spiele",
    "enthusiast", "pizza", "nachos", "gullys", "ultra_slims",
    "rollenspiel", "dromedar", "lebensabschnittspartner", "rollenspiel", "dosenravioli",
    "instant_nudeln", "mikrowellenpopcorn", "mentholkippen",
]
STACK = [*OPENING, *sorted((Counter(DECK) - Counter(OPENING)).elements())]
JOBS = ["slacker", "drummer", "hiwi", "web_designer", "arbeitsdrohne", "versuchskaninchen",
        "support_hotline", "zeitarbeiter", "kellner"]


LET_GO = kind("pass")

STEPS = (
    Step(say(
        "Welcome to Chez Geek. You share a flat, and all anyone wants is to slack off. Your "
        "job card says how much slack you need: you are the Slacker, goal 15. Whoever "
        "reaches their goal first wins at once.",
        "Willkommen bei Chez Geek. Ihr teilt euch eine WG, und alle wollen nur eins: "
        "abhängen. Deine Jobkarte sagt, wie viel Slack du brauchst: Du bist der Slacker, "
        "Ziel 15. Wer zuerst sein Ziel erreicht, gewinnt sofort.")),
    Step(say(
        "The table: each player's room is a panel, the job on top with a bar towards its "
        "goal, below it the cards in the room. Your hand is the row at the bottom: $ is what "
        "a card costs, ★ its slack, ▲ marks what you may play now. The middle says what is "
        "going on.",
        "Der Tisch: Jedes Zimmer ist ein Feld, oben der Job mit einem Balken zum Ziel, "
        "darunter die Karten im Zimmer. Deine Hand ist die Reihe unten: $ ist, was eine "
        "Karte kostet, ★ ihr Slack, ▲ zeigt, was du jetzt spielen darfst. Die Mitte sagt, "
        "was gerade los ist.")),
    Step(say(
        "Keys: ← → or the card's number move the cursor in your hand, Enter plays that card, "
        "Space puts a Thing in your shopping basket, e ends a phase or your turn, a answers "
        "another player's card, p lets it go. m lists every move you have, i shows a card's "
        "full text, v every room. F1 has the rules.",
        "Tasten: ← → oder die Zahl der Karte bewegen den Cursor in deiner Hand, Enter spielt "
        "diese Karte, Leertaste legt ein Ding in den Einkaufskorb, e beendet eine Phase oder "
        "deinen Zug, a antwortet auf die Karte eines anderen, p lässt sie durch. m zeigt "
        "alle Züge, i den ganzen Text einer Karte, v alle Zimmer. F1 zeigt die Regeln.")),
    Step(say(
        "A turn has five phases. You drew up to 6 cards, then your job set your income "
        "(money, 1) and free time (5) for this turn; what you leave unused is lost. Now you "
        "may call persons, then spend free time, then discard.",
        "Ein Zug hat fünf Phasen. Du hast auf 6 Karten nachgezogen, dann hat dein Job dein "
        "Einkommen (Geld, 1) und deine Freizeit (5) für diesen Zug gesetzt; was übrig "
        "bleibt, verfällt. Jetzt darfst du Personen einladen, dann Freizeit nutzen, dann "
        "abwerfen.")),
    Step(say(
        "Call your Significant Other into your room: press 1, Enter, and 1 for your room. A "
        "person worth slack has to be home: a die decides, 1 or 2 and it stays away.",
        "Lade deinen Lebensabschnittspartner in dein Zimmer ein: drück 1, Enter und 1 für "
        "dein Zimmer. Eine Person mit Slack muss zu Hause sein: Ein Würfel entscheidet, bei "
        "1 oder 2 bleibt sie weg."),
        expect=move_of("call", card="lebensabschnittspartner", to=0), keys=("1", "enter", "1"),
        why=say("Call your Significant Other into your own room.",
                "Lade deinen Lebensabschnittspartner in dein eigenes Zimmer ein.")),
    Step(say(
        "It came: 3 slack. Keep Mr. Gamer for your next turn; press e to end the calling and "
        "go on to free time.",
        "Er ist gekommen: 3 Slack. Heb dir den Meister der Spiele für den nächsten Zug auf; "
        "drück e, um das Einladen zu beenden und zur Freizeit zu gehen."),
        expect=move_of("end_phase"), keys=("e",),
        why=say("End the calling with e.", "Beende das Einladen mit e.")),
    Step(say(
        "Each point of free time buys one Activity or one shopping trip, if your money "
        "covers it. Go shopping: put the Beer in your basket with 1 and Space, then Enter.",
        "Jeder Punkt Freizeit kauft eine Aktivität oder einen Einkauf, wenn dein Geld "
        "reicht. Geh einkaufen: leg das Bier mit 1 und Leertaste in den Korb, dann Enter."),
        expect=move_of("shop", cards=["bier"]), keys=("1", "space", "enter"),
        why=say("Go shopping for the Beer: 1, Space, Enter.",
                "Kauf das Bier: 1, Leertaste, Enter.")),
    Step(say(
        "Your money is spent, but a Roleplaying Game costs nothing. Play it: its number, "
        "then Enter.",
        "Dein Geld ist weg, aber ein Rollenspielabend kostet nichts. Spiel ihn: seine Zahl, "
        "dann Enter."),
        expect=move_of("activity", card="rollenspiel"), keys=("1", "enter"),
        why=say("Play the Roleplaying Game.", "Spiel den Rollenspielabend.")),
    Step(say(
        "Keep your other cards. Press e to end free time.",
        "Behalte deine anderen Karten. Drück e, um die Freizeit zu beenden."),
        expect=move_of("end_phase"), keys=("e",),
        why=say("End free time with e.", "Beende die Freizeit mit e.")),
    Step(say(
        "Last comes discarding: above 5 cards you throw some away (you have 3). Press e to "
        "end your turn.",
        "Zuletzt wird abgeworfen: Über 5 Karten wirfst du welche ab (du hast 3). Drück e, "
        "um deinen Zug zu beenden."),
        expect=move_of("end_turn"), keys=("e",),
        why=say("End your turn with e.", "Beende deinen Zug mit e.")),
    Step(say(
        "The bot's turn. When it plays a card, a window opens: you may answer with a card "
        "that stops it, or let it go with p. When it calls Mr. Enthusiastic, stop him with "
        "your What Were We Talking About?: press a.",
        "Der Bot ist dran. Spielt er eine Karte, öffnet sich ein Fenster: Du darfst mit einer "
        "Karte antworten, die sie aufhält, oder sie mit p durchlassen. Lädt er den "
        "Enthusiasten ein, halt ihn mit deinem Worüber haben wir gerade geredet? auf: drück "
        "a."),
        expect=move_of("cancel", card="worueber_geredet"), keys=("a",),
        allow=LET_GO, allow_keys=("p",),
        why=say("Stop the bot's person with a; p lets a window go.",
                "Halt die Person des Bots mit a auf; p lässt ein Fenster durch.")),
    Step(say(
        "Stopped: he never came in. Let the bot's other windows go with p. Your turn comes "
        "next: at its start you may try to send persons away from your room (4 to 6 on a "
        "die); keep yours, press e.",
        "Aufgehalten: Er kam nie herein. Lass die anderen Fenster des Bots mit p durch. Dann "
        "bist du dran: Zu Beginn darfst du versuchen, Personen aus deinem Zimmer zu schicken "
        "(4 bis 6 auf dem Würfel); behalte deine, drück e."),
        expect=move_of("end_removals"), keys=("e",), allow=LET_GO, allow_keys=("p",),
        why=say("Keep your persons: press e.", "Behalte deine Personen: drück e.")),
    Step(say(
        "Now Mr. Gamer: he adds +1 to every game card played into your room after him. Call "
        "him: 1, Enter, 1.",
        "Jetzt der Meister der Spiele: Er gibt jeder Spielkarte, die danach in dein Zimmer "
        "kommt, +1. Lade ihn ein: 1, Enter, 1."),
        expect=move_of("call", card="meister_der_spiele", to=0), keys=("1", "enter", "1"),
        why=say("Call Mr. Gamer into your room.",
                "Lade den Meister der Spiele in dein Zimmer ein.")),
    Step(say(
        "And your second Significant Other: 2, Enter, 1.",
        "Und deinen zweiten Lebensabschnittspartner: 2, Enter, 1."),
        expect=move_of("call", card="lebensabschnittspartner", to=0), keys=("2", "enter", "1"),
        why=say("Call your Significant Other into your room.",
                "Lade deinen Lebensabschnittspartner in dein Zimmer ein.")),
    Step(say(
        "11 slack. Press e for free time.", "11 Slack. Drück e für die Freizeit."),
        expect=move_of("end_phase"), keys=("e",),
        why=say("Press e for free time.", "Drück e für die Freizeit.")),
    Step(say(
        "A Roleplaying Game is 2, plus 1 from Mr. Gamer: play one (1, Enter).",
        "Ein Rollenspielabend zählt 2, dazu 1 vom Meister der Spiele: spiel einen (1, "
        "Enter)."),
        expect=move_of("activity", card="rollenspiel"), keys=("1", "enter"),
        why=say("Play a Roleplaying Game.", "Spiel einen Rollenspielabend.")),
    Step(say(
        "14 of 15: play the other Roleplaying Game and you win. That is how a game goes; "
        "there is more in the deck: anytime cards, TV cards that stop an activity, eaters, "
        "Nookie, new jobs. F1 has every rule.",
        "14 von 15: Spiel den anderen Rollenspielabend, und du gewinnst. So läuft ein "
        "Spiel; im Stapel steckt noch mehr: Jederzeit-Karten, Fernsehkarten, die eine "
        "Aktivität aufhalten, Fresser, Nookie, neue Jobs. F1 zeigt alle Regeln.")),
)

LESSON = Lesson("chez_geek", ("You", "Bot"), seed=6, steps=STEPS, options={
    "stack": STACK, "jobs": JOBS, "two_player_jobs_dealt": True, "first": 0,
    "dice": [6] * 40, "window_seconds": 0})
