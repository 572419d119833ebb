#!/usr/bin/python3
"""Checks that a Verilated model has exactly the ports of its block's port list.

    scripts/portcheck.py [--cpp CMD] [-I DIR]... BLOCK VHEADER PORTS_HEADER

BLOCK         the block's name, e.g. ub_send_pipeline
VHEADER       the Verilated model's header, e.g. build/vl/ub_send_pipeline/Vub_send_pipeline.h
PORTS_HEADER  the port list, e.g. cmodel/ub_send_pipeline_ports.h, which defines
              the macro <BLOCK>_PORTS(X) calling X(dir, name, width, ctype)
              once per port (see cmodel/block_ports.h)

The port list is read by running the C preprocessor (--cpp, default "cpp")
over it; the model's ports are the VL_IN*/VL_OUT* lines of its header, e.g.
"VL_IN8(&wr_valid_i,0,0);", "VL_OUT(&pkt_psn_o,23,0);",
"VL_INW(&bitmap_i,129,0,5);". Every port of the list must be in the model
under name_i (IN) or name_o (OUT), with that direction and width (lsb 0);
every port of the model but clk_i and rst_ni must be in the list; the C type
must be the one block_ports.h gives the width. Each difference is printed on
its own line naming the block and the port; the exit status is then 1.
Run by the Makefile rule that builds each Verilated library.
"""
import argparse
import ast
import operator
import os
import re
import subprocess
import sys
import tempfile

CLOCK_RESET = {"clk_i", "rst_ni"}
MARK = "__PORTCHECK_PORT__"
VL_PORT = re.compile(r"\bVL_(IN|OUT|INOUT)(8|16|64|W)?\s*\(\s*&?\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*\d+\s*)?\)")
OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
       ast.FloorDiv: operator.floordiv, ast.Div: operator.floordiv}


class Failure(Exception):
    pass


def int_expr(text):
    """Value of an integer expression of literals, + - * / and parentheses."""
    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in OPS:
            return OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise ValueError(text)
    clean = re.sub(r"(?<=\d)[uUlL]+\b", "", text.strip())
    return ev(ast.parse(clean, mode="eval"))


def ctype_range(ctype):
    return {"uint8_t": (1, 8), "uint16_t": (9, 16), "uint32_t": (17, 32),
            "uint64_t": (33, 64), "u64_words": (65, None)}.get(ctype)


def read_list(block, path, cpp, incs):
    """[(dir, name, width, ctype)] of the port list <BLOCK>_PORTS in path."""
    macro = block.upper() + "_PORTS"
    if not os.path.isfile(path):
        raise Failure("port list %s not found" % path)
    src = ('#include "%s"\n#define PORTCHECK_X(dir, name, width, ctype) %s dir name (width) ctype\n%s(PORTCHECK_X)\n'
           % (os.path.abspath(path), MARK, macro))
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
        f.write(src)
        tmp = f.name
    try:
        cmd = cpp.split() + ["-P"] + ["-I" + d for d in incs] + [tmp]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    finally:
        os.unlink(tmp)
    if r.returncode != 0:
        raise Failure("the C preprocessor (%s) cannot read %s:\n%s" % (cpp, path, r.stderr.strip()))
    out = r.stdout
    if MARK not in out:
        if re.search(r"\b%s\s*\(" % macro, out):
            raise Failure("%s does not define the port list macro %s(X)" % (path, macro))
        raise Failure("the port list %s(X) in %s has no ports" % (macro, path))
    ports = []
    for chunk in out.split(MARK)[1:]:
        m = re.match(r"\s*(\w+)\s+(\w+)\s+\((.*?)\)\s+(\w+)\s*$", chunk, re.S)
        if not m:
            raise Failure("cannot read the port list entry X(%s) in %s" % (chunk.strip(), path))
        d, name, width, ctype = m.groups()
        try:
            w = int_expr(width)
        except (ValueError, SyntaxError):
            raise Failure("port %s: width '%s' in %s is not a number" % (name, width.strip(), path))
        ports.append((d, name, w, ctype))
    return ports


