"""A throwaway PostgreSQL 15 cluster for the capture tools: initdb in a temporary directory, Unix
socket only, run as the postgres user, stopped and removed by cleanup() (also on failure)."""
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))
from fuzzing.common import ToolError  # noqa: E402

PG_BIN = "/usr/lib/postgresql/15/bin"
PORT = "54329"


def require_postgres():
    if not os.path.exists(f"{PG_BIN}/initdb"):
        raise ToolError("PostgreSQL 15 is not installed (run tools/setup)")


def failure(e):
    """A ToolError naming the PostgreSQL program that failed and its first line of complaint."""
    lines = (e.stderr or "").strip().splitlines()
    return ToolError(f"{os.path.basename(e.cmd[4])} failed: {lines[0] if lines else f'exit {e.returncode}'}")


class Cluster:
    def __init__(self, tool="pg_capture", extra_conf=""):
        self.tool = tool
        self.extra_conf = extra_conf
        self.tmp = tempfile.mkdtemp(prefix=f"pgstore-{tool}-")
        self.data = os.path.join(self.tmp, "data")
        self.started = False
        pw = pwd.getpwnam("postgres")
        os.chown(self.tmp, pw.pw_uid, pw.pw_gid)

    def run(self, *cmd, **kw):
        return subprocess.run(["runuser", "-u", "postgres", "--", *cmd], check=True,
                              capture_output=True, text=True, **kw)

    def start(self):
        print(f"{self.tool}: initdb (data checksums on) in", self.data, file=sys.stderr)
        self.run(f"{PG_BIN}/initdb", "-D", self.data, "--data-checksums", "-A", "trust",
                 "-U", "postgres", "--no-sync")
        conf = os.path.join(self.data, "postgresql.conf")
        with open(conf, "a") as f:
            f.write(f"listen_addresses = ''\nunix_socket_directories = '{self.tmp}'\n"
                    "autovacuum = off\nfsync = off\n" + self.extra_conf)
        self.launch()

    def launch(self):
        """Starts the server of the cluster start() made (again, after stop())."""
        self.run(f"{PG_BIN}/pg_ctl", "-D", self.data, "-l", os.path.join(self.tmp, "log"),
                 "-o", f"-p {PORT}", "-w", "start")
        self.started = True

    def sql(self, query):
        r = self.run("psql", "-h", self.tmp, "-p", PORT, "-d", "postgres", "-X", "-q", "-A",
                     "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-f", "-", input=query)
        return r.stdout

    def stop(self):
        if self.started:
            self.run(f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
            self.started = False

    def cleanup(self):
        try:
            self.stop()
        except subprocess.CalledProcessError as e:
            print(f"{self.tool}: stopping the server failed:", e.stderr, file=sys.stderr)
        shutil.rmtree(self.tmp, ignore_errors=True)
