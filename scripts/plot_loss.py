#!/usr/bin/env python3
"""Draws `ubsim loss --format json` output: goodput (fraction of the
loss-free run) and p99 message time against the loss probability, one line
per scheme.

    ubsim loss --format json > loss.json
    /usr/bin/python3 scripts/plot_loss.py loss.json docs/img/loss.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        print("usage: plot_loss.py LOSS.json OUT.png", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
        points = data["points"]
    except (OSError, ValueError, KeyError) as e:
        print(f"plot_loss.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    schemes = []
    for p in points:
        if p["scheme"] not in schemes:
            schemes.append(p["scheme"])
    nonzero = [p["loss"] for p in points if p["loss"] > 0]
    floor = min(nonzero) / 10 if nonzero else 1e-5

    def x(v):
        return v if v > 0 else floor

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    marks = {"sack": "o"}
    for s in schemes:
        pts = sorted((p for p in points if p["scheme"] == s), key=lambda p: p["loss"])
        xs = [x(p["loss"]) for p in pts]
        m = marks.get(s, "s" if s == "gbn32" else "^")
        ax1.plot(xs, [100 * p["goodput_fraction"] for p in pts], marker=m, label=s)
        ax2.plot(xs, [p["p99_ns"] / 1000 for p in pts], marker=m, label=s)
    cfg = data.get("config", {})
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.set_xlabel(f"loss probability, each direction (0 drawn at {floor:g})")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    ax1.set_ylabel("goodput, % of the loss-free run")
    ax1.set_ylim(0, 105)
    ax2.set_ylabel("p99 message time, us")
    ax2.set_yscale("log")
    what = f"{cfg.get('message', 'mixed')} B messages" if "message" in cfg else "a mix of messages"
    fig.suptitle(
        f"ubsim loss: {what}, MTU {cfg.get('mtu')} B, window {cfg.get('window')}, "
        f"link {cfg.get('link_gbytes_per_s')} GB/s, {cfg.get('link_ns')} ns, "
        f"timeout {cfg.get('rto_ns')} ns{' doubling' if cfg.get('rto_backoff') else ''}"
    )
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
