#!/usr/bin/env bash
# Sweep of the concurrency limit B_eff <= min(B_path, N*m/T0, m/delta):
# request slots N and payload m, both stacks, printed as a Markdown table.
#   scripts/slots_sweep.sh [UBSIM] [BURST]     (from any folder)
# UBSIM defaults to the project's build/ubsim; BURST to 20000 requests.
set -euo pipefail
UBSIM=${1:-$(cd "$(dirname "$0")/.." && pwd)/build/ubsim}
BURST=${2:-20000}
[ -x "$UBSIM" ] || { echo "slots_sweep: $UBSIM is not built (make build/ubsim in the project folder)" >&2; exit 1; }
ROW='
import json, sys
for s in json.load(sys.stdin)["stacks"]:
    b = s["bound"]
    print("| %s | %d | %d | %.1f | %.3f | %.2f | %.3f | %.2f | %s |" % (
        s["name"], s["payload"], s["slots"], s["idle_slot_time_ns"], s["throughput_gbytes_per_s"],
        b["path_gbytes_per_s"], b["slots_gbytes_per_s"], b["issue_gbytes_per_s"], b["binding"]))
'
echo "| stack | m (B) | N | T0 ns | B_eff GB/s | B_path | N*m/T0 | m/delta | binding |"
echo "|---|---|---|---|---|---|---|---|---|"
for m in 64 4096; do
  for n in 1 4 16 64 256 1024; do
    "$UBSIM" rate --quiet --burst "$BURST" --slots "$n" --payload "$m" --format json |
    /usr/bin/python3 -c "$ROW"
  done
done
