#!/usr/bin/env bash
# `make formal`: prove the assertions of every RTL block with yosys-smtbmc
# (docs/formal.md), then check that a planted bug in each proven block makes
# its proof fail with a counterexample.
#
#   scripts/formal.sh                 the proofs, then the planted bugs
#   scripts/formal.sh --prove [RUN]   the proofs only (of the named runs)
#   scripts/formal.sh --plant [NAME]  the planted bugs only (the named ones,
#                                     or the named runs' ones)
#   scripts/formal.sh --list          the runs and the planted bugs
#
# The blocks: every rtl/<block>.sv with a simulator shim sim/rtl/<block>_rtl.cc.
# A block's assertions are its `UB_ASSERT lines
# (rtl/prim_assert.svh) or its immediate `assert`s; a block without any fails
# the run. The blocks of PART2 are listed as not proven (their RTL is to be
# rebuilt), not checked.
#
# Each run proves one block in a formal wrapper: formal/<block>_formal.sv if
# there is one, else one written here from the block's ports (every input
# free, rst_ni low in the first step and free after it, so that a reset in
# the middle of a trace is covered too). yosys reads the RTL with -formal
# -D FORMAL (`UB_ASSUME becomes an assumption), yosys-smtbmc checks every
# assertion in the first DEPTH steps from reset (bounded) and, for a run with
# induction, that DEPTH steps where the assertions hold are always followed
# by one where they hold (k-induction): the two together prove them in every
# reachable state.
#
# Results: one line per run; a failure names the assertion, the step and the
# counterexample trace (a VCD, build/formal/<run>.vcd; docs/formal.md says how
# to read it). A verdict is kept (build/formal/<run>.key) while nothing it
# was made from changes: the tool versions, this script, the RTL and the
# wrappers. FORMAL_JOBS runs at a time (default 2), FORMAL_TIMEOUT seconds
# at most per solver run (default 240), FORMAL_OUT the output directory
# (default build/formal). Exit status 0 when every run and planted bug
# passed, 1 otherwise, 2 on a usage error or a missing tool.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${FORMAL_OUT:-build/formal}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
jobs_max=${FORMAL_JOBS:-2}
tmo=${FORMAL_TIMEOUT:-240}
for v in "$jobs_max" "$tmo"; do
    [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "formal: FORMAL_JOBS and FORMAL_TIMEOUT must be whole numbers of at least 1, got '$v'"; exit 2; }
done

# --- per-run settings ---------------------------------------------------------
# run  block  parameters (Name=value,...; - for the defaults)  solver  depth
# induction(yes/no)  why. A run is named after its block, or <block>@<what>
# for a second run of it. A block with no line here gets DEFAULT_RUN.
RUNS='
tp_chan        tp_chan        NumChannels=4  cvc4  3  yes  complete proof with 4 channels: at the full 16 the induction step does not close within 5 minutes (cvc4 and z3 bit-blast the 16-way reads of 48-bit words); the logic of a channel does not depend on how many there are
tp_chan@16     tp_chan        -              cvc4  4  no   the full size (16 channels), bounded: one step more takes cvc4 a minute, every further one several
order_tracker  order_tracker  -              z3    12 no   not proven yet: the solver does not finish at this depth (docs/formal.md, "Not proven yet")
rc_send_pipeline rc_send_pipeline -          z3    12 no   not proven yet: the solver does not finish at this depth (docs/formal.md, "Not proven yet")
ub_send_pipeline ub_send_pipeline -          z3    12 no   not proven yet: the solver does not finish at this depth (docs/formal.md, "Not proven yet")
ub_tx          ub_tx          -              z3    12 no   not proven yet: the solver does not finish at this depth (docs/formal.md, "Not proven yet")
'
DEFAULT_RUN='-  z3  12  no  default setting (no line in RUNS of scripts/formal.sh)'
# Blocks not proven yet: their RTL is rebuilt in part 2.
PART2='transport context_cache'

