"""Where `run --serve` puts its caption server, tried before anything loads: the host must be
found and be this computer's, and the port free. The shared layer only reads the address as
written (app.shared.arguments.serve_address); looking it up and binding a socket is the caption
server's side, done here, where `run` starts the server."""

from __future__ import annotations

import errno
import os
import socket

from app.shared.arguments import BadValue, ServeAddress
from app.shared.arguments import serve_address as written_address
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

# The words app.shared.arguments uses for a host that is not one: one entry in the translations.
_HOST_HINT = QT_TRANSLATE_NOOP(
    "Errors", "Give an address of this computer (127.0.0.1; 0.0.0.0 for every network) or its name."
)


def serve_address(text: str) -> ServeAddress:
    """--serve [HOST:]PORT (argparse's type): the address as written, then tried with a socket
    that is closed at once, so the right hint comes while parsing, before any model loads."""
    address = written_address(text)
    _try_binding(address)
    return address


def _try_binding(address: ServeAddress) -> None:
    host, port = address
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Cannot find the host {host} to serve captions on: {reason}."),
                _HOST_HINT,
                host=repr(host),
                reason=getattr(error, "strerror", None) or error,
            )
        ) from None
    family, kind, proto, _, where = found[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            if os.name == "posix":  # as the server binds (aiohttp): a port in TIME_WAIT is free
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except OSError as error:
        raise BadValue(_binding_error(address, error)) from None


def _binding_error(address: ServeAddress, error: OSError) -> LiveTranslatorError:
    values = {"host": address.host, "port": address.port, "reason": error.strerror or error}
    if error.errno == errno.EADDRINUSE:
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Port {port} on {host} is in use."),
            QT_TRANSLATE_NOOP("Errors", "Pick another port, or stop the program using this one."),
            **values,
        )
    if error.errno in (errno.EACCES, errno.EPERM):
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Captions cannot be served on port {port}: {reason}."),
            QT_TRANSLATE_NOOP("Errors", "Pick a port from 1024 to 65535."),
            **values,
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{host} is not an address of this computer: {reason}."), _HOST_HINT, **values
        )
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "Cannot serve captions on {host}:{port}: {reason}."), _HOST_HINT, **values
    )
