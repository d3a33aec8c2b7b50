"""Join codes, frame decoding, the fair-shuffle check and same-machine discovery."""

from __future__ import annotations

import copy
import json
import math
import os
import stat
from pathlib import Path
from typing import Any

import msgpack
import pytest

from net import discovery
from net.host.authority import NetHost
from net.table import fairness
from net.table.session import HostSession, SeatInfo
from net.wire import codes
from net.wire.frames import MAX_FRAME, PEER_FRAMES, VERSION, ProtocolError, check, decode, encode


# -- join codes --------------------------------------------------------------------------------
def test_codes_carry_forty_bits_and_read_back_however_they_are_typed() -> None:
    assert len(set(codes.ALPHABET)) ** codes.LENGTH >= 2**40
    assert math.log2(len(codes.ALPHABET)) * codes.LENGTH >= 40
    code = codes.new_code()
    shown = codes.display(code)
    assert len(shown) == 9 and shown[4] == "-"
    assert codes.normalise(shown) == code
    assert codes.normalise(f"  {shown.lower()}  ") == code
    assert codes.normalise("k7qx 9mpa") == "K7QX9MPA"
    assert codes.normalise("OIL0-1234") == "0110" + "1234"  # O, I, L read as digits
    assert not set("ILOU") & set(codes.ALPHABET)


def test_join_codes_add_a_secret_part_the_relay_never_sees() -> None:
    room, secret = codes.new_code(), codes.new_code(codes.SECRET_LENGTH)
    shown = codes.display(room + secret)
    assert len(shown) == 14 and shown[4] == shown[9] == "-"
    assert codes.normalise_join(shown.lower()) == room + secret
    assert codes.split(codes.normalise_join("k7qx 9mpa b3cd")) == ("K7QX9MPA", "B3CD")
    assert len(set(codes.ALPHABET)) ** codes.SECRET_LENGTH == 2**20
    with pytest.raises(codes.BadCode, match=r"now have 12 symbols.*older tabletop-tui"):
        codes.normalise_join("K7QX-9MPA")  # a protocol-2 host's code
    with pytest.raises(codes.BadCode, match="12 characters"):
        codes.normalise_join("K7QX-9MPA-B3C")


@pytest.mark.parametrize(("text", "why"), [("K7QX-9MP", "8 characters"), ("K7QX-9MPU", "'U'"),
                                          ("K7QX-9MP!", "'!'")])
def test_text_that_is_no_code_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(codes.BadCode, match=why):
        codes.normalise(text)


def test_room_keys_do_not_reveal_codes() -> None:
    assert codes.room_key("K7QX9MPA") != codes.room_key("K7QX9MPB")
    assert "K7QX" not in codes.room_key("K7QX9MPA")


# -- frames ------------------------------------------------------------------------------------
def test_frames_round_trip_and_bad_ones_name_their_fault() -> None:
    frame = decode(encode("sealed", seq=1, n=0, data=b"x"))
    assert frame == {"v": VERSION, "t": "sealed", "seq": 1, "n": 0, "data": b"x"}
    assert check(frame, PEER_FRAMES) is frame
    faults = {
        b"\xc1": "malformed",
        msgpack.packb({"t": "chat"}): "malformed",
        msgpack.packb({"v": VERSION}): "malformed",
        msgpack.packb({"v": VERSION + 1, "t": "chat"}): "version",
        msgpack.packb({"v": True, "t": "chat"}): "malformed",
        msgpack.packb(msgpack.ExtType(3, b"x")): "malformed",
        b"\x91" * 5000 + b"\xc0": "malformed",
        b"\x80" * (MAX_FRAME + 1): "too_big",
    }
    for data, code in faults.items():
        with pytest.raises(ProtocolError) as caught:
            decode(data)
        assert caught.value.code == code
    with pytest.raises(ProtocolError, match="field 'seq'"):
        check(decode(encode("sealed", seq=True, n=0, data=b"x")), PEER_FRAMES)
    for t in ("pickle", "chat", "move"):  # the game goes sealed only
        with pytest.raises(ProtocolError, match="unknown frame type"):
            check(decode(encode(t, seq=1)), PEER_FRAMES)


# -- fair shuffles -----------------------------------------------------------------------------
CONTRIBUTIONS = [[1, "a1b2"], [2, "c3d4"]]
ASKED = [1, 2]  # the seats the commit named: the two guests (seat 0 is the host's)
MINE = [1, "a1b2"]  # seat 1's own part


