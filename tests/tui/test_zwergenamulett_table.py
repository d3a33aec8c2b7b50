"""Das Zwergenamulett through the real app: keys and clicks in, the table and its screens out."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import MAX_STEPS, game_screen, local_link, open_lobby, settle, wait_for_board

from engines import get_engine
from tui.app import TabletopApp, local_app
from tui.boards.base import GameBoard
from tui.boards.zwergenamulett import PICK_KEYS, Board, RoundSummary, face_name
from tui.screens.handoff import HandoffScreen
from tui.screens.results import ResultsScreen
from tui.widgets import ActionBar, EventLog, PlayerArea
from tui.widgets.cardrow import CardRow
from tui.widgets.hint_line import HintLine

GAME = "zwergenamulett"


def text_of(widget: Static) -> str:
    return str(widget.render())


def my_turn(board: GameBoard) -> bool:
    view = board.table.view
    return not view["over"] and view["turn"] == board.table.seat


async def wait_for_my_turn(pilot: Pilot[None], *, started_trick: bool = False) -> Board:
    """Dismiss summaries and step until the seat on show must play a card (optionally into a
    trick somebody else started)."""
    for _ in range(MAX_STEPS):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, RoundSummary | HandoffScreen):
            await pilot.press("enter")
            continue
        boards = screen.query(Board)
        if boards and my_turn(boards.first()):
            board = boards.first()
            if board.table.view["trick"] or not started_trick:
                return board
            await pilot.press("enter")  # lead something, to get to a trick led by a bot
    raise AssertionError("never my turn")


def choose_index(board: Board) -> int:
    """The hand position to pick: a card that would take the trick if there is one, else the
    first card, so the game both overtrumps and throws cards away."""
    takes = set(board.table.view["would_overtrump"])
    for index, (card, _) in enumerate(board.groups):
        if card in takes:
            return index
    return 0


async def play_to_results(pilot: Pilot[None]) -> list[dict[str, Any]]:
    """Pick a card with a number key and play it with enter, whenever it is our turn; returns
    the summaries seen on the way."""
    summaries: list[dict[str, Any]] = []
    for _ in range(MAX_STEPS):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, ResultsScreen):
            return summaries
        if isinstance(screen, RoundSummary):
            summaries.append(screen.summary)
            await pilot.press("enter")
            continue
        boards = screen.query(Board)
        if boards and my_turn(boards.first()):
            await pilot.press(PICK_KEYS[choose_index(boards.first())], "enter")
    raise AssertionError("the game did not reach the results screen")


async def test_a_whole_game_with_keys_ends_on_the_results_screen() -> None:
    app = local_app(GAME, 1, 2, "strong", seed=21, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session
        summaries = await play_to_results(pilot)
        result = session.result()
        assert session.over
        human = [move for seat, move in session.moves if seat == 0]
        assert len(human) > 10 and all(m["type"] == "play" for m in human)
        # A summary popped up for every round but the last (that one is the results screen).
        assert [s["round"] for s in summaries] == list(range(1, result["rounds"]))
        screen = app.screen
        for seat, gold in enumerate(result["gold"]):
            shown = text_of(screen.query_one(f"#score-{seat}", Static)).split()
            assert shown == [str(gold), "gold"]
        won = text_of(screen.query_one("#results-won", Static))
        for seat, player in enumerate(session.seats):
            assert (player.name in won) == (seat in result["winners"])
        assert max(result["gold"]) >= 3


async def test_cards_that_would_take_the_trick_are_marked() -> None:
    app = local_app(GAME, 1, 3, "strong", seed=4, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        marked_seen = unmarked_seen = 0
        for _ in range(12):
            board = await wait_for_my_turn(pilot, started_trick=True)
            view = board.table.view
            slots = board.query_one("#hand", CardRow).slots
            takes = set(view["would_overtrump"])
            assert [card for card, _ in board.groups] == sorted(
                set(view["hand"]), key=view["hand"].index
            )
            for (card, count), slot in zip(board.groups, slots, strict=True):
                assert slot.strong == (card in takes), (card, takes)
                assert (slot.below != "") == (card in takes)
                assert slot.count == count == view["hand"].count(card)
            marked_seen += len(takes)
            unmarked_seen += len(board.groups) - len(takes)
            await pilot.press(PICK_KEYS[choose_index(board)], "enter")
        assert marked_seen and unmarked_seen


async def test_keys_and_clicks_pick_the_card_that_is_played() -> None:
    app = local_app(GAME, 1, 2, "strong", seed=8, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_board(pilot)
        session = local_link(app).session
        board = await wait_for_my_turn(pilot)
        assert len(board.groups) > 2
        await pilot.press("right", "right")
        picked = board.groups[2][0]
        assert board.picked == picked
        lifted = [s.lifted for s in board.query_one("#hand", CardRow).slots]
        assert lifted.index(True) == 2 and lifted.count(True) == 1
        await pilot.press("enter")
        await settle(pilot)
        assert session.moves[[s for s, _ in session.moves].index(0)] == (
            0,
            {"type": "play", "card": picked},
        )
        # The mouse: a first click picks a card, a second click on it plays it.
        board = await wait_for_my_turn(pilot)
        row = board.query_one("#hand", CardRow)
        width, gap, left = row._layout(row.size.width)
        target = len(board.groups) - 1
        offset = (left + target * (width + gap) + 1, 3)
        card = board.groups[target][0]
        played = len(session.moves)
        await pilot.click(row, offset=offset)
        assert board.picked == card and len(session.moves) == played
        await pilot.click(row, offset=offset)
        await settle(pilot)
        assert (0, {"type": "play", "card": card}) in session.moves[played:]


async def test_seven_dwarves_key_calls_and_a_false_call_ends_the_round() -> None:
    # A slow bot leads, so the call is made while it is somebody else's turn.
    app = local_app(GAME, 1, 2, "strong", seed=3, options={"first": 1}, lang="en", bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        session = local_link(app).session
        assert board.table.view["turn"] == 1 and board.table.view["round"] == 1
        assert board.query_one(ActionBar).query_one("#act-claim_seven").disabled is False
        assert board.query_one(ActionBar).query_one("#act-play").disabled
        # One press ends nobody's round: it only asks for a second one.
        await pilot.press("z")
        await settle(pilot)
        assert session.moves == [] and not isinstance(app.screen, RoundSummary)
        assert "press z again" in app.screen.query_one(HintLine).text
        await pilot.press("z")
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, RoundSummary):
                break
        assert session.moves == [(0, {"type": "claim_seven"})]
        screen = app.screen
        assert isinstance(screen, RoundSummary)
        assert screen.summary["claimant"] == 0 and screen.summary["claim_success"] is False
        body = text_of(screen.query_one("#summary-body", Static))
        assert "could not show seven dwarves" in body
        await pilot.press("enter")
        await settle(pilot)
        board = app.screen.query_one(Board)
        assert board.table.view["round"] == 2
        log = app.screen.query_one("#log", EventLog).texts
        assert "You called 7 Zwerge! but could not show seven dwarves." in log
        assert any(line.startswith("Round 1 ends with the call. Nobody") for line in log)
        # "s" opens the summary again.
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, RoundSummary)


async def test_memory_aid_from_the_lobby_reaches_the_engine() -> None:
    app = TabletopApp(lang="en", bot_delay=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await open_lobby(pilot, GAME)
        await pilot.click("#opt-memory_aid")  # off by default: on
        await pilot.click("#start")
        board = await wait_for_board(pilot)
        session = local_link(app).session
        assert session.engine.id == GAME
        assert session.options == {"memory_aid": True}
        assert get_engine(GAME).view(session.state, 0)["memory_aid"] is True
        won = board.query_one("#won", Static)
        assert won.display and "Your won cards" in text_of(won)
        # Once a trick is ours, its cards are listed (and only ours: the view says so).
        for _ in range(40):
            board = await wait_for_my_turn(pilot)
            if board.table.view["my_won"]:
                break
            await pilot.press(PICK_KEYS[choose_index(board)], "enter")
        my_won = board.table.view["my_won"]
        assert my_won
        listed = text_of(board.query_one("#won", Static))
        assert all(face_name(card) in listed for card in my_won)


async def test_memory_aid_off_hides_won_cards() -> None:
    app = local_app(GAME, 1, 2, "strong", seed=5, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_board(pilot)
        assert board.table.view["my_won"] is None
        assert not board.query_one("#won", Static).display


async def test_german_labels() -> None:
    app = local_app(GAME, 1, 3, "strong", seed=7, options={}, lang="de", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_my_turn(pilot, started_trick=True)
        bar = board.query_one(ActionBar)
        assert "Karte spielen" in str(bar.query_one("#act-play").label)
        assert "7 Zwerge!" in str(bar.query_one("#act-claim_seven").label)
        status = text_of(board.query_one("#status", Static))
        assert status.startswith("Du bist dran")
        assert "Runde 1" in text_of(board.query_one("#info", Static))
        mine = board.query_one(f"#seat-{board.table.seat}", PlayerArea)
        assert "Stich" in str(mine.border_subtitle)
        log = app.screen.query_one("#log", EventLog).texts
        assert any(line.endswith(": Karte gespielt.") for line in log)
        descriptions = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"Karte spielen", "7 Zwerge!"} <= {str(d) for d in descriptions}


def test_snapshot_of_a_table_at_100x30(snap_compare: Any) -> None:
    app = local_app(GAME, 1, 3, "strong", seed=7, options={}, lang="en", bot_delay=0)

    async def until_my_turn(pilot: Pilot[None]) -> None:
        await wait_for_my_turn(pilot, started_trick=True)
        await settle(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=until_my_turn)


def test_every_event_kind_reads_as_a_sentence_in_both_languages() -> None:
    from tui.boards.zwergenamulett import describe
    from tui.i18n import keys

    names = ["Ada", "Bo", "Cy"]
    events = [
        {"kind": "play", "seat": 0},
        {"kind": "trick", "seat": 1, "cards_count": 3},
        {"kind": "claim", "seat": 2, "success": True, "dwarves": 8},
        {"kind": "claim", "seat": 2, "success": False, "dwarves": None},
        {
            "kind": "round_end",
            "round": 2,
            "ended_by": "play",
            "points": [14, 20, 3],
            "amulet_bonus": [0, 5, 0],
            "winners": [1],
        },
        {
            "kind": "round_end",
            "round": 3,
            "ended_by": "claim",
            "points": None,
            "amulet_bonus": None,
            "winners": [],
        },
        {"kind": "gold", "seat": 1},
        {"kind": "gold_back", "seat": 2},
        {"kind": "game_over", "winners": [0, 1]},
        {"kind": "round_start", "round": 4, "leader": 2},
    ]
    zwerg_keys = {k for k in keys("en") if k.startswith("zwerg.")}
    assert zwerg_keys <= keys("de")
    for lang in ("en", "de"):
        texts = [describe(event, names, lang) for event in events]
        assert all("zwerg." not in t and "{" not in t and t.endswith((".", "!")) for t in texts)
        assert len(set(texts)) == len(texts)
    assert describe(events[4], names, "en") == (
        "Round 2 scores: Ada 14, Bo 20 (amulet +5), Cy 3. Bo won it."
    )
    assert describe(events[2], names, "de") == "Cy: 7 Zwerge! gerufen und 8 Zwerge gezeigt."


async def test_hot_seat_hands_the_keyboard_to_whoever_must_play() -> None:
    """Everyone may call 7 Zwerge at any time, so every seat is always 'to act': the screen
    must still follow the turn, hand over between the two people and let the game go on."""
    app = local_app(GAME, 2, 1, "strong", seed=5, options={"first": 0}, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        handed_to: list[str] = []
        played = 0
        for _ in range(MAX_STEPS):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, HandoffScreen):
                assert not screen.query(GameBoard)
                handed_to.append(screen.player)
                await pilot.press("enter")
                continue
            if isinstance(screen, RoundSummary):
                await pilot.press("enter")
                continue
            boards = screen.query(Board)
            if not boards:
                continue
            board = boards.first()
            view = board.table.view
            if view["turn"] in (0, 1):
                assert board.table.seat == view["turn"], "the board shows the wrong person"
                await pilot.press("enter")
                played += 1
            if played >= 12 and len(set(handed_to)) == 2:
                break
        assert played >= 12
        assert len(set(handed_to)) == 2
        assert local_link(app).session.state_no > played


async def test_each_button_click_makes_exactly_one_move() -> None:
    """The board's own button handler runs before GameBoard's: a click must not also send the
    base class's move (a second card, a second call)."""
    app = local_app(GAME, 1, 2, "strong", seed=8, options={"first": 0}, lang="en", bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await wait_for_my_turn(pilot)
        session = local_link(app).session
        await pilot.press("right")
        picked = board.picked
        await pilot.click("#act-play")
        await settle(pilot)
        assert session.moves == [(0, {"type": "play", "card": picked})]
        await pilot.click("#act-claim_seven")  # it ends the round: a second click confirms
        await settle(pilot)
        assert session.moves[1:] == []
        await pilot.pause(0.3)  # a button ignores clicks while it shows the last one
        await pilot.click("#act-claim_seven")
        await settle(pilot)
        assert session.moves[1:] == [(0, {"type": "claim_seven"})]
        log = game_screen(app).query_one("#log", EventLog).texts
        assert not [line for line in log if line.startswith("Not allowed")], log
