#!/usr/bin/env python3
"""tools/mutants finds mutants only in code (not in comments, strings, template brackets,
#include lines or static_assert), applying then reverting one leaves the file as it was, and
the list of equivalent mutants is read one reason per line, for one id or several, a
mutant's id survives edits to other lines, the test run first is the file's best killer,
--file keeps one file's mutants, merging runs keeps each mutant's latest result, a run tests
survivors, then untested mutants, then those tested on uncommitted trees, and the report scores
without the equivalent ones and names the entries of equivalent.md whose mutants the code no longer
has or a test detects, and how many results are provisional."""
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
loader = importlib.machinery.SourceFileLoader("mutants", os.path.join(HERE, "mutants"))
spec = importlib.util.spec_from_loader("mutants", loader)
mutants = importlib.util.module_from_spec(spec)
loader.exec_module(mutants)

SOURCE = """#include <vector>
// a < b in a comment
static_assert(kSize == 8, "size");
bool F(int a, int b, const std::vector<int>& v) {
  const char* s = "x < y && z";  /* c == d */
  if (a < b && v.size() >= 2) return true;
  total += 3;
  return false;
}
"""


class MutantsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "f.cc")
        with open(self.path, "w") as f:
            f.write(SOURCE)

    def kinds(self):
        return sorted((m["line"], m["kind"], m["old"].strip(), m["new"].strip())
                      for m in mutants.mutants_of(self.path))

    def test_only_code_is_mutated(self):
        self.assertEqual(self.kinds(), [
            (6, "bool", "return true;", "return false;"),
            (6, "const", "2", "1"),
            (6, "const", "2", "3"),
            (6, "logic", "&&", "||"),
            (6, "rel", "<", "<="),
            (6, "rel", ">=", ">"),
            (7, "const", "3", "2"),
            (7, "const", "3", "4"),
            (7, "delete", "total += 3;", ""),
            (8, "bool", "return false;", "return true;"),
        ])

    def test_apply_then_revert_restores_the_file(self):
        for m in mutants.mutants_of(self.path):
            m = dict(m, file=os.path.relpath(self.path, "/"))
            mutants.apply("/", m)
            with open(self.path) as f:
                self.assertNotEqual(f.read(), SOURCE)
            mutants.apply("/", m, reverse=True)
            with open(self.path) as f:
                self.assertEqual(f.read(), SOURCE)

    def test_ids_follow_the_line_text_not_its_number(self):
        before = {(m["line"], m["col"], m["new"]): m["id"] for m in mutants.mutants_of(self.path)}
        lines = SOURCE.split("\n")
        lines.insert(4, "  int unused = 0;")        # a line above moves everything down
        lines.insert(9, "  total += 3;")            # the same text again
        with open(self.path, "w") as f:
            f.write("\n".join(lines))
        after = mutants.mutants_of(self.path)
        moved = {(m["line"] - 1, m["col"], m["new"]): m["id"] for m in after if m["line"] in (7, 8)}
        self.assertEqual(moved, {k: v for k, v in before.items() if k[0] in (6, 7)})
        repeats = [m["id"] for m in after if m["kind"] == "delete" and m["old"].strip() == "total += 3;"]
        self.assertEqual(len(set(repeats)), 2)
        rows = [{"id": m["id"], "line": 0} for m in after]
        self.assertEqual([r["line"] for r in mutants.still_current(rows, after)],
                         [m["line"] for m in after])

    def test_equivalent_list_gives_every_id_its_reason(self):
        path = os.path.join(self.dir, "equivalent.md")
        with open(path, "w") as f:
            f.write("# Equivalent\n\n- `0123456789`: one reason.\n"
                    "- `aaaaaaaaaa`, `bbbbbbbbbb`: a shared reason.\n- `cccccccccc` no colon\n")
        saved, mutants.EQUIVALENT = mutants.EQUIVALENT, path
        try:
            ids = mutants.equivalent_ids()
        finally:
            mutants.EQUIVALENT = saved
        self.assertEqual(ids, {"0123456789": "one reason.", "aaaaaaaaaa": "a shared reason.",
                               "bbbbbbbbbb": "a shared reason."})

    def test_likely_killer_is_the_test_that_killed_most_of_the_file(self):
        def row(file, outcome, failing):
            return {"file": file, "outcome": outcome, "failing": failing}
        results = [row("a.cc", "killed", ["//t:one", "//t:two"]), row("a.cc", "killed", ["//t:two"]),
                   row("b.cc", "killed", ["//t:one"]), row("b.cc", "killed", ["//t:one"]),
                   row("a.cc", "timeout", ["//t:one"]), row("a.cc", "killed", ["//t:gone"])]
        tests = ["//t:one", "//t:two"]
        self.assertEqual(mutants.likely_killer(results, {"file": "a.cc"}, tests), ["//t:two"])
        self.assertEqual(mutants.likely_killer(results, {"file": "b.cc"}, tests), ["//t:one"])
        self.assertEqual(mutants.likely_killer(results, {"file": "c.cc"}, tests), [])

    def test_report_scores_leaving_out_equivalents_and_names_stale_entries(self):
        path = os.path.join(self.dir, "equivalent.md")
        with open(path, "w") as f:
            f.write("- `aaaaaaaaaa`: same.\n- `dddddddddd`: its line is gone.\n"
                    "- `cccccccccc`: claimed, but a test kills it.\n")

        def row(mid, outcome):
            return {"id": mid, "file": "storage/pglz/x.cc", "line": 1, "col": 0, "kind": "rel",
                    "old": " < ", "new": " <= ", "text": "a < b", "outcome": outcome,
                    "commit": "0123456789"}
        results = [row("aaaaaaaaaa", "survived"), row("bbbbbbbbbb", "survived"),
                   row("cccccccccc", "killed"), row("eeeeeeeeee", "timeout")]
        everything = [{"id": r["id"], "file": r["file"]} for r in results]
        everything.append({"id": "ffffffffff", "file": "storage/pglz/x.cc"})

        def report():  # with the equivalent.md above
            saved, mutants.EQUIVALENT = mutants.EQUIVALENT, path
            try:
                return mutants.report(results, self.dir, everything)
            finally:
                mutants.EQUIVALENT = saved
        text, survivors = report()
        self.assertIn("| pglz | 4 of 5 | 1 | 1 | 1 | 1 | 0 | 66.7% |", text)
        self.assertEqual([r["id"] for r in survivors], ["bbbbbbbbbb"])
        self.assertIn("no longer in the code (remove them): `dddddddddd`", text)
        self.assertIn("detected by a test, so not equivalent (remove them): `cccccccccc`", text)
        self.assertNotIn("Provisional", text)
        results[3]["commit"] = "0123456789+dirty"
        text, _ = report()
        self.assertIn("Provisional: 1 results were tested on a tree with uncommitted changes", text)
        self.assertIn("them again: pglz 1.", text)

    def test_plan_tests_survivors_then_the_untested_then_provisional_results_cc_before_headers(self):
        def mutant(mid, file):
            return {"id": mid, "file": file}

        def result(mid, outcome, commit="0123456789"):
            return {"id": mid, "outcome": outcome, "commit": commit}
        found = [mutant("h-new", "storage/a/x.h"), mutant("cc-new", "storage/a/x.cc"),
                 mutant("h-dirty", "storage/a/x.h"), mutant("cc-dirty", "storage/a/x.cc"),
                 mutant("h-surv", "storage/a/x.h"), mutant("cc-killed", "storage/a/x.cc"),
                 mutant("cc-equiv", "storage/a/x.cc"), mutant("cc-surv-dirty", "storage/a/x.cc"),
                 mutant("cc-equiv-dirty", "storage/a/x.cc")]
        results = [result("h-dirty", "killed", "0123456789+dirty"),
                   result("cc-dirty", "stillborn", "0123456789+dirty"),
                   result("h-surv", "survived"), result("cc-killed", "killed"),
                   result("cc-equiv", "survived"), result("cc-surv-dirty", "survived", "1+dirty"),
                   result("cc-equiv-dirty", "survived", "1+dirty")]
        equivalent = {"cc-equiv": "why", "cc-equiv-dirty": "why"}
        order = [m["id"] for m in mutants.plan(found[::-1], results, equivalent)]
        self.assertEqual(order, ["cc-surv-dirty", "h-surv", "cc-new", "h-new", "cc-dirty",
                                 "h-dirty", "cc-equiv-dirty"])

    def test_file_option_keeps_that_files_mutants_and_names_a_file_without_any(self):
        found = [{"file": "storage/a/x.cc"}, {"file": "storage/a/y.h"}, {"file": "storage/a/x.cc"}]
        self.assertEqual(mutants.only_files(found, None), found)
        self.assertEqual(mutants.only_files(found, ["storage/a/./x.cc"]), [found[0], found[2]])
        with self.assertRaisesRegex(mutants.ToolError, "storage/a/z.cc"):
            mutants.only_files(found, ["storage/a/x.cc", "storage/a/z.cc"])
        self.assertEqual(mutants.components_of(["./storage/pglz/x.cc", "storage/tuple/y.h",
                                                "storage/pglz/z.cc"]), ["pglz", "tuple"])
        for bad in ("x.cc", "/storage/pglz/x.cc", "storage/nope/x.cc", "tests/pglz/x.cc"):
            with self.assertRaisesRegex(mutants.ToolError, "not a file of storage"):
                mutants.components_of([bad])

    def test_merge_takes_each_mutants_latest_result_and_names_a_conflict(self):
        def row(mid, date, outcome):
            return {"id": mid, "file": "storage/pglz/x.cc", "line": 1, "date": date,
                    "outcome": outcome}
        record = [row("a", "2026-12-06", "survived"), row("b", "2026-12-06", "killed"),
                  row("c", "2026-12-06", "survived")]
        # Each run started from a copy of the record and tested its own mutants; run two also
        # holds an older copy of a (before an earlier merge) and tested d, which is new.
        one = [row("a", "2026-12-07T10:00:00Z", "killed"), record[1], record[2]]
        two = [row("a", "2026-12-05", "survived"), record[1],
               row("c", "2026-12-07T11:00:00Z", "killed"), row("d", "2026-12-07T11:05:00Z",
                                                              "timeout")]
        merged = {r["id"]: r for r in mutants.merge(record, [("one", one), ("two", two)])}
        self.assertEqual({k: (r["date"], r["outcome"]) for k, r in merged.items()}, {
            "a": ("2026-12-07T10:00:00Z", "killed"), "b": ("2026-12-06", "killed"),
            "c": ("2026-12-07T11:00:00Z", "killed"), "d": ("2026-12-07T11:05:00Z", "timeout")})
        three = [row("d", "2026-12-07T11:05:00Z", "survived")]
        with self.assertRaisesRegex(mutants.ToolError, "mutant d .* both two and three"):
            mutants.merge(record, [("one", one), ("two", two), ("three", three)])
        self.assertEqual(len(mutants.merge(record, [("two", two), ("two again", two)])), 4)


if __name__ == "__main__":
    sys.argv[1:] = []
    unittest.main()
