"""Shared code of pgstore's fuzzing tools (tools/campaign, tools/corpus, tools/coverage,
tools/oss-fuzz/check): targets and builds, the two engines, crash triage, reports."""