def played(secret: int = 77, contributions: list[list[Any]] | None = None,
           ) -> tuple[HostSession, str, dict[str, Any], dict[int, Any]]:
    """A finished bot game dealt from a joint seed, the host's commitment, its reveal, and
    what seat 1 saw. (Bots play every seat; the record names seats 1 and 2 as the guests
    they were at the table.)"""
    given = CONTRIBUTIONS if contributions is None else contributions
    salt = fairness.new_salt()
    seed = fairness.joint_seed(secret, salt, given)
    session = HostSession("schoene", [SeatInfo(f"B{i}", "random") for i in range(3)], seed)
    seen = {0: session.engine.view(session.state, 1)}
    while (pending := session.pending_bot()) is not None:
        session.submit(*pending)
        seen[session.state_no] = session.engine.view(session.state, 1)
    wire = msgpack.unpackb(msgpack.packb({"seen": seen, "record": session.record()}),
                           raw=False, strict_map_key=False)
    record = wire["record"]
    record["players"] = [dict(p, bot=None if i in ASKED else p["bot"])
                         for i, p in enumerate(record["players"])]
    reveal = {"secret": secret, "salt": salt, "seed": seed, "contributions": given,
              "fixed": False, "record": record}
    return session, fairness.commitment(secret, salt), reveal, wire["seen"]


def started(contributions: list[list[Any]] = CONTRIBUTIONS,
            fixed_seed: int | None = None) -> dict[str, Any]:
    """What the `start` frame said about the seed."""
    return {"contributions": contributions, "fixed_seed": fixed_seed}


def as_seat_1(committed: str, reveal: dict[str, Any], seen: dict[int, Any],
              result: dict[str, Any] | None, **kwargs: Any) -> fairness.Verdict:
    """The verdict of the guest in seat 1, who was asked and gave `MINE`."""
    return fairness.verify(committed, reveal, 1, seen, result, MINE, asked=ASKED, **kwargs)


def test_an_honest_game_is_verified() -> None:
    session, committed, reveal, seen = played()
    verdict = as_seat_1(committed, reveal, seen, session.result(), start=started())
    assert verdict == fairness.Verdict(True, "verified")
    assert verdict.reason == "shuffles verified"
    # A spectator who saw the commit checks all but its own part.
    assert fairness.verify(committed, reveal, None, {}, session.result(), asked=ASKED).ok


def test_a_seat_that_did_not_answer_in_time_is_the_one_gap_and_the_verdict_names_it() -> None:
    gap = [[1, "a1b2"], [2, None]]
    session, committed, reveal, seen = played(contributions=gap)
    verdict = as_seat_1(committed, reveal, seen, session.result(), start=started(gap))
    assert verdict.ok and verdict.code == "verified_gaps"
    assert verdict.reason == "shuffles verified, made without a part from B2 (no answer in time)"
    # The seed skips the gap: the same as dealing from seat 1's part alone.
    assert fairness.joint_seed(1, "s", gap) == fairness.joint_seed(1, "s", [[1, "a1b2"]])


def test_the_parts_must_be_exactly_those_the_commit_asked_for() -> None:
    players = [{"name": "Hana", "bot": None}, {"name": "Pia", "bot": None},
               {"name": "Per", "bot": None}, {"name": "Bot 4", "bot": "strong"}]

    def why(given: Any, asked: list[int] | None = ASKED, mine: list[Any] | None = MINE,
            me: int | None = 1, fixed: bool = False) -> str | None:
        verdict = fairness.check_parts(asked, given, players, mine, me, fixed)
        return None if verdict is None else verdict.reason

    assert why(CONTRIBUTIONS) is None
    assert why([[1, "a1b2"], [2, None]]) is None  # Per did not answer in time
    assert why([[1, "a1b2"], [2, "c3d4"], [3, "ffff"]]) == (
        "the host added a part for Bot 4 (seat 4), which the commit did not ask for")
    assert why([[0, "ffff"], [1, "a1b2"], [2, "c3d4"]]) == (
        "the host added a part for Hana (seat 1), which the commit did not ask for")
    assert why([[2, "c3d4"], [1, "a1b2"]]) == "the host reordered the parts of the seed"
    assert why([[1, "a1b2"], [2, "c3d4"], [2, "ffff"]]) == (
        "the host gave Per (seat 3) two parts of the seed")
    assert why([[1, "a1b2"]]) == "the host left Per (seat 3) out of the parts of the seed"
    assert why([[1, None], [2, "c3d4"]]) == "your part of the seed was left out"
    assert why([[2, "c3d4"]]) == "your part of the seed was left out"
    assert why([[1, "ffff"], [2, "c3d4"]]) == "your part of the seed was changed"
    assert why([[1, "a1b2"], [2, "c3:d4"]]) == "the host's list of parts of the seed is malformed"
    assert why([[1, "a1b2", "x"]]) == "the host's list of parts of the seed is malformed"
    assert why("a1b2") == "the host's list of parts of the seed is malformed"
    # A bot's seat is never asked: the host would make its part up after seeing the others.
    assert why([[1, "a1b2"], [3, "ffff"]], asked=[1, 3]) == (
        "the host asked Bot 4 (seat 4) for a part of the seed, a seat no guest plays")
    # A seated guest whose part is not in the deal: not asked, or it came later.
    assert why([[2, "c3d4"]], asked=[2], mine=None) == (
        "the host did not ask you for a part of the seed")
    assert why(CONTRIBUTIONS, asked=None, mine=None) == (
        "you came to the table after the seed was made, so your part of it cannot be checked")
    # Without the commit (a spectator who came later) the seats still go in order, once each.
    assert why(CONTRIBUTIONS, asked=None, mine=None, me=None) is None
    assert why([[2, "c3d4"], [1, "a1b2"]], asked=None, mine=None, me=None) == (
        "the host reordered the parts of the seed")
    # A practice deal has no parts and no commit; after a commit it is the host's choice.
    assert why([], asked=None, mine=None, fixed=True) is None
    assert why([], fixed=True) == (
        "the host asked for parts of the seed, then chose the seed itself")


