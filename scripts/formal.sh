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
# the run.
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
# at most per solver run (default 600), FORMAL_OUT the output directory
# (default build/formal). Exit status 0 when every run and planted bug
# passed, 1 otherwise, 2 on a usage error or a missing tool.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${FORMAL_OUT:-build/formal}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
jobs_max=${FORMAL_JOBS:-2}
tmo=${FORMAL_TIMEOUT:-600}
for v in "$jobs_max" "$tmo"; do
    [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "formal: FORMAL_JOBS and FORMAL_TIMEOUT must be whole numbers of at least 1, got '$v'"; exit 2; }
done

# --- per-run settings ---------------------------------------------------------
# run  block  parameters (Name=value,...; - for the defaults)  solver  depth
# induction(yes/no)  why. The solver: z3 or cvc4 (yosys-smtbmc: bounded to
# depth, then k-induction when induction is yes), pdr (ABC: unbounded) or bmc
# (ABC's bmc3: bounded to depth, for assertions pdr does not close in time).
# A run is named after its block, or <block>@<what> for a second run of it.
# A block with no line here gets DEFAULT_RUN.
RUNS='
tp_chan        tp_chan        NumChannels=4  cvc4  3  yes  complete proof with 4 channels: at the full 16 the induction step does not close within 5 minutes (cvc4 and z3 bit-blast the 16-way reads of 48-bit words); the logic of a channel does not depend on how many there are
tp_chan@16     tp_chan        -              cvc4  4  no   the full size (16 channels), bounded: one step more takes cvc4 a minute, every further one several
order_tracker  order_tracker  -              pdr   20 -    the full size, unbounded (k-induction with z3 or cvc4 does not close within 4 minutes even with a 4-bit count)
rc_send_pipeline rc_send_pipeline -          pdr   30 -    the full size, unbounded (z3 and cvc4 do not finish a bounded check of depth 12)
ub_send_pipeline ub_send_pipeline cut=order_tracker,group=HeadLastFlag+HeadNextLastFlag+SecondFlags+SlotFlags+SlotFlagsAtS20+SlotCountForFlags pdr 40 - the full size, unbounded, for any answers of the order tracker (proven on its own); the packet-count flags need their helpers along the slots in one group
transport      transport      W=128,assert=AckHeldUntilTaken+DeliveredOnceInOrder+FailIsKept+FifoNeverOverTwo+PacketHeldUntilTaken+SackWordsBehindTheirHeader,limit=1800 pdr 20 - a ring of 128 (the smallest: two 64-bit words), unbounded; the others in transport@bmc; DeliveredOnceInOrder takes pdr about 8 minutes on a quiet machine (it must learn that the registered exp + 1 and exp + 2 are those sums), so up to 30
transport@bmc  transport      W=128,assert=NothingBeyondTheWindow+ResendScanInsideTheFlight+OffsetsAreThePsns+HeldCountIsTheRing+MergeMaskFollowsItsCount+NextHeadBitIsTheRing+ScanBitIsTheRing+ScanViewDueIsTheOffsets+HeaderComparisonsHold+OutWordPsnsKept+RingIsItsWords+RingWordIndexesFollowExp+AckedRingIsItsWords bmc 5 - bounded: pdr does not close them in 10 minutes (they relate 24-bit sequence numbers and their offsets across four channels, a held count to the population of a 128-bit ring, and bits read over two edges to the rings), and bmc3 takes about a minute a step beyond the fifth
context_cache  context_cache  SETS=2,WAYS=4  bmc   8  -    2 sets of 4, bounded (pdr does not close EvictAValidWay in 150 s)
ub_tx          ub_tx          cut=order_tracker,assert=AnswerFollowsAsk pdr 24 - the port between the pipeline and the channel table, unbounded (the assertions of the two blocks are proven in their runs for any inputs; PsnConsecutivePerChannel and TpnIsBasePlusChannel, end to end over the in-flight requests, are checked by every simulation but pdr does not close them in 5 minutes and bmc3 reaches only 31 steps in that time)
'
DEFAULT_RUN='-  pdr  20  -  default setting (no line in RUNS of scripts/formal.sh)'

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

