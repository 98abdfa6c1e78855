"""One campaign: a plan (targets, seconds each, engine) kept in OUT/campaign.json, run target by
target; resumed from where it stopped when run again with the same OUT."""
import os
import sys
import time

from . import afl, libfuzzer, report, targets
from .common import ToolError, atomic_write_json, files_in, log, read_json
from .crashes import CrashStore

ENGINE_CONFIG = {"libfuzzer": "libfuzzer", "afl": "afl-asan"}


def repro_command(label):
    return lambda path: f"bazel run --config=libfuzzer {label}_bin -- {os.path.abspath(path)}"


class Status:
    """One status line per target: rewritten in place on a terminal, printed every 10 s otherwise."""

    def __init__(self):
        self.tty = sys.stdout.isatty()
        self.last = 0.0

    def show(self, name, s, crashes):
        line = (f"[{name}] {report.fmt_time(s['seconds'])}  {s['execs']:,} execs  "
                f"{s['exec_per_sec']:,} exec/s  cov {s['cov']}  ft {s['ft']}  "
                f"corpus {s['corpus']}  crashes {crashes}")
        if self.tty:
            print("\r\033[K" + line, end="", flush=True)
        elif time.monotonic() - self.last >= 10:
            self.last = time.monotonic()
            log(line)

    def done(self):
        if self.tty:
            print(flush=True)


