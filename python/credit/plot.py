"""Plots benchmark results: CREDIT's speedup over the best peer against N,
one panel per workload (one line per dtype and M).

    python -m credit.plot results.json plot.png
"""

from __future__ import annotations

import collections
import json
import math
import sys


def plot(results: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = collections.defaultdict(lambda: collections.defaultdict(list))
    for row in results["points"]:
        if row.get("speedup"):
            label = f"{row['dtype']}, M={row['m']}"
            series[row["workload"]][label].append((row["n"], row["speedup"]))
    workloads = sorted(series)
    cols = min(3, len(workloads))
    rows = math.ceil(len(workloads) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.4 * rows),
                             squeeze=False)
    for ax, workload in zip(axes.flat, workloads):
        for label, points in sorted(series[workload].items()):
            points.sort()
            ax.plot([n for n, _ in points], [s for _, s in points], "o-",
                    label=label)
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.axhline(0.97, color="red", lw=0.6, ls="--")
        ax.set_xscale("log", base=2)
        ax.set_title(workload)
        ax.set_xlabel("N")
        ax.set_ylabel("speedup over best peer")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(workloads):]:
        ax.axis("off")
    peers = sorted({label for row in results["points"]
                    for label in row["times_ms"]
                    if not label.startswith("credit")})
    fig.suptitle(f"CREDIT (compiler's choice) vs the best of "
                 f"{', '.join(peers)}; {results['device']}, "
                 f"{results['date']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__)
        return 2
    with open(argv[0]) as f:
        plot(json.load(f), argv[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
