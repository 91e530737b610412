#!/usr/bin/env bash
# Fails when the build left the work tree different from the commit: an untracked file that is not a build output
# (those belong in .gitignore), or a tracked file the build rewrote. The second case catches a configuration reference
# regenerated from changed @ConfigMapping roots but not committed (docs/modules/ROOT/pages/includes/), docs examples
# copied from docs-examples but not committed, and a source file the formatter rewrote (quarkiverse-parent formats
# during every build unless -Dno-format).
# Usage: bash .ci/clean-tree.sh   (from anywhere in the work tree, after the build)
set -euo pipefail
cd "$(dirname "$0")/.."

status=$(git status --porcelain --untracked-files=all)
if [ -n "$status" ]; then
  echo "$status"
  echo "clean tree: the build left the untracked or modified files above: commit what the build generates and the" \
    "project keeps (the configuration reference, the copied docs examples, formatted sources), add true build" \
    "outputs to .gitignore" >&2
  git --no-pager diff --stat >&2
  exit 1
fi
echo "clean tree: the build left no untracked or modified file"