def read_model(path):
    """{name: (dir, width, lsb)} of the ports declared in a Verilated header."""
    if not os.path.isfile(path):
        raise Failure("Verilated header %s not found" % path)
    ports = {}
    with open(path) as f:
        for line in f:
            m = VL_PORT.search(line)
            if m:
                d, _, name, msb, lsb = m.groups()
                ports[name] = ({"IN": "input", "OUT": "output", "INOUT": "inout"}[d],
                               int(msb) - int(lsb) + 1, int(lsb))
    if not ports:
        raise Failure("no VL_IN/VL_OUT port declarations in %s" % path)
    return ports


def compare(block, lst, model, list_path, model_path):
    problems = []
    where_l = "the port list (%s)" % list_path
    where_m = "the RTL (%s)" % model_path

    def bad(port, what):
        problems.append("portcheck: %s: port %s: %s" % (block, port, what))

    seen = set()
    used = set()
    for d, name, w, ctype in lst:
        if name in seen:
            bad(name, "listed twice in %s" % where_l)
            continue
        seen.add(name)
        if d not in ("IN", "OUT"):
            bad(name, "direction '%s' in %s: expected IN or OUT" % (d, where_l))
            continue
        rng = ctype_range(ctype)
        if rng is None:
            bad(name, "C type '%s' in %s: expected uint8_t, uint16_t, uint32_t, uint64_t or u64_words"
                % (ctype, where_l))
        elif w < rng[0] or (rng[1] is not None and w > rng[1]):
            bad(name, "C type %s in %s is for %s bits, not %d"
                % (ctype, where_l, "%d..%d" % rng if rng[1] else "more than 64", w))
        want_dir = "input" if d == "IN" else "output"
        rtl = name + ("_i" if d == "IN" else "_o")
        other = name + ("_o" if d == "IN" else "_i")
        if rtl in model:
            used.add(rtl)
            md, mw, lsb = model[rtl]
            if md != want_dir:
                bad(name, "%s in %s (%s), %s %s in %s" % (want_dir, where_l, rtl, md, rtl, where_m))
            if mw != w or lsb != 0:
                bad(name, "width %d in %s, %s is [%d:%d] (%d bits) in %s"
                    % (w, where_l, rtl, lsb + mw - 1, lsb, mw, where_m))
        elif other in model:
            used.add(other)
            md, _, _ = model[other]
            bad(name, "direction: %s (%s) in %s, %s %s in %s" % (want_dir, rtl, where_l, md, other, where_m))
        else:
            bad(name, "%s %s of %s is not in %s" % (want_dir, rtl, where_l, where_m))
    for rtl, (md, mw, lsb) in sorted(model.items()):
        if rtl in used or rtl in CLOCK_RESET:
            continue
        base = re.sub(r"_[io]$", "", rtl)
        bad(base, "%s %s [%d:%d] of %s is not in %s" % (md, rtl, lsb + mw - 1, lsb, where_m, where_l))
    return problems


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpp", default=os.environ.get("CPP", "cpp"), help="C preprocessor command")
    ap.add_argument("-I", dest="incs", action="append", default=[], help="include directory")
    ap.add_argument("block")
    ap.add_argument("vheader")
    ap.add_argument("ports_header")
    a = ap.parse_args(argv)
    try:
        lst = read_list(a.block, a.ports_header, a.cpp, a.incs)
        model = read_model(a.vheader)
    except Failure as e:
        print("portcheck: %s: %s" % (a.block, e), file=sys.stderr)
        return 1
    problems = compare(a.block, lst, model, a.ports_header, a.vheader)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        print("portcheck: %s: %d difference(s) between %s and the Verilated model"
              % (a.block, len(problems), a.ports_header), file=sys.stderr)
        return 1
    print("portcheck: %s: %d ports agree (%s, %s)" % (a.block, len(lst), a.ports_header, a.vheader))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
