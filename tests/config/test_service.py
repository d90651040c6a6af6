"""sd_notify against a real AF_UNIX datagram socket, as systemd provides one."""

from __future__ import annotations

import os
import socket
import time

import pytest

from companion import service


@pytest.fixture
def listener(tmp_path, monkeypatch):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify.sock"
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_status_watchdog_and_stopping_reach_the_socket(listener):
    assert service.notify_ready("watching the table")
    assert listener.recv(4096) == b"READY=1\nSTATUS=watching the table"
    assert service.notify_status("camera stalled:\nreopening")
    assert listener.recv(4096) == b"STATUS=camera stalled: reopening"
    assert service.notify_watchdog()
    assert listener.recv(4096) == b"WATCHDOG=1"
    assert service.notify_stopping()
    assert listener.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket(monkeypatch):
    name = f"companion-test-{os.getpid()}-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert service.notify_ready()
        assert sock.recv(4096) == b"READY=1"


def test_outside_systemd_everything_is_a_quiet_no_op(monkeypatch, tmp_path):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert service.notify_ready() is False
    assert service.notify_watchdog() is False
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens.sock"))
    assert service.notify_status("x") is False  # a dead socket is not an error either
    monkeypatch.setenv("NOTIFY_SOCKET", "vsock:2:1234")
    assert service.notify_ready() is False


def test_watchdog_interval(monkeypatch):
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert service.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    assert service.watchdog_interval() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert service.watchdog_interval() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert service.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    monkeypatch.setenv("WATCHDOG_USEC", "soon")
    assert service.watchdog_interval() is None


def test_watchdog_pets_only_while_healthy(listener):
    healthy = True
    dog = service.Watchdog(lambda: healthy, interval=0.1).start()
    try:
        assert listener.recv(4096) == b"WATCHDOG=1"
        assert listener.recv(4096) == b"WATCHDOG=1"
        healthy = False
        time.sleep(0.1)  # let a pet already under way arrive
        listener.settimeout(0.01)
        while True:
            try:
                listener.recv(4096)
            except TimeoutError:
                break
        listener.settimeout(0.25)
        with pytest.raises(TimeoutError):
            listener.recv(4096)
    finally:
        dog.stop()
    assert dog.pets >= 2


def test_watchdog_without_an_interval_does_nothing(monkeypatch):
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    dog = service.Watchdog().start()
    assert dog._thread is None
    dog.stop()
