"""A host that cheats with the seed, caught over real sockets on 127.0.0.1 (issue 24): the
attacker is the host itself, a `Dealer` changed the way a one-function patch would change it,
and the guests and a spectator are the real clients. Once the host has seen the guests' parts
of the seed, any part it adds, drops, swaps or reorders gives it another deal to choose from;
every such deal must be called NOT verified, with the reason, at the start and at the end."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from netsupport import TIMEOUT, Player
from test_net_cli import outcome, spawn
from test_net_tui import screen_of, until
from textual.widgets import Static

from net.headless import UNVERIFIED
from net.host import dealer as dealing
from net.host.authority import NetHost
from net.host.dealer import Dealer
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from net.table import fairness
from net.table.clocks import per_move
from tui.app import TabletopApp
from tui.netplay import NetGameScreen
from tui.screens.join import JoinScreen
from tui.screens.net_lobby import PeerLobbyScreen
from tui.screens.results import ResultsScreen
from tui.widgets import EventLog


def bot_seat(dealer: Dealer) -> int:
    return next(i for i, seat in enumerate(dealer.host.seats) if seat.bot)


class Appending(Dealer):
    """Adds a part for the bot's seat once it has seen the guests' parts: tries values until
    the seed is one it likes (here: an even one), which is grinding the deal."""

    def _deal(self, got: dict[int, str]) -> None:
        bot = bot_seat(self)
        self.asked = [*self.asked, bot]
        for tries in itertools.count():
            value = f"{tries:x}"
            parts = [[s, {**got, bot: value}.get(s)] for s in self.asked]
            if fairness.joint_seed(self.secret, self.salt, parts) % 2 == 0:
                break
        super()._deal({**got, bot: value})


class Reordering(Dealer):
    """Deals with the guests' parts in another order (another seed, of the host's choosing)."""

    def _deal(self, got: dict[int, str]) -> None:
        self.asked = self.asked[::-1]
        super()._deal(got)


class Dropping(Dealer):
    """Deals as if Pia's part, which did arrive, had come too late (a nil part)."""

    def _deal(self, got: dict[int, str]) -> None:
        super()._deal({seat: value for seat, value in got.items() if seat != 1})


class Removing(Dealer):
    """Leaves Pia's seat, whose part did arrive, out of the list altogether."""

    def _deal(self, got: dict[int, str]) -> None:
        self.asked = [seat for seat in self.asked if seat != 1]
        super()._deal(got)


class AddingASeat(Dealer):
    """Adds a part for the host's own seat, which the commit did not name."""

    def _deal(self, got: dict[int, str]) -> None:
        self.asked = [0, *self.asked]
        super()._deal({**got, 0: "f00d"})


class AskingTheBot(Dealer):
    """Names the bot's seat in its commit, then answers for it itself once it has seen the
    guests' parts."""

    def start(self) -> None:
        post = self.host.uplink.post

        def naming_the_bot(cids: list[int], t: str, **fields: Any) -> None:
            if t == "commit":
                self.asked = fields["seats"] = [*fields["seats"], bot_seat(self)]
            post(cids, t, **fields)

        self.host.uplink.post = naming_the_bot  # type: ignore[method-assign]
        try:
            super().start()
        finally:
            self.host.uplink.post = post  # type: ignore[method-assign]

    def _deal(self, got: dict[int, str]) -> None:
        super()._deal({**got, bot_seat(self): "f00d"})


class Silent(RemoteLink):
    """A guest whose part of the seed never reaches the host (a dead line, an old client)."""

    async def _send(self, t: str, **fields: Any) -> bool:
        if t == "contribute":
            return True
        return await super()._send(t, **fields)


async def table(relay: Relay, cheat: type[Dealer] | None,
                per: type[RemoteLink] = RemoteLink) -> tuple[NetHost, list[Player]]:
    """Hana hosts (seat 0, at her own terminal) for Pia and Per, a bot in seat 4 and Vic
    watching; the seed is made together. `cheat`: the host's dealer, None for an honest one.
    Returns the host and the players: Hana, Pia, Per, Vic."""
    host = NetHost("schoene", 4, relay_url=relay.url, host_name="Hana", bot_delay=0)
    if cheat is not None:
        host.dealer = cheat(host)
    await host.open()
    hana = Player(HostLink(host), seed=1)
    await hana.link.start()
    players = [hana]
    for i, (name, kind, watch) in enumerate((("Pia", RemoteLink, False), ("Per", per, False),
                                             ("Vic", RemoteLink, True))):
        player = Player(kind(host.code, name, server=relay.url, watch=watch), seed=10 + i)
        await player.link.connect()
        players.append(player)
    return host, players


