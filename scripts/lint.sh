#!/usr/bin/env bash
# `make lint`: every RTL file must be clean under Verilator's -Wall lint and
# elaborate in Icarus Verilog (iverilog -g2012, the second simulator of the
# replay tests, docs/vectors.md), and
# every top-level block (an RTL file with a simulator shim sim/rtl/<block>_rtl.cc)
# must synthesize with yosys without a warning. Cell counts land in build/lint/<block>.cells.
# The package rtl/ub_pkg.sv is read first by both tools (the modules refer to
# it as ub_pkg::...).
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/lint
mkdir -p "$out"
fail=0
shopt -s nullglob
pkg=rtl/ub_pkg.sv
files=("$pkg")
for f in rtl/*.sv; do [ "$f" = "$pkg" ] || files+=("$f"); done
[ -f "$pkg" ] || { echo "lint: $pkg missing"; exit 1; }

# Verilator: each block as the simulator builds it, without its assertions,
# and as the tests build it, with them and the logic only they read
# (rtl/prim_assert.svh): both must be clean.
for f in "${files[@]}"; do
    m=$(basename "$f" .sv)
    for flavour in plain checked; do
        if [ "$f" = "$pkg" ]; then
            [ $flavour = plain ] || continue
            cmd=(verilator --lint-only -Wall "$pkg")
        elif [ $flavour = plain ]; then
            cmd=(verilator --lint-only -Wall -y rtl -Irtl --top-module "$m" "$pkg" "$f")
        else
            cmd=(verilator --lint-only -Wall --assert +define+UB_ASSERTS -y rtl -Irtl --top-module "$m" "$pkg" "$f")
        fi
        if ! "${cmd[@]}" >"$out/$m.$flavour.verilator" 2>&1; then
            echo "lint: verilator -Wall ($flavour): $f"; sed 's/^/  /' "$out/$m.$flavour.verilator" | head -20; fail=1
        elif [ -s "$out/$m.$flavour.verilator" ]; then
            echo "lint: verilator printed warnings for $f ($flavour)"; sed 's/^/  /' "$out/$m.$flavour.verilator" | head -20; fail=1
        fi
    done
done

# Icarus Verilog: every block with its submodules (ub_pkg first). Its notes
# that it ignores unique/unique0 on a case and that it makes an always_*
# block sensitive to all bits of a vector it reads a constant slice of are
# not defects (the meaning is the same); anything else it prints is.
iv_benign='sorry: constant selects in always_\* processes|sorry: Case unique/unique0 qualities are ignored'
for f in "${files[@]}"; do
    m=$(basename "$f" .sv)
    [ "$f" = "$pkg" ] && continue
    if ! iverilog -g2012 -o /dev/null -I rtl -y rtl -s "$m" "${files[@]}" >"$out/$m.iverilog" 2>&1; then
        echo "lint: iverilog -g2012: $f"; sed 's/^/  /' "$out/$m.iverilog" | head -20; fail=1
    elif [ "$(grep -vE "$iv_benign" "$out/$m.iverilog" | grep -c .)" != 0 ]; then
        echo "lint: iverilog printed warnings for $f"; grep -vE "$iv_benign" "$out/$m.iverilog" | head -20 | sed 's/^/  /'; fail=1
    fi
done

# one yosys run per block, two at a time (yosys is single-threaded); each
# run leaves its verdict in $out/<block>.result, printed below in order
synth_block() {
    local m=$1 log="$out/$1.yosys" res="$out/$1.result" pre cells ffs
    # a block may ask for parameters of its own for this check, in a line
    # "// lint-synth: <yosys commands>" of its RTL (for example a smaller ring)
    # (read -defer: only the block's own hierarchy is elaborated, with those
    # parameters)
    pre=$(sed -n 's|^// lint-synth: \(.*\)$|\1|p' "rtl/$m.sv" | head -1)
    local script="read_verilog -defer -sv -Irtl ${files[*]}; ${pre:+$pre; }synth -flatten -top $m; stat"
    # a clean verdict stands while nothing it was made from changes: the
    # yosys version, the script, this file and every RTL file (a fresh clone
    # synthesizes everything)
    local key
    key=$( { yosys -V; echo "$script"; cat "$0" "${files[@]}" rtl/*.svh; } | sha256sum | cut -d' ' -f1)
    if [ -f "$out/$m.key" ] && [ "$(cat "$out/$m.key")" = "$key" ] && [ -f "$res.ok" ]; then
        cp "$res.ok" "$res"
        return
    fi
    rm -f "$out/$m.key" "$res.ok"
    if ! yosys -q -l "$log" -p "$script" >/dev/null 2>&1; then
        { echo "FAIL"; echo "lint: yosys synthesis of $m failed:"; grep -iE 'error' "$log" | head -10 | sed 's/^/  /'; } >"$res"
        return
    fi
    # (yosys turning an array of registers into single registers is not a defect)
    # (and its closing count of them)
    local benign='Replacing memory .* with list of registers|Warnings: [0-9]+ unique messages'
    if [ "$(grep -i 'warning' "$log" | grep -cvE "$benign")" != 0 ]; then
        { echo "FAIL"; echo "lint: yosys warnings for $m:"; grep -i 'warning' "$log" | grep -vE "$benign" | head -10 | sed 's/^/  /'; } >"$res"
        return
    fi
    # the figures of the final `stat` (the last statistics block in the log)
    read -r cells ffs < <(awk '/Printing statistics/ {c=0; f=0}
        /Number of cells:/ {c=$4}
        $1 ~ /^\$_.*(DFF|LATCH)/ {f+=$2}
        END {print c, f}' "$log")
    echo "$cells" >"$out/$m.cells"
    { echo "OK"; printf '%-24s %10s %10s\n' "$m" "$cells" "$ffs"; } >"$res"
    cp "$res" "$res.ok"
    echo "$key" >"$out/$m.key"
}

blocks=()
for shim in sim/rtl/*_rtl.cc; do
    m=$(basename "$shim" _rtl.cc)
    [ -f "rtl/$m.sv" ] || { echo "lint: $shim has no rtl/$m.sv"; fail=1; continue; }
    blocks+=("$m")
done
jobs_max=${LINT_JOBS:-2}
if ! [[ "$jobs_max" =~ ^[1-9][0-9]*$ ]]; then
    echo "lint: LINT_JOBS must be a whole number of at least 1, got '$jobs_max'"; exit 2
fi
for m in "${blocks[@]}"; do
    rm -f "$out/$m.result"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    synth_block "$m" &
done
wait
printf '%-24s %10s %10s\n' "block" "cells" "flip-flops"
for m in "${blocks[@]}"; do
    res="$out/$m.result"
    if [ ! -f "$res" ]; then echo "lint: yosys run for $m left no result"; fail=1; continue; fi
    [ "$(head -1 "$res")" = OK ] || fail=1
    tail -n +2 "$res"
done
if [ $fail -ne 0 ]; then echo "lint: FAILED"; exit 1; fi
echo "lint: clean (verilator -Wall, iverilog -g2012, yosys)"
