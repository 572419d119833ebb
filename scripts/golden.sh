#!/usr/bin/env bash
# Writes the golden outputs of ubsim under testbench/golden/ (one file per
# case and backend). The golden test (testbench/golden_test.cc) runs the same
# cases and compares. Regenerate only when a figure is meant to change, and
# say why in the commit.
#   scripts/golden.sh [path/to/ubsim]
set -euo pipefail
exe=${1:-build/ubsim}
out=testbench/golden
mkdir -p "$out"
while IFS='|' read -r name args; do
    [ -z "$name" ] && continue
    case "$name" in \#*) continue ;; esac
    for b in c rtl lockstep; do
        # shellcheck disable=SC2086
        "$exe" $args --backend "$b" --quiet > "$out/$name.$b.out"
    done
done < testbench/golden/cases.txt
ls "$out" | wc -l
