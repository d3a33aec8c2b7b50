"""`python -m bench.ladder` runs, at sizes small enough for the suite, so the bench cannot
break silently again (it once waited 30 s for an in-memory store to answer `wal`, then died
with "database is locked")."""

from __future__ import annotations

import pytest

from bench import ladder
from engines import ENGINE_IDS
from net.players.sqlite import MEMORY, SqliteLadders


def test_an_in_memory_store_opens_at_once() -> None:
    store = SqliteLadders(MEMORY)  # type: ignore[arg-type]
    try:
        assert store.ladder("schoko") == []
    finally:
        store.close()


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_the_ladder_bench_rates_every_level(engine_id: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    ladder.main([engine_id, "--deals", "1", "--expert-deals", "1", "--expert-iterations", "3"])
    out = capsys.readouterr().out
    for level in ("bot:random", "bot:strong", "bot:expert"):
        assert level in out
    assert "strong vs random:" in out and "expert vs strong:" in out


def test_farming_with_fresh_keys_lifts_no_higher_than_the_honest_way() -> None:
    for games, farmer, honest in ladder.farming(30):
        assert farmer <= honest, (games, farmer, honest)


def test_no_deals_is_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        ladder.main(["schoko", "--deals", "0"])
    assert stopped.value.code == 2
    assert "--deals: must be 1 or more" in capsys.readouterr().err
