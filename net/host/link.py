"""The host's own seats as a `TableLink`, so the host's terminal plays through the same
game screen as a peer's, without the network in between."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines.base import Move
from net.host.authority import NetHost
from net.table.link import TableLink


class HostLink(TableLink):
    """The table as the host's own terminal sees it: its local seats, no network in between."""

    def __init__(self, host: NetHost) -> None:
        super().__init__()
        self.host = host
        self.seats = [i for i, seat in enumerate(host.seats) if seat.local]

    @property  # type: ignore[override]
    def record_path(self) -> Path | None:
        return self.host.record_path

    async def start(self) -> None:
        self.host.add_listener(self.emit)
        if self.host.session is not None:
            for seat in self.seats or [None]:
                self.emit(self.host.table_message(seat, "sync"))

    async def send_move(self, seat: int, move: Move, state_no: int) -> None:
        self.host.local_move(seat, move, state_no)

    async def send_chat(self, text: str) -> None:
        self.host.send_chat(text)

    async def answering(self, seat: int, state_no: int) -> None:
        self.host.local_answering(seat, state_no)

    async def extend(self, seat: int, state_no: int) -> None:
        self.host.local_extend(seat, state_no)

    async def undo(self, seat: int, state_no: int) -> None:
        self.host.local_undo(seat, state_no)

    def finished_record(self) -> dict[str, Any] | None:
        session = self.host.session
        return session.record() if session is not None and session.over else None

    async def close(self, crashed: bool = False) -> None:
        self.host.remove_listener(self.emit)
