"""uvicorn's HTTP protocol, closing idle connections: uvicorn closes a connection idle after a
response (``timeout_keep_alive``), but not one that never sends a request, nor one that sends
its request's headers a byte at a time; here the same timer runs from the moment a connection
opens, and from the end of each response, until a request's headers are all in."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol


class IdleClosingProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    timeout_keep_alive_task: Any
    timeout_keep_alive: float

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def data_received(self, data: bytes) -> None:
        timer = self.timeout_keep_alive_task  # armed: no request under way, its headers yet to come
        self.timeout_keep_alive_task = None  # (so the base class does not cancel it)
        super().data_received(data)
        cycle = getattr(self, "cycle", None)
        started = cycle is not None and not cycle.response_complete
        if timer is None:
            return
        if started or self.timeout_keep_alive_task is not None or self.transport.is_closing():
            timer.cancel()
        else:  # still no whole request: the clock runs on from the first byte's wait
            self.timeout_keep_alive_task = timer


__all__ = ["IdleClosingProtocol"]
