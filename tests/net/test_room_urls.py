"""Rooms addressable by URL, for a load balancer in front of several relays: every connection
names its room in the websocket path, a host draws its own room code, a relay answers a
health check, and the relays of one table share the secret that signs host tokens, the
oldest opening of a code winning it back."""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path
from typing import Any

import msgpack
import pytest
from test_net_game import finish, open_table
from websockets.asyncio.client import connect

from net.relay import tokens
from net.relay.server import Relay
from net.wire import codes
from net.wire.frames import decode, encode


class Paths(Relay):
    """A relay that notes the path of every websocket connection it takes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.paths: list[str] = []

    async def _handle(self, ws: Any) -> None:
        self.paths.append(ws.request.path)
        await super()._handle(ws)


async def first_answer(url: str, t: str, **fields: Any) -> dict[str, Any]:
    async with connect(url) as ws:
        await ws.send(encode(t, seq=1, **fields))
        return decode(await ws.recv())


async def test_every_connection_of_a_room_names_it_in_its_path() -> None:
    relay = Paths()
    await relay.start()
    host, me, (pia, per) = await open_table(relay, seed=4)
    try:
        host.start()
        await finish(me, pia, per)
    finally:
        await pia.link.close()
        await per.link.close()
        await host.close()
        await relay.stop()
    assert relay.paths and set(relay.paths) == {codes.room_path(host.room)}


async def test_a_new_code_that_is_live_is_refused_and_a_wrong_path_too(relay: Relay) -> None:
    host, _me, _peers = await open_table(relay, seed=4, names=())
    try:
        taken = await first_answer(relay.url + codes.room_path(host.room), "open",
                                   code=host.room, host_token=None)
        assert taken["code"] == "code_taken" and "in use" in taken["message"]
        other = codes.new_code()
        wrong = await first_answer(relay.url + codes.room_path(other), "join", code=host.room,
                                   watch=True, pake=bytes(33))
        assert wrong["code"] == "bad_code" and "URL" in wrong["message"]
    finally:
        await host.close()


async def test_a_room_its_host_closed_is_gone_from_the_relay_not_opened_again(
    relay: Relay,
) -> None:
    host, _me, _peers = await open_table(relay, seed=4, names=())
    room = host.room
    await host.close()
    await asyncio.sleep(0.5)  # long enough for a reconnect to have reopened it
    assert relay.rooms.get(room) is None


async def test_a_relay_answers_a_health_check_in_plain_http(relay: Relay) -> None:
    url = relay.url.replace("ws://", "http://")

    def get(path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(url + path, timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, ""

    status, text = await asyncio.to_thread(get, "/health")
    assert status == 200 and text.startswith("ok")
    assert (await asyncio.to_thread(get, "/elsewhere"))[0] == 404


async def test_relays_sharing_a_secret_honour_each_others_tokens_and_the_oldest_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = tmp_path / "secret"
    secret.write_text("ab" * 32)
    monkeypatch.setenv(tokens.SECRET_FILE_ENV, str(secret))
    first, second = Relay(), Relay()
    await first.start()
    await second.start()
    try:
        code = codes.new_code()
        path = codes.room_path(code)
        async with connect(first.url + path) as host:
            await host.send(encode("open", seq=1, code=code, host_token=None))
            opened = decode(await host.recv())
        token = opened["host_token"]
        assert tokens.owns(first.secret, code, token) is not None
        # The first relay is gone; the room's host reopens it on the second, token and all.
        later = tokens.host_token(second.secret, code, int(token.split(".")[0]) + 60)
        async with connect(second.url + path) as squatter:
            await squatter.send(encode("open", seq=1, code=code, host_token=later))
            assert decode(await squatter.recv())["t"] == "opened"  # a later opening...
            async with connect(second.url + path) as back:
                await back.send(encode("open", seq=1, code=code, host_token=token))
                assert decode(await back.recv())["t"] == "opened"  # ...gives way to the first
                refused = msgpack.unpackb(await squatter.recv(), raw=False)
                assert refused["code"] == "replaced"
            again = await first_answer(second.url + path, "open", code=code, host_token=later)
            assert again["code"] == "code_taken"  # and never takes it back
    finally:
        await first.stop()
        await second.stop()


def test_a_relay_secret_shorter_than_32_bytes_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    short = tmp_path / "short"
    short.write_text("ab" * 8)
    monkeypatch.setenv(tokens.SECRET_FILE_ENV, str(short))
    with pytest.raises(ValueError, match="at least 32 bytes"):
        tokens.shared_secret()
