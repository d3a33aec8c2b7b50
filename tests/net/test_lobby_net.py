"""The networked lobbies at 80×24, by keys alone: a kick asks first and the guest sent out
sees it; the guest chats with a key; lobby chat opens the game's log and is still there,
each line once, after a reconnect and after a rejoin; Esc in the host's lobby goes back to
the hosting form with its game."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from test_net_tui import open_host_lobby, screen_of, until
from textual.events import Key, Paste
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from engines import get_engine
from net.host.hosting import TABLE_PAGE_ENV, HostPlan
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.netplay import ChatPrompt, NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.menu import MenuScreen
from tui.screens.net_lobby import HostLobbyScreen, PeerLobbyScreen
from tui.screens.overlays import ConfirmScreen
from tui.widgets import EventLog

SMALL = (80, 24)


def hosting(plan: HostPlan) -> TabletopApp:
    return TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))


def joining(code: str, relay: Relay) -> TabletopApp:
    return TabletopApp(lang="en", opening=lambda: JoinScreen(code, "Pia", relay.url, auto=True))


def on_screen(widget: Any) -> bool:
    """Wholly inside an 80×24 window."""
    region = widget.region
    return region.width > 0 and region.right <= SMALL[0] and region.bottom <= SMALL[1] - 1


def shown(screen: Any) -> str:
    return "\n".join(str(s.render()) for s in screen.query(Static))


async def tab_to(pilot: Pilot[None], widget_id: str) -> None:
    for _ in range(40):
        focused = pilot.app.focused
        if focused is not None and focused.id == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached #{widget_id}")


async def pia_seated(host: Pilot[None], peer: Pilot[None],
                     lobby: HostLobbyScreen) -> PeerLobbyScreen:
    """Pia's lobby, once the host's has her in seat 2."""
    guest: PeerLobbyScreen = await until(peer, screen_of(peer, PeerLobbyScreen),
                                         "the guest's lobby")
    await until(host, lambda: lobby.seats[1]["name"] == "Pia", "Pia seated")
    return guest


@asynccontextmanager
async def hana_and_pia(relay: Relay, plan: HostPlan) -> AsyncIterator[
        tuple[Pilot[None], Pilot[None], HostLobbyScreen, PeerLobbyScreen]]:
    """Hana hosting `plan` and Pia seated in her room, both at 80×24."""
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        async with joining(lobby.host.display_code, relay).run_test(size=SMALL) as peer:
            yield host, peer, lobby, await pia_seated(host, peer, lobby)


async def test_a_kick_asks_first_and_the_guest_sent_out_is_seated_no_more(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hana_and_pia(relay, plan) as (host, peer, lobby, guest):
        await until(peer, lambda: "Pia (you)" in shown(guest), "Pia sees her seat")
        await tab_to(host, "seat-1")  # Pia's "Kick"
        await host.press("enter")
        confirm = await until(host, screen_of(host, ConfirmScreen), "the question")
        assert "Pia" in str(confirm.query_one("#confirm-text").render())
        await host.press("enter")  # Enter gives the safe answer: Pia stays
        await until(host, screen_of(host, HostLobbyScreen), "the lobby again")
        assert lobby.host.seats[1].name == "Pia" and host.app.focused.id == "seat-1"
        # A button takes no second press while it still shows the first (Textual's).
        await until(host, lambda: not host.app.focused.has_class("-active"), "Kick ready")
        await host.press("enter")
        await until(host, screen_of(host, ConfirmScreen), "the question again")
        await host.press("right", "enter")  # to "Send out", and yes
        await until(host, lambda: lobby.seats[1]["kind"] == "empty", "the seat free")
        assert host.app.focused.id == "seat-1"  # now its "+ Bot"
        # Pia's screen says she is out, and seats her nowhere.
        await until(peer, lambda: guest.room_lost, "the guest told")
        await until(peer, lambda: "gave your seat away" in guest.error, "why")
        text = shown(guest)
        assert "(you)" not in text and "Seat 2" not in text
        assert "no longer in this room" in text
        assert guest.query_one("#netlobby-say", Input).disabled
        await peer.press("escape")
        await until(peer, screen_of(peer, MenuScreen), "the guest's menu")
        await lobby.room.close()


async def test_the_guest_chats_from_a_small_lobby_with_a_key(relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        async with joining(lobby.host.display_code, relay).run_test(size=SMALL) as peer:
            guest = await until(peer, screen_of(peer, PeerLobbyScreen), "the guest's lobby")
            # (The screen is current a moment before its widgets are composed.)
            await until(peer, lambda: guest.query("#netlobby-say"), "the guest's chat line")
            say = guest.query_one("#netlobby-say", Input)
            chat = guest.query_one("#netlobby-chat", EventLog)
            await until(peer, lambda: on_screen(say) and on_screen(chat), "the chat in sight")
            await peer.press("f4")
            assert peer.app.focused is say
            await peer.press(*"hello", "enter")
            await until(host, lambda: "Pia: hello" in lobby.chat_lines, "the line at the host")
            await until(peer, lambda: "Pia: hello" in chat.texts, "the line at the guest")
            # The host's line too, by the same key.
            await host.press("f4")
            assert on_screen(host.app.focused)
            await host.press(*"hi Pia", "enter")
            await until(peer, lambda: "Hana: hi Pia" in chat.texts, "the host's line")
            await guest.link.close()
        await lobby.room.close()


def log_of(game: NetGameScreen) -> list[str]:
    return list(game.query_one("#log", EventLog).texts)


def opening(lines: list[str]) -> list[str]:
    """The log up to and with the game's start."""
    return lines[: lines.index("A new game starts.") + 1]


