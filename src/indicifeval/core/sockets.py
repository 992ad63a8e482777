"""A server's listening socket, bound before anything says "serving", with the one-line
errors a user can act on (used by the review app and by ``indicifeval serve``)."""

from __future__ import annotations

import errno
import socket

from indicifeval.core.errors import BusyError, InputError, first_line


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound and listening before anything says "serving": a busy port,
    a privileged one or an unknown address is one line naming the option to change."""
    if not 0 <= port <= 65535:
        raise InputError(f"{port} is not a port (0 to 65535); choose one with --port", field="port")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise InputError(f"cannot listen on {host!r} ({first_line(exc)}); give this machine's address with --host",
                         field="host") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a live listener still refuses
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise BusyError(f"port {port} on {host} is in use (another server?); choose another with --port") from None
        if exc.errno == errno.EACCES:
            raise InputError(f"not allowed to listen on port {port} (below 1024 needs privileges); choose another "
                             "with --port", field="port") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise InputError(f"{host} is not an address of this machine; choose one with --host",
                             field="host") from None
        raise InputError(f"cannot listen on {host} port {port} ({exc.strerror}); choose another with --port or "
                         "--host") from None
    return sock


__all__ = ["listen"]
