#!/usr/bin/env python3
"""Worst register-to-register path of a netlist that yosys mapped to
UltraScale+ cells (synth_xilinx -family xcup; write_json).

Usage: timing.py NETLIST.json TOP [--json OUT] [--ends N]

--ends N also lists the N worst path ends (one per end point) with the
named signal each starts from; --to TEXT shows the worst path to an end
whose name contains TEXT instead of the worst of all.

Every flip-flop output, every input port and every block-RAM output starts a
path; every flip-flop data / enable / synchronous set-reset input, every
output port and every memory write input ends one. (Treating the block's
ports as registers is the contract of this project's RTL: every block
registers its outputs or is measured inside the block that does, see
docs/rtl.md.) Asynchronous set / reset pins (CLR, PRE) and clocks are not
data paths.

The delay model (docs/rtl.md gives the sources):

    T = 0.60 ns                        clock-to-out + setup + clock skew
      + 0.45 ns per LUT level          LUT1..LUT6, INV, LUT-RAM / SRL read
                                       (each including its routing)
      + 0.10 ns per MUXF7/F8/F9
      + 0.08 ns per CARRY4 (0.16 per CARRY8)
      + 0.80 ns at a block-RAM output (RAMB18E2 / RAMB36E2 without output
        register; 1.00 ns for URAM288)
      + 2.50 ns through a DSP48E2 whose output is not registered

A cell type the model does not know is an error, never a silent zero.
"""
import json
import sys
from collections import defaultdict

FIXED = 0.60
LUT = 0.45
MUXF = 0.10
CARRY4 = 0.08
CARRY8 = 0.16
BRAM_CO = 0.80
URAM_CO = 1.00
DSP_COMB = 2.50
DSP_CO = 0.40

FF_TYPES = {"FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1"}
FF_ASYNC = {"C", "CLR", "PRE"}
LUT_TYPES = {"LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6", "INV", "LUT6_2"}
MUXF_TYPES = {"MUXF7", "MUXF8", "MUXF9"}
# LUT RAMs and shift registers: a read is a LUT level from the read address;
# everything else they take is written at the clock (an end point).
# Their size in LUTs (for the resource count).
LUTRAM_LUTS = {"RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4,
               "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4, "RAM256X1D": 8,
               "RAM32M": 4, "RAM64M": 4, "RAM32M16": 8, "RAM64M8": 8,
               "RAM512X1S": 8}
SRL_TYPES = {"SRL16E", "SRLC16E", "SRLC32E"}
BRAM_TYPES = {"RAMB18E2": "RAMB18", "RAMB36E2": "RAMB36", "RAMB18E1": "RAMB18",
              "RAMB36E1": "RAMB36", "FIFO18E2": "RAMB18", "FIFO36E2": "RAMB36"}
URAM_TYPES = {"URAM288", "URAM288_BASE"}
DSP_TYPES = {"DSP48E2", "DSP48E1"}
CONST_TYPES = {"GND", "VCC"}
BUF_TYPES = {"BUFG", "IBUF", "OBUF", "BUFGCE"}


def is_addr_pin(pin):
    return pin.startswith(("A", "DPRA", "RADR"))


def fail(msg):
    sys.stderr.write("timing: " + msg + "\n")
    sys.exit(2)


