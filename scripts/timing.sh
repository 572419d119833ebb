#!/usr/bin/env bash
# `make timing`: every RTL block at its full default parameters, synthesised
# for UltraScale+ (yosys synth_xilinx -family xcup), and its worst
# register-to-register path measured on the netlist by scripts/timing.py
# (LUT levels, MUXF and carry cells, an estimated period by the delay model
# of docs/rtl.md) with its LUT, flip-flop, LUT-RAM, block-RAM and URAM counts.
#
# Blocks: every RTL file with a simulator shim (sim/rtl/<block>_rtl.cc). The
# blocks in GATED must be at or under the period
# (3.10 ns, 322 MHz): `make timing` fails when one is not. The others are
# measured and listed; one whose synthesis does not finish within the time
# or memory limit is listed as such, never left out.
#
# A block's result stands while nothing it was made from changes (yosys, this
# script, timing.py, its RTL files): build/timing/<block>.key.
#
# Environment: TIMING_JOBS (yosys runs at once, default 2), TIMING_LIMIT
# (seconds per block, default 1800), TIMING_MEM_GB (address space per yosys
# run, default 8), TIMING_BLOCKS (a space-separated subset), TIMING_KEEP=1
# (keep the netlist build/timing/<block>.json for scripts/timing.py --ends N).
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/timing
mkdir -p "$out"
PERIOD=3.10
GATED="tp_chan order_tracker rc_send_pipeline ub_send_pipeline ub_tx context_cache transport"
pkg=rtl/ub_pkg.sv
files=("$pkg")
for f in rtl/*.sv; do [ "$f" = "$pkg" ] || files+=("$f"); done

limit=${TIMING_LIMIT:-1800}
mem=${TIMING_MEM_GB:-8}
jobs_max=${TIMING_JOBS:-2}
for v in limit mem jobs_max; do
    if ! [[ "${!v}" =~ ^[1-9][0-9]*$ ]]; then
        echo "timing: TIMING_${v^^} must be a whole number of at least 1, got '${!v}'" | sed 's/JOBS_MAX/JOBS/'
        exit 2
    fi
done

blocks=()
if [ -n "${TIMING_BLOCKS:-}" ]; then
    for m in $TIMING_BLOCKS; do
        [ -f "rtl/$m.sv" ] || { echo "timing: TIMING_BLOCKS names '$m', which has no rtl/$m.sv"; exit 2; }
        blocks+=("$m")
    done
else
    for shim in sim/rtl/*_rtl.cc; do blocks+=("$(basename "$shim" _rtl.cc)"); done
fi

# The files a block is made from: the package, its own file and, in turn,
# the files of the modules it instantiates (a line that starts with one's
# name). Only those are read: ABC's mapping depends on the order of yosys's
# internal names, which every file read moves, so a block's result would
# otherwise change with the other blocks' files.
block_files() {
    local todo=("$1") seen=" " m f n res=("$pkg")
    while [ ${#todo[@]} -gt 0 ]; do
        m=${todo[0]}
        todo=("${todo[@]:1}")
        case "$seen" in *" $m "*) continue ;; esac
        seen="$seen$m "
        res+=("rtl/$m.sv")
        for f in "${files[@]}"; do
            n=$(basename "$f" .sv)
            if [ "$f" != "$pkg" ] && [ "$n" != "$m" ] && grep -qE "^[[:space:]]*$n\b" "rtl/$m.sv"; then
                todo+=("$n")
            fi
        done
    done
    echo "${res[@]}"
}

run_block() {
    local m=$1 log="$out/$1.yosys" res="$out/$1.result" key script t0 rc bf
    bf=$(block_files "$m")
    script="read_verilog -defer -sv -Irtl $bf; synth_xilinx -family xcup -flatten -noiopad -noclkbuf -top $m; stat; write_json $out/$m.json"
    # (shellcheck: $bf is a list of file names without spaces)
    # shellcheck disable=SC2086
    key=$( { yosys -V; echo "$script $limit $mem"; cat "$0" scripts/timing.py $bf rtl/*.svh; } | sha256sum | cut -d' ' -f1)
    if [ -f "$out/$m.key" ] && [ "$(cat "$out/$m.key")" = "$key" ] && [ -f "$res.ok" ]; then
        cp "$res.ok" "$res"
        return
    fi
    rm -f "$out/$m.key" "$res.ok" "$out/$m.json"
    t0=$(date +%s)
    ( ulimit -v $((mem * 1024 * 1024)); exec timeout "$limit" yosys -q -l "$log" -p "$script" ) >/dev/null 2>&1
    rc=$?
    local secs=$(( $(date +%s) - t0 ))
    if [ $rc -eq 124 ]; then
        echo "UNFINISHED synthesis did not finish within ${limit} s" >"$res"
    elif [ $rc -ne 0 ]; then
        if grep -qiE 'out of memory|bad_alloc|cannot allocate' "$log" 2>/dev/null || [ $rc -eq 137 ] || [ $rc -eq 134 ]; then
            echo "UNFINISHED synthesis ran out of its ${mem} GB after ${secs} s" >"$res"
        else
            { echo "FAIL yosys failed (exit $rc):"; grep -iE 'error' "$log" | head -5 | sed 's/^/  /'; } >"$res"
        fi
    elif ! python3 scripts/timing.py "$out/$m.json" "$m" --json "$out/$m.timing.json" >"$out/$m.path" 2>&1; then
        { echo "FAIL timing.py:"; sed 's/^/  /' "$out/$m.path" | head -5; } >"$res"
    else
        echo "OK $secs" >"$res"
    fi
    [ -n "${TIMING_KEEP:-}" ] || rm -f "$out/$m.json"
    case "$(head -c2 "$res")" in
        OK|UN) cp "$res" "$res.ok"; echo "$key" >"$out/$m.key" ;;
    esac
}

echo "timing: synthesising ${#blocks[@]} blocks for UltraScale+ (cached results are reused; up to ${limit} s each)"
for m in "${blocks[@]}"; do
    rm -f "$out/$m.result"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    ( run_block "$m"; echo "timing: $m done: $(head -1 "$out/$m.result" | cut -c1-60)" ) &
done
wait

fail=0
python3 - "$out" "$PERIOD" "$GATED" "${blocks[@]}" <<'EOF' || fail=1
import json, sys
out, period, gated, blocks = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(), sys.argv[4:]
hdr = "%-18s %7s %5s %4s %5s %6s %6s %6s %6s %5s %4s %4s  %s" % (
    "block", "period", "LUTs", "MUXF", "carry", "LUT", "FF", "LUTRAM", "RAMB18", "RAMB36", "URAM", "DSP", "322 MHz")
print(hdr)
bad = []
table = []
for m in blocks:
    first = open("%s/%s.result" % (out, m)).read().split("\n")[0]
    if not first.startswith("OK"):
        print("%-18s %s" % (m, first))
        table.append({"block": m, "result": first})
        if m in gated:
            bad.append("%s: %s" % (m, first))
        continue
    r = json.load(open("%s/%s.timing.json" % (out, m)))
    res = r["resources"]
    ok = r["period_ns"] <= period + 1e-9
    verdict = ("yes" if ok else "NO") + ("" if m in gated else " (not gated)")
    print("%-18s %6.2f %5d %4d %5d %6d %6d %6d %6d %5d %4d %4d  %s" % (
        m, r["period_ns"], r["lut_levels"], r["muxf"], r["carry"], res.get("LUT", 0),
        res.get("FF", 0), res.get("LUTRAM", 0), res.get("RAMB18", 0), res.get("RAMB36", 0),
        res.get("URAM", 0), res.get("DSP", 0), verdict))
    r["block"] = m
    table.append(r)
    if m in gated and not ok:
        bad.append("%s: %.2f ns > %.2f ns (worst path in %s/%s.path)" % (m, r["period_ns"], period, out, m))
json.dump(table, open(out + "/table.json", "w"), indent=1)
print("(period: estimated ns of the worst register-to-register path; LUTs, MUXF, carry: cells along it;")
print(" the worst path of each block, cell by cell: build/timing/<block>.path)")
for b in bad:
    print("timing: over the period: " + b)
sys.exit(1 if bad else 0)
EOF
if [ $fail -ne 0 ]; then echo "timing: FAILED"; exit 1; fi
echo "timing: every gated block meets ${PERIOD} ns"