name: order_tracker_count_flag
run: order_tracker
file: rtl/order_tracker.sv
from: nz_d = up | (down & ~one_s) | (hold & nz_s);
to: nz_d = up | (hold & nz_s);
why: a completion that takes a count from 2 to 1 clears its "not zero" flag, so a queue that waits for its initiator to drain would go with one request still outstanding (CountFlags)

name: rc_psn_skip
run: rc_send_pipeline
file: rtl/rc_send_pipeline.sv
from: pkt_psn_q     <= pkt_psn_q + 24'"'"'d1;
to: pkt_psn_q     <= pkt_psn_q + 24'"'"'d2;
why: a segmented message skips every other PSN, which the receiver takes for loss (SegPsnPlusOne)

name: ub_next_last_early
run: ub_send_pipeline
file: rtl/ub_send_pipeline.sv
from: e0_nlast <= (e0_left == PsnW'"'"'(2));
to: e0_nlast <= (e0_left == PsnW'"'"'(3));
why: a message of three or more packets is told its last packet comes one too early, so it is cut short and the length of its last packet is wrong (HeadNextLastFlag)

name: transport_deliver_skip
run: transport
file: rtl/transport.sv
from: exp1_q[c] <= exp1_q[c] + 24'"'"'d1;
to: exp1_q[c] <= exp1_q[c] + 24'"'"'d2;
why: a delivery moves the next expected PSN of its channel on by two from the second on, so a packet is skipped and a later one is delivered out of order (DeliveredOnceInOrder)

name: context_cache_double_booked
run: context_cache
file: rtl/context_cache.sv
from: case_d = pb_valid && !mi_found && !hw_found && free_m_found;
to: case_d = pb_valid && !case_a && !hw_found && free_m_found;
why: a request for a record whose miss is under way both joins that miss register and takes a second one for the same record, which fetches it again and installs a second copy (MissRegisterNotDoubleBooked)

name: ub_tx_ask_lost
run: ub_tx
file: rtl/ub_tx.sv
from: .rq_valid_i     (seq_rq),
to: .rq_valid_i     (seq_rq && !seq_ch[0]),
why: the asks for odd channels do not reach the channel table: each block is right by its own ports, but those requests wait forever for their PSNs (AnswerFollowsAsk, an assertion of ub_tx only)

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

declare -A R_BLOCK R_PARAMS R_SOLVER R_DEPTH R_IND R_WHY R_SET R_CUT R_GROUPS R_ONLY R_LIMIT
# A run's settings (the third column): Name=value sets a parameter of the
# block, cut=<module> makes every instance of <module> inside it a cut point
# (its outputs free in every step: the module has a proof of its own, and
# the block's assertions must then hold whatever it answers), group=A+B+...
# proves those assertions together (pdr; the others are proven one at a time),
# assert=A+B+... proves only those (pdr; the others are those of blocks inside
# it, proven in their own runs, or not proven: docs/formal.md says which),
# limit=SECONDS lets each solver run of it take that long (at least
# FORMAL_TIMEOUT: for a proof known to take most of the default).
split_settings() {  # $1 run
    local run=$1 tok params="" cut="" groups="" only="" limit=$tmo
    for tok in ${R_SET[$run]//,/ }; do
        case $tok in
            -) ;;
            limit=*) [[ "${tok#limit=}" =~ ^[1-9][0-9]*$ ]] || { echo "formal: run $run: limit= needs whole seconds, got '$tok'"; exit 2; }
                     [ "${tok#limit=}" -le "$tmo" ] || limit=${tok#limit=} ;;
            cut=*) cut+=" ${tok#cut=}" ;;
            group=*) groups+=" ${tok#group=}" ;;
            assert=*) only+=" ${tok#assert=}" ;;
            *=*) params+="${params:+,}$tok" ;;
            *) echo "formal: run $run: setting '$tok' is not Name=value, cut=<module>, group=A+B, assert=A+B or limit=SECONDS"; exit 2 ;;
        esac
    done
    R_PARAMS[$run]=${params:--}; R_CUT[$run]=${cut# }; R_GROUPS[$run]=${groups# }; R_LIMIT[$run]=$limit
    R_ONLY[$run]=$(tr '+' ' ' <<<"${only# }")
}
runs=()
for m in "${blocks[@]}"; do
    found=0
    while read -r run blk params solver depth ind why; do
        [ -n "$run" ] && [ "$blk" = "$m" ] || continue
        runs+=("$run"); found=1
        R_BLOCK[$run]=$blk; R_SET[$run]=$params; R_SOLVER[$run]=$solver; split_settings "$run"
        R_DEPTH[$run]=$depth; R_IND[$run]=$ind; R_WHY[$run]=$why
    done <<<"$RUNS"
    if [ $found = 0 ]; then
        read -r params solver depth ind why <<<"$DEFAULT_RUN"
        runs+=("$m"); R_BLOCK[$m]=$m; R_SET[$m]=$params; R_SOLVER[$m]=$solver; split_settings "$m"
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
        printf '%-18s %-16s %-18s %-6s %5s %-4s %s\n' "$r" "${R_BLOCK[$r]}" "${R_SET[$r]}" \
            "${R_SOLVER[$r]}" "${R_DEPTH[$r]}" "${R_IND[$r]}" "${R_WHY[$r]}"
    done
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

