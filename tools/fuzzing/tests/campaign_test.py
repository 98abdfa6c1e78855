#!/usr/bin/env python3
"""Tests of tools/campaign against the planted-crash target (libFuzzer build; run by
`bazel test --config=libfuzzer //tools/fuzzing/tests:campaign_test`, as tools/test does):

  1. a campaign finds the planted heap overflow, files it under one stack signature with a
     minimized input ("BUG") and a reproducer that fails the same way;
  2. a second run in the same directory finds it again and still files it under that one entry;
  3. kill -9 in the middle of a campaign, then the same command: it resumes, and every corpus
     input, crashing input and crash entry that existed at the kill is still there;
  4. bad input (unknown target, --minutes 0, --out naming a file, a CPU budget of 0 or for AFL++)
     gets one line and exit 2;
  5. --cpu-minutes-each fuzzes until the target has had that much CPU time, which the campaign
     state and the report record."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from fuzzing import crashes, libfuzzer  # noqa: E402

CAMPAIGN = os.path.join(ROOT, "tools", "campaign")
BIN_DIR = os.path.join(ROOT, "fuzzers")
PLANTED = "planted_crash_fuzzer"
BINARY = os.path.join(BIN_DIR, PLANTED + "_bin")
TMP = os.environ.get("TEST_TMPDIR", "/tmp")
OVERFLOW = "heap-buffer-overflow in {anon}::ReadPastEnd < LLVMFuzzerTestOneInput"


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def campaign(out, *extra, minutes="0.25"):
    """Runs the campaign from an empty directory, which must stay empty (libFuzzer saves crashing
    inputs in its current directory unless told otherwise)."""
    cwd = os.path.join(TMP, "cwd")
    os.makedirs(cwd, exist_ok=True)
    cmd = [CAMPAIGN, "--bin-dir", BIN_DIR, "--target", PLANTED, "--jobs", "1", "--minutes",
           minutes, "--out", out, *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    assert not os.listdir(cwd), f"the campaign wrote {os.listdir(cwd)} to its current directory"
    return r


def entries(out):
    d = os.path.join(out, PLANTED, "crashes")
    return {e: read(os.path.join(d, e, "signature")).strip()
            for e in os.listdir(d) if os.path.isdir(os.path.join(d, e)) and "." not in e}


def snapshot(out):
    t = os.path.join(out, PLANTED)
    return {sub: set(os.listdir(os.path.join(t, sub))) if os.path.isdir(os.path.join(t, sub))
            else set() for sub in ("corpus", "artifacts", "crashes")}


class CampaignTest(unittest.TestCase):
    def test_finds_dedups_minimizes_and_reproduces(self):
        out = os.path.join(TMP, "campaign_find")
        shutil.rmtree(out, ignore_errors=True)
        r = campaign(out)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # 1 = crashes found
        found = entries(out)
        overflow = [e for e, sig in found.items() if sig == OVERFLOW]
        self.assertEqual(len(overflow), 1, found)
        entry = os.path.join(out, PLANTED, "crashes", overflow[0])
        self.assertEqual(read(os.path.join(entry, "input"), "rb"), b"BUG")  # minimized
        meta = json.loads(read(os.path.join(entry, "meta.json")))
        self.assertGreaterEqual(meta["original_size"], 3)
        repro = read(os.path.join(entry, "repro")).strip()
        self.assertEqual(repro, "bazel run --config=libfuzzer //fuzzers:planted_crash_fuzzer_bin"
                                f" -- {entry}/input")
        # The reproducer's binary and input fail the same way.
        crashed, report = libfuzzer.reproduce(BINARY, os.path.join(entry, "input"))
        self.assertTrue(crashed)
        self.assertEqual(crashes.signature(report), OVERFLOW)
        self.assertIn(f"| {PLANTED} |", read(os.path.join(out, "report.md")))
        self.assertTrue(os.path.exists(os.path.join(out, "plots", PLANTED + ".png")))
        stats = json.loads(read(os.path.join(out, "stats.json")))
        self.assertEqual(stats["targets"][PLANTED]["state"], "done")

        # A second run finds the bug again: more crashing inputs, still one entry.
        inputs_before = meta["count"]
        r = campaign(out)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual([e for e, sig in entries(out).items() if sig == OVERFLOW], overflow)
        meta = json.loads(read(os.path.join(entry, "meta.json")))
        self.assertGreater(meta["count"], inputs_before)
        self.assertIn(f"with the signature of {overflow[0]}", r.stdout)

    def test_kill_9_and_resume_loses_nothing(self):
        out = os.path.join(TMP, "campaign_kill")
        shutil.rmtree(out, ignore_errors=True)
        cmd = [CAMPAIGN, "--bin-dir", BIN_DIR, "--target", PLANTED, "--jobs", "1", "--minutes",
               "1", "--out", out]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        progress = os.path.join(out, PLANTED, "progress.tsv")
        deadline = time.monotonic() + 50
        while time.monotonic() < deadline:
            time.sleep(1)
            rows = read(progress).splitlines() if os.path.exists(progress) else []
            if len(rows) > 10 and snapshot(out)["artifacts"]:
                break
        time.sleep(3)  # let triage of earlier runs and fuzzing overlap the kill
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        time.sleep(1)
        before = snapshot(out)
        state = json.loads(read(os.path.join(out, "campaign.json")))
        elapsed = state["elapsed"][PLANTED]
        self.assertFalse(state["finished"])
        self.assertGreater(elapsed, 0)
        self.assertTrue(before["artifacts"])

        r = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("resuming the campaign", r.stdout)
        self.assertIn(f"(resumed after {int(elapsed)} s)", r.stdout)
        after = snapshot(out)
        for sub in before:
            self.assertLessEqual(before[sub] - {e for e in before[sub] if ".tmp" in e or
                                                e.endswith(".new")}, after[sub], sub)
        self.assertIn(OVERFLOW, entries(out).values())  # the crash inputs were triaged
        self.assertTrue(json.loads(read(os.path.join(out, "campaign.json")))["finished"])

    def test_bad_input_one_line_exit_2(self):
        cases = [
            ["--target", "no_such_fuzzer"],
            ["--minutes", "0"],
            ["--out", CAMPAIGN],  # a file
            ["--cpu-minutes-each", "0"],
            ["--cpu-minutes-each", "1", "--engine", "afl"],
        ]
        for extra in cases:
            r = subprocess.run([CAMPAIGN, "--bin-dir", BIN_DIR, *extra], capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 2, (extra, r.stdout, r.stderr))
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, (extra, r.stderr))
            self.assertTrue(r.stderr.startswith("campaign: "), r.stderr)

    def test_cpu_budget_is_reached_and_reported(self):
        out = os.path.join(TMP, "campaign_cpu")
        shutil.rmtree(out, ignore_errors=True)
        r = subprocess.run([CAMPAIGN, "--bin-dir", BIN_DIR, "--target", "page_build_fuzzer",
                            "--jobs", "1", "--cpu-minutes-each", "0.2", "--out", out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        state = json.loads(read(os.path.join(out, "campaign.json")))
        self.assertEqual(state["cpu_each"], 12)
        self.assertGreaterEqual(state["totals"]["page_build_fuzzer"]["cpu_seconds"], 12)
        report = read(os.path.join(out, "report.txt"))
        self.assertIn("cpu time", report)
        self.assertIn("cov start", report)


if __name__ == "__main__":
    unittest.main(verbosity=2)
