"""Your turn, told: a webhook POST per turn to a real HTTP server on 127.0.0.1, one last
warning and a daily digest by e-mail to a real SMTP server there (aiosmtpd), never one
e-mail per move; vacation tells the others; a webhook into the table's own network is
refused."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from days_support import DAY, FakeClock, days_store, two_seated
from netsupport import someone

from net.days import people, table
from net.days.keeper import DaysKeeper
from net.days.notices import NoticeError, Smtp, check_webhook
from net.days.table import SeatPlan


class Hooks:
    """A real HTTP server that keeps every POST's JSON body."""

    def __init__(self) -> None:
        got: list[dict[str, Any]] = []
        self.got = got

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                got.append(json.loads(self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    def __init__(self) -> None:
        self.mails: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    server = Hooks()
    yield server
    server.close()


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, Smtp]]:
    box = Mailbox()
    port = _free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, Smtp("127.0.0.1", port, "table@example.org")
    controller.stop()


def test_a_webhook_hears_of_each_turn_once_and_vacation_tells_the_others(
        store_at: str, hooks: Hooks) -> None:
    ann, bob = someone(), someone()
    fake = FakeClock()
    store = days_store(store_at)
    try:
        for who, name in ((ann, "Ann"), (bob, "Bob")):
            people.set_notices(store, who.fingerprint, name, hooks.url, None,
                               private_hooks=True)
        game = two_seated(store, "schoko", ann, bob, fake())
        keeper = DaysKeeper(store_at, now=fake, private_hooks=True)
        assert keeper.tick().hooks == 1
        assert keeper.tick().hooks == 0  # one POST per turn, however often the keeper looks
        first = hooks.got[0]
        assert "Your turn in Scho K.O." in first["content"] and first["text"] == first["content"]
        assert first["message"] and first["title"] == "tabletop-tui"
        # A move: the next turn is told once more.
        seat = game.to_act[0]
        session = table.session_of(game)
        move = session.engine.legal_moves(session.state, seat)[0]
        table.play(store, game.id, game.seats[seat].ident or "", seat, move, game.state_no,
                   fake())
        assert keeper.tick().hooks == 1
        # Ann goes on vacation: Bob hears it once.
        people.go_away(store, ann.fingerprint, "Ann", 2, fake())
        assert keeper.tick().hooks == 1
        assert keeper.tick().hooks == 0
        assert "Ann is on vacation until" in hooks.got[-1]["message"]
        assert len(hooks.got) == 3
    finally:
        store.close()


def test_a_webhook_into_the_tables_own_network_is_refused(store_at: str) -> None:
    """The attacker: a player names the table's loopback, its private network, or a scheme
    the table does not speak; nothing is kept."""
    store = days_store(store_at)
    try:
        ann = someone()
        for url in ("http://127.0.0.1:5432/", "http://10.0.0.7/hook", "http://[::1]/",
                    "file:///etc/passwd", "gopher://example.org/", "http://169.254.169.254/"):
            with pytest.raises(NoticeError):
                people.set_notices(store, ann.fingerprint, "Ann", url, None)
        assert store.player(ann.fingerprint) is None
        with pytest.raises(NoticeError, match="e-mail"):
            people.set_notices(store, ann.fingerprint, "Ann", None, "ann@example.org\r\nBcc: x")
        assert check_webhook("http://127.0.0.1:9/", private_hooks=True)
    finally:
        store.close()