async def played(relay: Relay, cheat: type[Dealer] | None,
                 per: type[RemoteLink] = RemoteLink) -> tuple[NetHost, list[Player]]:
    """A whole game at `table`, to the end."""
    host, players = await table(relay, cheat, per)
    try:
        host.start()
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(p.done.wait() for p in players))
    finally:
        await asyncio.gather(*(p.link.close() for p in players[1:]))
        await host.close()
    return host, players


def warned_at_start(player: Player) -> str:
    """The peer's own warning, heard before the first table of the game."""
    first_table = next(i for i, m in enumerate(player.messages) if m["type"] == "sync")
    notices = [m for m in player.messages[:first_table]
               if m["type"] == "notice" and "verdict" in m]
    assert len(notices) == 1, player.messages[:first_table]
    return str(notices[0]["text"])


CHEATS: list[tuple[type[Dealer], str, str]] = [
    (Appending, "extra", "the host added a part for Bot 4 (seat 4), which the commit did not "
                         "ask for"),
    (Reordering, "order", "the host reordered the parts of the seed"),
    (AddingASeat, "extra", "the host added a part for Hana (seat 1), which the commit did not "
                           "ask for"),
    (AskingTheBot, "not_person", "the host asked Bot 4 (seat 4) for a part of the seed, a seat "
                                 "no guest plays"),
]


@pytest.mark.parametrize(("cheat", "code", "why"), CHEATS, ids=[c[0].__name__ for c in CHEATS])
async def test_a_host_that_changes_the_parts_after_its_commit_is_caught_by_every_peer(
    relay: Relay, cheat: type[Dealer], code: str, why: str
) -> None:
    host, (_hana, *peers) = await played(relay, cheat)
    assert host.session is not None and host.session.over
    for peer in peers:  # both guests and the spectator
        assert peer.result is not None
        assert not peer.result["verified"], (peer.link.name, peer.result)
        assert (peer.result["verify_code"], peer.result["verify_note"]) == (code, why)
        assert warned_at_start(peer) == f"WARNING: this deal was NOT verified: {why}"


async def test_a_part_that_arrived_and_was_dealt_as_late_is_caught_by_its_owner(
    relay: Relay,
) -> None:
    host, (_hana, pia, per, vic) = await played(relay, Dropping)
    assert host.contributions[0] == [1, None]
    assert pia.result is not None and not pia.result["verified"]
    assert pia.result["verify_note"] == "your part of the seed was left out"
    assert warned_at_start(pia).endswith("your part of the seed was left out")
    # Nobody else can tell a part thrown away from a late one: they are told whose is missing.
    for other in (per, vic):
        assert other.result is not None and other.result["verified"]
        assert other.result["verify_note"] == ("shuffles verified, made without a part from "
                                               "Pia (no answer in time)")


async def test_a_part_that_arrived_and_was_left_out_of_the_list_is_caught_by_every_peer(
    relay: Relay,
) -> None:
    _host, (_hana, pia, per, vic) = await played(relay, Removing)
    assert pia.result is not None and not pia.result["verified"]
    assert pia.result["verify_note"] == "your part of the seed was left out"
    for other in (per, vic):
        assert other.result is not None and not other.result["verified"]
        assert other.result["verify_note"] == ("the host left Pia (seat 2) out of the parts of "
                                               "the seed")


