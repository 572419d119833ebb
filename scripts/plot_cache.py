#!/usr/bin/env python3
"""Draws `ubsim cache --format json` output: hit rate and mean / p99 read
latency against N (= M endpoints per node), one line per stack, with each
stack's overflow point from the state formula.

    ubsim cache --format json > cache.json
    /usr/bin/python3 scripts/plot_cache.py cache.json docs/img/cache.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def overflow(stack, cache):
    """The first N = M whose state exceeds the cache (docs/context_cache.md)."""
    n = 1
    while True:
        s = 512 * n * n + 32 * n if stack == "pcie_nic" else 52 * n + 56 * n
        if s > cache:
            return n
        n += 1


def main():
    if len(sys.argv) != 3:
        print("usage: plot_cache.py CACHE.json OUT.png", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
        points = data["points"]
        cache = data["config"]["cache_bytes"]
    except (OSError, ValueError, KeyError) as e:
        print(f"plot_cache.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    colors = {"ub": "tab:blue", "pcie_nic": "tab:orange"}
    for st in ("ub", "pcie_nic"):
        pts = sorted((p for p in points if p["stack"] == st), key=lambda p: p["n"])
        if not pts:
            continue
        xs = [p["n"] for p in pts]
        c = colors[st]
        ax1.plot(xs, [100 * p["hit_rate"] for p in pts], marker="o", color=c, label=st)
        ax2.plot(xs, [p["mean_ns"] for p in pts], marker="o", color=c, label=f"{st} mean")
        ax2.plot(xs, [p["p99_ns"] for p in pts], marker="x", ls="--", color=c, label=f"{st} p99")
        ov = overflow(st, cache)
        for ax in (ax1, ax2):
            ax.axvline(ov, color=c, ls=":", alpha=0.7)
        ax1.text(ov, 5, f" N={ov}", color=c)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("N = M endpoints per node (dotted: the formula's overflow point)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    ax1.set_ylabel("context hit rate, %")
    ax1.set_ylim(0, 105)
    ax2.set_ylabel("read latency, ns")
    cfg = data["config"]
    fig.suptitle(
        f"ubsim cache: {cfg['cache_bytes']} B per NIC, {cfg['sets']} sets, { {'lru': 'pseudo-LRU'}.get(cfg['replacement'], cfg['replacement'])}, "
        f"miss {cfg['miss_ns_ub']:g} ns (UB) / {cfg['miss_ns_pcie']:g} ns (PCIe DMA)"
    )
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
