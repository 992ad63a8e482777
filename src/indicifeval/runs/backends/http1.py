"""A lean HTTP/1.1 client for plain ``http://`` servers (vLLM, SGLang, llama.cpp on this machine
or its network): keep-alive connections on asyncio streams, one request at a time on each.

Why not aiohttp here: its client costs about 0.1 ms more CPU per request, which at 64 requests
in flight and a 50 ms server is 6 ms of every round spent in the client's event loop while
slots wait (bench_trans measured it). ``https://`` (hosted APIs, seconds per reply) keeps aiohttp.
Bodies: Content-Length, chunked, or to the end of the connection; a gzip/deflate body (never
asked for) is inflated; a body over the cap is refused unread and its connection closed."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import zlib
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlsplit

T = TypeVar("T")
_STREAM_LIMIT = 1 << 20  # the longest header line or chunk-size line accepted


class HttpError(Exception):
    """A dropped connection or a reply that is not HTTP/1.x: worth another attempt."""


class CannotConnect(HttpError):
    """No connection at all: every address refused it, or no resolver knows the host.
    ``reason`` says which, for the caller to tell a wrong URL from a server that went away."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Reply:
    status: int
    headers: dict[str, str]  # names lower-cased
    body: bytes | None  # None: over the cap (not read)


async def within(seconds: float | None, awaitable: Awaitable[T]) -> T:
    """``awaitable``, or ``asyncio.TimeoutError`` after ``seconds`` (asyncio.timeout where there is one:
    no task per request)."""
    if not seconds:
        return await awaitable
    if hasattr(asyncio, "timeout"):
        async with asyncio.timeout(seconds):
            return await awaitable
    return await asyncio.wait_for(awaitable, seconds)  # Python 3.10


class Http1Client:
    """``await client.post(target, body)`` to the server of ``base_url``; ``headers`` go with every
    request. Idle connections are kept for the next request (at most one per caller in flight)."""

    def __init__(self, base_url: str, headers: dict[str, str], max_body: int):
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"not a plain http URL: {parts.scheme}://{parts.hostname}")
        self.host, self.port = parts.hostname, parts.port or 80
        authority = f"[{self.host}]" if ":" in self.host else self.host
        if parts.port:
            authority += f":{parts.port}"
        fixed = {"Host": authority, "Accept": "application/json", "User-Agent": "indicifeval", **headers}
        if any(c in f"{k}{v}" for k, v in fixed.items() for c in "\r\n"):
            raise ValueError("a request header holds a line break (an API key read with its newline?)")
        self._head = "".join(f"{k}: {v}\r\n" for k, v in fixed.items() if k.lower() != "content-length")
        self.max_body = max_body
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self._addresses: list[tuple[int, str, int]] | None = None  # resolved once, not per connection
        self._resolving: asyncio.Lock | None = None

    async def post(self, target: str, body: bytes) -> Reply:
        """POST ``body`` to ``target`` (path and query). Any failure on the wire is ``HttpError``."""
        head = f"POST {target} HTTP/1.1\r\n{self._head}Content-Length: {len(body)}\r\n\r\n".encode("latin-1")
        conn = self._idle.pop() if self._idle else None
        try:
            if conn is None:
                conn = await self._connect()
            reader, writer = conn
            writer.write(head + body)
            reply, reuse = await self._read(reader)
        except (OSError, EOFError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError,
                UnicodeError, zlib.error) as exc:
            self._drop(conn)
            raise HttpError(f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__) from None
        except BaseException:  # a timeout or a cancel mid-reply: the connection is in an unknown state
            self._drop(conn)
            raise
        if reuse:
            self._idle.append(conn)
        else:
            self._drop(conn)
        return reply

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A new connection to the first of the host's addresses that answers ("localhost" is
        resolved once for all the connections, as aiohttp's cache did, not 64 times at a start)."""
        if self._resolving is None:
            self._resolving = asyncio.Lock()
        async with self._resolving:
            if self._addresses is None:
                try:  # an address already: no resolver thread to start (and join when the loop ends)
                    ip = ipaddress.ip_address(self.host)
                    self._addresses = [(socket.AF_INET6 if ip.version == 6 else socket.AF_INET, self.host, self.port)]
                except ValueError:
                    try:
                        found = await asyncio.get_running_loop().getaddrinfo(self.host, self.port,
                                                                             type=socket.SOCK_STREAM)
                    except socket.gaierror as exc:
                        raise CannotConnect(f"the host {self.host} is not known ({exc.strerror or exc})") from None
                    self._addresses = [(family, str(address[0]), int(address[1]))
                                       for family, _, _, _, address in found]
        failed: OSError = OSError(f"{self.host} has no address")
        refused = 0
        for family, host, port in self._addresses:
            try:
                return await asyncio.open_connection(host, port, family=family, limit=_STREAM_LIMIT)
            except OSError as exc:
                failed = exc
                refused += isinstance(exc, ConnectionRefusedError)
        if self._addresses and refused == len(self._addresses):
            raise CannotConnect("connection refused")
        raise failed

    async def _read(self, reader: asyncio.StreamReader) -> tuple[Reply, bool]:
        while True:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            status_line, *lines = head[:-4].split("\r\n")
            version, status_text = status_line.split(" ", 2)[:2]
            if not version.startswith("HTTP/1."):
                raise ValueError(f"not an HTTP/1 reply: {status_line[:40]!r}")
            status = int(status_text)
            if status >= 200 or status == 101:
                break  # 100 Continue and other interim replies are skipped
        headers: dict[str, str] = {}
        for line in lines:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        connection = headers.get("connection", "").lower()
        reuse = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
        if status in (204, 304):
            return Reply(status, headers, b""), reuse
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = await self._chunked(reader)
        elif "content-length" in headers:
            length = int(headers["content-length"])
            if length > self.max_body:
                return Reply(status, headers, None), False
            body = await reader.readexactly(length)
        else:  # the body runs to the end of the connection
            body = await reader.read(self.max_body + 1)
            while body and len(body) <= self.max_body and (more := await reader.read(self.max_body + 1 - len(body))):
                body += more
            reuse = False
        if body is None or len(body) > self.max_body:
            return Reply(status, headers, None), False
        encoding = headers.get("content-encoding", "").lower()
        if encoding in ("gzip", "deflate"):
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
        return Reply(status, headers, body), reuse

    async def _chunked(self, reader: asyncio.StreamReader) -> bytes | None:
        parts: list[bytes] = []
        size = 0
        while True:
            line = await reader.readuntil(b"\r\n")
            length = int(line.split(b";", 1)[0].strip(), 16)
            if length == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass  # trailers
                return b"".join(parts)
            size += length
            if size > self.max_body:
                return None
            parts.append(await reader.readexactly(length))
            await reader.readexactly(2)

    def _drop(self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None) -> None:
        if conn is not None:
            conn[1].close()

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for _, writer in idle:
            writer.close()
        for _, writer in idle:
            try:
                await writer.wait_closed()
            except (OSError, asyncio.CancelledError):
                pass


__all__ = ["CannotConnect", "Http1Client", "HttpError", "Reply", "within"]