async def test_an_honest_deal_is_verified_by_every_peer_and_the_spectator_saw_the_commit(
    relay: Relay,
) -> None:
    host, (_hana, pia, per, vic) = await played(relay, None)
    parts = [pia.link.deal.contribution, per.link.deal.contribution]
    assert host.contributions == [[1, parts[0][1]], [2, parts[1][1]]]
    for peer in (pia, per, vic):
        assert isinstance(peer.link, RemoteLink) and peer.link.deal.asked == [1, 2]
        assert peer.result is not None and peer.result["verified"], peer.result
        assert (peer.result["verify_code"], peer.result["verify_note"]) == (
            "verified", "shuffles verified")
        assert not [m for m in peer.messages if m["type"] == "notice" and "verdict" in m]


async def test_a_guest_that_does_not_answer_in_time_is_the_one_gap_and_it_is_named(
    relay: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dealing, "CONTRIBUTION_WAIT", 0.3)
    host, (_hana, pia, per, vic) = await played(relay, None, per=Silent)
    assert host.contributions == [[1, pia.link.deal.contribution[1]], [2, None]]
    assert any(m["type"] == "notice" and m["text"] == "dealing without a part of the seed "
                                                      "from Per" for m in pia.messages)
    for other in (pia, vic):
        assert other.result is not None and other.result["verified"], other.result
        assert other.result["verify_note"] == ("shuffles verified, made without a part from "
                                               "Per (no answer in time)")
    # Per sent a part (that never came): for Per this deal is not verified.
    assert per.result is not None and not per.result["verified"]
    assert per.result["verify_note"] == "your part of the seed was left out"


async def test_join_bot_prints_why_and_exits_non_zero_when_the_deal_is_not_verified(
    relay: Relay,
) -> None:
    """`join --bot` as a script runs it, at a headless host that grinds the seed with a part
    for its bot: the verdict line says why, stderr said it at the start, and the exit status
    is 3."""
    host = NetHost("schoene", 3, relay_url=relay.url, bot_delay=0)
    host.dealer = Appending(host)
    await host.open()
    host.add_bot()  # seat 1: the bot the host answers for
    host.autostart = True
    try:
        joins = [await spawn("join", host.display_code, "--bot", "random", "--name", name,
                             "--server", relay.url) for name in ("Ann", "Bo")]
        results = [await outcome(p) for p in joins]
    finally:
        await host.close()
    why = "the host added a part for Bot 1 (seat 1), which the commit did not ask for"
    for rc, lines, err in results:
        assert rc == UNVERIFIED == 3, err
        assert lines[0].startswith("result: scores [")
        assert lines[1:] == [f"WARNING: this deal was NOT verified: {why}"]
        assert f"tabletop-tui: WARNING: this deal was NOT verified: {why}" in err


async def test_a_guest_at_the_screen_is_warned_at_the_start_and_on_the_results(
    relay: Relay,
) -> None:
    """Pia joins with the app (driven by Pilot) a table whose host adds a part for its bot.
    She never touches a key: her clock runs out, and the bot moves for her, to the end."""
    host = NetHost("schoene", 4, relay_url=relay.url, host_name="Hana", bot_delay=0)
    host.dealer = Appending(host)
    await host.open()
    host.set_clock(per_move(0.05))
    hana = Player(HostLink(host), seed=1)
    await hana.link.start()
    per = Player(RemoteLink(host.code, "Per", server=relay.url), seed=2)
    await per.link.connect()
    app = TabletopApp(lang="en", opening=lambda: JoinScreen(host.display_code, "Pia", relay.url,
                                                            auto=True))
    why = "the host added a part for Bot 4 (seat 4), which the commit did not ask for"
    try:
        async with app.run_test(size=(100, 34)) as pilot:
            await until(pilot, screen_of(pilot, PeerLobbyScreen), "Pia's lobby")
            await until(pilot, lambda: host.seat_list()[2]["kind"] == "person", "Pia seated")
            host.start()
            game = await until(pilot, screen_of(pilot, NetGameScreen), "Pia's table")
            warning = f"⚠ This deal was NOT verified: {why}"
            await until(pilot, lambda: warning in game.query_one("#log", EventLog).texts,
                        "the warning in the log")
            results = await until(pilot, screen_of(pilot, ResultsScreen), "the results")
            found = await until(pilot, lambda: results.query("#results-verified"), "the line")
            line = found.only_one(Static)
            assert str(line.render()) == warning
            assert line.has_class("-warning")
    finally:
        await per.link.close()
        await host.close()
