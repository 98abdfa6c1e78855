"""Crash triage: a stack signature per sanitizer report, one directory per distinct bug.

A signature is the kind of failure plus the top three frames of pgstore's own code (storage/,
properties/, fuzzers/, tools/) in the crashing stack, function names only, so the same bug found
through different inputs, in different runs, or after unrelated edits moves line numbers, is
one entry. Each entry, DIR/<id>/ (id = 12 hex digits of the signature's SHA-1):

  input        the smallest reproducer found (minimized when the minimized input still fails the
               same way)
  report.txt   the sanitizer report of `input`
  signature    the signature line
  repro        one command that reproduces it without the campaign
  meta.json    target, first seen, how many crashing inputs mapped here, their file names

Every file is written atomically, so an entry is whole even after kill -9."""
import hashlib
import os
import re
import time

from .common import atomic_copy, atomic_write, atomic_write_json, read_json

OWN_CODE = re.compile(r"^(?:/proc/self/cwd/)?(?:\./)?(?:storage|properties|fuzzers|tools)/")
FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (.+) (\S+?)(?::\d+)*$")
KINDS = [
    (re.compile(r"FUZZ_ASSERT failed: (.*)"), lambda m: "assertion " + m.group(1)),
    (re.compile(r"ERROR: AddressSanitizer: ([\w-]+)"), lambda m: m.group(1)),
    (re.compile(r"runtime error: (.*)"), lambda m: "undefined behavior: " + _no_numbers(m.group(1))),
    (re.compile(r"ERROR: LeakSanitizer: detected memory leaks"), lambda m: "memory leak"),
    (re.compile(r"ERROR: libFuzzer: (timeout|out-of-memory|deadly signal)"), lambda m: m.group(1)),
    (re.compile(r"^timeout: "), lambda m: "timeout"),
]


def _no_numbers(text):
    return re.sub(r"0x[0-9a-f]+|\b\d+\b", "N", text)


def _function(name):
    name = name.replace("(anonymous namespace)", "{anon}")
    depth, out = 0, []
    for ch in name:  # drop the parameter list and anything after it
        if ch == "(" and depth == 0:
            break
        depth += ch == "<"
        depth -= ch == ">"
        out.append(ch)
    return "".join(out).strip()


def signature(report):
    """'kind in f1 < f2 < f3' for a sanitizer report (innermost frame first)."""
    kind = "crash"
    for line in report.splitlines():
        for pattern, name in KINDS:
            m = pattern.search(line)
            if m:
                kind = name(m)
                break
        else:
            continue
        break
    frames, started = [], False
    for line in report.splitlines():
        m = FRAME.match(line)
        if not m:
            if started and not line.strip():
                break  # the end of the crashing stack; "allocated by" stacks follow
            continue
        started = True
        func, path = m.group(2), m.group(3)
        if OWN_CODE.match(path):
            frames.append(_function(func))
        if len(frames) == 3:
            break
    return f"{kind} in {' < '.join(frames) if frames else '(no frames of ours)'}"


def signature_id(sig):
    return hashlib.sha1(sig.encode()).hexdigest()[:12]


class CrashStore:
    """The distinct crashes of one target under DIR (normally OUT/<target>/crashes)."""

    def __init__(self, directory, target, repro_command):
        self.dir = directory
        self.target = target
        self.repro_command = repro_command  # path -> one-line command
        os.makedirs(directory, exist_ok=True)

    def ids(self):
        return sorted(d for d in os.listdir(self.dir) if os.path.isdir(os.path.join(self.dir, d)))

    def signature_of(self, cid):
        with open(os.path.join(self.dir, cid, "signature")) as f:
            return f.read().strip()

    def add(self, artifact, report, minimize):
        """Files a crashing input; returns (id, signature, is_new). `minimize(src, dst)` writes a
        smaller crashing input and returns its report, or None."""
        sig = signature(report)
        cid = signature_id(sig)
        entry = os.path.join(self.dir, cid)
        meta_path = os.path.join(entry, "meta.json")
        meta = read_json(meta_path)
        name = os.path.basename(artifact)
        if meta is not None:
            if name not in meta["inputs"]:
                meta["inputs"].append(name)
                meta["count"] = len(meta["inputs"])
                atomic_write_json(meta_path, meta)
            return cid, sig, False
        staging = entry + ".new"
        os.makedirs(staging, exist_ok=True)
        best, best_report = os.path.join(staging, "input"), report
        atomic_copy(artifact, best)
        small = os.path.join(staging, "minimized")
        small_report = minimize(best, small)
        if small_report is not None and signature(small_report) == sig:
            os.replace(small, best)
            best_report = small_report
        elif os.path.exists(small):
            os.remove(small)
        atomic_write(os.path.join(staging, "report.txt"), best_report)
        atomic_write(os.path.join(staging, "signature"), sig + "\n")
        atomic_write(os.path.join(staging, "repro"),
                     self.repro_command(os.path.join(entry, "input")) + "\n")
        atomic_write_json(os.path.join(staging, "meta.json"), {
            "target": self.target, "signature": sig, "first_seen": time.strftime("%Y-%m-%d %H:%M:%S"),
            "inputs": [name], "count": 1, "original_size": os.path.getsize(artifact),
            "size": os.path.getsize(best)})
        os.replace(staging, entry)  # the entry appears whole
        return cid, sig, True