for tool in yosys yosys-smtbmc yosys-abc python3; do
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
    # (grep -c reads to the end: with pipefail, grep -q could end the first
    # grep early and turn a match into a failure)
    local n
    n=$(grep -vE '^[[:space:]]*//' "$1" | grep -cE '`UB_ASSERT\(|(^|[^_[:alnum:]])assert[[:space:]]*\(')
    [ "${n:-0}" -gt 0 ]
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

# The wrapper of a run: formal/<block>_formal.sv, or one written to
# $out/<tag>.wrapper.sv; prints its path.
wrapper_of() {  # $1 run $2 rtl dir $3 formal dir $4 tag
    local run=$1 dir=$2 fdir=$3 tag=$4 blk=${R_BLOCK[$1]}
    if [ -f "$fdir/${blk}_formal.sv" ]; then
        [ "${R_PARAMS[$run]}" = - ] || { echo "run $run: parameters are set in $fdir/${blk}_formal.sv, not in RUNS"; return 1; }
        echo "$fdir/${blk}_formal.sv"
    else
        gen_wrapper "$blk" "${R_PARAMS[$run]}" "$dir" "$out/$tag.wrapper.sv" "$out/$tag.yosys.log" || {
            echo "yosys could not read $blk (log $out/$tag.yosys.log):"
            grep -iE 'error' "$out/$tag.yosys.log" | head -5 | sed 's/^/  /'
            return 1
        }
        echo "$out/$tag.wrapper.sv"
    fi
}

# The model of a run from the RTL in $dir: for yosys-smtbmc the SMT-LIB
# $out/<tag>.smt2; for pdr the AIGER $out/<tag>.aig with its map .aim and
# the design it came from, $out/<tag>.il (what a counterexample is replayed
# on). Both model the asynchronous reset as acting within its step
# (async2sync); in the AIGER, registers without an initial value start from
# a free input (write_aiger -zinit), and assumptions become constraints.
build_model() {  # $1 run $2 rtl dir $3 formal dir $4 tag
    local run=$1 dir=$2 fdir=$3 tag=$4 blk=${R_BLOCK[$1]} wrap script
    wrap=$(wrapper_of "$@") || { echo "$wrap"; return 1; }
    script="read_verilog -defer -formal -sv -D FORMAL -I$dir $(rtl_files "$dir" | tr '\n' ' ') $wrap"
    if [ -n "${R_CUT[$run]}" ]; then
        local m
        script+="; hierarchy -top ${blk}_formal"
        for m in ${R_CUT[$run]}; do script+="; cutpoint t:$m"; done
    fi
    script+="; prep -top ${blk}_formal"
    if [ "${R_SOLVER[$run]}" = pdr ] || [ "${R_SOLVER[$run]}" = bmc ]; then
        script+="; flatten"
        # a cut point's nets become inputs of the top, so that the
        # counterexample's values for them are mapped, and replayed
        [ -z "${R_CUT[$run]}" ] || script+="; select -set cuts t:\$anyseq %co1 t:\$anyseq %d; expose -input @cuts; delete t:\$anyseq"
        script+="; memory_map; opt -fast; async2sync; chformal -assume -early; opt_clean"
        script+="; setattr -unset keep; delete -output; write_rtlil $out/$tag.il"
        script+="; techmap; opt -fast -nosdff -nodffe; dffunmap; abc -g AND -fast; opt_clean"
        script+="; setundef -undriven -anyseq; tee -q -o $out/$tag.asserts select -list t:\$assert"
        script+="; write_rtlil $out/$tag.gates.il; write_aiger -I -B -zinit -map $out/$tag.aim $out/$tag.aig"
    else
        script+="; memory_map; opt -fast; async2sync; dffunmap; write_smt2 -wires $out/$tag.smt2"
    fi
    if ! yosys -q -l "$out/$tag.yosys.log" -p "$script" >/dev/null 2>&1; then
        echo "yosys could not build the model of $blk (log $out/$tag.yosys.log):"
        grep -iE 'error' "$out/$tag.yosys.log" | head -5 | sed 's/^/  /'
        return 1
    fi
}

