#!/usr/bin/env bash
# Writes the golden outputs of ubsim under testbench/golden/: one file per
# case of testbench/golden/cases.txt (<name>.out, what the C backend prints),
# after checking that the RTL and lockstep backends print the same (apart
# from the backend's own name and the count of NIC edges the engine stepped,
# a cost, not a result). The golden test (testbench/golden_test.cc) runs
# every case on every backend, and on the other engines where the case says
# so, against these files. Regenerate only when a figure is meant to change,
# and say why in the commit.
#   scripts/golden.sh [path/to/ubsim [CASE...]]     (from any folder)
# With CASE names, only those cases are run and written (a new case, or one
# whose figures change on purpose); the others' files stay as they are.
set -euo pipefail
exe=build/ubsim # (the project's)
if [ $# -ge 1 ]; then
    # a path given from another folder: made absolute before moving to the
    # project's
    exe=$1
    shift
    case "$exe" in
        /*) ;;
        */*) if d=$(cd "$(dirname "$exe")" 2>/dev/null && pwd); then exe=$d/$(basename "$exe"); fi ;;
    esac
fi
only=" $* "
cd "$(dirname "$0")/.."
out=testbench/golden
cases=$out/cases.txt
if [ ! -x "$exe" ]; then
    if grep -q "^$exe|" "$cases"; then
        echo "golden: '$exe' is a case: give the ubsim first (scripts/golden.sh build/ubsim $exe)" >&2
    else
        echo "golden: $exe is not built (make $exe)" >&2
    fi
    exit 1
fi
for want in $only; do
    grep -q "^$want|" "$cases" || { echo "golden: no case '$want' in $cases" >&2; exit 1; }
done

# What the comparison leaves aside (as_golden in testbench/golden_test.cc does the same).
as_golden() {
    sed -E -e '/nic_edges_simulated/d' \
           -e 's/(backend )(rtl|lockstep),/\1c,/' \
           -e 's/^([[:space:]]*"backend":[[:space:]]*)"(rtl|lockstep)"/\1"c"/'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
line_no=0
while IFS= read -r line || [ -n "$line" ]; do
    line_no=$((line_no + 1))
    [ -z "$line" ] && continue
    case "$line" in \#*) continue ;; esac
    IFS='|' read -r name args opts <<<"$line"
    if [ -z "$name" ] || [ -z "$args" ]; then
        echo "golden: $cases:$line_no: expected 'name|ubsim arguments[|options]', got '$line'" >&2
        exit 1
    fi
    if [ "$only" != "  " ] && [[ "$only" != *" $name "* ]]; then
        continue
    fi
    quiet=--quiet
    for o in ${opts//,/ }; do
        case "$o" in
            quiet=no) quiet= ;;
            backends) ;;
            *) echo "golden: $cases:$line_no: unknown option '$o' (quiet=no, backends)" >&2; exit 1 ;;
        esac
    done
    for b in c rtl lockstep; do
        # shellcheck disable=SC2086
        if ! "$exe" $args --backend "$b" $quiet > "$tmp/$b.out" 2> "$tmp/$b.err"; then
            echo "golden: $cases:$line_no: $exe $args --backend $b failed:" >&2
            sed 's/^/  /' "$tmp/$b.err" >&2
            exit 1
        fi
    done
    for b in rtl lockstep; do
        if ! diff <(as_golden < "$tmp/c.out") <(as_golden < "$tmp/$b.out") > "$tmp/diff"; then
            echo "golden: $cases:$line_no: $name: --backend $b prints other figures than c:" >&2
            head -20 "$tmp/diff" | sed 's/^/  /' >&2
            exit 1
        fi
    done
    cp "$tmp/c.out" "$out/$name.out"
    n=$((n + 1))
done < "$cases"
echo "golden: $n cases written to $out/ (each the same on c, rtl and lockstep)"