def test_a_commit_names_each_guest_once_in_seat_order_and_no_one_else() -> None:
    table = [{"name": "Hana", "kind": "host"}, {"name": "Pia", "kind": "person"},
             {"name": "Per", "kind": "person"}, {"name": "Bot 4", "kind": "bot"}]
    assert fairness.check_commit([1, 2], table, 1) is None
    assert fairness.check_commit([1, 2], table, None) is None  # a spectator
    for seats in ([2, 1], [1, 1, 2], [1, "2"], [-1, 1], [1, True]):
        verdict = fairness.check_commit(seats, table, 1)
        assert verdict is not None and verdict.code == "bad_commit", seats
    for seats, name in (([0, 1, 2], "Hana (seat 1)"), ([1, 2, 3], "Bot 4 (seat 4)"),
                        ([1, 2, 7], "? (seat 8)")):
        verdict = fairness.check_commit(seats, table, 1)
        assert verdict is not None and name in verdict.reason, seats
    verdict = fairness.check_commit([2], table, 1)
    assert verdict is not None and verdict.code == "not_asked"


def test_a_changed_seed_is_caught() -> None:
    session, committed, reveal, seen = played()
    other = dict(reveal, secret=reveal["secret"] + 1)
    verdict = as_seat_1(committed, other, seen, session.result())
    assert not verdict.ok and "commitment" in verdict.reason
    # A seed that does not follow from the secret and the contributions.
    other = dict(reveal, seed=reveal["seed"] + 1)
    other["record"] = dict(reveal["record"], seed=other["seed"])
    verdict = as_seat_1(committed, other, seen, session.result())
    assert not verdict.ok and "does not follow" in verdict.reason
    # A host that commits honestly but deals from another game is caught by the replay.
    lying = played(secret=78)[2]
    verdict = as_seat_1(committed, dict(lying, secret=reveal["secret"], salt=reveal["salt"],
                                        seed=reveal["seed"]), seen, session.result())
    assert not verdict.ok
    # A reveal other than the start announced: other parts, or now a seed the host chose.
    verdict = as_seat_1(committed, reveal, seen, session.result(),
                        start=started([[1, "a1b2"], [2, None]]))
    assert not verdict.ok and verdict.code == "changed"
    verdict = fairness.verify(committed, reveal, None, seen, session.result(),
                              start=started(fixed_seed=reveal["seed"]))
    assert not verdict.ok and verdict.code == "changed"


def test_changed_moves_are_caught() -> None:
    session, committed, reveal, seen = played()
    for index in range(0, len(reveal["record"]["moves"]), 7):
        tampered = copy.deepcopy(reveal)
        seat, move = tampered["record"]["moves"][index]
        other = [m for m in ({"type": "take"}, {"type": "pay"}, {"type": "pig"}) if m != move]
        tampered["record"]["moves"][index] = [seat, other[0]]
        verdict = as_seat_1(committed, tampered, seen, session.result())
        assert not verdict.ok, index
    cut = copy.deepcopy(reveal)
    del cut["record"]["moves"][-3:]
    assert not as_seat_1(committed, cut, seen, session.result()).ok
    assert not as_seat_1(committed, {}, seen, session.result()).ok


