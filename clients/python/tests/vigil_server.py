"""Starts the real Vigil server (`node server/dist/cli.js serve`) for the test session."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List, Optional

import httpx

REPO = Path(__file__).resolve().parents[3]
SERVER_CLI = REPO / "server" / "dist" / "cli.js"
TOR_LIST = REPO / "server" / "test-fixtures" / "intel" / "tor-bulk-exit-list.txt"


class VigilServer:
    """
    One Vigil process on PGlite in a temporary data directory, or on a throwaway database of the
    PostgreSQL server named by VIGIL_TEST_DATABASE_URL. Its first start prints the write key and the
    admin password; stop() and start() again keep the data and the port (for "server down, then up").
    """

    def __init__(self, name: str, env: Optional[Dict[str, str]] = None) -> None:
        if not SERVER_CLI.exists():
            raise RuntimeError(f"{SERVER_CLI} is missing: run `pnpm install && pnpm build` at the repository root")
        self.name = name
        self.dir = Path(tempfile.mkdtemp(prefix=f"vigil-py-{name}-"))
        self.env = {
            **os.environ,
            "VIGIL_DATA_DIR": str(self.dir / "data"),
            "HOST": "127.0.0.1",
            "PORT": "0",
            "VIGIL_LOG_LEVEL": "warn",
            **(env or {}),
        }
        self.env.pop("DATABASE_URL", None)
        self.database: Optional[str] = None
        admin = os.environ.get("VIGIL_TEST_DATABASE_URL")
        if admin:
            self.database = f"vigil_py_{name}_{uuid.uuid4().hex[:8]}"
            _postgres(admin, [f"CREATE DATABASE {self.database}"])
            self.env["DATABASE_URL"] = _with_database(admin, self.database)
        self.process: Optional[subprocess.Popen[str]] = None
        self.output: List[str] = []
        self.url = ""
        self.write_key = ""
        self.admin_password = ""
        self._token: Optional[str] = None
        self._ready = threading.Event()

    def start(self) -> "VigilServer":
        self._ready.clear()
        self.process = subprocess.Popen(
            ["node", str(SERVER_CLI), "serve"],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        return self

    def ensure_started(self) -> "VigilServer":
        if self.process is None:
            self.start()
        return self.wait()

    def wait(self, timeout: float = 120) -> "VigilServer":
        if not self._ready.wait(timeout):
            self.stop()
            raise RuntimeError(f"vigil serve ({self.name}) did not start:\n" + "".join(self.output))
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"vigil serve ({self.name}) exited:\n" + "".join(self.output))
        return self

    def _read(self, process: "subprocess.Popen[str]") -> None:
        assert process.stdout is not None
        lines = iter(process.stdout.readline, "")
        for line in lines:
            self.output.append(line)
            if "Write key" in line:
                self.write_key = next(lines).strip()
            elif line.strip().startswith("password:"):
                self.admin_password = line.split(":", 1)[1].strip()
            elif line.startswith("Vigil server: "):
                url = line.split()[2]
                if not self.url:
                    # Keep the port across restarts so clients built before a stop reach it again.
                    self.url = url
                    self.env["PORT"] = url.rsplit(":", 1)[1]
                self._ready.set()
        self._ready.set()

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        admin = os.environ.get("VIGIL_TEST_DATABASE_URL")
        if admin and self.database:
            _postgres(admin, [f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"])

    # -- reading what was stored -------------------------------------------------------------------

    def token(self) -> str:
        if self._token is None:
            answer = httpx.post(f"{self.url}/api/auth/login", json={"username": "admin", "password": self.admin_password})
            answer.raise_for_status()
            self._token = str(answer.json()["token"])
        return self._token

    def stored_events(self, **event_filter: str) -> List[Dict[str, Any]]:
        """Stored events matching the GraphQL EventFilter (e.g. event="login"), every page."""
        query = """query ($filter: EventFilter, $after: String) {
          events(filter: $filter, first: 500, after: $after) {
            nodes { name identity deviceId ip userAgent tags properties occurredAt }
            pageInfo { hasNextPage endCursor }
          } }"""
        found: List[Dict[str, Any]] = []
        after = None
        while True:
            answer = httpx.post(
                f"{self.url}/graphql",
                json={"query": query, "variables": {"filter": event_filter, "after": after}},
                headers={"authorization": f"Bearer {self.token()}"},
                timeout=30,
            )
            body = answer.json()
            assert "errors" not in body, body
            page = body["data"]["events"]
            found.extend(page["nodes"])
            if not page["pageInfo"]["hasNextPage"]:
                return found
            after = page["pageInfo"]["endCursor"]


def _with_database(url: str, database: str) -> str:
    parts = httpx.URL(url)
    return str(parts.copy_with(path=f"/{database}"))


def _postgres(admin_url: str, statements: List[str]) -> None:
    """Runs SQL through node-postgres from the server's dependencies (no Python driver needed)."""
    script = (
        "const pg=require('pg');(async()=>{const c=new pg.Client({connectionString:process.env.ADMIN_URL});"
        "await c.connect();for(const s of JSON.parse(process.env.STATEMENTS))await c.query(s);await c.end();})()"
        ".catch(e=>{console.error(e);process.exit(1)})"
    )
    subprocess.run(
        ["node", "-e", script],
        cwd=REPO / "server",
        env={**os.environ, "ADMIN_URL": admin_url, "STATEMENTS": json.dumps(statements)},
        check=True,
        timeout=60,
    )


def wait_until(predicate: Any, timeout: float = 30, message: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message}")