# The yosys selection of the named assertions (their cells in the list
# $1, one "<top>/<cell>" a line, as select -list wrote it), united; an
# assertion is named by its label, the cell's last name component.
assert_sel() {  # $1 the list, then the names
    local list=$1 n sel="" first=1
    shift
    for n in "$@"; do
        sel+=" $(grep -E "[./]$n\$" "$list" | head -1)"
        [ $first = 1 ] || sel+=" %u"
        first=0
    done
    echo "$sel"
}

# The AIGER models of a pdr run from $out/<tag>.gates.il:
#  - with assert= (R_ONLY), $out/<tag>.aig narrowed to those assertions (what
#    a planted bug is checked on);
#  - unless $3 is "narrow": one model per assertion, or per group of them
#    (R_GROUPS), $out/<tag>.part<i>.aig, their names in $out/<tag>.parts (one
#    line each: the assertions, joined by +). ABC's pdr has no notion of one
#    assertion helping to prove another, so helpers that a property needs
#    must share its group; alone, most properties have a small cone of
#    influence and prove in a fraction of a second.
split_model() {  # $1 run $2 tag [$3 narrow]
    local run=$1 b="$out/$2" top a n it i=0 script keep
    declare -A grouped=()
    local items=()
    top=$(head -1 "$b.asserts"); top=${top%%/*}
    for it in ${R_ONLY[$run]} ${R_GROUPS[$run]}; do
        for n in ${it//+/ }; do
            grep -qE "[./]$n\$" "$b.asserts" || { echo "$it names $n, which is not an assertion of ${R_BLOCK[$run]}"; return 1; }
        done
    done
    script="read_rtlil $b.gates.il; design -save base"
    if [ -n "${R_ONLY[$run]}" ]; then
        # shellcheck disable=SC2086
        keep=$(assert_sel "$b.asserts" ${R_ONLY[$run]})
        script+="; chformal -assert -remove $top/t:\$assert$keep %d"
        script+="; write_aiger -I -B -zinit -map $b.aim $b.aig"
    fi
    if [ "${3:-}" != narrow ]; then
        for it in ${R_GROUPS[$run]}; do for n in ${it//+/ }; do grouped[$n]=1; done; done
        while read -r a; do
            n=${a#*/}; n=${n##*.}
            [ -z "${R_ONLY[$run]}" ] || [[ " ${R_ONLY[$run]} " == *" $n "* ]] || continue
            [ -n "${grouped[$n]:-}" ] || items+=("$n")
        done <"$b.asserts"
        items+=(${R_GROUPS[$run]})
        : >"$b.parts"
        for it in "${items[@]}"; do
            # shellcheck disable=SC2086
            keep=$(assert_sel "$b.asserts" ${it//+/ })
            script+="; design -load base; chformal -assert -remove $top/t:\$assert$keep %d"
            script+="; write_aiger -I -B -zinit -map $b.part$i.aim $b.part$i.aig"
            echo "$it" >>"$b.parts"
            i=$((i + 1))
        done
    elif [ -z "${R_ONLY[$run]}" ]; then
        return 0  # $b.aig as build_model wrote it
    fi
    if ! yosys -q -l "$b.split.log" -p "$script" >/dev/null 2>&1; then
        echo "yosys could not split the model (log $b.split.log)"; return 1
    fi
}

# A counterexample of ABC ($out/<tag><part>.aiw) replayed by yosys's
# simulator on the design ($out/<tag>.il) into a VCD ($out/<tag>.vcd);
# prints "FAIL <step> <the assertions failing in its first failing cycle>"
# or "ERROR".
replay() {  # $1 tag $2 the model's base name (its .aiw and .aim)
    local b="$out/$1" m=$2
    yosys -l "$b.sim.log" -p "read_rtlil $b.il; sim -clock clk_i -hdlname -r $m.aiw -map $m.aim -vcd $b.vcd" >/dev/null 2>&1
    python3 - "$b.sim.log" <<'PY'
import re, sys
cycle, names = None, []
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"Simulating cycle (\d+)\.", line)
    if m:
        if names:
            break
        cycle = int(m.group(1))
        continue
    m = re.search(r"Assert (\S+) \(", line)
    if m and "failed" in line:
        n = m.group(1).split(".")[-1]
        if n not in names:
            names.append(n)
print("FAIL %s %s" % (cycle + 1 if cycle is not None else "?", " ".join(names)) if names else "ERROR")
PY
}

# ABC on one AIGER model: "pdr" (property-directed reachability, IC3: an
# unbounded proof from reset) or "bmc3 -F <depth>" (bounded). Prints "PASS",
# "TIMEOUT", "FAIL" (a counterexample in <model>.aiw) or "ERROR".
abc_run() {  # $1 model base name $2 the ABC command
    local m=$1 rc
    rm -f "$m.aiw"
    timeout -k 10 "$tmo" yosys-abc -c "read_aiger $m.aig; fold; strash; $2; write_cex -a $m.aiw" >"$m.abc.log" 2>&1
    rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then echo TIMEOUT; return; fi
    if grep -q 'Property proved' "$m.abc.log"; then echo PASS; return; fi
    if grep -q 'No output asserted in' "$m.abc.log"; then echo PASS; return; fi
    if grep -q 'was asserted in frame' "$m.abc.log" && [ -s "$m.aiw" ]; then
        # The witness's first line is the initial state of the latches ABC
        # kept (its engines drop those outside the failing output's cone);
        # every latch of the model starts at 0 (write_aiger -zinit), so the
        # line is padded with zeros to all of them, which is what the replay
        # reads.
        python3 - "$m.aig" "$m.aiw" <<'PY' && { echo FAIL; return; }
import sys
latches = int(open(sys.argv[1], "rb").readline().split()[3])
lines = open(sys.argv[2]).read().split("\n")
if set(lines[0]) - {"0"}:
    sys.exit(1)
lines[0] = lines[0].ljust(latches + 1, "0")
open(sys.argv[2], "w").write("\n".join(lines))
PY
    fi
    echo ERROR
}

# The pdr proof of a run's model ($out/<tag>.part*.aig, split_model): every
# part in turn (or, given an ABC command as $2, that: "bmc3 -F <depth>" for
# a bounded check). Prints "PASS <parts>", "FAIL <step> <names>" (with the
# VCD of the first failing part), "TIMEOUT <names>" or "ERROR <log>".
pdr_prove() {  # $1 tag [$2 the ABC command]
    local b="$out/$1" i=0 it v n=0
    while read -r it; do
        v=$(abc_run "$b.part$i" "${2:-pdr}")
        case $v in
            PASS) n=$((n + 1)) ;;
            FAIL) replay "$1" "$b.part$i"; return ;;
            TIMEOUT) echo "TIMEOUT $it"; return ;;
            *) echo "ERROR $b.part$i.abc.log"; return ;;
        esac
        i=$((i + 1))
    done <"$b.parts"
    echo "PASS $n"
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
    { yosys -V; command -v yosys-smtbmc yosys-abc; z3 --version 2>/dev/null; cvc4 --version 2>/dev/null | head -1; } | sha256sum | cut -d' ' -f1
}
TOOLS_KEY=$(tool_key)