def test_mail_is_a_daily_digest_and_a_last_warning_never_one_per_move(
        store_at: str, mailbox: tuple[Mailbox, Smtp]) -> None:
    box, smtp = mailbox
    ann, bob = someone(), someone()
    fake = FakeClock()
    store = days_store(store_at)
    try:
        for who, name in ((ann, "Ann"), (bob, "Bob")):
            people.set_notices(store, who.fingerprint, name, None, f"{name.lower()}@example.org")
        games = []
        for _ in range(3):
            game = table.open_game(store, "schoko", [SeatPlan("me"), SeatPlan("open")], ann,
                                   "Ann", fake(), days=1)
            games.append(table.take_seat(store, game.id, 1, bob, "Bob", fake()))
        keeper = DaysKeeper(store_at, now=fake, smtp=smtp)
        keeper.tick()
        digests = [m for m in box.mails if "your turn in" in m["Subject"]]
        assert {m["To"] for m in digests} <= {"ann@example.org", "bob@example.org"}
        assert len(digests) == len({m["To"] for m in digests})  # one each, whatever the games
        # Three quarters of a day later and a bit: the last warning, once per turn.
        fake.advance(0.8 * DAY)
        keeper.tick()
        keeper.tick()
        warnings = [m for m in box.mails if m["Subject"] == "tabletop-tui: last call"]
        assert len(warnings) == len(games)
        assert all("the table's bot plays your seat" in m.get_content() for m in warnings)
        count = len(box.mails)
        # Moves in every game: no mail for any of them.
        for opened in games:
            game = store.load(opened.id)
            assert game is not None
            seat = game.to_act[0]
            session = table.session_of(game)
            table.play(store, game.id, game.seats[seat].ident or "", seat,
                       session.engine.legal_moves(session.state, seat)[0], game.state_no,
                       fake())
        fake.advance(3600)
        keeper.tick()
        assert len(box.mails) == count
        # A day after the first digest: the next one.
        fake.advance(0.2 * DAY)
        keeper.tick()
        later = [m for m in box.mails if "your turn in" in m["Subject"]]
        assert len(later) > len(digests)
        assert "waiting" in later[-1].get_content()
    finally:
        store.close()


def test_a_german_player_is_told_in_german_and_an_english_one_in_english(
        store_at: str, hooks: Hooks, mailbox: tuple[Mailbox, Smtp]) -> None:
    """Each player's webhook and digest speak the language they set their notices in; a
    language the table does not speak (a stored value is the player's word) is English."""
    box, smtp = mailbox
    ann, bob = someone(), someone()
    fake = FakeClock()
    store = days_store(store_at)
    try:
        people.set_notices(store, ann.fingerprint, "Ann", hooks.url, "ann@example.org",
                           private_hooks=True, lang="de")
        people.set_notices(store, bob.fingerprint, "Bob", hooks.url, "bob@example.org",
                           private_hooks=True, lang="xx")
        assert store.player(bob.fingerprint).lang == "en"  # type: ignore[union-attr]
        game = two_seated(store, "schoko", ann, bob, fake())
        keeper = DaysKeeper(store_at, now=fake, smtp=smtp, private_hooks=True)
        speaks = {ann.fingerprint: ("Du bist dran in Scho K.O. (Partie ", "Your turn"),
                  bob.fingerprint: ("Your turn in Scho K.O. (game ", "Du bist dran")}
        heard: set[str] = set()
        # Moves until each has been told of a turn: every webhook in its player's language.
        while heard != set(speaks):
            keeper.tick()
            ident = game.seats[game.to_act[0]].ident or ""
            told = hooks.got[-1]["message"]
            assert told.startswith(speaks[ident][0]) and speaks[ident][1] not in told
            heard.add(ident)
            if heard != set(speaks):
                session = table.session_of(game)
                seat = game.to_act[0]
                game = table.play(store, game.id, ident, seat,
                                  session.engine.legal_moves(session.state, seat)[0],
                                  game.state_no, fake())
        # Ann's digest, a day on: her turn now (Bob moves while it is his).
        while game.seats[game.to_act[0]].ident != ann.fingerprint:
            session = table.session_of(game)
            seat = game.to_act[0]
            game = table.play(store, game.id, bob.fingerprint, seat,
                              session.engine.legal_moves(session.state, seat)[0],
                              game.state_no, fake())
        fake.advance(DAY + 60)
        keeper.tick()
        german = [m for m in box.mails if m["To"] == "ann@example.org"
                  and m["Subject"] == "tabletop-tui: du bist dran in 1 Partie"]
        assert german, [m["Subject"] for m in box.mails]
        text = german[-1].get_content()
        assert text.splitlines()[:3] == ["Hallo Ann,", "", "Du bist dran in 1 Partie:"]
        assert "wartet seit 1,0 Tagen" in text
        assert not any("your turn" in m["Subject"] for m in box.mails
                       if m["To"] == "ann@example.org")
        assert all("Du bist dran" not in m["Subject"] and "Hallo" not in m.get_content()
                   for m in box.mails if m["To"] == "bob@example.org")
    finally:
        store.close()
