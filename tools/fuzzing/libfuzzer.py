"""libFuzzer as an engine: fuzzing (always in -fork mode, so crashes do not stop a campaign and
--jobs uses every core), coverage of a corpus, corpus merge and minimization, crash minimization."""
import os
import re
import resource
import shutil
import subprocess
import tempfile

from .common import ToolError, atomic_copy, die_with_parent, files_in

# "#2760: cov: 1519 ft: 1519 corp: 8 exec/s 1380 oom/timeout/crash: 0/0/0 time: 2s job: 1 ..."
FORK_PULSE = re.compile(r"^#(\d+): cov: (\d+) ft: (\d+) corp: (\d+) exec/s (\d+) "
                        r"oom/timeout/crash: (\d+)/(\d+)/(\d+) time: (\d+)s")
INITED = re.compile(r"^#\d+\s+INITED\s+cov: (\d+) ft: (\d+)")

SANITIZER_ENV = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1:symbolize=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:symbolize=1",
}


def env():
    e = dict(os.environ, **SANITIZER_ENV)
    sym = shutil.which("llvm-symbolizer-14") or shutil.which("llvm-symbolizer")
    if sym:
        e["ASAN_SYMBOLIZER_PATH"] = sym
    return e


def run_once(binary, args, timeout=None):
    """Runs a libFuzzer binary that is not fuzzing (replay, merge, coverage) in a scratch
    directory: a crashing input would otherwise be saved as crash-<sha1> in the caller's current
    directory. Paths in args must be absolute. Returns the CompletedProcess (stderr as text)."""
    with tempfile.TemporaryDirectory(prefix="pgstore-libfuzzer-") as tmp:
        return subprocess.run([binary, f"-artifact_prefix={tmp}/", *args], cwd=tmp,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              errors="replace", env=env(), timeout=timeout)


def fuzz(binary, seeds, workdir, seconds, jobs, dictionary, on_sample):
    """Fuzzes for `seconds` into workdir/corpus (seeded from `seeds`, never written), crashes in
    workdir/artifacts/. Calls on_sample(dict) on every progress line. Returns the last sample,
    with cpu_seconds: the user + system CPU time of the fuzzer and every process it waited for
    (its fork-mode jobs), and libFuzzer's own counts of ooms, timeouts and crashes."""
    corpus = os.path.join(workdir, "corpus")
    artifacts = os.path.join(workdir, "artifacts")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    cmd = [binary, f"-fork={jobs}", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
           f"-max_total_time={max(1, int(seconds))}", "-rss_limit_mb=2560", "-timeout=25",
           f"-artifact_prefix={artifacts}/"]
    if dictionary:
        cmd.append(f"-dict={dictionary}")
    cmd += [corpus, seeds]
    last, ref, eps = None, (0, 0), 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.path.join(workdir, "fuzz.log"), "a") as logf:
        p = subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, errors="replace", env=env(), preexec_fn=die_with_parent)
        try:
            for line in p.stderr:
                logf.write(line)
                m = FORK_PULSE.match(line)
                if m:
                    execs, cov, ft, corp, _, ooms, timeouts, crashes, secs = map(int, m.groups())
                    # Fork mode's own exec/s is often 0: measure it over windows of >= 5 s.
                    if secs - ref[1] >= 5:
                        eps = (execs - ref[0]) // (secs - ref[1])
                        ref = (execs, secs)
                    last = dict(execs=execs, cov=cov, ft=ft, corpus=corp, exec_per_sec=eps,
                                seconds=secs, ooms=ooms, timeouts=timeouts, crashes=crashes)
                    on_sample(last)
        finally:
            if p.poll() is None:
                p.kill()
            p.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if last is not None:
        last = dict(last, cpu_seconds=cpu)
    if p.returncode not in (0, 1, 130, -9) and last is None:
        raise ToolError(f"{os.path.basename(binary)} failed to start (exit {p.returncode}); "
                        f"see {workdir}/fuzz.log")
    return last


