"""cc_fuzz_test: one fuzz target, as a regression test, an engine binary and a launcher.

Named like rules_fuzzing's macro (which cannot be fetched offline and has no AFL++ engine):

  <name>        cc_test replaying every file of corpora/<name>/ through LLVMFuzzerTestOneInput
                with the standalone replay driver (g++ and every sanitizer config). Fails if the
                corpus is missing or empty. Tagged "fuzz-test" so tools can find every target.
  <name>_bin    the engine binary: libFuzzer under --config=libfuzzer, AFL++ under --config=afl or
                afl-asan, the replay driver otherwise.
  <name>_run    `bazel run --config=libfuzzer //fuzzers:<name>_run -- [engine flags]` fuzzes into
                out/run/<name>/ in the workspace, seeded from corpora/<name>/.

The engine and sanitizer flags live in .bazelrc; this macro only picks the driver.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def cc_fuzz_test(name, srcs, deps = [], dict = None, size = "small", tags = [], **kwargs):
    corpus = "//corpora:" + name
    lib = name + "_lib"
    cc_library(
        name = lib,
        testonly = True,
        srcs = srcs,
        deps = deps + ["//fuzzers:fuzz_helpers"],
        alwayslink = True,
        **kwargs
    )

    cc_test(
        name = name,
        size = size,
        args = ["corpora/" + name],
        data = [corpus],
        tags = tags + ["fuzz-test"],
        deps = [":" + lib, "//fuzzers:replay_main"],
    )

    cc_binary(
        name = name + "_bin",
        testonly = True,
        deps = [":" + lib] + select({
            "//fuzzers:engine_libfuzzer": [],
            "//fuzzers:engine_afl": ["@afl//:afl_driver"],
            "//conditions:default": ["//fuzzers:replay_main"],
        }),
        linkopts = select({
            "//fuzzers:engine_libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        tags = tags,
        visibility = ["//tools:__subpackages__"],  # the fuzzing tools' tests run the engines
    )

    dict_args = []
    dict_data = []
    if dict:
        dict_args = ["--dict", "$(rootpath %s)" % dict]
        dict_data = [dict]

    native.sh_binary(
        name = name + "_run",
        testonly = True,
        srcs = ["//fuzzers:launcher.sh"],
        args = [
            "--name",
            name,
            "--bin",
            "$(rootpath :%s_bin)" % name,
            "--seeds",
            "corpora/" + name,
        ] + dict_args + select({
            "//fuzzers:engine_libfuzzer": ["--engine", "libfuzzer"],
            "//fuzzers:engine_afl": ["--engine", "afl"],
            "//conditions:default": ["--engine", "replay"],
        }),
        data = [":" + name + "_bin", corpus] + dict_data,
        tags = tags + ["manual"],
    )