def test_a_stacked_deck_is_caught_and_refused_at_a_networked_table() -> None:
    deck = list(range(3, 36))  # the cards in order: whoever plays first knows them all
    seats = [SeatInfo(f"B{i}", "random") for i in range(3)]
    session = HostSession("schoene", seats, 5, {"stack": deck, "first": 0})
    salt = fairness.new_salt()
    seen = {0: session.engine.view(session.state, 1)}
    session.run_bots()
    reveal = {"secret": 5, "salt": salt, "seed": 5, "contributions": [], "fixed": True,
              "record": session.record()}
    verdict = fairness.verify(fairness.commitment(5, salt), reveal, 1, seen, session.result())
    assert not verdict.ok and "fixed the deal" in verdict.reason
    with pytest.raises(ValueError, match="fix the deal"):
        NetHost("schoene", 3, {"stack": deck}, relay_url="ws://127.0.0.1:1")
    host = NetHost("schoene", 3, relay_url="ws://127.0.0.1:1")
    with pytest.raises(ValueError, match="fix the deal"):
        host.set_option("first", 0)


# -- same-machine discovery ----------------------------------------------------------------------
def test_the_rooms_file_finds_a_room_by_code_alone(private_dirs: Path) -> None:
    assert discovery.lookup_local("K7QX9MPA") is None
    path = discovery.publish("K7QX9MPA", "ws://127.0.0.1:4321")
    assert path is not None and "K7QX" not in path.name
    folder = path.parent
    assert stat.S_IMODE(folder.stat().st_mode) == 0o1777  # sticky, like /tmp
    assert discovery.lookup_local(codes.normalise("k7qx-9mpa")) == "ws://127.0.0.1:4321"
    assert discovery.lookup_local("K7QX9MPB") is None
    discovery.unpublish("K7QX9MPA")
    assert discovery.lookup_local("K7QX9MPA") is None


def test_an_unsafe_rooms_directory_is_not_used(private_dirs: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = private_dirs / "elsewhere"
    target.mkdir()
    link = private_dirs / "link"
    os.symlink(target, link)
    monkeypatch.setenv("TABLETOP_TUI_ROOMS", str(link))
    assert discovery.rooms_dir() is None
    assert discovery.publish("K7QX9MPA", "ws://127.0.0.1:1") is None


@pytest.mark.parametrize(("text", "url"), [
    ("example.org", "ws://example.org:8765"),
    ("10.0.0.2:9000", "ws://10.0.0.2:9000"),
    ("ws://box:1/", "ws://box:1/"),
])
def test_server_addresses(text: str, url: str) -> None:
    assert discovery.server_url(text) == url


@pytest.mark.parametrize("text", ["host:notaport", "h:70000", "ws://", "ws://h:0", ""])
def test_a_bad_server_address_says_what_a_good_one_looks_like(text: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        discovery.server_url(text)


async def test_a_lan_room_is_found_by_its_code_over_mdns() -> None:
    advertiser = discovery.Advertiser()
    try:
        await advertiser.start("K7QX9MPA", 4321, "127.0.0.1")
    except OSError as exc:  # no multicast-capable interface at all
        pytest.skip(f"mDNS unavailable here: {exc}")
    try:
        assert await discovery.find_lan("K7QX9MPA", 3.0) == "ws://127.0.0.1:4321"
        assert await discovery.resolve("K7QX9MPA") == "ws://127.0.0.1:4321"
        assert await discovery.find_lan("K7QX9MPB", 0.3) is None
    finally:
        await advertiser.stop()


GOOD_HEADER = {"engine": "schoene", "options": {}, "seed": 1,
               "players": [{"name": "a", "bot": None}] * 3,
               "net": {"code": "AAAAAAAA", "host_token": "t", "salt": "s", "commitment": "c"}}


@pytest.mark.parametrize(("header", "move"), [
    ({k: v for k, v in GOOD_HEADER.items() if k != "players"}, None),
    ({**GOOD_HEADER, "net": {}}, None),
    ({**GOOD_HEADER, "players": [{"name": "a", "bot": None, "x": 1}] * 3}, None),
    ({**GOOD_HEADER, "options": [1]}, None),
    (GOOD_HEADER, ["x", {"type": "take"}]),
    (GOOD_HEADER, [0, {"type": "fly"}]),
    ({**GOOD_HEADER, "net": {**GOOD_HEADER["net"], "wrong_tries": "many"}}, None),
], ids=["no players", "no net", "odd player", "odd options", "bad seat", "illegal move",
        "odd wrong tries"])
def test_a_damaged_record_cannot_be_resumed_and_says_so(
    tmp_path: Path, header: dict[str, Any], move: list[Any] | None
) -> None:
    path = tmp_path / "game.jsonl"
    lines = [header] if move is None else [header, move]
    path.write_text("".join(f"{json.dumps(line)}\n" for line in lines))
    with pytest.raises(ValueError, match="damaged"):
        NetHost.resume(path, "ws://127.0.0.1:1", keep_record=False)
