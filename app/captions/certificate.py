"""The certificate guest speech is served with: browsers give the microphone only to secure pages.

A phone on the LAN reaches the app by its address, which no public certificate authority can
vouch for, so the app makes its own self-signed certificate the first time guest speech is
turned on and keeps it (with its key, readable by this user only) in app.shared.paths.tls_dir():
a phone that accepted it once is not asked again. The phone shows its browser's warning for a
certificate it cannot check (docs/captions.md says what and why) once per certificate.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
import ssl
from pathlib import Path

from app.shared import paths
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

CERT_FILE, KEY_FILE = "captions-cert.pem", "captions-key.pem"
VALID_DAYS = 3650  # made once and kept: a phone that trusted it should not be asked again next year


def ssl_context(folder: Path | None = None, addresses: tuple[str, ...] = ()) -> ssl.SSLContext:
    """A server context with the kept certificate; one is made first when the folder has neither
    file. `addresses`: IPs the certificate names besides 127.0.0.1 (when it is made).
    An unreadable or broken pair -> LiveTranslatorError saying how to get a new one."""
    folder = Path(folder) if folder is not None else paths.tls_dir()
    cert, key = folder / CERT_FILE, folder / KEY_FILE
    if not cert.exists() and not key.exists():
        _make(cert, key, addresses)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The certificate for guest speech in {folder} cannot be used: {reason}."),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Delete {cert} and {key}: the app makes a new certificate at the next start "
                "(phones then ask once more to trust it).",
            ),
            folder=folder,
            reason=getattr(error, "strerror", None) or getattr(error, "reason", None) or error,
            cert=cert.name,
            key=key.name,
        ) from error
    return context


def _make(cert: Path, key: Path, addresses: tuple[str, ...]) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Live Translator on {socket.gethostname()}"[:64])])
    ips = {ipaddress.ip_address("127.0.0.1")}
    for address in addresses:
        try:
            ips.add(ipaddress.ip_address(address))
        except ValueError:
            pass
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), *(x509.IPAddress(ip) for ip in sorted(ips, key=str))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(private, hashes.SHA256())
    )
    try:
        cert.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with os.fdopen(os.open(key, flags, 0o600), "wb") as out:  # the key: this user only
            out.write(
                private.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )
        cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    except OSError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Cannot keep the certificate for guest speech in {folder}: {reason}."),
            QT_TRANSLATE_NOOP("Errors", "Make the folder writable, or set LIVE_TRANSLATOR_TLS to one that is."),
            folder=cert.parent,
            reason=error.strerror or error,
        ) from error