# one proof run; leaves its line in $out/<run>.result ("OK"/"FAIL" first)
prove_run() {
    local run=$1 blk=${R_BLOCK[$1]} res="$out/$1.result" t0 key
    local tmo=${R_LIMIT[$1]}  # (the solver runs below read it)
    local solver=${R_SOLVER[$1]} depth=${R_DEPTH[$1]} ind=${R_IND[$1]}
    local what="$solver"
    [ "${R_SET[$run]}" = - ] || what+=", ${R_SET[$run]}"
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
    if ! msg=$(build_model "$run" rtl formal "$run"); then
        fin FAIL "FAILED: $msg"; return
    fi
    local v
    if [ "$solver" = pdr ] || [ "$solver" = bmc ]; then
        # ABC on the AIGER model, one part at a time: pdr (unbounded) or
        # bmc3 (every assertion in the first DEPTH steps)
        if ! msg=$(split_model "$run" "$run"); then
            fin FAIL "FAILED: $msg"; return
        fi
        local nas ngr cmd=pdr done_msg
        nas=$(tr '+' '\n' <"$out/$run.parts" | grep -c .); ngr=$(grep -c '+' "$out/$run.parts")
        done_msg="proven (unbounded, abc pdr: $nas assertions, $ngr group(s) of them together${what#pdr})"
        if [ "$solver" = bmc ]; then
            cmd="bmc3 -F $depth"
            done_msg="proven to depth $depth (bounded, abc bmc3: $nas assertions${what#bmc})"
        fi
        v=$(pdr_prove "$run" "$cmd")
        case $v in
            PASS*) rm -f "$out/$run.vcd"
                   fin OK "$done_msg [$((SECONDS - t0)) s]" ;;
            TIMEOUT*) fin FAIL "FAILED: ${cmd%% *} did not end within ${tmo} s on ${v#TIMEOUT } ($what)" ;;
            FAIL*) set -- $v
                   fin FAIL "FAILED: assertion ${*:3} at step $2, trace $out/$run.vcd ($what)" ;;
            *) fin FAIL "FAILED: ${cmd%% *} did not finish (log ${v#ERROR })" ;;
        esac
        return
    fi
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
    local tmo=${R_LIMIT[$run]}
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
    if ! msg=$(build_model "$run" "$dir/rtl" "$dir/formal" "plant-$name"); then
        fin FAIL "NOT CAUGHT: the planted RTL does not build: $msg"; return
    fi
    if [ "${R_SOLVER[$run]}" = pdr ] || [ "${R_SOLVER[$run]}" = bmc ]; then
        # bounded (ABC's bmc3 over all assertions at once): a planted bug
        # shows within a few requests, and bmc3 finds it fast
        if ! msg=$(split_model "$run" "plant-$name" narrow); then
            fin FAIL "NOT CAUGHT: the planted RTL does not build: $msg"; return
        fi
        v=$(abc_run "$out/plant-$name" "bmc3 -F $depth")
        [ "$v" != FAIL ] || v=$(replay "plant-$name" "$out/plant-$name")
    else
        v=$(smtbmc "$out/plant-$name.log" -s "${R_SOLVER[$run]}" -t "$depth" --dump-vcd "$out/plant-$name.vcd" "$out/plant-$name.smt2")
    fi
    case $v in
        FAIL*) set -- $v
               if [ "$(head -c 1 "$out/plant-$name.vcd" 2>/dev/null)" = '$' ]; then
                   fin OK "caught: assertion ${*:3} at step $2, trace $out/plant-$name.vcd [$((SECONDS - t0)) s]"
               else
                   fin FAIL "NOT CAUGHT: assertion ${*:3} failed but no trace was written"
               fi ;;
        PASS) fin FAIL "NOT CAUGHT: the proof still passes" ;;
        TIMEOUT) fin FAIL "NOT CAUGHT: the check did not end within ${tmo} s" ;;
        *) fin FAIL "NOT CAUGHT: the solver did not finish (logs $out/plant-$name.*)" ;;
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
