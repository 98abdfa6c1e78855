#!/usr/bin/env bash
# The repository stands on its own: no tracked file points outside it (to the shared docs of the
# workplace, a sibling directory of the checkout), and
# every reference to its own docs names a file in docs/ and, for "docs/<file>.md §N[.M]", a
# section that file has (a heading "## N." or "### N.M"). Runs in the source tree.
set -uo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
cd "$root" || exit 1
fail=0
files=$(git ls-files -- ':!corpora' 2>/dev/null)
if [ -z "$files" ]; then  # a copy of the tree without .git (the bug zoo's, the mutants'): its files
  files=$(find . -type f -not -path './.git/*' -not -path './corpora/*' -not -path './out/*' \
            -not -path './bazel-*' | sed 's|^\./||')
fi
[ -n "$files" ] || { echo "docs_refs_test: no files in $root"; exit 1; }
# (The groups keep this pattern from matching itself as a reference.)
outside=$(grep -nE '\.\./(shared)|(shared)/docs' $files)
if [ -n "$outside" ]; then
  echo "references outside the repository:"; echo "$outside"; fail=1
fi
while IFS= read -r ref; do
  file=$(sed -E 's/^(docs\/[A-Za-z_]+\.md).*/\1/' <<<"$ref")
  [ -f "$file" ] || { echo "reference to a missing file: $ref"; fail=1; continue; }
  for section in $(grep -oE '§[0-9]+(\.[0-9]+)?' <<<"$ref" | tr -d '§'); do
    if [[ "$section" == *.* ]]; then pattern="^### ${section//./\\.} "; else pattern="^## ${section}\. "; fi
    grep -qE "$pattern" "$file" || { echo "reference to a missing section: $ref"; fail=1; }
  done
done < <(grep -ohE 'docs/[A-Za-z_]+\.md( §[0-9]+(\.[0-9]+)?(-[0-9.]+)?((,| and) §?[0-9]+(\.[0-9]+)?)*)?' $files | sort -u)
[ "$fail" -eq 0 ] && echo "docs_refs_test: every reference resolves inside the repository"
exit "$fail"
