"""A throwaway PostgreSQL cluster for tests: initdb in a temp folder, a Unix socket there, trust
authentication, stopped (and deleted) at the end. ``initdb`` refuses root, so as root the server
runs as the ``postgres`` user (``runuser``).

``start()`` returns a ``Cluster`` or raises ``Unavailable`` with a one-line reason; the fixture
skips on it locally and fails the run when ``CI`` is set. ``start(pgvector_bin())`` starts the
second server of the tests: PostgreSQL 16 with the pgvector extension, from the binaries the
``pgserver`` distribution ships (a dev dependency: Debian here packages no pgvector).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

BIN_DIRS = ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin")


class Unavailable(RuntimeError):
    """PostgreSQL cannot be started here (the message is the one-line reason)."""


def pgvector_bin() -> str:
    """The bin folder of the PostgreSQL with pgvector that the ``pgserver`` distribution ships."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable("PostgreSQL with pgvector needs the pgserver dev dependency (uv sync)")
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (folder / "postgres").exists():
        raise Unavailable(f"no PostgreSQL binaries in {folder}")
    return str(folder)


def _bin(name: str, bin_dir: str | None = None) -> str:
    if bin_dir is not None:
        return str(Path(bin_dir) / name)
    for folder in BIN_DIRS:
        if (Path(folder) / name).exists():
            return str(Path(folder) / name)
    found = shutil.which(name)
    if found is None:
        raise Unavailable(f"PostgreSQL's {name} is not installed (apt-get install postgresql-15)")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self, bin_dir: str | None = None) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="orbitkb-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.root, "postgres")
        self.user = "postgres" if self._as else os.environ.get("USER", "postgres")

    def _run(self, *argv: str) -> None:
        try:
            subprocess.run([*self._as, *argv], check=True, capture_output=True, text=True, timeout=60)
        except FileNotFoundError as exc:
            raise Unavailable(f"cannot run {argv[0]}: {exc}") from exc
        except subprocess.CalledProcessError as exc:
            last = (exc.stderr or exc.stdout or "").strip().splitlines()[-1:] or ["no output"]
            raise Unavailable(f"{Path(argv[0]).name} failed: {last[0]}") from exc

    def _reachable_bin(self) -> None:
        """Binaries inside a folder the ``postgres`` user cannot enter (a checkout under /root) are
        copied into the cluster's own folder first."""
        if self.bin_dir is None or not self._as:
            return
        check = subprocess.run([*self._as, "test", "-x", str(Path(self.bin_dir) / "postgres")], capture_output=True)
        if check.returncode != 0:
            # the wheel's binaries find their libraries at $ORIGIN/../../../<package>.libs: keep that shape
            install = Path(self.bin_dir).parent
            package = install.parent
            copy = self.root / "site" / package.name / install.name
            shutil.copytree(install, copy, ignore=shutil.ignore_patterns("include"))
            libs = package.parent / f"{package.name}.libs"
            if libs.is_dir():
                shutil.copytree(libs, self.root / "site" / libs.name)
            self.bin_dir = str(copy / "bin")

    def start(self) -> Cluster:
        self._reachable_bin()
        self._run(_bin("initdb", self.bin_dir), "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        options = f"-k {self.root} -p {self.port} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run(_bin("pg_ctl", self.bin_dir), "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w",
                  "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@/{database}?host={self.root}&port={self.port}"

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import sqlalchemy as sa

        name = "t_" + uuid.uuid4().hex[:12]
        engine = sa.create_engine(self.url().replace("postgresql://", "postgresql+psycopg://"),
                                  isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            engine.dispose()
        return self.url(name)

    def restart(self) -> None:
        """Stop the server at once (dropping every connection) and start it again."""
        self._run(_bin("pg_ctl", self.bin_dir), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        options = f"-k {self.root} -p {self.port} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run(_bin("pg_ctl", self.bin_dir), "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w",
                  "start")

    def stop(self) -> None:
        try:
            self._run(_bin("pg_ctl", self.bin_dir), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except Unavailable:
            pass
        shutil.rmtree(self.root, ignore_errors=True)


def start(bin_dir: str | None = None) -> Cluster:
    """A started cluster of the machine's PostgreSQL, or of the one in ``bin_dir``."""
    cluster = Cluster(bin_dir)
    try:
        return cluster.start()
    except Unavailable:
        shutil.rmtree(cluster.root, ignore_errors=True)
        raise