async def test_lobby_chat_opens_the_game_log_and_survives_reconnects_and_rejoins(
    relay: Relay,
) -> None:
    lobby_talk = ["Pia: hello", "Hana: hi Pia", "A new game starts."]
    # Seed 17 lets seat 0 (Hana) start: nothing moves until she does.
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=17)
    async with hosting(plan).run_test(size=(120, 40)) as host:
        lobby = await open_host_lobby(host)
        code = lobby.host.display_code
        guest_app = joining(code, relay)
        async with guest_app.run_test(size=(120, 40)) as peer:
            guest = await pia_seated(host, peer, lobby)
            await peer.press("f4", *"hello", "enter")
            await until(host, lambda: "Pia: hello" in lobby.chat_lines, "Pia's line")
            await host.press("f4", *"hi Pia", "enter")
            await until(peer, lambda: "Hana: hi Pia" in guest.chat_lines, "Hana's line")
            lobby.host.add_bot(2)
            await host.press("f5")
            host_game = await until(host, screen_of(host, NetGameScreen), "the host's table")
            game = await until(peer, screen_of(peer, NetGameScreen), "the guest's table")
            for table, pilot in ((host_game, host), (game, peer)):
                await until(pilot, lambda t=table: "A new game starts." in log_of(t), "start")
                assert opening(log_of(table)) == lobby_talk
            await host.press("space")  # Hana pays a chip
            await until(peer, lambda: any("Hana paid" in line for line in log_of(game)), "move")
            await peer.press("f4")
            await until(peer, screen_of(peer, ChatPrompt), "the chat prompt")
            await peer.press(*"good luck", "enter")
            await until(peer, lambda: "Pia: good luck" in log_of(game), "in-game chat")
            before = log_of(game)
            assert before.index("Pia: good luck") > before.index(
                next(line for line in before if "Hana paid" in line))
            # A dropped connection: the sync that follows rebuilds the log, chat included.
            entries = game.entries
            await game.link.drop()
            await until(peer, lambda: game.entries is not entries, "the log rebuilt")
            await until(peer, lambda: log_of(game)[: len(before)] == before, "the log again")
            assert log_of(game).count("Pia: good luck") == 1
            # Leaving the table and joining again: a new screen, the same log.
            await peer.press("escape", "escape")
            await until(peer, screen_of(peer, MenuScreen), "the guest's menu")
            guest_app.push_screen(JoinScreen(code, "Pia", relay.url, auto=True))
            again = await until(peer, lambda: isinstance(peer.app.screen, NetGameScreen)
                                and peer.app.screen is not game and peer.app.screen, "rejoined")
            assert again.link.seats == [1]
            await until(peer, lambda: "Pia: good luck" in log_of(again), "the chat back")
            lines = log_of(again)
            assert opening(lines) == lobby_talk
            events = [line for line in lines if re.match(r"(Hana|Pia): ", line) is None]
            assert lines.index("Pia: good luck") > lines.index(
                next(line for line in events if "Hana paid" in line))
            assert all(lines.count(said) == 1 for said in ("Pia: hello", "Pia: good luck"))
            await again.link.close()
        await lobby.room.close()


