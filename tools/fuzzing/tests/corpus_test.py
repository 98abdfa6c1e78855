#!/usr/bin/env python3
"""Tests of tools/corpus (libFuzzer build; run by `bazel test --config=libfuzzer
//tools/fuzzing/tests:corpus_test`, as tools/test does), on copies of the seed corpora:

  1. minimize keeps coverage (cov and ft, measured independently) and never grows the corpus;
  2. merge adds only inputs that add coverage, and a second merge of the same inputs adds none;
  3. check names the one input that crashes and exits 1, and passes a clean corpus;
  4. bad input (unknown target, missing --from directory) gets one line and exit 2."""
import os
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
    """Inputs a short libFuzzer run adds to the seeds (many, overlapping in coverage). A count of
    executions with a fixed seed, not a time: the same inputs however busy the machine is."""
    d = os.path.join(TMP, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    subprocess.run([BINARY, f"-runs={runs}", "-reduce_inputs=0", "-seed=1", d,
                    os.path.join(ROOT, "corpora", TARGET)], capture_output=True)
    return d


class CorpusTest(unittest.TestCase):
    def assertCoverageKept(self, now, before):
        self.assertGreaterEqual(now[0], before[0], "edges lost")
        self.assertGreaterEqual(now[1], before[1], "features lost")

    def test_minimize_keeps_coverage_and_never_grows(self):
        corpora = copy_corpora("minimize", TARGET)
        d = os.path.join(corpora, TARGET)
        extra = fuzzed_inputs("minimize_extra")
        for f in os.listdir(extra):
            shutil.copy(os.path.join(extra, f), d)
        before = len(os.listdir(d))
        cov_before = libfuzzer.coverage(BINARY, d)
        r = corpus_tool(corpora, "minimize", TARGET)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        after = len(os.listdir(d))
        self.assertLess(after, before)  # the fuzzed inputs overlap: some must go
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
        extra = fuzzed_inputs("merge_extra")
        cov_seeds = libfuzzer.coverage(BINARY, d)
        r = corpus_tool(corpora, "merge", "--from", extra, TARGET)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        merged = set(os.listdir(d))
        self.assertLessEqual(seeds, merged)  # nothing deleted
        self.assertLess(len(merged - seeds), len(os.listdir(extra)))  # not everything copied
        self.assertGreater(libfuzzer.coverage(BINARY, d)[1], cov_seeds[1])
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