class Campaign:
    def __init__(self, out, engine, jobs, bin_dir=None):
        self.out = os.path.abspath(out)
        self.engine = engine
        self.jobs = jobs
        self.bin_dir = bin_dir
        self.state_path = os.path.join(self.out, "campaign.json")
        self.stats_path = os.path.join(self.out, "stats.json")
        self.status = Status()

    # ---- state ----------------------------------------------------------------------------
    def load_or_plan(self, names, seconds_each, cpu_each=None):
        """Resumes an unfinished plan in OUT, else starts a new one. Returns the plan. With
        cpu_each (seconds), each target is fuzzed until it has had that much CPU time in OUT (every
        run counted), however busy the machine; else for seconds_each of wall time."""
        state = read_json(self.state_path)
        if state and not state.get("finished"):
            left = [t for t in state["targets"] if not self._target_done(state, t)]
            log(f"resuming the campaign in {self.out}: {len(left)} of {len(state['targets'])} "
                f"target(s) left, engine {state['engine']}"
                + (" (the --target/--minutes given now apply to the next campaign)"
                   if (sorted(names), seconds_each) != (sorted(state["targets"]), state["seconds_each"])
                   else ""))
            self.engine = state["engine"]
            self.state = state
        else:
            history = state.get("history", []) if state else []
            if state:  # the finished plan before this one
                history.append({k: state[k] for k in ("started", "targets", "seconds_each",
                                                      "engine")})
            self.state = {"targets": sorted(names), "seconds_each": seconds_each,
                          "cpu_each": cpu_each,
                          "engine": self.engine, "elapsed": {}, "finished": False,
                          "started": time.strftime("%Y-%m-%d %H:%M:%S"), "history": history,
                          # CPU time, timeouts, OOMs: every run in OUT, like progress.tsv
                          "totals": state.get("totals", {}) if state else {}}
            self.save()
        return self.state

    def save(self):
        atomic_write_json(self.state_path, self.state)

    @staticmethod
    def _target_done(state, name):
        if state.get("cpu_each"):
            return state.get("totals", {}).get(name, {}).get("cpu_seconds", 0) >= state["cpu_each"]
        return state["elapsed"].get(name, 0) >= state["seconds_each"]

    # ---- running --------------------------------------------------------------------------
    def run(self, labels, merge=False):
        names = self.state["targets"]
        binaries = targets.build({n: labels[n] for n in names}, ENGINE_CONFIG[self.engine],
                                 self.bin_dir)
        # Crashes are triaged and corpora merged with the libFuzzer build whatever the engine.
        lf_binaries = binaries if self.engine == "libfuzzer" else targets.build(
            {n: labels[n] for n in names}, "libfuzzer", self.bin_dir)
        cmplog = {}
        if self.engine == "afl" and self.jobs > 1 and not self.bin_dir:
            cmplog = targets.build({n: labels[n] for n in names}, "afl-cmplog")
        self.stats = {n: {"state": "pending"} for n in names}
        for n in names:
            self.stats[n].update(self._totals(n))
        for n in names:
            self.triage(n, labels[n], lf_binaries[n])  # inputs left by an interrupted run
        for n in names:
            if self.state.get("cpu_each"):
                # Wall-time slices until the CPU time is reached (an interrupted slice's CPU time
                # is not counted: the figure can only fall short of what was spent).
                while not self._target_done(self.state, n):
                    used = self.state.get("totals", {}).get(n, {}).get("cpu_seconds", 0)
                    self.fuzz_one(n, binaries[n], cmplog.get(n),
                                  max(30, (self.state["cpu_each"] - used) / self.jobs))
                    if self.state["totals"][n]["cpu_seconds"] < used + 1:
                        log(f"[{n}] the fuzzer used no CPU time (it did not start?); "
                            f"see {os.path.join(self.out, n, 'fuzz.log')}")
                        break
            else:
                left = self.state["seconds_each"] - self.state["elapsed"].get(n, 0)
                if left >= 1:
                    self.fuzz_one(n, binaries[n], cmplog.get(n), left)
            self.triage(n, labels[n], lf_binaries[n])
        self.state["finished"] = True
        self.save()
        rows = []
        for n in names:
            row = self.row(n)
            row.update(self.edge_coverage(n, lf_binaries[n]))
            if merge:
                row["merged"] = self.merge(n, lf_binaries[n])
            rows.append(row)
        return rows

    def fuzz_one(self, name, binary, cmplog_binary, seconds):
        tdir = os.path.join(self.out, name)
        os.makedirs(tdir, exist_ok=True)
        progress = os.path.join(tdir, "progress.tsv")
        if not os.path.exists(progress):
            with open(progress, "w") as f:
                f.write(report.PROGRESS_HEADER)
        done = self.state["elapsed"].get(name, 0)  # in this plan
        rows = report.read_progress(progress)
        offset = int(rows[-1][0]) if rows else 0  # the progress axis counts every run in OUT
        cpu_used = self.state.get("totals", {}).get(name, {}).get("cpu_seconds", 0)
        log(f"[{name}] fuzzing for {int(seconds)} s with {self.engine}, {self.jobs} job(s)"
            + (f" (CPU time so far {int(cpu_used)} of {self.state['cpu_each']} s)"
               if self.state.get("cpu_each") else
               f" (resumed after {int(done)} s)" if done else ""))
        self.stats[name]["state"] = "running"
        crash_count = lambda: len(files_in(os.path.join(tdir, "artifacts")))

        last_save = [0.0]

        def on_sample(s):
            self.state["elapsed"][name] = min(done + s["seconds"], self.state["seconds_each"])
            s = dict(s, seconds=offset + s["seconds"])
            crashes = crash_count()
            with open(progress, "a") as f:  # a torn last line is skipped by read_progress
                f.write(f"{s['seconds']}\t{s['execs']}\t{s['exec_per_sec']}\t{s['cov']}\t{s['ft']}"
                        f"\t{s['corpus']}\t{crashes}\n")
            self.stats[name].update(s, crash_inputs=crashes)
            if time.monotonic() - last_save[0] >= 2:  # state and stats: atomic, at most every 2 s
                last_save[0] = time.monotonic()
                self.save()
                self.write_stats()
            self.status.show(name, s, crashes)

        seeds = targets.seeds_dir(name)
        if self.engine == "libfuzzer":
            last = libfuzzer.fuzz(binary, seeds, tdir, seconds, self.jobs,
                                  targets.dict_file(name), on_sample)
        else:
            last = afl.fuzz(binary, cmplog_binary, seeds, tdir, seconds, self.jobs,
                            targets.dict_file(name), on_sample)
        self.status.done()
        # Counted per finished run (an interrupted run's share is lost: the totals under-count).
        totals = self.state.setdefault("totals", {}).setdefault(
            name, {"cpu_seconds": 0.0, "ooms": 0, "timeouts": 0})
        for k in totals:
            totals[k] += (last or {}).get(k, 0)
        self.state["elapsed"][name] = self.state["seconds_each"]
        self.save()
        self.stats[name]["state"] = "done"
        self.write_stats()

    def triage(self, name, label, lf_binary):
        tdir = os.path.join(self.out, name)
        store = CrashStore(os.path.join(tdir, "crashes"), name, repro_command(label))
        seen_path = os.path.join(tdir, "triaged.json")
        seen = set(read_json(seen_path, []))
        duplicates = {}
        for a in files_in(os.path.join(tdir, "artifacts")):
            if a in seen:
                continue
            path = os.path.join(tdir, "artifacts", a)
            crashed, rep = libfuzzer.reproduce(lf_binary, path)
            if not crashed:
                log(f"  {name}: {a} does not reproduce (flaky or timeout); kept in artifacts/")
            else:
                def minimize(src, dst):
                    if not libfuzzer.minimize_crash(lf_binary, src, dst):
                        return None
                    ok, small_report = libfuzzer.reproduce(lf_binary, dst)
                    return small_report if ok else None
                cid, sig, new = store.add(path, rep, minimize)
                entry = os.path.join(store.dir, cid)
                if new:
                    log(f"  CRASH {name} {cid}: {sig}\n    input {entry}/input\n"
                        f"    reproduce: {open(os.path.join(entry, 'repro')).read().strip()}")
                else:
                    duplicates[cid] = duplicates.get(cid, 0) + 1
            seen.add(a)
            atomic_write_json(seen_path, sorted(seen))
        for cid, n in sorted(duplicates.items()):
            log(f"  {name}: {n} more crashing input(s) with the signature of {cid}: "
                f"{store.signature_of(cid)}")
        self.stats[name]["unique_crashes"] = len(store.ids())
        self.write_stats()

    def merge(self, name, lf_binary):
        tdir = os.path.join(self.out, name)
        new = [os.path.join(tdir, "corpus")] + afl.queues(tdir)
        added = libfuzzer.merge(lf_binary, targets.seeds_dir(name), new, tdir)
        log(f"  merged {len(added)} new input(s) into corpora/{name}/")
        return len(added)

    # ---- numbers ----------------------------------------------------------------------------
    def _totals(self, name):
        tdir = os.path.join(self.out, name)
        rows = report.read_progress(os.path.join(tdir, "progress.tsv"))
        if not rows:
            return {"seconds": 0, "execs": 0, "exec_per_sec": 0, "cov": 0, "ft": 0, "corpus": 0}
        t, execs, eps, cov, ft, corpus, _ = rows[-1]
        return {"seconds": t, "execs": execs, "exec_per_sec": eps, "cov": cov, "ft": ft,
                "corpus": corpus}

    def edge_coverage(self, name, lf_binary):
        """Coverage measured apart from the fuzzing (libFuzzer -runs=0 over the inputs: edges
        and features): of the seeds alone, and of the seeds with everything the campaign found.
        (Fork mode's own progress lines count features as coverage once it resumes from a
        corpus, so they do not tell the start from the end.)"""
        seeds = targets.seeds_dir(name)
        found = [os.path.join(self.out, name, "corpus")] + afl.queues(os.path.join(self.out, name))
        try:
            start = libfuzzer.coverage(lf_binary, seeds)
            end = libfuzzer.coverage(lf_binary, seeds, *found)
        except ToolError as e:
            log(f"  {name}: coverage not measured: {e}")
            return {}
        return {"cov_start": start[0], "cov": end[0], "ft": end[1]}

    def row(self, name):
        tdir = os.path.join(self.out, name)
        store = CrashStore(os.path.join(tdir, "crashes"), name, None)
        rows = report.read_progress(os.path.join(tdir, "progress.tsv"))
        seconds = rows[-1][0] if rows else 0
        execs = sum(_execs_per_session(rows))
        totals = self.state.get("totals", {}).get(name, {})
        return {"target": name, "seconds": seconds, "execs": execs,
                "cpu_seconds": totals.get("cpu_seconds", 0),
                "exec_per_sec": int(execs / seconds) if seconds else 0,
                "cov_start": rows[0][3] if rows else 0,
                "cov": rows[-1][3] if rows else 0, "ft": rows[-1][4] if rows else 0,
                "timeouts": totals.get("timeouts", 0), "ooms": totals.get("ooms", 0),
                "seeds": len(files_in(targets.seeds_dir(name))),
                "new_inputs": len(files_in(os.path.join(tdir, "corpus")))
                              or len(sum((files_in(q) for q in afl.queues(tdir)), [])),
                "crash_inputs": len(files_in(os.path.join(tdir, "artifacts"))),
                "unique_crashes": len(store.ids())}

    def write_stats(self):
        atomic_write_json(self.stats_path, {"updated": time.strftime("%Y-%m-%d %H:%M:%S"),
                                            "engine": self.engine, "jobs": self.jobs,
                                            "targets": self.stats})


def _execs_per_session(rows):
    """Exec counts restart at 0 when a run resumes; sum the last count of each session."""
    totals, prev = [], None
    for r in rows:
        if prev is not None and r[1] < prev:
            totals.append(prev)
        prev = r[1]
    if prev is not None:
        totals.append(prev)
    return totals