async def test_escape_in_the_host_lobby_goes_back_to_the_form_with_its_game(
    relay: Relay,
) -> None:
    plan = HostPlan("skipbo_breakers", 0, server=relay.url, host_name="Hana")
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        assert lobby.engine_id == "skipbo_breakers"
        await host.press("escape")
        form = await until(host, screen_of(host, HostScreen), "the hosting form")
        assert form.query_one("#game", Select).value == "skipbo_breakers"
        assert lobby.room.host.uplink.closing
        # Open again from the form, for another game: the form's seat count is its own.
        await tab_to(host, "game")
        await host.press("enter", "down", "enter", "f5")
        again = await until(host, lambda: isinstance(host.app.screen, HostLobbyScreen)
                            and host.app.screen is not lobby and host.app.screen, "a new room")
        assert again.engine_id == "schoko" and len(again.host.seats) == 2
        await host.press("escape", "escape")
        await until(host, screen_of(host, MenuScreen), "the menu")


async def test_a_guest_sent_out_before_the_lobby_opened_sees_it_there(relay: Relay) -> None:
    """The kick may come between the join and the lobby's first look at the link."""
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        link = RemoteLink(lobby.host.display_code, "Pia", server=relay.url)
        await link.connect()
        await until(host, lambda: lobby.seats[1]["name"] == "Pia", "Pia seated")
        lobby.host.kick(1)
        await asyncio.wait_for(link.closed.wait(), 5)
        app = TabletopApp(lang="en", opening=lambda: PeerLobbyScreen(link, "schoene"))
        async with app.run_test(size=SMALL) as peer:
            guest = await until(peer, screen_of(peer, PeerLobbyScreen), "the guest's lobby")
            await until(peer, lambda: guest.room_lost, "the guest told")
            assert "gave your seat away" in guest.error and "(you)" not in shown(guest)
        await lobby.room.close()


async def test_the_host_lobby_offers_the_deal_for_two_only_at_a_table_of_two(
        relay: Relay) -> None:
    """Chez Geek's 'jobs dealt for two' means nothing at four seats: the host's lobby does not
    offer it there, and offers it again once Fewer brings the table back to two (by keys)."""
    plan = HostPlan("chez_geek", 4, server=relay.url, host_name="Hana")
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        await until(host, lambda: len(lobby.seats) == 4, "four seats in the lobby")
        row = lobby.query_one("#optrow-two_player_jobs_dealt")
        await until(host, lambda: not row.display, "the deal for two hidden at four seats")
        assert lobby.query_one("#optrow-window_seconds").display  # the others stay
        fewer = lobby.query_one("#fewer")
        for seats in (3, 2):
            await tab_to(host, "fewer")
            # A button takes no second press while its press shows (Textual's 0.2 s).
            await until(host, lambda: not fewer.has_class("-active"), "Fewer pressable")
            await host.press("enter")
            await until(host, lambda n=seats: len(lobby.seats) == n, f"{seats} seats")
        await until(host, lambda: row.display, "the deal for two offered at two seats")
        await tab_to(host, "opt-two_player_jobs_dealt")
        await host.press("space")
        await tab_to(host, "apply")
        await host.press("enter")
        await until(host, lambda: lobby.host.options["two_player_jobs_dealt"] is not
                    get_engine("chez_geek").options["two_player_jobs_dealt"], "the option set")


