"""A real PostgreSQL server for the tests, started once per session in a temporary directory (initdb + pg_ctl), and
a fresh schema per test so that tests never see each other's rows.

``CARDTABLE_TEST_DATABASE_URL`` points the tests at a server that already runs instead (its database must let the
user create schemas).  The server's binaries are found on PATH or in Debian's ``/usr/lib/postgresql/<version>/bin``;
``.ci/run`` installs Debian's ``postgresql-15`` when they are missing.  initdb refuses to run as root, so as root
the server runs as the ``postgres`` user that package creates.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import asyncpg

USER = "cardtable"
DATABASE = "cardtable"


def _binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str  # the test database, no schema chosen
    directory: Path | None = None
    as_user: str | None = None
    binaries: Path | None = None

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.as_user, "--"] if self.as_user else []
        subprocess.run(prefix + list(command), check=True, capture_output=True, text=True)

    def stop(self) -> None:
        if self.directory is None or self.binaries is None:
            return
        try:
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def start() -> Server:
    """The session's server: the one ``CARDTABLE_TEST_DATABASE_URL`` names, or a new one in a temporary directory."""
    if os.environ.get("CARDTABLE_TEST_DATABASE_URL"):
        return Server(os.environ["CARDTABLE_TEST_DATABASE_URL"])
    binaries = _binaries()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed (pg_ctl not found): apt-get install -y postgresql-15")
    directory = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
    as_user = None
    if os.geteuid() == 0:
        as_user = "postgres"
        account = pwd.getpwnam(as_user)
        os.chown(directory, account.pw_uid, account.pw_gid)
    port = _free_port()
    server = Server(f"postgresql://{USER}@127.0.0.1:{port}/{DATABASE}", directory, as_user, binaries)
    data = str(directory / "data")
    try:
        server._run(
            str(binaries / "initdb"), "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"
        )
        # Durability is not what the tests check, and fsyncs on a shared disk would be most of their time.
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {directory} -c fsync=off -c synchronous_commit=off"
        options += " -c full_page_writes=off -c max_connections=300"
        server._run(str(binaries / "pg_ctl"), "-D", data, "-l", str(directory / "log"), "-w", "-o", options, "start")
        server._run(str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", USER, DATABASE)
    except subprocess.CalledProcessError as e:
        server.stop()
        raise RuntimeError(f"could not start PostgreSQL: {e.stderr or e.stdout}") from None
    return server


async def new_schema(server: Server) -> str:
    """A URL whose connections see only a new, empty schema."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return f"{server.url}?search_path={name}"
