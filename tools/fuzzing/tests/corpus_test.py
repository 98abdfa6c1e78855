#!/usr/bin/env python3
"""Tests of tools/corpus (libFuzzer build; run by `bazel test --config=libfuzzer
//tools/fuzzing/tests:corpus_test`, as tools/test does), on copies of the seed corpora:

  1. minimize keeps coverage (cov and ft, measured independently) and never grows the corpus;
  2. merge adds only inputs that add coverage (never one of a set of junk inputs that, measured,
     adds none), loses none of the coverage offered, and a second merge of the same inputs adds
     none;
  3. check names the one input that crashes and exits 1, and passes a clean corpus;
  4. bad input (unknown target, missing --from directory) gets one line and exit 2."""
import hashlib
import os
import random
import shutil
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from fuzzing import libfuzzer  # noqa: E402

CORPUS = os.path.join(ROOT, "tools", "corpus")
BIN_DIR = os.path.join(ROOT, "fuzzers")
TARGET = "page_build_fuzzer"
BINARY = os.path.join(BIN_DIR, TARGET + "_bin")
TMP = os.environ.get("TEST_TMPDIR", "/tmp")


def corpus_tool(corpora, *args):
    """Runs tools/corpus from an empty directory, which must stay empty (libFuzzer saves a
    crashing input in its current directory unless told otherwise)."""
    cwd = os.path.join(TMP, "cwd")
    os.makedirs(cwd, exist_ok=True)
    r = subprocess.run([CORPUS, *args, "--bin-dir", BIN_DIR, "--corpora", corpora],
                       capture_output=True, text=True, cwd=cwd)
    assert not os.listdir(cwd), f"tools/corpus wrote {os.listdir(cwd)} to its current directory"
    return r


def copy_corpora(name, *targets):
    d = os.path.join(TMP, name)
    shutil.rmtree(d, ignore_errors=True)
    for t in targets:
        shutil.copytree(os.path.join(ROOT, "corpora", t), os.path.join(d, t))
    return d


def fuzzed_inputs(name, runs=30000):
    """Inputs a short libFuzzer run adds to the seeds: a few (3 or 4 from the page_build_fuzzer
    seeds), not always the same ones even with a fixed seed and count of executions."""
    d = os.path.join(TMP, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    subprocess.run([BINARY, f"-runs={runs}", "-reduce_inputs=0", "-seed=1", d,
                    os.path.join(ROOT, "corpora", TARGET)], capture_output=True)
    return d


def junk_inputs(name, count=16):
    """Short pseudo-random inputs (fixed seed: the same bytes every run). The seed corpus already
    covers what they reach (the header checks that reject them); the test measures that."""
    d = os.path.join(TMP, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    rng = random.Random(1)
    for i in range(count):
        size = rng.choice([1, 2, 3, 5, 8, 13, 40, 100])
        with open(os.path.join(d, f"junk{i}"), "wb") as f:
            f.write(bytes(rng.randrange(256) for _ in range(size)))
    return d


def contents(d, names=None):
    """The SHA-1 of the bytes of each input in d (or of those named)."""
    return {hashlib.sha1(open(os.path.join(d, f), "rb").read()).hexdigest()
            for f in (os.listdir(d) if names is None else names)}


class CorpusTest(unittest.TestCase):
    def assertCoverageKept(self, now, before):
        self.assertGreaterEqual(now[0], before[0], "edges lost")
        self.assertGreaterEqual(now[1], before[1], "features lost")

    def test_minimize_keeps_coverage_and_never_grows(self):
        corpora = copy_corpora("minimize", TARGET)
        d = os.path.join(corpora, TARGET)
        # Inputs a short fuzzing run found, and junk that adds nothing, one piece of it twice.
        for extra in (fuzzed_inputs("minimize_extra"), junk_inputs("minimize_junk")):
            for f in os.listdir(extra):
                shutil.copy(os.path.join(extra, f), d)
        shutil.copy(os.path.join(d, "junk0"), os.path.join(d, "junk0_again"))
        before = len(os.listdir(d))
        cov_before = libfuzzer.coverage(BINARY, d)
        r = corpus_tool(corpora, "minimize", TARGET)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        after = len(os.listdir(d))
        self.assertLess(after, before)  # at least the second copy of junk0 must go
        self.assertCoverageKept(libfuzzer.coverage(BINARY, d), cov_before)
        # Minimizing again (merge is greedy, so it may find a smaller cover) never grows it.
        r = corpus_tool(corpora, "minimize", TARGET)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertLessEqual(len(os.listdir(d)), after)
        self.assertCoverageKept(libfuzzer.coverage(BINARY, d), cov_before)

    def test_merge_adds_only_new_coverage(self):
        corpora = copy_corpora("merge", TARGET)
        d = os.path.join(corpora, TARGET)
        seeds = set(os.listdir(d))
        # What merge is offered: inputs a short fuzzing run found (how many varies from run to
        # run: libFuzzer reloads its corpus on a timer) and junk that adds nothing.
        extra = fuzzed_inputs("merge_extra")
        junk = junk_inputs("merge_junk")
        self.assertEqual(libfuzzer.coverage(BINARY, d, junk), libfuzzer.coverage(BINARY, d),
                         "the junk inputs add coverage to the seeds: choose other junk")
        for f in os.listdir(junk):
            shutil.copy(os.path.join(junk, f), extra)
        offered = libfuzzer.coverage(BINARY, d, extra)
        r = corpus_tool(corpora, "merge", "--from", extra, TARGET)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        merged = set(os.listdir(d))
        self.assertLessEqual(seeds, merged)  # nothing deleted
        self.assertFalse(contents(d, merged - seeds) & contents(junk), "merge copied junk")
        self.assertCoverageKept(libfuzzer.coverage(BINARY, d), offered)
        r = corpus_tool(corpora, "merge", "--from", extra, TARGET)
        self.assertEqual(set(os.listdir(d)), merged)

    def test_check_names_the_crashing_input(self):
        corpora = copy_corpora("check", "planted_crash_fuzzer", TARGET)
        r = corpus_tool(corpora, "check", "planted_crash_fuzzer", TARGET)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        bad = os.path.join(corpora, "planted_crash_fuzzer", "bad_input")
        with open(bad, "wb") as f:
            f.write(b"BUG and more")
        r = corpus_tool(corpora, "check", "planted_crash_fuzzer", TARGET)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        fails = [l for l in r.stdout.splitlines() if l.strip().startswith("FAIL ")]
        self.assertEqual(len(fails), 1, r.stdout)
        self.assertIn(bad, fails[0])
        self.assertIn("heap-buffer-overflow", fails[0])
        # Coverage of a corpus that crashes: one line, exit 2, no crash file left behind.
        r = corpus_tool(corpora, "stats", "--coverage", "planted_crash_fuzzer")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_bad_input_one_line_exit_2(self):
        corpora = copy_corpora("bad", TARGET)
        for args in (["stats", "no_such_fuzzer"], ["merge", "--from", "/nonexistent", TARGET],
                     ["minimize", "--corpora", "/nonexistent"]):
            r = corpus_tool(corpora, *args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, (args, r.stderr))


if __name__ == "__main__":
    unittest.main(verbosity=2)