# --- planted bugs ---------------------------------------------------------------
# Each: a name, the run whose proof must fail, a file (under rtl/ or
# formal/), an exact piece of its text (found exactly once), what replaces it
# in a temporary copy, and why that breaks an invariant. The bounded check of
# the run (its depth, or "depth:" here) must then fail with an assertion.
# (A clocked assertion sees step k's values at the edge that ends it, so it
# reports step k + 1: a bug needs a depth one past the step it shows in.)
PLANTS='
name: tp_chan_psn_short
run: tp_chan
file: rtl/tp_chan.sv
from: psn_rd + rq_nseg_i + 1'"'"'b1}
to: psn_rd + rq_nseg_i}
why: the channel moves on by nseg packets instead of nseg + 1, so the next answer on it repeats the last packet'"'"'s PSN (TableMatchesShadow_A in the step of the write, PsnAdvance_A once the answer is out)

name: tp_chan_valid_sticky
run: tp_chan
file: rtl/tp_chan.sv
from: rs_valid_o <= rq_valid_i;
to: rs_valid_o <= rq_valid_i | rs_valid_o;
depth: 5
why: the answer strobe stays high after the first answer: answers without requests, which the shadow model takes for table writes that did not happen (TableMatchesShadow_A; RsValidFollowsRq_A a step later)

'

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }

mode=all
sel=()
while [ $# -gt 0 ]; do
    case $1 in
        --prove) mode=prove ;;
        --plant) mode=plant ;;
        --list)  mode=list ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "formal: unknown option $1"; usage; exit 2 ;;
        *) sel+=("$1") ;;
    esac
    shift
done

