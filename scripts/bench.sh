#!/usr/bin/env bash
# Simulation speed figures for `make bench`. Speeds are measured in one run
# and also given as ratios, since the machines are shared and noisy.
set -euo pipefail
UBSIM=${1:-build/ubsim}
OPS=${BENCH_OPS:-1000000}
py=/usr/bin/python3
now() { date +%s.%N; }

run_timed() { # args...; prints "seconds json-file"
    local out t0 t1
    out=$(mktemp)
    t0=$(now)
    "$UBSIM" "$@" --format json --quiet >"$out"
    t1=$(now)
    echo "$(echo "$t1 - $t0" | bc -l) $out"
}

echo "ubsim bench: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo

read -r t_skip f_skip < <(run_timed latency --path ub_async --ops "$OPS")
read -r t_step f_step < <(run_timed latency --path ub_async --ops "$OPS" --step-all)

$py - "$t_skip" "$f_skip" "$t_step" "$f_step" "$OPS" <<'PY'
import json, sys
t_skip, f_skip, t_step, f_step, ops = float(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
skip = json.load(open(f_skip))["paths"][0]
step = json.load(open(f_step))["paths"][0]
assert skip["sim_ns"] == step["sim_ns"], "skipping and stepping disagree"
span = step["nic_edges_spanned"]
print(f"latency, ub_async, {ops} dependent 64 B reads ({span:.0f} NIC cycles of simulated time)")
print(f"  skip idle cycles : {t_skip:7.2f} s wall  {skip['nic_edges_simulated']/t_skip/1e6:7.1f} M stepped cycles/s  "
      f"{span/t_skip/1e6:7.1f} M simulated cycles/s   (target <= 3.3 s)")
print(f"  step every cycle : {t_step:7.2f} s wall  {step['nic_edges_simulated']/t_step/1e6:7.1f} M stepped cycles/s"
      f"                            (target >= 10 M cycles/s)")
print(f"  skipping is {t_step/t_skip:.1f}x faster than stepping; both give mean {skip['sim_ns']:.3f} ns per read")
PY
rm -f "$f_skip" "$f_step"

# Two-node cycles per second per backend: the rate scenario keeps the send
# pipelines busy every cycle, so every simulated edge steps the block.
echo
echo "rate, both stacks, two-node NIC cycles per second by backend"
declare -A wall
for b in c rtl lockstep; do
    case $b in c) k=200000 ;; *) k=${BENCH_RTL_BURST:-50000} ;; esac
    out=$(mktemp)
    t0=$(now)
    "$UBSIM" rate --burst "$k" --slots 256 --backend "$b" --format json --quiet >"$out"
    t1=$(now)
    $py - "$b" "$k" "$(echo "$t1 - $t0" | bc -l)" "$out" <<'PY'
import json, sys
b, k, t, f = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
d = json.load(open(f))["stacks"]
edges = sum(s["nic_edges_simulated"] for s in d)
target = {"c": "", "rtl": "(target >= 2 M/s)", "lockstep": "(target >= 1 M/s)"}[b]
print(f"  {b:9s}: bursts of {k} (256 slots) on ub and roce, {edges/1e6:6.2f} M cycles in {t:6.2f} s = "
      f"{edges/t/1e6:7.2f} M cycles/s {target}")
open(f + ".speed", "w").write(str(edges / t))
PY
    wall[$b]=$(cat "$out.speed")
    rm -f "$out" "$out.speed"
done
$py - "${wall[c]}" "${wall[rtl]}" "${wall[lockstep]}" <<'PY'
import sys
c, r, l = map(float, sys.argv[1:])
print(f"  ratios in this run: C model {c/r:.1f}x the RTL backend, RTL {r/l:.2f}x lockstep")
PY