def analyse(netlist, top, to=None):
    mods = netlist.get("modules", {})
    if top not in mods:
        fail("module %s is not in the netlist (have: %s)" % (top, ", ".join(sorted(mods))))
    m = mods[top]
    cells = m.get("cells", {})
    # bit -> public names (for reporting)
    names = defaultdict(list)
    for nname, n in m.get("netnames", {}).items():
        if n.get("hide_name", 0):
            continue
        src = n.get("attributes", {}).get("src", "")
        bits = n["bits"]
        for i, b in enumerate(bits):
            if isinstance(b, int):
                label = nname if len(bits) == 1 else "%s[%d]" % (nname, i)
                names[b].append((label, src))

    drv = {}        # bit -> (cell name, delay, kind)
    cells_alias = {}  # a read port of a LUT RAM (own timing node) -> its cell
    comb_in = {}    # cell -> list of input bits that propagate to its outputs
    starts = {}     # bit -> (arrival, what)
    ends = []       # (bit, extra, what)
    res = defaultdict(int)

    for pname, p in m.get("ports", {}).items():
        for i, b in enumerate(p["bits"]):
            if not isinstance(b, int):
                continue
            label = pname if len(p["bits"]) == 1 else "%s[%d]" % (pname, i)
            if p["direction"] == "input":
                starts[b] = (0.0, "input port " + label)
            else:
                ends.append((b, 0.0, "output port " + label))

    for cname, c in cells.items():
        t = c["type"]
        dirs = c.get("port_directions", {})
        conn = c["connections"]
        ins = [(pin, b) for pin, bits in conn.items() if dirs.get(pin) == "input" for b in bits if isinstance(b, int)]
        outs = [b for pin, bits in conn.items() if dirs.get(pin) == "output" for b in bits if isinstance(b, int)]
        if t in FF_TYPES:
            res["FF"] += 1
            for b in outs:
                starts[b] = (0.0, "%s %s" % (t, cname))
            for pin, b in ins:
                if pin not in FF_ASYNC:
                    ends.append((b, 0.0, "%s %s .%s" % (t, cname, pin)))
        elif t in LUT_TYPES or t in MUXF_TYPES or t in ("CARRY4", "CARRY8"):
            if t in LUT_TYPES:
                res["LUT"] += 1
                d, kind = LUT, "lut"
            elif t in MUXF_TYPES:
                res["MUXF"] += 1
                d, kind = MUXF, "muxf"
            else:
                res["CARRY"] += 1
                d, kind = (CARRY4 if t == "CARRY4" else CARRY8), "carry"
            for b in outs:
                drv[b] = (cname, d, kind)
            comb_in[cname] = [b for _, b in ins]
        elif t in LUTRAM_LUTS or t in SRL_TYPES:
            if t in SRL_TYPES:
                res["SRL"] += 1
            else:
                res["LUTRAM"] += LUTRAM_LUTS[t]
            for pin, b in ins:
                if pin not in ("WCLK", "CLK"):
                    ends.append((b, 0.0, "%s %s .%s (write)" % (t, cname, pin)))
            # which address each read output follows: DOx its ADDRx (RAM32M,
            # RAM64M...), DPO the DPRA pins, SPO / O / Q the A pins
            outpins = [(pin, bits) for pin, bits in conn.items() if dirs.get(pin) == "output"]
            for pin, bits in outpins:
                if pin.startswith("DO") and len(pin) == 3:
                    want = lambda p, x=pin[2]: p == "ADDR" + x
                elif pin == "DPO":
                    want = lambda p: p.startswith("DPRA")
                else:
                    want = lambda p: p.startswith("A") and not p.startswith("ADDR")
                addr = [b for p2, b in ins if want(p2)]
                if not addr:
                    addr = [b for p2, b in ins if is_addr_pin(p2)]
                sub = "%s/%s" % (cname, pin)
                for b in bits:
                    if isinstance(b, int):
                        drv[b] = (sub, LUT, "lut")
                comb_in[sub] = addr
                cells_alias[sub] = cname
        elif t in BRAM_TYPES:
            res[BRAM_TYPES[t]] += 1
            for b in outs:
                starts[b] = (BRAM_CO, "%s %s" % (t, cname))
            for pin, b in ins:
                if not pin.startswith("CLK"):
                    ends.append((b, 0.0, "%s %s .%s" % (t, cname, pin)))
        elif t in URAM_TYPES:
            res["URAM"] += 1
            for b in outs:
                starts[b] = (URAM_CO, "%s %s" % (t, cname))
            for pin, b in ins:
                if pin != "CLK":
                    ends.append((b, 0.0, "%s %s .%s" % (t, cname, pin)))
        elif t in DSP_TYPES:
            res["DSP"] += 1
            preg = int(str(c.get("parameters", {}).get("PREG", "1")), 2) if str(c.get("parameters", {}).get("PREG", "1")).strip("01") == "" else 1
            if preg:
                for b in outs:
                    starts[b] = (DSP_CO, "%s %s" % (t, cname))
                for pin, b in ins:
                    if pin != "CLK":
                        ends.append((b, 0.0, "%s %s .%s" % (t, cname, pin)))
            else:
                for b in outs:
                    drv[b] = (cname, DSP_COMB, "dsp")
                comb_in[cname] = [b for _, b in ins]
        elif t in CONST_TYPES or t in BUF_TYPES:
            if t in BUF_TYPES:
                # (a buffer passes its input on: no delay of its own here)
                for b in outs:
                    drv[b] = (cname, 0.0, "buf")
                comb_in[cname] = [b for _, b in ins]
        else:
            fail("cell %s of type %s: the delay model does not know this type" % (cname, t))

    # arrival times in topological order of the combinational cells
    arr = {}
    pred = {}   # bit -> bit it came from (or None at a start)
    for b, (a, _) in starts.items():
        arr[b] = a
        pred[b] = None

    cell_outs = defaultdict(list)
    for b, (cname, _, _) in drv.items():
        cell_outs[cname].append(b)
    # dependencies between combinational cells
    users = defaultdict(list)
    indeg = {}
    for cname, ins in comb_in.items():
        deps = set()
        for b in ins:
            if b in drv and b not in starts:
                deps.add(drv[b][0])
        indeg[cname] = len(deps)
        for d in deps:
            users[d].append(cname)
    ready = [c for c, n in indeg.items() if n == 0]
    done = 0
    while ready:
        cname = ready.pop()
        done += 1
        best, bestb = None, None
        for b in comb_in[cname]:
            a = arr.get(b)
            if a is not None and (best is None or a > best):
                best, bestb = a, b
        for ob in cell_outs[cname]:
            if ob in starts:
                continue
            d = drv[ob][1]
            if best is None:
                # a LUT-RAM / SRL read with a constant address, or logic of
                # constants only: starts at the cell
                arr[ob] = d if drv[ob][2] == "lut" else None
                pred[ob] = None
                if arr[ob] is None:
                    del arr[ob]
            else:
                arr[ob] = best + d
                pred[ob] = bestb
        for u in users[cname]:
            indeg[u] -= 1
            if indeg[u] == 0:
                ready.append(u)
    if done != len(comb_in):
        loop = [c for c, n in indeg.items() if n > 0][:5]
        fail("combinational loop through cells %s" % ", ".join(loop))

    def named(b):
        """The public name of a bit and its source line; for a bit without
        one (inside a LUT network) the named signals that feed its cell."""
        if names[b]:
            return names[b][0]
        if b in drv:
            cname = drv[b][0]
            seen = []
            for ib in comb_in.get(cname, []):
                for label, src in names.get(ib, [])[:1]:
                    if label not in [x for x, _ in seen]:
                        seen.append((label, src))
            if seen:
                return ("from " + ", ".join(x for x, _ in seen[:3]),
                        "; ".join(sorted(set(y for _, y in seen[:3]))))
            src = cells[cells_alias.get(cname, cname)].get("attributes", {}).get("src", "")
            return ("", "" if "/share/yosys/" in src else src)
        return ("", "")

    worst = None
    for b, extra, what in ends:
        a = arr.get(b)
        if a is None:
            continue
        if to and to not in what and to not in named(b)[0]:
            continue
        if worst is None or a + extra > worst[0]:
            worst = (a + extra, b, what)
    path = []
    counts = defaultdict(int)
    if worst is not None:
        b = worst[1]
        while b is not None:
            if b in drv and b not in starts:
                cname, d, kind = drv[b]
                counts[kind] += 1
                label, src = named(b)
                path.append({"cell": cname, "type": cells[cells_alias.get(cname, cname)]["type"], "kind": kind,
                             "net": label, "src": src, "at": round(arr[b], 3)})
            else:
                label, src = named(b)
                path.append({"cell": starts[b][1] if b in starts else "", "type": "start", "kind": "start",
                             "net": label, "src": src, "at": round(arr.get(b, 0.0), 3)})
            b = pred.get(b)
        path.reverse()
    ranked = []
    for b, extra, what in ends:
        a = arr.get(b)
        if a is None:
            continue
        s0 = b
        while pred.get(s0) is not None:
            s0 = pred[s0]
        ranked.append((round(FIXED + a + extra, 3), what, named(s0)[0], named(b)[0]))
    ranked.sort(key=lambda x: -x[0])
    period = FIXED + (worst[0] if worst else 0.0)
    return {
        "top": top,
        "period_ns": round(period, 3),
        "lut_levels": counts["lut"],
        "muxf": counts["muxf"],
        "carry": counts["carry"],
        "dsp": counts["dsp"],
        "end": worst[2] if worst else "",
        "path": path,
        "resources": dict(res),
        "ends": ranked,
    }


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    path, top = argv[1], argv[2]
    out = None
    nends = 0
    to = None
    i = 3
    while i < len(argv):
        if argv[i] == "--json" and i + 1 < len(argv):
            out = argv[i + 1]
            i += 2
        elif argv[i] == "--to" and i + 1 < len(argv):
            to = argv[i + 1]
            i += 2
        elif argv[i] == "--ends" and i + 1 < len(argv) and argv[i + 1].isdigit():
            nends = int(argv[i + 1])
            i += 2
        else:
            fail("unknown argument '%s' (see --help)" % argv[i])
    try:
        with open(path) as f:
            netlist = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))
    r = analyse(netlist, top, to)
    ranked = r.pop("ends")
    if out:
        with open(out, "w") as f:
            json.dump(r, f, indent=1)
    print("%s: %.2f ns, %d LUT levels, %d MUXF, %d carry; ends at %s" %
          (top, r["period_ns"], r["lut_levels"], r["muxf"], r["carry"], r["end"]))
    for p in r["path"]:
        src = p["src"].replace(p["src"].split("rtl/")[0], "") if "rtl/" in p["src"] else p["src"]
        print("  %6.2f  %-8s %-40s %s" % (p["at"], p["type"], p["net"][:40], src[:80]))
    print("  resources: " + ", ".join("%s %d" % kv for kv in sorted(r["resources"].items())))
    if nends:
        print("  worst ends:")
        for t, what, start, name in ranked[:nends]:
            print("  %6.2f  %-40s from %s" % (t, (name or what)[:40], start[:50]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
