"""Fixtures for the network tests: private data and rooms directories, and a live relay on a
random free port of 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from net.relay import Limits, Relay


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data directory (records, tokens) and rooms directory."""
    monkeypatch.setenv("TABLETOP_TUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TABLETOP_TUI_ROOMS", str(tmp_path / "rooms"))
    return tmp_path


@pytest.fixture
async def relay() -> AsyncIterator[Relay]:
    server = Relay(Limits(sweep_every=0.5))
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()
