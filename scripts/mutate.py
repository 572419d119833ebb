#!/usr/bin/python3
"""Mutation testing: plants one small code change at a time and checks that the
tests meant to notice it fail.

    scripts/mutate.py [--build-from DIR] [--jobs N] [--keep] [--workdir DIR]
                      [--report FILE] [--filter F] [--timeout S] [NAME ...]
    scripts/mutate.py --list

Each mutation of the table below is a name, one line saying what the change
does, the GoogleTest filter of the suites that must catch it, and one or more
edits made together: a file, an exact piece of its text, what that text is
replaced with (the same change in a C model and its RTL twin is two edits of
one mutation: lockstep, which compares the two, cannot see it then).

What a run does:

 1. Checks every selected mutation against the working tree: each text it
    replaces must be found exactly once in its file (the run stops otherwise,
    naming it).
 2. Copies the working tree (the files `git ls-files` lists, tracked or not
    ignored, as they are now, edits included; outside a git checkout every
    file but those under build/) to <scratch>/run, and with --build-from a
    copy of that build directory to <scratch>/run/build (cp -a: the
    timestamps kept, so make rebuilds only what changed), then builds there
    unmutated:
        make -s PGO=0 BUILD=<scratch>/run/build <scratch>/run/build/ubsim
             <scratch>/run/build/ubsim-checked <scratch>/run/build/ubsim_tests
    and runs every selected filter on it: each pattern must name tests and
    each filter must pass (otherwise no result would mean anything and the
    run stops).
 3. For each mutation: a fresh copy of that built tree, at the same path (the
    objects keep the absolute paths they were built with), its edits made,
    the same make, then <scratch>/run/build/ubsim_tests --gtest_filter=FILTER.
    The mutation is "caught" when the build fails (a mutation the compiler or
    Verilator refuses) or a test fails, crashes or times out; "survived" when
    every test passes.

At the end a markdown table of every mutation run is printed (and written to
--report FILE). The exit status is 0 when every mutation was caught, 1 when
one survived, 2 when the run could not be made (a text not found, the
unmutated tree does not build or fails a test).

A build directory to start from should be a PGO=0 build of the same tree
(`make PGO=0 BUILD=build/dev build/dev/ubsim build/dev/ubsim-checked
build/dev/ubsim_tests`; the tests run ubsim-checked); `make
mutate` builds build/dev and passes it. Without one the unmutated build is a
full one. Objects that carry the absolute path of their build (the tests'
UBSIM_BIN and UBSIM_BUILD_DIR, the source and config directories) are rebuilt
in the scratch directory, so that a test that runs the ubsim program runs the
mutated one.

Adding a mutation: append an M(...) to MUTATIONS; `--list` shows the table,
`scripts/mutate.py --build-from build/dev NAME` runs it alone.
docs/mutations.md has the results of a full run.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

Edit = collections.namedtuple("Edit", "file original replacement")


class Mutation(collections.namedtuple("Mutation", "name description filter edits")):
    """One change: its edits (a file, the exact text, what replaces it) are
    planted together, so that one bug can be put into a C model and its RTL
    twin alike (lockstep, which compares the two, cannot see it then)."""

    @property
    def files(self):
        out = []
        for e in self.edits:
            if e.file not in out:
                out.append(e.file)
        return out


def M(name, description, flt, *edits):
    """A mutation: name, one-line description, GoogleTest filter, then one or
    more (file, original text, replacement text)."""
    if not edits:
        raise ValueError(name + ": no edit")
    return Mutation(name, description, flt, tuple(Edit(*e) for e in edits))


# Filters of the suites that watch each block (in-process tests only, so a
# run costs seconds).
TRANSPORT_TESTS = ("Transport.*:Transport/TransportBackend.*:TransportLockstep.*:TransportWrap.*:"
                   "TransportIntegrity.*")
ORDER_TRACKER_TESTS = "OrderTracker.*:OrderTracker/OrderTrackerBackend.*:OrderTrackerLockstep.*"
PACKET_TESTS = "Packet.*:PacketAck.*"
RX_TESTS = "RxCheck.*"
SWITCH_TESTS = "Switch.*"
UB_SEND_TESTS = "UbSendPipeline.*:UbTx.*"
RC_SEND_TESTS = "RcSend/RcSendBackend.*:RcSendC.*:RcSendLockstep.*:RcSendRtl.*"
CACHE_TESTS = "ContextCache.*:ContextCacheLockstep.*"
FAULT_TESTS = "Fault.*"

MUTATIONS = [
    # --- the transport, C model and RTL alike ---
    M("transport_backoff",
      "transport (C and RTL): a timeout doubles the configured timeout, not the current one",
      TRANSPORT_TESTS,
      ("cmodel/transport.c",
       "s->rto[c] = s->rto[c] >= 0x80000000u ? 0xFFFFFFFFu : s->rto[c] * 2;",
       "s->rto[c] = in->cfg_rto >= 0x80000000u ? 0xFFFFFFFFu : in->cfg_rto * 2;"),
      ("rtl/transport.sv",
       "rto_d[c] = rto_q[c][31] ? 32'hFFFFFFFF : {rto_q[c][30:0], 1'b0};",
       "rto_d[c] = cfg_rto_i[31] ? 32'hFFFFFFFF : {cfg_rto_i[30:0], 1'b0};")),
    M("transport_nak_sent",
      "transport (C and RTL), go-back-N: a delivery does not clear the NAK-sent flag, so a "
      "later loss gets no NAK",
      TRANSPORT_TESTS,
      ("cmodel/transport.c", "        s->nak_sent &= (uint8_t)~(1u << dc);\n", ""),
      ("rtl/transport.sv", "            ap = 1'b1;\n            ns = 1'b0;\n",
       "            ap = 1'b1;\n")),
    M("transport_half_sack",
      "transport (C and RTL), selective ack: a PSN 2^23 ahead of the next expected is judged "
      "ahead (d > 2^23), not a duplicate",
      TRANSPORT_TESTS,
      ("cmodel/transport.c", "else if (d >= HALF)", "else if (d > HALF)"),
      ("rtl/transport.sv", "else if (rd >= Half) rv = VDup;", "else if (rd > Half) rv = VDup;")),
    M("transport_half_gbn",
      "transport (C and RTL), go-back-N: a PSN 2^23 ahead of the next expected is a gap, not a "
      "duplicate",
      TRANSPORT_TESTS,
      ("cmodel/transport.c", ": d >= HALF ? TP_DUP : TP_GAP;", ": d > HALF ? TP_DUP : TP_GAP;"),
      ("rtl/transport.sv", "rd >= Half ? VDup : VGap;", "rd > Half ? VDup : VGap;")),
    # --- the receive checks ---
    M("rx_psn_half",
      "receive check: a PSN 2^23 ahead of the next expected is a gap, not a duplicate",
      RX_TESTS,
      ("sim/node/rx_check.c",
       "return ahead < (1u << (bits - 1)) ? RX_PSN_GAP : RX_PSN_DUPLICATE;",
       "return ahead <= (1u << (bits - 1)) ? RX_PSN_GAP : RX_PSN_DUPLICATE;")),
    M("rx_tpn_range",
      "receive check: the TPN one past the receiver's range is taken as its own (and indexes "
      "the channel after the last)",
      RX_TESTS,
      ("sim/node/rx_check.c", "h->dst_tpn - cfg->tpn_base >= cfg->n_tpn",
       "h->dst_tpn - cfg->tpn_base > cfg->n_tpn")),
    # --- packet decoders ---
    M("ack_plain_length",
      "acknowledgement decoder: a plain ACK or NAK of any length is accepted",
      PACKET_TESTS,
      ("sim/net/packet.c",
       "        if (n != UB_RTPH_BYTES + PKT_CRC_BYTES)\n            return PKT_TRUNCATED;\n"
       "        if (status != 0 && status != PKT_UB_NAK_STATUS)",
       "        if (status != 0 && status != PKT_UB_NAK_STATUS)")),
    M("jetty_reserved_bits",
      "UB decoder: the Jetty field's reserved bits are not masked off",
      PACKET_TESTS,
      ("sim/net/packet.c", "h->jetty = (uint32_t)get_be(p + 4, 3) & UB_JETTY_MASK;",
       "h->jetty = (uint32_t)get_be(p + 4, 3);")),
    # --- the switch ---
    M("switch_exact_fill",
      "switch: a packet that exactly fills the output buffer is dropped",
      SWITCH_TESTS,
      ("sim/net/switch.c", "if (o->bytes + (int64_t)m.bytes > s->cfg.buffer_bytes) {",
       "if (o->bytes + (int64_t)m.bytes >= s->cfg.buffer_bytes) {")),
    # --- the order tracker, C model and RTL alike ---
    M("ot_saturate",
      "order tracker (C and RTL): the outstanding count does not saturate at 2^24 - 1",
      ORDER_TRACKER_TESTS,
      ("cmodel/order_tracker.c",
       "        if (s->outstanding[q] != OT_COUNT_MAX)\n            s->outstanding[q]++;\n",
       "        s->outstanding[q]++;\n"),
      ("rtl/order_tracker.sv", "inc   = ~max_s;", "inc   = {NumQueues{1'b1}};")),
    # --- changes the tests caught before this table existed ---
    M("transport_backoff_rtl",
      "transport, RTL only: a timeout doubles the configured timeout (lockstep sees the C "
      "model and the RTL differ)",
      TRANSPORT_TESTS,
      ("rtl/transport.sv",
       "rto_d[c] = rto_q[c][31] ? 32'hFFFFFFFF : {rto_q[c][30:0], 1'b0};",
       "rto_d[c] = cfg_rto_i[31] ? 32'hFFFFFFFF : {cfg_rto_i[30:0], 1'b0};")),
    M("tp_chan_tpmsn_c",
      "channel table, C model: a message advances the TPMSN by 2",
      UB_SEND_TESTS,
      ("cmodel/tp_chan.c", "s->tpmsn[c] = (tpmsn + 1u) & UB_TPMSN_MASK;",
       "s->tpmsn[c] = (tpmsn + 2u) & UB_TPMSN_MASK;")),
    M("tp_chan_psn_rtl",
      "channel table, RTL: a message advances the PSN by one packet too few",
      UB_SEND_TESTS,
      ("rtl/tp_chan.sv", "psn_rd + rq_nseg_i + 1'b1}", "psn_rd + rq_nseg_i}")),
    M("ubsp_tassn_step",
      "UB send pipeline, C model: a Jetty's TASSN advances by 2 per transaction",
      UB_SEND_TESTS,
      ("cmodel/ub_send_pipeline.c", "*t = (uint16_t)(*t + 1u);", "*t = (uint16_t)(*t + 2u);")),
    M("rc_segment_psn",
      "RC send pipeline, C model: a message's next packet skips a PSN",
      RC_SEND_TESTS,
      ("cmodel/rc_send_pipeline.c",
       "s->out.pkt_psn = (s->out.pkt_psn + 1u) & RC_SEND_PSN_MASK;",
       "s->out.pkt_psn = (s->out.pkt_psn + 2u) & RC_SEND_PSN_MASK;")),
    M("cache_write_hit_clean",
      "context cache, C model: a write that hits leaves the record clean (never written back)",
      CACHE_TESTS,
      ("cmodel/context_cache.c",
       "                e->data = in->rq_wdata;\n                e->dirty = 1;\n",
       "                e->data = in->rq_wdata;\n")),
    M("ot_fence_c",
      "order tracker, C model: a fence does not wait for the requests before it",
      ORDER_TRACKER_TESTS,
      ("cmodel/order_tracker.c", "    if (fence)\n        return outstanding == 0;",
       "    if (fence)\n        return 1;")),
    M("ot_fence_rtl",
      "order tracker, RTL: a fence does not wait for the requests before it",
      ORDER_TRACKER_TESTS,
      ("rtl/order_tracker.sv", "wait_of = 1'b1;                                   // fence",
       "wait_of = 1'b0;                                   // fence")),
    M("packet_crc_unchecked",
      "packet decoder: a checksum that does not match is not refused",
      PACKET_TESTS + ":" + RX_TESTS,
      ("sim/net/packet.c", "        return PKT_BAD_CRC;\n    if (proto == PKT_RC) {",
       "        (void)0;\n    if (proto == PKT_RC) {")),
    M("fault_prob_range",
      "fault parser: probabilities up to 2 are accepted",
      FAULT_TESTS,
      ("sim/net/fault.c", "|| p < 0 || p > 1) {", "|| p < 0 || p > 2) {")),
    M("switch_bytes_kept",
      "switch: a packet's bytes stay counted against the buffer after it left",
      SWITCH_TESTS,
      ("sim/net/switch.c", "            o->bytes -= o->offer_bytes;\n", "")),
]



def log(msg):
    print(msg, flush=True)


class Stop(Exception):
    """The run cannot be made: the message says why."""


def die(msg):
    raise Stop(msg)


def repo_root():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.dirname(here)


def check_mutation(root, m):
    """{file: its text with the mutation's edits made}; stops the run when a
    text to replace is not there exactly once."""
    texts = {}
    for e in m.edits:
        if e.file not in texts:
            try:
                with open(os.path.join(root, e.file), encoding="utf-8") as f:
                    texts[e.file] = f.read()
            except OSError as x:
                die("%s: cannot read %s: %s" % (m.name, e.file, x))
        n = texts[e.file].count(e.original)
        if n != 1:
            die("%s: the text to replace is found %d times in %s (expected exactly once):\n%s"
                % (m.name, n, e.file, e.original))
        texts[e.file] = texts[e.file].replace(e.original, e.replacement, 1)
    return texts


def tree_files(root):
    """The tree's files: in a git checkout the files `git ls-files` lists,
    tracked (as they are now) and untracked ones that are not ignored;
    elsewhere (an exported tree) every file but those under build/."""
    git = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if git.returncode == 0 and os.path.samefile(git.stdout.decode().strip(), root):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], stdout=subprocess.PIPE, check=True).stdout
        files = sorted(set(p for p in out.decode().split("\0") if p))
    else:
        files = []
        for d, dirs, names in os.walk(root):
            rel = os.path.relpath(d, root)
            if rel == ".":
                dirs[:] = [x for x in dirs if x not in ("build", ".git")]
            files += [os.path.normpath(os.path.join(rel, n)) for n in names]
        files.sort()
    return [p for p in files if os.path.isfile(os.path.join(root, p))]


def copy_tree(root, files, dst):
    for rel in files:
        d = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(os.path.join(root, rel), d, follow_symlinks=False)


# Macros that put an absolute path of the checkout or the build into an object.
PATH_MACROS = re.compile(r"\b(UBSIM_BIN|UBSIM_BUILD_DIR|UBSIM_SOURCE_DIR|UBSIM_CONFIG_DIR)\b|"
                         r"testutil::ubsim\(")


def adopt_build(src_build, run, files):
    """Copies the build directory src_build to run/build so that make there
    rebuilds only what changed: its dependency files name the new directory,
    and the objects that carry the old absolute paths are removed."""
    dst = os.path.join(run, "build")
    subprocess.run(["cp", "-a", src_build, dst], check=True)
    old_abs = os.path.abspath(src_build).rstrip("/") + "/"
    old_rel = os.path.relpath(os.path.abspath(src_build), repo_root()).rstrip("/") + "/"
    new = dst + "/"
    for d, _, names in os.walk(os.path.join(dst, "obj")):
        for n in names:
            if not n.endswith(".d"):
                continue
            p = os.path.join(d, n)
            st = os.stat(p)
            with open(p, encoding="utf-8", errors="surrogateescape") as f:
                t = f.read()
            u = t.replace(old_abs, new)
            if not old_rel.startswith(".."):
                u = re.sub(r"(^|[\s])" + re.escape(old_rel), lambda mo: mo.group(1) + new, u,
                           flags=re.M)
            if u != t:
                with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(u)
                os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    stale = []
    for rel in files:
        if not re.search(r"\.(c|cc)$", rel):
            continue
        try:
            with open(os.path.join(run, rel), encoding="utf-8", errors="replace") as f:
                if not PATH_MACROS.search(f.read()):
                    continue
        except OSError:
            continue
        obj = os.path.join(dst, "obj", re.sub(r"\.(c|cc)$", ".o", rel))
        if os.path.exists(obj):
            os.remove(obj)
            stale.append(rel)
    # the headers that carry them (test_util.h) reach the objects through
    # their sources' dependency files: those objects are rebuilt too
    for d, _, names in os.walk(os.path.join(dst, "obj")):
        for n in names:
            if not n.endswith(".d"):
                continue
            with open(os.path.join(d, n), encoding="utf-8", errors="replace") as f:
                deps = f.read()
            if "testbench/test_util.h" in deps:
                obj = os.path.join(d, n[:-2] + ".o")
                if os.path.exists(obj):
                    os.remove(obj)
                    stale.append(os.path.relpath(obj, dst))
    return stale


def make(run, jobs, log_path):
    build = os.path.join(run, "build")
    cmd = ["make", "-s", "-j%d" % jobs, "PGO=0", "BUILD=" + build,
           os.path.join(build, "ubsim"), os.path.join(build, "ubsim-checked"),
           os.path.join(build, "ubsim_tests")]
    with open(log_path, "w") as lf:
        lf.write("$ " + " ".join(cmd) + "\n")
        lf.flush()
        rc = subprocess.run(cmd, cwd=run, stdout=lf, stderr=subprocess.STDOUT).returncode
    return rc


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def list_tests(run, flt):
    """How many tests the filter selects."""
    exe = os.path.join(run, "build", "ubsim_tests")
    out = subprocess.run([exe, "--gtest_list_tests", "--gtest_filter=" + flt], cwd=run,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    return sum(1 for line in out.splitlines() if line.startswith("  "))


def run_tests(run, flt, timeout, log_path):
    """(status, failed tests, tests run): status is 'pass', 'fail', 'crash',
    'timeout' or 'none' (the filter matched no test)."""
    exe = os.path.join(run, "build", "ubsim_tests")
    cmd = [exe, "--gtest_filter=" + flt, "--gtest_color=no"]
    with open(log_path, "w") as lf:
        lf.write("$ " + " ".join(cmd) + "\n")
        lf.flush()
        try:
            p = subprocess.run(cmd, cwd=run, stdout=lf, stderr=subprocess.STDOUT, timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = None
    with open(log_path, errors="replace") as f:
        out = f.read()
    failed = []
    for line in out.splitlines():
        mo = re.match(r"\[  FAILED  \] (\S+)(?:,| \(|$)", line)
        if mo and mo.group(1)[0].isalpha() and mo.group(1) not in failed:
            failed.append(mo.group(1))
    mo = re.search(r"Running (\d+) tests? from", out)
    ran = int(mo.group(1)) if mo else 0
    if rc is None:
        return "timeout", failed, ran
    if rc < 0:
        return "crash", failed, ran
    if rc != 0:
        return "fail", failed, ran
    if ran == 0:
        return "none", failed, ran
    return "pass", failed, ran


def describe(status, failed):
    if status == "build":
        return "caught (build failed)"
    if status == "fail":
        return "caught (tests failed)"
    if status == "crash":
        return "caught (tests crashed)"
    if status == "timeout":
        return "caught (tests timed out)"
    return "survived"


def compact(tests):
    """Test names with the instances of one parameterized test folded:
    Suite/Fixture.Test/{c,rtl,lockstep}."""
    groups = collections.OrderedDict()
    for t in tests:
        suite, dot, rest = t.partition(".")
        if dot and "/" in rest:
            head, _, param = t.rpartition("/")
        else:
            head, param = t, None
        groups.setdefault(head, []).append(param)
    out = []
    for head, params in groups.items():
        ps = [p for p in params if p is not None]
        if not ps:
            out.append(head)
        elif len(ps) == 1:
            out.append(head + "/" + ps[0])
        else:
            out.append(head + "/{" + ",".join(ps) + "}")
    return out


def caught_by(status, failed, most=3):
    if status == "build":
        return "the build"
    if not failed:
        return "-" if status == "pass" else status
    names = compact(failed)
    s = ", ".join("`%s`" % t for t in names[:most])
    if len(names) > most:
        s += " and %d more" % (len(names) - most)
    return s


def table(rows):
    out = ["| mutation | file | description | caught by | result |",
           "|---|---|---|---|---|"]
    for m, status, failed in rows:
        by = caught_by(status, failed)
        res = "caught" if status != "pass" else "**survived**"
        if status == "build":
            res = "caught (build)"
        files = ", ".join("`%s`" % f for f in m.files)
        out.append("| `%s` | %s | %s | %s | %s |" % (m.name, files, m.description, by, res))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        epilog="Example: scripts/mutate.py --build-from build/dev transport_backoff "
               "ot_saturate",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="mutations to run (default: all; see --list)")
    ap.add_argument("--list", action="store_true",
                    help="print the table of mutations (name, description, filter, edits) and exit")
    ap.add_argument("--build-from", metavar="DIR",
                    help="a PGO=0 build directory of this tree (e.g. build/dev) to copy, so that "
                         "only what changed is rebuilt; without it the first build is a full one")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="parallel jobs of each make (default: the number of CPUs, %(default)s)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch directory: the unmutated build in base/, each "
                         "mutation's tree, build and logs in runs/NAME/")
    ap.add_argument("--workdir", metavar="DIR",
                    help="the scratch directory (created; default: a new one under $TMPDIR)")
    ap.add_argument("--report", metavar="FILE",
                    help="also write the final markdown table to FILE")
    ap.add_argument("--filter", metavar="F",
                    help="run every selected mutation against this GoogleTest filter instead of "
                         "its own (say, its own without a test, to see whether the others catch it)")
    ap.add_argument("--timeout", type=float, default=1800, metavar="S",
                    help="seconds one test run may take before it counts as timed out "
                         "(default %(default)s)")
    args = ap.parse_args()

    names = [m.name for m in MUTATIONS]
    bad = [m.name for m in MUTATIONS if not re.fullmatch(r"[A-Za-z0-9_.-]+", m.name)]
    if bad:
        die("mutation names are letters, digits and _ . - only: " + ", ".join(bad))
    dup = [n for n in set(names) if names.count(n) > 1]
    if dup:
        die("mutation names used twice: " + ", ".join(sorted(dup)))
    if args.list:
        for m in MUTATIONS:
            log("%s: %s" % (m.name, m.description))
            log("    filter %s" % m.filter)
            for e in m.edits:
                log("    %s: %r -> %r" % (e.file, e.original.strip(), e.replacement.strip()))
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        die("unknown mutation(s): %s (--list shows them)" % ", ".join(unknown))
    sel = [m for m in MUTATIONS if not args.names or m.name in args.names]
    if args.filter:
        sel = [m._replace(filter=args.filter) for m in sel]
    if args.jobs < 1:
        die("--jobs: at least 1")

    root = repo_root()
    mutated = {m.name: check_mutation(root, m) for m in sel}
    if args.build_from and not os.path.isdir(os.path.join(args.build_from, "obj")):
        die("--build-from %s: not a build directory (no obj/ in it)" % args.build_from)

    if args.workdir:
        work = os.path.abspath(args.workdir)
        os.makedirs(work, exist_ok=False)
    else:
        work = tempfile.mkdtemp(prefix="ubsim-mutate-")
    run = os.path.join(work, "run")    # every build happens here: the objects keep its paths
    base = os.path.join(work, "base")
    logs = os.path.join(work, "logs")
    os.makedirs(logs)
    log("mutate: scratch directory %s" % work)

    rows = []
    done = False
    try:
        # the unmutated tree, built where the mutations will be
        t0 = time.time()
        files = tree_files(root)
        copy_tree(root, files, run)
        if args.build_from:
            stale = adopt_build(os.path.abspath(args.build_from), run, files)
            log("mutate: copied %s (%d objects with paths of their own build are rebuilt)"
                % (args.build_from, len(stale)))
        log("mutate: building the unmutated tree (%d files)" % len(files))
        blog = os.path.join(logs, "base.build.log")
        if make(run, args.jobs, blog):
            die("the unmutated tree does not build (%s):\n%s" % (blog, tail(blog)))
        filters = []
        for m in sel:
            if m.filter not in filters:
                filters.append(m.filter)
        if not args.filter:
            # each pattern of the table's filters must name tests (a typo
            # would otherwise leave a mutation unwatched)
            for f in filters:
                for p in f.partition("-")[0].split(":"):
                    if p and not list_tests(run, p):
                        die("the pattern %s (of the filter %s) matches no test" % (p, f))
        tlog = os.path.join(logs, "base.tests.log")
        for f in filters:
            status, failed, ran = run_tests(run, f, args.timeout, tlog)
            if status == "none":
                die("the filter %s matches no test" % f)
            if status != "pass":
                die("the unmutated tree fails %s (%s): %s\n%s"
                    % (f, status, ", ".join(failed), tail(tlog)))
        log("mutate: unmutated build and its %d filters pass (%.0f s)" % (len(filters), time.time() - t0))
        os.rename(run, base)

        for i, m in enumerate(sel, 1):
            t1 = time.time()
            subprocess.run(["cp", "-a", base, run], check=True)
            for rel, text in mutated[m.name].items():
                with open(os.path.join(run, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            blog = os.path.join(logs, m.name + ".build.log")
            tlog = os.path.join(logs, m.name + ".tests.log")
            if make(run, args.jobs, blog):
                status, failed = "build", []
            else:
                status, failed, _ = run_tests(run, m.filter, args.timeout, tlog)
                if status == "none":
                    die("%s: the filter %s matches no test" % (m.name, m.filter))
            rows.append((m, status, failed))
            names = compact(failed)
            shown = ", ".join(names[:4]) + (" ..." if len(names) > 4 else "")
            log("[%d/%d] %-24s %s%s (%.0f s)" % (i, len(sel), m.name, describe(status, failed),
                                               ": " + shown if shown else "", time.time() - t1))
            if args.keep:
                os.makedirs(os.path.join(work, "runs"), exist_ok=True)
                os.rename(run, os.path.join(work, "runs", m.name))
            else:
                shutil.rmtree(run)
        done = True
    finally:
        if args.keep:
            pass
        elif done:
            shutil.rmtree(work, ignore_errors=True)
        else: # a run that stopped keeps its logs
            for d in (run, base):
                shutil.rmtree(d, ignore_errors=True)
            log("mutate: the logs are in %s" % logs)

    md = table(rows)
    log("")
    log(md)
    if args.report:
        with open(args.report, "w") as f:
            f.write(md)
    survived = [m.name for m, status, _ in rows if status == "pass"]
    log("mutate: %d of %d caught%s" % (len(rows) - len(survived), len(rows),
                                       "; survived: " + ", ".join(survived) if survived else ""))
    if args.keep:
        log("mutate: kept %s" % work)
    return 1 if survived else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Stop as e:
        print("mutate.py: %s" % e, file=sys.stderr, flush=True)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError: # (the output piped into a program that stopped reading)
        sys.stdout = open(os.devnull, "w")
        sys.exit(1)
