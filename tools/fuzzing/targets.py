"""Fuzz targets: found by their "fuzz-test" tag (every cc_fuzz_test has it, so a new target needs
no edit here), built with Bazel, or taken prebuilt from a directory.

A target tagged "planted-crash" (the tools' own test target) is left out unless named."""
import os

from .common import ROOT, ToolError, bazel, log

QUERY = 'attr(tags, "fuzz-test", //...)'
PLANTED = 'attr(tags, "planted-crash", //...)'


def discover(tree=ROOT):
    """{name: label} of every fuzz target of the workspace (or of tree, a copy of it), the
    planted-crash target included."""
    out = bazel(["query", "--noshow_progress", QUERY], "finding fuzz targets", tree)
    return {l.split(":")[-1]: l for l in out.split() if ":" in l}


def planted():
    out = bazel(["query", "--noshow_progress", PLANTED], "finding planted-crash targets")
    return {l.split(":")[-1] for l in out.split() if ":" in l}


def select(requested, bin_dir=None):
    """{name: label} of the requested targets (all normal ones when none is requested).
    ToolError naming any unknown target."""
    if bin_dir:
        if not os.path.isdir(bin_dir):
            raise ToolError(f"binary directory {bin_dir} does not exist")
        known = {f[:-4]: f"//fuzzers:{f[:-4]}" for f in os.listdir(bin_dir) if f.endswith("_bin")}
        normal = set(known)
    else:
        known = discover()
        normal = set(known) - planted()
    names = requested or sorted(normal)
    unknown = [n for n in names if n not in known]
    if unknown and bin_dir:
        raise ToolError(f"no {unknown[0]}_bin in {bin_dir}")
    if unknown:
        raise ToolError(f"unknown fuzz target {', '.join(unknown)} "
                        f"(known: {', '.join(sorted(normal))})")
    if not names:
        raise ToolError("no fuzz targets found")
    return {n: known[n] for n in names}


def build(targets, config, bin_dir=None, tree=ROOT):
    """{name: path of <name>_bin} built with --config=config in the workspace (or in tree, a copy
    of it), or found in bin_dir."""
    if bin_dir:
        paths = {n: os.path.join(os.path.abspath(bin_dir), n + "_bin") for n in targets}
        missing = [p for p in paths.values() if not os.access(p, os.X_OK)]
        if missing:
            raise ToolError(f"no executable {missing[0]}")
        return paths
    log(f"building {len(targets)} fuzz target(s) with --config={config} ...")
    labels = [l + "_bin" for l in targets.values()]
    try:
        bazel(["build", "--noshow_progress", f"--config={config}", *labels], "the build", tree)
    except ToolError:
        # Name the target that does not build, one build per target.
        for name, label in targets.items():
            bazel(["build", "--noshow_progress", f"--config={config}", label + "_bin"],
                  f"building {name}", tree)
        raise
    bazel_bin = bazel(["info", f"--config={config}", "bazel-bin"], "bazel info", tree).strip()
    return {n: os.path.join(bazel_bin, l.lstrip("/").replace(":", "/") + "_bin")
            for n, l in targets.items()}


_corpora = os.path.join(ROOT, "corpora")


def use_corpora(directory):
    """Reads and writes seed corpora under `directory` instead of the workspace's corpora/."""
    global _corpora
    if not os.path.isdir(directory):
        raise ToolError(f"corpora directory {directory} does not exist")
    _corpora = os.path.abspath(directory)


def seeds_dir(name):
    return os.path.join(_corpora, name)


def dict_file(name):
    d = os.path.join(_corpora, name + ".dict")
    return d if os.path.exists(d) else None
