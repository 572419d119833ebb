#!/usr/bin/python3
"""Replays test vectors (ubsim --vectors DIR) in Icarus Verilog.

    scripts/replay.py [--rtl DIR] [--tb DIR] [--keep] [--dump] VECTOR_DIR...

Each VECTOR_DIR is a folder ubsim --vectors wrote (holding <block>.<k>/
folders) or one <block>.<k> folder. For every instance: the block's replay
testbench (scripts/gen_replay.py, from cmodel/<block>_ports.h) is compiled
with iverilog -g2012 together with every file of rtl/ (ub_pkg.sv first), with
EDGES set from the instance's manifest, and run with vvp. Prints one line per
instance and a closing line "replay: N instances, M with differences"; exit
status 0 when every output of every edge agreed, 1 when some differed, 2 when
something could not be run. With --dump each run writes replay.vcd into the
instance's folder (for ubsim diff).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SUMMARY = re.compile(r"replay: (\w+): (\d+) cycles, (\d+) differences \((\d+) cycles differ\)")


def instances(paths):
    out = []
    for p in paths:
        if os.path.isfile(os.path.join(p, "manifest.json")):
            out.append(p)
        elif os.path.isdir(p):
            for d in sorted(os.listdir(p)):
                if os.path.isfile(os.path.join(p, d, "manifest.json")):
                    out.append(os.path.join(p, d))
        else:
            raise RuntimeError("%s: not a folder of vectors" % p)
    return out


def rtl_files(rtl):
    files = sorted(f for f in os.listdir(rtl) if f.endswith(".sv"))
    pkg = [f for f in files if f == "ub_pkg.sv"]
    return [os.path.join(rtl, f) for f in pkg + [f for f in files if f not in pkg]]


def testbench(block, tbdir, cpp):
    tb = os.path.join(tbdir, block + "_replay.sv")
    if not os.path.isfile(tb):
        ports = os.path.join(ROOT, "cmodel", block + "_ports.h")
        r = subprocess.run([sys.executable, os.path.join(HERE, "gen_replay.py"), "--cpp", cpp,
                            "-I", os.path.join(ROOT, "cmodel"), block, ports, tb],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode:
            raise RuntimeError(r.stdout.strip())
    return tb


def run_one(inst, args, tbdir, work):
    with open(os.path.join(inst, "manifest.json")) as f:
        m = json.load(f)
    block, edges = m["block"], int(m["edges"])
    if edges == 0:
        return block, 0, 0, "no edges"
    tb = testbench(block, tbdir, args.cpp)
    exe = os.path.join(work, "%s_%d.vvp" % (block, edges))
    if not os.path.isfile(exe):
        cmd = ["iverilog", "-g2012", "-I", args.rtl, "-o", exe, "-s", block + "_replay",
               "-P%s_replay.EDGES=%d" % (block, edges)] + rtl_files(args.rtl) + [tb]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        errs = [l for l in r.stdout.splitlines() if "error" in l.lower()]
        if r.returncode or errs:
            raise RuntimeError("iverilog failed for %s:\n%s" % (block, r.stdout.strip()))
    cmd = ["vvp", "-n", exe, "+in=" + os.path.join(inst, m.get("in_file", "in.hex")),
           "+exp=" + os.path.join(inst, m.get("exp_file", "exp.hex"))]
    if args.dump:
        cmd.append("+dump=" + os.path.join(inst, "replay.vcd"))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    s = SUMMARY.search(r.stdout)
    if r.returncode or not s:
        raise RuntimeError("vvp failed for %s:\n%s" % (inst, r.stdout.strip()[-2000:]))
    first = [l for l in r.stdout.splitlines() if "first difference" in l]
    return block, int(s.group(2)), int(s.group(3)), first[0] if first else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtl", default=os.path.join(ROOT, "rtl"), help="the RTL folder (default rtl/)")
    ap.add_argument("--tb", help="where the testbenches are or go (default: a temporary folder)")
    ap.add_argument("--cpp", default="gcc -E", help="the C preprocessor (reads the port lists)")
    ap.add_argument("--dump", action="store_true", help="write replay.vcd into each instance's folder")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    try:
        insts = instances(args.dirs)
    except RuntimeError as e:
        print("replay: %s" % e, file=sys.stderr)
        return 2
    if not insts:
        print("replay: no vectors (manifest.json) under %s" % " ".join(args.dirs), file=sys.stderr)
        return 2
    bad = 0
    with tempfile.TemporaryDirectory(prefix="ubsim_replay_") as work:
        tbdir = args.tb or work
        os.makedirs(tbdir, exist_ok=True)
        for inst in insts:
            try:
                block, cycles, diffs, first = run_one(inst, args, tbdir, work)
            except (RuntimeError, OSError, ValueError, KeyError) as e:
                print("replay: %s: %s" % (inst, e), file=sys.stderr)
                return 2
            bad += diffs > 0
            print("replay: %s: %s, %d cycles, %d differences%s" % (
                inst, block, cycles, diffs, ("; " + first) if first else ""))
            sys.stdout.flush()
    print("replay: %d instances, %d with differences" % (len(insts), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
