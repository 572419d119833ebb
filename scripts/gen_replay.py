#!/usr/bin/python3
"""Writes the replay testbench of one block from its port list.

    scripts/gen_replay.py [--cpp CMD] BLOCK PORTS_HEADER OUT.sv

The testbench (module <BLOCK>_replay) instantiates the block with its default
parameters, reads the vectors `ubsim --vectors DIR` wrote for one instance
(in.hex, exp.hex; docs/vectors.md) with $readmemh, applies each edge's inputs
under the simulator's cycle contract and compares every output with !== (so
X and Z count as differences). It prints the first difference (cycle, port,
expected, got) and a closing line

    replay: <block>: N cycles, M differences (K cycles differ)

and ends with $finish. Plusargs: +in=FILE +exp=FILE (the vector files),
+dump=FILE (optional: a VCD of the block's ports). The parameter EDGES must be
the manifest's "edges" (e.g. iverilog -P<BLOCK>_replay.EDGES=N); left unset
it stops with a message instead of comparing nothing. The testbench has no
`timescale (every delay is #1), as the RTL has none.

Cycle contract (the simulator's RTL shim, sim/rtl/block_rtl.h): the inputs of
an edge are driven while the clock is low, the clock rises, the outputs are
compared after the edge, the clock falls. A reset (first field of a line = 1)
comes before that line's edge: all inputs 0, rst_ni low across one rising
edge, released with the clock low.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import portcheck  # noqa: E402


def digits(w):
    return (w + 3) // 4


def generate(block, ports):
    ins = [(n, w) for d, n, w, _ in ports if d == "IN"]
    outs = [(n, w) for d, n, w, _ in ports if d == "OUT"]
    iw = 4 + sum(4 * digits(w) for _, w in ins)
    ow = sum(4 * digits(w) for _, w in outs)
    mod = block + "_replay"
    L = []
    a = L.append
    a("// Replay testbench of %s, written by scripts/gen_replay.py from its port" % block)
    a("// list: do not edit. Reads the vectors of one instance (ubsim --vectors,")
    a("// docs/vectors.md) and compares every output port on every edge.")
    a("module %s;" % mod)
    a("  parameter integer EDGES = 0;  // the manifest's \"edges\": must be set")
    a("  localparam integer IW = %d;  // reset nibble + the inputs, 4 bits per digit" % iw)
    a("  localparam integer OW = %d;  // the outputs, 4 bits per digit" % ow)
    a("  localparam integer NE = EDGES > 0 ? EDGES : 1;")
    a("  reg [IW-1:0] vin [0:NE-1];")
    a("  reg [OW-1:0] vexp [0:NE-1];")
    a("  reg clk_i, rst_ni;")
    for n, w in ins:
        a("  reg [%d:0] %s_i;" % (w - 1, n))
    for n, w in outs:
        a("  wire [%d:0] %s_o;" % (w - 1, n))
    a("")
    conns = [".clk_i(clk_i)", ".rst_ni(rst_ni)"]
    conns += [".%s_i(%s_i)" % (n, n) for n, _ in ins]
    conns += [".%s_o(%s_o)" % (n, n) for n, _ in outs]
    a("  %s dut (" % block)
    a("    " + ",\n    ".join(conns))
    a("  );")
    a("")
    a("  reg [8*1024-1:0] in_path, exp_path, dump_path;")
    a("  integer e, errors, bad_cycles, bad;")
    a("")
    a("  task drive_idle;")
    a("    begin")
    for n, _ in ins:
        a("      %s_i = 0;" % n)
    a("    end")
    a("  endtask")
    a("")
    a("  task drive(input integer k);")
    a("    begin")
    off = iw - 4
    for n, w in ins:
        off -= 4 * digits(w)
        a("      %s_i = vin[k][%d +: %d];" % (n, off, w))
    a("    end")
    a("  endtask")
    a("")
    a("  task check(input integer k);")
    a("    begin")
    a("      bad = 0;")
    off = ow
    for n, w in outs:
        off -= 4 * digits(w)
        a("      if (%s_o !== vexp[k][%d +: %d]) begin" % (n, off, w))
        a("        if (errors == 0)")
        a('          $display("replay: %s: first difference: cycle %%0d, port %s_o: expected 0x%%h got 0x%%h",'
          % (block, n))
        a("                   k, vexp[k][%d +: %d], %s_o);" % (off, w, n))
        a("        errors = errors + 1;")
        a("        bad = 1;")
        a("      end")
    a("      bad_cycles = bad_cycles + bad;")
    a("    end")
    a("  endtask")
    a("")
    a("  initial begin")
    a("    errors = 0;")
    a("    bad_cycles = 0;")
    a("    clk_i = 0;")
    a("    rst_ni = 1;")
    a("    drive_idle;")
    a("    if (EDGES < 1) begin")
    a('      $display("replay: %s: set the parameter EDGES to the manifest\'s edges");' % block)
    a("      $finish;")
    a("    end")
    a('    if (!$value$plusargs("in=%s", in_path) || !$value$plusargs("exp=%s", exp_path)) begin')
    a('      $display("replay: %s: +in=FILE and +exp=FILE expected");' % block)
    a("      $finish;")
    a("    end")
    a("    $readmemh(in_path, vin);")
    a("    $readmemh(exp_path, vexp);")
    a('    if ($value$plusargs("dump=%s", dump_path)) begin')
    a("      $dumpfile(dump_path);")
    a("      $dumpvars(1, dut);")
    a("    end")
    a("    for (e = 0; e < EDGES; e = e + 1) begin")
    a("      if (vin[e][IW-1 -: 4] !== 4'h0) begin")
    a("        // reset: inputs 0, rst_ni low across one edge, released with the clock low")
    a("        drive_idle;")
    a("        #1 rst_ni = 0;")
    a("        #1 clk_i = 1;")
    a("        #1 clk_i = 0;")
    a("        #1 rst_ni = 1;")
    a("      end")
    a("      drive(e);")
    a("      #1 clk_i = 1;")
    a("      #1 check(e);")
    a("      clk_i = 0;")
    a("    end")
    a('    $display("replay: %s: %%0d cycles, %%0d differences (%%0d cycles differ)", EDGES, errors, bad_cycles);'
      % block)
    a("    $finish;")
    a("  end")
    a("endmodule")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpp", default="cpp")
    ap.add_argument("-I", dest="incs", action="append", default=[])
    ap.add_argument("block")
    ap.add_argument("ports_header")
    ap.add_argument("out")
    a = ap.parse_args()
    try:
        ports = portcheck.read_list(a.block, a.ports_header, a.cpp, a.incs or [os.path.dirname(a.ports_header)])
    except portcheck.Failure as e:
        print("gen_replay: %s" % e, file=sys.stderr)
        return 1
    with open(a.out, "w") as f:
        f.write(generate(a.block, ports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