# --- the blocks and their runs ---------------------------------------------------
blocks=()
for shim in sim/rtl/*_rtl.cc; do
    m=$(basename "$shim" _rtl.cc)
    [ -f "rtl/$m.sv" ] && blocks+=("$m")
done

declare -A R_BLOCK R_PARAMS R_SOLVER R_DEPTH R_IND R_WHY
runs=()
part2=()
for m in "${blocks[@]}"; do
    if [[ " $PART2 " == *" $m "* ]]; then part2+=("$m"); continue; fi
    found=0
    while read -r run blk params solver depth ind why; do
        [ -n "$run" ] && [ "$blk" = "$m" ] || continue
        runs+=("$run"); found=1
        R_BLOCK[$run]=$blk; R_PARAMS[$run]=$params; R_SOLVER[$run]=$solver
        R_DEPTH[$run]=$depth; R_IND[$run]=$ind; R_WHY[$run]=$why
    done <<<"$RUNS"
    if [ $found = 0 ]; then
        read -r params solver depth ind why <<<"$DEFAULT_RUN"
        runs+=("$m"); R_BLOCK[$m]=$m; R_PARAMS[$m]=$params; R_SOLVER[$m]=$solver
        R_DEPTH[$m]=$depth; R_IND[$m]=$ind; R_WHY[$m]=$why
    fi
done

# the planted bugs, one record per line: name<TAB>run (the rest is read by
# the Python below from $PLANTS)
plant_list() {
    python3 - "$PLANTS" <<'EOF'
import sys
for rec in sys.argv[1].strip().split("\n\n"):
    f = dict(l.split(": ", 1) for l in rec.strip().split("\n"))
    print(f["name"] + "\t" + f["run"])
EOF
}

if [ $mode = list ]; then
    printf '%-18s %-16s %-18s %-6s %5s %-4s %s\n' run block parameters solver depth ind why
    for r in "${runs[@]}"; do
        printf '%-18s %-16s %-18s %-6s %5s %-4s %s\n' "$r" "${R_BLOCK[$r]}" "${R_PARAMS[$r]}" \
            "${R_SOLVER[$r]}" "${R_DEPTH[$r]}" "${R_IND[$r]}" "${R_WHY[$r]}"
    done
    for m in "${part2[@]}"; do printf '%-18s %-16s not proven (part 2)\n' "$m" "$m"; done
    echo
    echo "planted bugs:"
    python3 - "$PLANTS" <<'EOF'
import sys
for rec in sys.argv[1].strip().split("\n\n"):
    f = dict(l.split(": ", 1) for l in rec.strip().split("\n"))
    print("  %-22s (%s) %s: %s" % (f["name"], f["run"], f["file"], f["why"]))
EOF
    exit 0
fi

for tool in yosys yosys-smtbmc python3; do
    command -v "$tool" >/dev/null || { echo "formal: $tool not found"; exit 2; }
done

# the RTL files, the package first (read -defer: only the hierarchy of the
# wrapper's block is elaborated)
rtl_files() {  # $1: the directory holding the RTL
    local f
    echo "$1/ub_pkg.sv"
    for f in "$1"/*.sv; do [ "$(basename "$f")" = ub_pkg.sv ] || echo "$f"; done
}

# Does the block state assertions? (outside comment lines)
has_assertions() {  # $1: file
    grep -vE '^[[:space:]]*//' "$1" | grep -qE '`UB_ASSERT\(|(^|[^_[:alnum:]])assert[[:space:]]*\('
}

# Writes the wrapper of a block without one of its own: every port on the
# wrapper, the block's parameters from the run, rst_ni low in the first step.
gen_wrapper() {  # $1 block $2 params $3 rtl dir $4 wrapper file $5 log
    local blk=$1 params=$2 dir=$3 wrap=$4 log=$5 chp="" p json
    if [ "$params" != - ]; then
        for p in ${params//,/ }; do chp+=" -chparam ${p%%=*} ${p#*=}"; done
    fi
    json=${wrap%.sv}.ports.json
    # shellcheck disable=SC2046
    if ! yosys -q -l "$log" -p "read_verilog -defer -formal -sv -D FORMAL -I$dir $(rtl_files "$dir" | tr '\n' ' '); hierarchy -top $blk$chp; proc; write_json $json" >/dev/null 2>&1; then
        return 1
    fi
    python3 - "$json" "$blk" "$params" "$wrap" <<'EOF'
import json, sys
js, blk, params, wrap = sys.argv[1:]
mods = json.load(open(js))["modules"]
top = [m for m in mods.values() if m.get("attributes", {}).get("top")]
ports = (top[0] if top else mods[blk])["ports"]
decl, conn = [], []
for name, p in ports.items():
    w = len(p["bits"])
    d = {"input": "input ", "output": "output", "inout": "inout "}[p["direction"]]
    decl.append("  %s logic %s%s" % (d, "[%d:0] " % (w - 1) if w > 1 else "", name))
    conn.append("    .%s(%s)" % (name, name))
pv = "" if params == "-" else " #(" + ", ".join(
    ".%s(%s)" % tuple(a.split("=", 1)) for a in params.split(",")) + ")"
with open(wrap, "w") as f:
    f.write("// written by scripts/formal.sh: the formal wrapper of %s\n" % blk)
    f.write("module %s_formal (\n%s\n);\n" % (blk, ",\n".join(decl)))
    f.write("  %s%s dut (\n%s\n  );\n" % (blk, pv, ",\n".join(conn)))
    if "rst_ni" in ports:
        f.write("  // the proof starts in reset; rst_ni is free after the first step\n")
        f.write("  initial assume (!rst_ni);\n")
    f.write("endmodule\n")
EOF
}

# The SMT-LIB model of a run: $out/<tag>.smt2 from the RTL in $dir.
build_smt2() {  # $1 run $2 rtl dir $3 formal dir $4 tag
    local run=$1 dir=$2 fdir=$3 tag=$4 blk=${R_BLOCK[$1]} wrap
    if [ -f "$fdir/${blk}_formal.sv" ]; then
        wrap="$fdir/${blk}_formal.sv"
        [ "${R_PARAMS[$run]}" = - ] || { echo "run $run: parameters are set in $wrap, not in RUNS"; return 1; }
    else
        wrap="$out/$tag.wrapper.sv"
        gen_wrapper "$blk" "${R_PARAMS[$run]}" "$dir" "$wrap" "$out/$tag.yosys.log" || {
            echo "yosys could not read $blk (log $out/$tag.yosys.log):"
            grep -iE 'error' "$out/$tag.yosys.log" | head -5 | sed 's/^/  /'
            return 1
        }
    fi
    if ! yosys -q -l "$out/$tag.yosys.log" -p "read_verilog -defer -formal -sv -D FORMAL -I$dir $(rtl_files "$dir" | tr '\n' ' ') $wrap; prep -top ${blk}_formal; memory_map; opt -fast; async2sync; dffunmap; write_smt2 -wires $out/$tag.smt2" >/dev/null 2>&1; then
        echo "yosys could not build the model of $blk (log $out/$tag.yosys.log):"
        grep -iE 'error' "$out/$tag.yosys.log" | head -5 | sed 's/^/  /'
        return 1
    fi
}

# Runs yosys-smtbmc; prints "PASS", "TIMEOUT" or "FAIL <step> <names...>"
# (the failing assertions' names, or their source places if unnamed).
smtbmc() {  # $1 log $2.. smtbmc arguments
    local log=$1 rc
    shift
    timeout -k 10 "$tmo" yosys-smtbmc "$@" >"$log" 2>&1
    rc=$?
    tr '\r' '\n' <"$log" | grep -a '##' >"$log.tmp"; mv "$log.tmp" "$log"
    if [ $rc = 124 ] || [ $rc = 137 ]; then echo TIMEOUT; return; fi
    if grep -q 'Status: PASSED' "$log"; then echo PASS; return; fi
    local step names
    step=$(grep -oE '(Checking assertions|Trying induction) in step [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
    names=$(sed -n 's/.*Assert failed in [^:]*: \(.*\)$/\1/p' "$log" | sed 's/ *(.*)$//' | sort -u | tr '\n' ' ')
    if grep -q 'Status: FAILED' "$log" && [ -n "$names" ]; then
        echo "FAIL ${step:-?} $names"
    else
        echo "ERROR"
    fi
}

tool_key() {
    { yosys -V; command -v yosys-smtbmc; z3 --version 2>/dev/null; cvc4 --version 2>/dev/null | head -1; } | sha256sum | cut -d' ' -f1
}
TOOLS_KEY=$(tool_key)

# one proof run; leaves its line in $out/<run>.result ("OK"/"FAIL" first)
prove_run() {
    local run=$1 blk=${R_BLOCK[$1]} res="$out/$1.result" t0 key
    local solver=${R_SOLVER[$1]} depth=${R_DEPTH[$1]} ind=${R_IND[$1]}
    local what="$solver"
    [ "${R_PARAMS[$run]}" = - ] || what+=", ${R_PARAMS[$run]}"
    key=$( { echo "$TOOLS_KEY"; grep -E "^$run " <<<"$RUNS"; echo "$DEFAULT_RUN"; cat "$0" rtl/*.sv rtl/*.svh formal/*.sv 2>/dev/null; } | sha256sum | cut -d' ' -f1)
    if [ -f "$out/$run.key" ] && [ "$(cat "$out/$run.key")" = "$key" ] && [ -f "$res.ok" ]; then
        cp "$res.ok" "$res"; return
    fi
    rm -f "$out/$run.key" "$res.ok" "$out/$run.vcd" "$out/$run.ind.vcd"
    t0=$SECONDS
    fin() {  # $1 OK/FAIL $2 text
        printf '%s\n%-18s %s\n' "$1" "$run" "$2" >"$res"
        if [ "$1" = OK ]; then cp "$res" "$res.ok"; echo "$key" >"$out/$run.key"; fi
    }
    if ! has_assertions "rtl/$blk.sv"; then
        fin FAIL "FAILED: no assertions in rtl/$blk.sv (add \`UB_ASSERT lines, rtl/prim_assert.svh)"; return
    fi
    local msg
    if ! msg=$(build_smt2 "$run" rtl formal "$run"); then
        fin FAIL "FAILED: $msg"; return
    fi
    local v
    v=$(smtbmc "$out/$run.bmc.log" -s "$solver" -t "$depth" --dump-vcd "$out/$run.vcd" "$out/$run.smt2")
    case $v in
        PASS) rm -f "$out/$run.vcd" ;;
        TIMEOUT) fin FAIL "FAILED: bounded check to depth $depth did not end within ${tmo} s ($what)"; return ;;
        FAIL*) set -- $v
               fin FAIL "FAILED: assertion ${*:3} at step $2, trace $out/$run.vcd ($what)"; return ;;
        *) fin FAIL "FAILED: yosys-smtbmc did not finish (log $out/$run.bmc.log)"; return ;;
    esac
    if [ "$ind" != yes ]; then
        fin OK "proven to depth $depth (bounded; $what) [$((SECONDS - t0)) s]"; return
    fi
    v=$(smtbmc "$out/$run.ind.log" -s "$solver" -i -t "$depth" --dump-vcd "$out/$run.ind.vcd" "$out/$run.smt2")
    case $v in
        PASS) rm -f "$out/$run.ind.vcd"
              fin OK "proven by induction (depth $depth; $what) [$((SECONDS - t0)) s]" ;;
        TIMEOUT) fin FAIL "FAILED: proven to depth $depth, but the induction step did not end within ${tmo} s ($what)" ;;
        FAIL*) set -- $v
               fin FAIL "FAILED: proven to depth $depth, but induction does not close: assertion ${*:3}, counterexample to induction $out/$run.ind.vcd (not a reachable trace: strengthen the invariants or raise the depth)" ;;
        *) fin FAIL "FAILED: yosys-smtbmc did not finish (log $out/$run.ind.log)" ;;
    esac
}

# one planted bug; leaves its line in $out/plant-<name>.result
plant_run() {
    local name=$1 res="$out/plant-$1.result" rec run file from to why depth key dir
    rec=$(python3 - "$PLANTS" "$name" <<'EOF'
import sys
for rec in sys.argv[1].strip().split("\n\n"):
    f = dict(l.split(": ", 1) for l in rec.strip().split("\n"))
    if f["name"] == sys.argv[2]:
        print(f["run"]); print(f["file"]); print(f.get("depth", ""))
EOF
)
    { read -r run; read -r file; read -r depth; } <<<"$rec"
    [ -n "$depth" ] || depth=${R_DEPTH[$run]}
    key=$( { echo "$TOOLS_KEY"; grep -E "^$run " <<<"$RUNS"; echo "$DEFAULT_RUN"; cat "$0" rtl/*.sv rtl/*.svh formal/*.sv 2>/dev/null; } | sha256sum | cut -d' ' -f1)
    if [ -f "$out/plant-$name.key" ] && [ "$(cat "$out/plant-$name.key")" = "$key" ] && [ -f "$res.ok" ] && [ -f "$out/plant-$name.vcd" ]; then
        cp "$res.ok" "$res"; return
    fi
    rm -f "$out/plant-$name.key" "$res.ok" "$out/plant-$name.vcd"
    fin() {
        printf '%s\n  %-22s %s\n' "$1" "$name" "$2" >"$res"
        if [ "$1" = OK ]; then cp "$res" "$res.ok"; echo "$key" >"$out/plant-$name.key"; fi
    }
    dir="$out/plant/$name"
    rm -rf "$dir"; mkdir -p "$dir"
    cp -r rtl "$dir/rtl"; mkdir -p "$dir/formal"; cp formal/*.sv "$dir/formal/" 2>/dev/null
    local err
    if ! err=$(python3 - "$PLANTS" "$name" "$dir" <<'EOF'
import sys
for rec in sys.argv[1].strip().split("\n\n"):
    f = dict(l.split(": ", 1) for l in rec.strip().split("\n"))
    if f["name"] != sys.argv[2]:
        continue
    path = sys.argv[3] + "/" + f["file"]
    text = open(path).read()
    n = text.count(f["from"])
    if n != 1:
        sys.exit("the text to replace is found %d times in %s: %s" % (n, f["file"], f["from"]))
    open(path, "w").write(text.replace(f["from"], f["to"]))
EOF
); then
        fin FAIL "NOT RUN: $err"; return
    fi
    local t0=$SECONDS msg v
    if ! msg=$(build_smt2 "$run" "$dir/rtl" "$dir/formal" "plant-$name"); then
        fin FAIL "NOT CAUGHT: the planted RTL does not build: $msg"; return
    fi
    v=$(smtbmc "$out/plant-$name.log" -s "${R_SOLVER[$run]}" -t "$depth" --dump-vcd "$out/plant-$name.vcd" "$out/plant-$name.smt2")
    case $v in
        FAIL*) set -- $v
               if head -1 "$out/plant-$name.vcd" 2>/dev/null | grep -q '^\$'; then
                   fin OK "caught: assertion ${*:3} at step $2, trace $out/plant-$name.vcd [$((SECONDS - t0)) s]"
               else
                   fin FAIL "NOT CAUGHT: assertion ${*:3} failed but no trace was written"
               fi ;;
        PASS) fin FAIL "NOT CAUGHT: the proof to depth $depth still passes" ;;
        TIMEOUT) fin FAIL "NOT CAUGHT: the check did not end within ${tmo} s" ;;
        *) fin FAIL "NOT CAUGHT: yosys-smtbmc did not finish (log $out/plant-$name.log)" ;;
    esac
}

# runs "$1 <item>" for each further argument, FORMAL_JOBS at a time
run_all() {
    local fn=$1 x
    shift
    for x in "$@"; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
        "$fn" "$x" &
    done
    wait
}

fail=0
proven=()

if [ $mode != plant ]; then
    todo=()
    for r in "${runs[@]}"; do
        if [ ${#sel[@]} -eq 0 ] || [[ " ${sel[*]} " == *" $r "* ]] || [[ " ${sel[*]} " == *" ${R_BLOCK[$r]} "* ]]; then
            todo+=("$r"); rm -f "$out/$r.result"
        fi
    done
    [ ${#todo[@]} -gt 0 ] || { echo "formal: no run named ${sel[*]}"; exit 2; }
    run_all prove_run "${todo[@]}"
    for r in "${todo[@]}"; do
        res="$out/$r.result"
        if [ ! -f "$res" ]; then echo "$r: the run left no result"; fail=1; continue; fi
        tail -n +2 "$res"
        if [ "$(head -1 "$res")" = OK ]; then proven+=("$r"); else fail=1; fi
    done
    if [ ${#sel[@]} -eq 0 ]; then
        for m in "${part2[@]}"; do printf '%-18s not proven (part 2: its RTL is to be rebuilt)\n' "$m"; done
    fi
fi

if [ $mode != prove ]; then
    mapfile -t plants < <(plant_list)
    todo=()
    declare -A has_plant
    for p in "${plants[@]}"; do
        n=${p%%$'\t'*}; r=${p#*$'\t'}
        has_plant[$r]=1
        if [ $mode = plant ]; then
            if [ ${#sel[@]} -eq 0 ] || [[ " ${sel[*]} " == *" $n "* ]] || [[ " ${sel[*]} " == *" $r "* ]] || [[ " ${sel[*]} " == *" ${R_BLOCK[$r]:-} "* ]]; then
                todo+=("$n")
            fi
        elif [[ " ${proven[*]} " == *" $r "* ]]; then
            todo+=("$n")
        fi
    done
    [ $mode != plant ] || [ ${#sel[@]} -eq 0 ] || [ ${#todo[@]} -gt 0 ] || { echo "formal: no planted bug named ${sel[*]}"; exit 2; }
    echo "planted bugs (each must make its proof fail):"
    for n in "${todo[@]}"; do rm -f "$out/plant-$n.result"; done
    run_all plant_run "${todo[@]}"
    for n in "${todo[@]}"; do
        res="$out/plant-$n.result"
        if [ ! -f "$res" ]; then echo "  $n: the run left no result"; fail=1; continue; fi
        tail -n +2 "$res"
        [ "$(head -1 "$res")" = OK ] || fail=1
    done
    if [ $mode = all ]; then
        # a proven block needs a planted bug of its own (one per block suffices)
        for r in "${proven[@]}"; do
            b=${R_BLOCK[$r]} ok=0
            for r2 in "${!has_plant[@]}"; do [ "${R_BLOCK[$r2]:-}" = "$b" ] && ok=1; done
            if [ $ok = 0 ]; then
                echo "  $b: no planted bug listed (add one to PLANTS in scripts/formal.sh)"; fail=1
            fi
        done
    fi
fi

if [ $fail -ne 0 ]; then echo "formal: FAILED"; exit 1; fi
echo "formal: passed"
