"""A scratch copy of the working tree, and `bazel test` in it: for the tools that change the code
and test it there (the bug zoo, mutation testing)."""
import os
import re
import shutil
import subprocess

from .common import ROOT, ToolError, tested_at

STATUS = re.compile(r"^(//\S+)\s+(?:\(cached\) )?(PASSED|FAILED TO BUILD|FAILED|TIMEOUT|FLAKY|"
                    r"NO STATUS|INCOMPLETE)", re.M)
PASSED_IN = re.compile(r"^(//\S+)\s+(?:\(cached\) )?PASSED in ([\d.]+)s", re.M)


def copy_worktree(dest):
    """A fresh copy of the working tree at dest (.git, bazel-* and out/ left out); returns the
    commit it is a copy of (tested_at(), taken just before copying: the working tree may change
    while the copy is used). Bazel's cache for that path survives the copy, so a later build
    there redoes only what differs."""
    commit = tested_at()
    shutil.rmtree(dest, ignore_errors=True)
    ignore = shutil.ignore_patterns(".git", "bazel-*")
    try:
        shutil.copytree(ROOT, dest, symlinks=True,
                        ignore=lambda d, names: set(ignore(d, names)) |
                        ({"out"} if os.path.abspath(d) == ROOT else set()))
    except OSError as e:
        raise ToolError(f"copying the working tree to {dest} failed: {e}")
    return commit


def provisional(commit):
    """Whether a result measured at `commit` (copy_worktree's answer) is provisional: measured on a
    tree with uncommitted changes ("+dirty"), which no commit reproduces, so measured again."""
    return commit.endswith("+dirty")


def bazel_test(tree, targets, flags=(), details=None):
    """`bazel test --keep_going` of targets in tree. Returns (failing, unbuilt, first_error): the
    test targets that ran and failed (FAILED, TIMEOUT or FLAKY), whether anything did not build
    or run (a build error, FAILED TO BUILD, NO STATUS, INCOMPLETE), and the first error line.
    A dict passed as `details` gets "timed_out" (the failing targets that were TIMEOUTs) and
    "seconds" (how long each passing target ran)."""
    cmd = ["bazel", "test", "--keep_going", "--test_summary=short", *flags, "--", *targets]
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    out = r.stdout + r.stderr
    status = STATUS.findall(out)
    failing = sorted({t for t, s in status if s in ("FAILED", "TIMEOUT", "FLAKY")})
    unbuilt = (any(s in ("FAILED TO BUILD", "NO STATUS", "INCOMPLETE") for _, s in status)
               or (r.returncode != 0 and not failing))
    first = next((l.strip() for l in out.splitlines() if "error:" in l or l.startswith("ERROR:")),
                 "")
    if details is not None:
        details["timed_out"] = sorted({t for t, s in status if s == "TIMEOUT"})
        details["seconds"] = {t: float(sec) for t, sec in PASSED_IN.findall(out)}
    return failing, unbuilt, first


def require_green(tree, targets, flags=(), what="the scratch tree"):
    """Runs the targets in the unchanged tree and raises ToolError naming what fails: a test that
    fails before any change is made would be credited with every detection. Returns how long each
    target ran (seconds)."""
    details = {}
    failing, unbuilt, first = bazel_test(tree, targets, flags, details)
    if failing or unbuilt:
        raise ToolError(f"{what} fails before any change ({' '.join(flags) or 'default config'}): "
                        + (", ".join(failing) if failing else first or "a target did not build"))
    return details["seconds"]