def coverage(binary, *dirs):
    """(cov, ft) of the inputs in dirs: libFuzzer's edge and feature counts after loading them."""
    dirs = [os.path.abspath(d) for d in dirs if files_in(d)]
    if not dirs:
        return 0, 0
    r = run_once(binary, ["-runs=0", "-rss_limit_mb=2560", *dirs])
    for line in r.stderr.splitlines():
        m = INITED.match(line)
        if m:
            return int(m.group(1)), int(m.group(2))
    raise ToolError(f"{os.path.basename(binary)} could not load {' '.join(dirs)} "
                    f"(exit {r.returncode}): {r.stderr.strip().splitlines()[-1:]}")


def _merge_into(binary, dest, sources, workdir):
    """libFuzzer -merge=1: copies into dest the inputs of sources that add coverage."""
    ctl = os.path.join(os.path.abspath(workdir), "merge.control")
    r = run_once(binary, ["-merge=1", f"-merge_control_file={ctl}", "-rss_limit_mb=2560",
                          os.path.abspath(dest), *map(os.path.abspath, sources)])
    if r.returncode != 0:
        raise ToolError(f"merge with {os.path.basename(binary)} failed (exit {r.returncode}); "
                        f"an input crashes? {r.stderr.strip().splitlines()[-1:]}")


def merge(binary, corpus, sources, workdir):
    """Adds to `corpus` the inputs of `sources` that add coverage. Never deletes; each new file
    appears whole (written aside, then renamed). Returns the names added."""
    sources = [s for s in sources if files_in(s)]
    if not sources:
        return []
    os.makedirs(corpus, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        staged = os.path.join(tmp, "corpus")
        shutil.copytree(corpus, staged)
        _merge_into(binary, staged, sources, tmp)
        added = sorted(set(files_in(staged)) - set(files_in(corpus)))
        for f in added:
            atomic_copy(os.path.join(staged, f), os.path.join(corpus, f))
    return added


def minimize(binary, corpus, workdir):
    """Replaces `corpus` with its smallest covering subset, only if that keeps the coverage.
    Returns (files before, files after, (cov, ft) before, (cov, ft) after)."""
    before = files_in(corpus)
    cov_before = coverage(binary, corpus)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        staged = os.path.join(tmp, "corpus")
        os.makedirs(staged)
        _merge_into(binary, staged, [corpus], tmp)
        cov_after = coverage(binary, staged)
        if cov_after[1] < cov_before[1] or cov_after[0] < cov_before[0]:
            raise ToolError(f"minimizing {corpus} would lose coverage (cov/ft {cov_before} -> "
                            f"{cov_after}); left unchanged")
        keep = set(files_in(staged))
        for f in sorted(keep - set(before)):  # merge names files by content hash
            atomic_copy(os.path.join(staged, f), os.path.join(corpus, f))
        for f in before:
            if f not in keep:
                os.remove(os.path.join(corpus, f))
    return len(before), len(keep), cov_before, cov_after


def minimize_crash(binary, crash, out, seconds=30):
    """Writes to `out` a smaller input that still crashes (libFuzzer -minimize_crash); returns
    False when libFuzzer found none."""
    tmp = out + ".tmp"
    subprocess.run([binary, "-minimize_crash=1", f"-max_total_time={seconds}", "-runs=100000",
                    f"-exact_artifact_path={tmp}", crash], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env(), cwd=os.path.dirname(out))
    if os.path.exists(tmp) and os.path.getsize(tmp) > 0:
        os.replace(tmp, out)
        return True
    if os.path.exists(tmp):
        os.remove(tmp)
    return False


def reproduce(binary, crash, timeout=60):
    """Runs one input; returns (crashed, sanitizer report)."""
    try:
        r = run_once(binary, ["-rss_limit_mb=2560", "-timeout=25", os.path.abspath(crash)],
                     timeout=timeout)
    except subprocess.TimeoutExpired:
        return True, f"timeout: {crash} ran longer than {timeout} s\n"
    return r.returncode != 0, r.stdout + r.stderr
