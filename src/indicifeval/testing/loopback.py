"""A server on the loopback interface with its own event loop in a thread: what the fake
OpenAI-compatible server and the fake Sarvam API share. A subclass answers each request in
``_respond``; ``port=0`` takes a free port, known once ``start`` returns."""

from __future__ import annotations

import asyncio
import threading


class LoopbackServer:
    name = "loopback"
    backlog = 1024

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._lock = threading.Lock()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError(f"{self.name} server did not start")

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    def serve_forever(self, ready: str = "") -> None:
        """Foreground use (a ``__main__`` entry): ``ready`` is printed once the port is bound,
        never before (a client that waits for it can connect at once)."""
        self.start()
        if ready:
            print(ready, flush=True)
        assert self._thread is not None
        self._thread.join()

    def _serve(self) -> None:
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._server = loop.run_until_complete(asyncio.start_server(self._handle, self.host, self.port,
                                                                    backlog=self.backlog))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            loop.run_until_complete(self._server.wait_closed())
            loop.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """HTTP/1.1 requests on one connection (keep-alive), each handed to ``_respond``, which
        answers and says whether to keep the connection open."""
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0") or 0))
                if not await self._respond(method, path, headers, body, writer):
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            try:
                writer.close()
            except Exception:
                pass

    async def _respond(self, method: str, path: str, headers: dict[str, str], body: bytes,
                       writer: asyncio.StreamWriter) -> bool:
        raise NotImplementedError


__all__ = ["LoopbackServer"]
