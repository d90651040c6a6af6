"""The device's address on the local network, for the join page's QR code."""

from __future__ import annotations

import socket

__all__ = ["join_url", "lan_ip"]


def lan_ip() -> str:
    """The IPv4 address other devices on the LAN reach us at (127.0.0.1 if there is no network).

    Connecting a UDP socket sends nothing; it only asks the kernel which interface would be used.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def join_url(host_header: str, ip: str | None = None) -> str:
    """http://<LAN IP>:<port>/ with the port taken from the request's Host header."""
    port = host_header.rsplit(":", 1)[1] if ":" in host_header.strip("[]") else "80"
    ip = ip or lan_ip()
    return f"http://{ip}/" if port == "80" else f"http://{ip}:{port}/"
