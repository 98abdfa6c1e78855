"""AFL++ as an engine: one main instance and a secondary per further job (the first secondary
with CMPLOG when a CMPLOG binary is given), all in workdir/afl, resumed when it exists."""
import os
import re
import shutil
import subprocess
import time

from .common import ToolError, die_with_parent

PLOT_FIELDS = ["relative_time", "cycles_done", "cur_item", "corpus_count", "pending_total",
               "pending_favs", "map_size", "saved_crashes", "saved_hangs", "max_depth",
               "execs_per_sec", "total_execs", "edges_found"]


def _instances(jobs, cmplog_binary):
    names = ["main"] + [f"s{i}" for i in range(1, jobs)]
    return [(n, ["-M" if n == "main" else "-S", n] +
             (["-c", cmplog_binary] if cmplog_binary and n == "s1" else [])) for n in names]


def _last_plot_row(path):
    try:
        with open(path) as f:
            rows = [l for l in f if l and not l.startswith("#")]
    except OSError:
        return None
    if not rows:
        return None
    values = [v.strip() for v in rows[-1].split(",")]
    if len(values) < len(PLOT_FIELDS):
        return None
    return dict(zip(PLOT_FIELDS, values))


def _sample(out, names, start):
    """Execs and coverage from plot_data (afl-fuzz 4.04c rewrites it about once a minute), the
    corpus counted live from the queues."""
    rows = [r for r in (_last_plot_row(os.path.join(out, n, "plot_data")) for n in names) if r]
    queue = sum(len([f for f in os.listdir(os.path.join(out, n, "queue")) if f.startswith("id:")])
                for n in names if os.path.isdir(os.path.join(out, n, "queue")))
    if not rows and not queue:
        return None
    return dict(execs=sum(int(r["total_execs"]) for r in rows),
                exec_per_sec=int(sum(float(r["execs_per_sec"]) for r in rows)),
                cov=int(rows[0]["edges_found"]) if rows else 0,
                ft=int(rows[0]["edges_found"]) if rows else 0,
                corpus=queue, seconds=int(time.monotonic() - start))


def fuzz(binary, cmplog_binary, seeds, workdir, seconds, jobs, dictionary, on_sample):
    """Fuzzes for `seconds`; crashes are copied to workdir/artifacts/. Returns the last sample."""
    if not shutil.which("afl-fuzz"):
        raise ToolError("afl-fuzz is not installed (run tools/setup)")
    out = os.path.join(workdir, "afl")
    artifacts = os.path.join(workdir, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    env = dict(os.environ, AFL_SKIP_CPUFREQ="1", AFL_NO_UI="1", AFL_AUTORESUME="1",
               AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_NO_AFFINITY="1")
    names = [n for n, _ in _instances(jobs, cmplog_binary)]
    procs = []
    with open(os.path.join(workdir, "fuzz.log"), "a") as logf:
        for name, role in _instances(jobs, cmplog_binary):
            cmd = ["afl-fuzz", "-i", seeds, "-o", out, "-V", str(max(1, int(seconds))), *role]
            if dictionary:
                cmd += ["-x", dictionary]
            cmd += ["--", binary]
            procs.append(subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, env=env,
                                          preexec_fn=die_with_parent))
        start, last = time.monotonic(), None
        try:
            while any(p.poll() is None for p in procs):
                time.sleep(5)
                s = _sample(out, names, start)
                if s:
                    last = s
                    on_sample(s)
                _collect_crashes(out, names, artifacts)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
            for p in procs:
                p.wait()
    _collect_crashes(out, names, artifacts)
    if last is None and all(p.returncode != 0 for p in procs):
        raise ToolError(f"afl-fuzz failed on {os.path.basename(binary)}; see {workdir}/fuzz.log")
    return _sample(out, names, start) or last


def _collect_crashes(out, names, artifacts):
    for n in names:
        src = os.path.join(out, n, "crashes")
        for f in sorted(os.listdir(src)) if os.path.isdir(src) else []:
            if f.startswith("id:"):
                dst = os.path.join(artifacts, f"crash-afl-{n}-" + re.sub(r"[^\w.-]", "_", f))
                if not os.path.exists(dst):
                    shutil.copyfile(os.path.join(src, f), dst + ".tmp")
                    os.replace(dst + ".tmp", dst)


def queues(workdir):
    out = os.path.join(workdir, "afl")
    return [os.path.join(out, n, "queue") for n in sorted(os.listdir(out))
            if os.path.isdir(os.path.join(out, n, "queue"))] if os.path.isdir(out) else []
