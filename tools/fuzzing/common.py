"""Paths, messages, atomic file writes and subprocess helpers shared by the fuzzing tools."""
import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROG = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "pgstore"


class ToolError(Exception):
    """A failure to report as one line and exit 2 (bad input, missing file, failed build)."""


def log(msg, end="\n"):
    print(msg, end=end, flush=True)


def die(msg, code=2):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


def run_main(main):
    """Runs main(), turning ToolError, a full disk and Ctrl-C into one-line messages."""
    try:
        sys.exit(main())
    except ToolError as e:
        die(str(e))
    except OSError as e:
        if e.errno == errno.ENOSPC:
            die(f"disk full writing {e.filename or 'output'}; free space and run again "
                "(everything written so far is kept)")
        die(f"{e.strerror}: {e.filename}" if e.filename else str(e))
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted; everything found so far is kept", file=sys.stderr)
        sys.exit(130)


def atomic_write(path, data):
    """Writes bytes or str to path via a temporary file and rename: readers (and a later run after
    kill -9) see the old content or the new, never a torn one."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def atomic_write_json(path, obj):
    atomic_write(path, json.dumps(obj, indent=2, sort_keys=True) + "\n")


def atomic_copy(src, dst):
    with open(src, "rb") as f:
        atomic_write(dst, f.read())


def write_seed(directory, data):
    """Writes one seed input into directory (made if missing), named by the SHA-1 of its bytes as
    libFuzzer names corpus files, atomically. Returns False when the same input was there."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, hashlib.sha1(data).hexdigest())
    if os.path.exists(path):
        return False
    atomic_write(path, data)
    return True


def corpora_dir(path=None):
    """The corpora directory: path if given (it must exist), else corpora/ of this workspace."""
    path = path or os.path.join(ROOT, "corpora")
    require_dir(path, "corpora directory")
    return path


def read_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def files_in(d):
    """Regular files directly in d (not temporaries), sorted; [] when d does not exist."""
    if not os.path.isdir(d):
        return []
    return sorted(f for f in os.listdir(d)
                  if os.path.isfile(os.path.join(d, f)) and ".tmp" not in f)


def require_dir(d, what):
    if not os.path.isdir(d):
        raise ToolError(f"{what} {d} does not exist")


def require_free_space(d, megabytes=64):
    os.makedirs(d, exist_ok=True)
    st = os.statvfs(d)
    free = st.f_bavail * st.f_frsize // (1 << 20)
    if free < megabytes:
        raise ToolError(f"only {free} MB free under {d}; need at least {megabytes} MB")


def tool_path(*candidates):
    """The first of candidates found on PATH (e.g. llvm-profdata-14, llvm-profdata)."""
    for c in candidates:
        p = shutil.which(c)
        if p:
            return p
    raise ToolError(f"none of {', '.join(candidates)} is installed (run tools/setup)")


def die_with_parent():
    """preexec_fn for fuzzer processes: they get SIGKILL when the tool dies, even by kill -9, so
    a resumed run never races an orphan for the same directory."""
    import ctypes
    import signal
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def bazel(args, what, tree=ROOT):
    """Runs bazel in the workspace (or in tree, a copy of it) and returns its stdout. On failure:
    ToolError with one line, the first error Bazel printed, and the full output in
    out/bazel-error.log."""
    r = subprocess.run(["bazel", *args], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        log_path = os.path.join(ROOT, "out", "bazel-error.log")
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
        with open(log_path, "w") as f:
            f.write(f"$ bazel {' '.join(args)}\n{r.stdout}{r.stderr}")
        lines = (r.stderr + r.stdout).splitlines()
        first = next((l.strip() for l in lines if ": error:" in l),  # the compiler's, else Bazel's
                     next((l.strip() for l in lines if "ERROR:" in l),
                          lines[-1].strip() if lines else f"exit {r.returncode}"))
        raise ToolError(f"{what} failed: {first} (full output: {os.path.relpath(log_path)})")
    return r.stdout


def tested_at():
    """The commit the working tree is at ("+dirty" with uncommitted changes), or "?": what a
    recorded result was measured at."""
    r = subprocess.run(["git", "describe", "--always", "--dirty=+dirty", "--abbrev=10"], cwd=ROOT,
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "?"
