#!/usr/bin/env python3
"""Draws the experiments of docs/results.md from the JSON ubsim prints.

    plot_results.py breakdown LATENCY.json OUT.png
        ubsim latency --format json: each path's measured latency as a
        stacked bar, one segment per category (software, bus, NIC, wire, ...)
    plot_results.py wire OUT.png LATENCY.json...
        several `ubsim latency --link-ns L --format json` runs: each path's
        total against the one-way wire delay L
    plot_results.py ramp RATE.json OUT.png
        ubsim rate --burst K1,K2,... --format json: requests issued and
        executed per us, and the mean issue interval, against the burst
        length, one line per stack
    plot_results.py concurrency OUT.png RATE.json...
        several `ubsim rate --slots N --payload M --format json` runs: the
        throughput against the request slots N, with the three limits
    plot_results.py incast OUT.png INCAST.json...
        several `ubsim incast --senders N --format json` runs: the aggregate
        goodput and the mean request time against the number of senders

Anyone can redraw a plot from the same JSON (make plots keeps it in
build/plots/). Exit status 0, 1 when a file cannot be read, 2 on bad usage.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

USAGE = __doc__.split("\n\n")[1]


class Bad(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Bad("%s: %s" % (path, e))


def field(d, *keys, where=""):
    try:
        for k in keys:
            d = d[k]
        return d
    except (KeyError, IndexError, TypeError):
        raise Bad("%s: no %s" % (where, "/".join(str(k) for k in keys)))


def breakdown(src, out):
    data = load(src)
    paths = field(data, "paths", where=src)
    cats = []
    for p in paths:
        for s in field(p, "stages", where=src):
            if s["category"] not in cats:
                cats.append(s["category"])
    fig, ax = plt.subplots(figsize=(10, 0.9 + 0.7 * len(paths)))
    cmap = plt.get_cmap("tab10")
    names = [p["name"] for p in paths]
    labelled = set()
    for i, p in enumerate(paths):
        left = 0.0
        for ci, c in enumerate(cats):
            w = sum(s["sim_ns"] for s in p["stages"] if s["category"] == c)
            if w > 0:
                ax.barh(i, w, left=left, color=cmap(ci % 10), label=None if c in labelled else c)
                labelled.add(c)
                left += w
        ax.text(left + 15, i, "%.1f ns" % p["sim_ns"], va="center", fontsize=9)
    ax.set_yticks(range(len(paths)))
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    ax.set_xlabel("64 B remote read, measured (ns)")
    ax.set_xlim(0, max(p["sim_ns"] for p in paths) * 1.18)
    ax.legend(fontsize=8, loc="lower right", ncol=2)
    ax.set_title("Latency breakdown by category")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def wire(out, srcs):
    series = {}
    for src in srcs:
        for p in field(load(src), "paths", where=src):
            series.setdefault(p["name"], []).append((p["wire_one_way_ns"], p["sim_ns"]))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for name, pts in series.items():
        pts.sort()
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=name)
    ax.set_xlabel("one-way wire delay L (ns)")
    ax.set_ylabel("64 B read, measured (ns)")
    ax.set_title("Total against the wire delay (fixed part + 2L)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def ramp(src, out):
    stacks = field(load(src), "stacks", where=src)
    series = {}
    for s in stacks:
        series.setdefault(s["name"], []).append(
            (s["burst"], s["rate_per_us"], s["executed_per_us"], s["interval_ns"]))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, pts in series.items():
        pts.sort()
        b = [p[0] for p in pts]
        line, = a1.plot(b, [p[1] for p in pts], marker="o", label="%s issued" % name)
        a1.plot(b, [p[2] for p in pts], marker=".", ls="--", color=line.get_color(),
                label="%s executed" % name)
        a2.plot([p[0] for p in pts if p[0] > 1], [p[3] for p in pts if p[0] > 1], marker="o", label=name)
    for ax in (a1, a2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("burst length (requests)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    a1.set_ylabel("requests per us")
    a1.set_title("The rate ramps up with the burst")
    a2.set_ylabel("mean issue interval (ns)")
    a2.set_title("Issue interval between requests")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def concurrency(out, srcs):
    series = {}
    for src in srcs:
        for s in field(load(src), "stacks", where=src):
            key = (s["name"], s["payload"])
            series.setdefault(key, []).append((s["slots"], s["throughput_gbytes_per_s"], s["bound"]))
    keys = sorted(series)
    fig, axes = plt.subplots(1, len({k[1] for k in keys}), figsize=(11, 4.2), squeeze=False)
    payloads = sorted({k[1] for k in keys})
    for ax, m in zip(axes[0], payloads):
        for (name, pm) in keys:
            if pm != m:
                continue
            pts = sorted(series[(name, pm)], key=lambda t: t[0])
            n = [t[0] for t in pts]
            line, = ax.plot(n, [t[1] for t in pts], marker="o", label="%s measured" % name)
            c = line.get_color()
            ax.plot(n, [t[2]["slots_gbytes_per_s"] for t in pts], ls=":", color=c, label="%s N*m/T0" % name)
            ax.axhline(pts[-1][2]["issue_gbytes_per_s"], ls="--", color=c, alpha=0.6, label="%s m/delta" % name)
            ax.axhline(pts[-1][2]["path_gbytes_per_s"], ls="-.", color=c, alpha=0.4, label="%s B_path" % name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("request slots N")
        ax.set_ylabel("throughput (GB/s)")
        ax.set_title("%d B requests" % m)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    fig.suptitle("Concurrency: min(B_path, N*m/T0, m/delta)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def incast(out, srcs):
    pts = []
    for src in srcs:
        d = load(src)
        snd = field(d, "senders", where=src)
        mean = sum(s["mean_ns"] for s in snd) / len(snd)
        pts.append((len(snd), field(d, "goodput_gbytes_per_s", where=src), mean))
    pts.sort()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    a1.plot([p[0] for p in pts], [p[1] for p in pts], marker="o")
    a1.set_xlabel("senders")
    a1.set_ylabel("aggregate goodput (GB/s)")
    a1.set_title("Incast goodput into one target")
    a1.grid(alpha=0.3)
    a2.plot([p[0] for p in pts], [p[2] / 1000 for p in pts], marker="o", color="tab:red")
    a2.set_xlabel("senders")
    a2.set_ylabel("mean request time (us)")
    a2.set_title("Mean time of one request")
    a2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if len(argv) >= 2 else sys.stderr)
        return 0 if len(argv) >= 2 else 2
    kind, rest = argv[1], argv[2:]
    try:
        if kind == "breakdown" and len(rest) == 2:
            breakdown(rest[0], rest[1])
        elif kind == "ramp" and len(rest) == 2:
            ramp(rest[0], rest[1])
        elif kind == "wire" and len(rest) >= 2:
            wire(rest[0], rest[1:])
        elif kind == "concurrency" and len(rest) >= 2:
            concurrency(rest[0], rest[1:])
        elif kind == "incast" and len(rest) >= 2:
            incast(rest[0], rest[1:])
        else:
            print("plot_results.py: bad usage\n" + USAGE, file=sys.stderr)
            return 2
    except Bad as e:
        print("plot_results.py: %s" % e, file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as e:
        print("plot_results.py: %s: the JSON lacks or has a bad %s" % (kind, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
