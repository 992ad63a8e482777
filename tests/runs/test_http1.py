"""The lean HTTP/1.1 client (runs.backends.http1) against a raw scripted server: every body
framing a server may use, keep-alive reuse, the body cap, and broken replies as HttpError."""

from __future__ import annotations

import asyncio
import gzip
import socket

import pytest

from indicifeval.runs.backends.http1 import CannotConnect, Http1Client, HttpError

OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\": \"ok\"}"


async def _serve(replies: list[bytes], close_after: bool = False):
    """A server answering each request with the next of ``replies`` (raw bytes); counts connections."""
    seen = {"connections": 0, "requests": []}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen["connections"] += 1
        try:
            while replies:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                seen["requests"].append(head + await reader.readexactly(length))
                writer.write(replies.pop(0))
                await writer.drain()
                if close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1], seen


def _run(replies: list[bytes], posts: int = 1, *, host: str = "127.0.0.1", max_body: int = 1 << 20,
         close_after: bool = False):
    async def go():
        server, port, seen = await _serve(replies, close_after)
        client = Http1Client(f"http://{host}:{port}", {"Content-Type": "application/json"}, max_body)
        try:
            out = [await client.post("/v1/chat/completions?key=x", b'{"q": 1}') for _ in range(posts)]
        finally:
            await client.close()
            server.close()
        return out, seen

    return asyncio.run(go())


def test_a_keep_alive_connection_is_reused_and_the_request_is_well_formed():
    replies, seen = _run([OK, OK, OK], posts=3)
    assert [r.body for r in replies] == [b'{"a": "ok"}'] * 3 and replies[0].status == 200
    assert seen["connections"] == 1
    first = seen["requests"][0]
    assert first.startswith(b"POST /v1/chat/completions?key=x HTTP/1.1\r\n")
    assert b"\r\nHost: 127.0.0.1:" in first and b"\r\nContent-Length: 8\r\n" in first and first.endswith(b'{"q": 1}')


def test_localhost_is_resolved_and_connected():
    replies, _ = _run([OK], host="localhost")
    assert replies[0].body == b'{"a": "ok"}'


def test_chunked_body_with_extensions_and_trailers():
    chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"4;ext=1\r\n{\"a\"\r\n7\r\n: \"ok\"}\r\n0\r\nX-Trailer: t\r\n\r\n")
    replies, seen = _run([chunked, OK], posts=2)
    assert [r.body for r in replies] == [b'{"a": "ok"}'] * 2 and seen["connections"] == 1


def test_a_body_to_the_end_of_the_connection_and_connection_close():
    until_eof = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"a\": \"eof\"}"
    closing = b"HTTP/1.1 429 Too Many\r\nRetry-After: 2\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}"
    replies, seen = _run([until_eof, closing], posts=2, close_after=True)
    assert replies[0].body == b'{"a": "eof"}'
    assert replies[1].status == 429 and replies[1].headers["retry-after"] == "2"
    assert seen["connections"] == 2  # neither connection was kept


def test_interim_replies_are_skipped_and_gzip_is_inflated():
    body = gzip.compress(b'{"a": "zipped"}')
    zipped = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + \
        str(len(body)).encode() + b"\r\n\r\n" + body
    replies, _ = _run([zipped])
    assert replies[0].body == b'{"a": "zipped"}'


@pytest.mark.parametrize("framing", ["length", "chunked", "eof"])
def test_a_body_over_the_cap_is_refused_unread(framing):
    big = b"x" * 5000
    reply = {"length": b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + big,
             "chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1388\r\n" + big + b"\r\n0\r\n\r\n",
             "eof": b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + big}[framing]
    replies, seen = _run([reply, OK], posts=2, max_body=1000, close_after=framing == "eof")
    assert replies[0].body is None and replies[1].body == b'{"a": "ok"}'
    assert seen["connections"] == 2  # the refused body's connection is not reused


@pytest.mark.parametrize("reply", [b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{\"torn",
                                   b"SSH-2.0-OpenSSH\r\n\r\n", b"HTTP/1.1 abc OK\r\n\r\n",
                                   b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"])
def test_a_torn_or_foreign_reply_is_an_http_error(reply):
    with pytest.raises(HttpError):
        _run([reply], close_after=True)


def test_a_refused_connection_is_an_http_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there

    async def go():
        client = Http1Client(f"http://127.0.0.1:{port}", {}, 1000)
        await client.post("/", b"")

    with pytest.raises(CannotConnect, match="^connection refused$") as err:  # a wrong URL, told apart
        asyncio.run(go())
    assert isinstance(err.value, HttpError)


def test_only_plain_http_urls():
    with pytest.raises(ValueError):
        Http1Client("https://example.org/v1", {}, 1000)


def test_a_header_with_a_line_break_is_refused_without_naming_it():
    with pytest.raises(ValueError, match="line break") as caught:
        Http1Client("http://127.0.0.1:9", {"Authorization": "Bearer sk-secret\n"}, 1000)
    assert "sk-secret" not in str(caught.value)