def seat_in_sight(lobby: Any, index: int) -> bool:
    """Seat `index`'s row is drawn inside the lobby's room box as it is scrolled now (no
    scrolling, no resize needed to see who sits there)."""
    rows = list(lobby.query(".netseat"))
    if len(rows) <= index:
        return False
    box = lobby.query_one("#netlobby-box")
    return box.region.contains_region(rows[index].region) and rows[index].region.height > 0


async def test_a_guest_at_a_table_of_seven_is_in_sight_in_both_lobbies_at_80x24(
        relay: Relay) -> None:
    """At 80×24 the code, the join line and the chat took the rows the seat list needed:
    a guest from Open tables sat below the fold in both lobbies, so nobody saw her. A short
    window drops the big code box (the title has the code) and the spacing: every seat of
    the largest table is in sight in both lobbies."""
    plan = HostPlan("schoene", 7, server=relay.url, host_name="Hana")
    async with hana_and_pia(relay, plan) as (host, peer, lobby, guest):
        for seat in range(7):
            await until(host, lambda s=seat: seat_in_sight(lobby, s), f"host: seat {seat + 1}")
            await until(peer, lambda s=seat: seat_in_sight(guest, s), f"guest: seat {seat + 1}")
        assert "Pia" in shown(lobby) and "Pia (you)" in shown(guest)
        await guest.link.close()
        await lobby.room.close()


async def test_an_emoji_typed_into_the_chat_is_measured_as_the_terminal_draws_it(
        relay: Relay) -> None:
    """A variation selector (the emoji form of ❤), a joiner or a skin tone counts no cell to
    Textual but one to many terminals: typed into the chat line, it moved the field's right
    border. The line keeps what every screen draws alike, typed or pasted, and sends that."""
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hana_and_pia(relay, plan) as (host, peer, lobby, guest):
        await until(peer, lambda: guest.query("#netlobby-say"), "the guest's chat line")
        say = guest.query_one("#netlobby-say", Input)
        await peer.press("f4")
        # Typed as a terminal sends them (Pilot's press knows no key name for an emoji), then
        # pasted.
        for char in "❤\ufe0f 👍\U0001f3fd ":
            say.post_message(Key(char, char))
        say.post_message(Paste("👨\u200d👩\u200d👧 ☺\ufe0f"))
        await until(peer, lambda: say.value == "❤ 👍 👨👩👧 ☺", "the cleaned line")
        await peer.press("enter")
        await until(host, lambda: "Pia: ❤ 👍 👨👩👧 ☺" in lobby.chat_lines, "the line at the host")
        await guest.link.close()
        await lobby.room.close()


async def test_a_lobby_hosted_in_a_browser_tab_gives_friends_the_tables_page(
        relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser tab of a `serve --web` table told friends to type `tabletop-tui join CODE`,
    which a friend with only a browser cannot: the lobby gives the page's address too (the
    web table names it to the tab's app, net.web.server)."""
    monkeypatch.setenv(TABLE_PAGE_ENV, "https://table.example.org/")
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    async with hosting(plan).run_test(size=SMALL) as host:
        lobby = await open_host_lobby(host)
        hint = lobby.query_one("#netlobby-hint", Static)
        said = " ".join(str(hint.render()).split())
        assert "https://table.example.org/" in said and "Join by code" in said
        assert f"tabletop-tui join {lobby.code}" in said
        await lobby.room.close()
