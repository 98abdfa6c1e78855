"""unit_test: one GoogleTest binary of tests/<component>/."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def unit_test(name, deps, size = "small"):
    """A unit test of storage/: <name>.cc, linked with GoogleTest's main.

    Args:
      name: the test; its source is <name>.cc in the same package.
      deps: the storage/ libraries it tests and the package's helpers.
      size: Bazel's test size (its default timeout).
    """
    cc_test(
        name = name,
        size = size,
        srcs = [name + ".cc"],
        deps = deps + ["@system_libs//:gtest_main"],
    )
