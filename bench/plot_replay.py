#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plot bench/bench_replay.sh results as an SVG (standard library only).

Usage: bench/plot_replay.py RESULTS.csv OUT.svg

RESULTS.csv: the header
"whatif,records,hist_mb,wall_min,wall_med,wall_max,user_s,peak_mib,records_per_s,load_before,load_after"
and one line a record count and what-if (bench_replay.sh's "csv," lines
without that prefix).  Two panels against the number of records, linear
axes: wall time (the median, a bar from the fastest to the slowest run),
with the line through the origin and the first count's median (what
linear growth gives) dotted and the 60 s target of issue 20 dashed; peak
resident memory, with the 2 GB target (1907 MiB) dashed.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svgplot  # noqa: E402

W, H = 360, 300
MARGINS = (66, 14, 40, 46)      # left, right, top, bottom of a panel
COLORS = {"halflife": "#1f77b4", "share": "#ff7f0e"}
LABELS = {"halflife": "--set PriorityDecayHalfLife=14-0",
          "share": "--share acct013=200"}


def panel(out, x0, title, series, ylabel, target, target_label, fit):
    """SERIES: what-if -> [(records, median, low, high)]."""
    pts = [p for s in series.values() for p in s]
    xmax = max(p[0] for p in pts) * 1.08
    ymax = max([p[3] for p in pts] + [target]) * 1.15
    ax = svgplot.Axes(out, x0, 0, W, H, MARGINS, xmax, ymax)
    ax.title(title)
    ax.frame()
    ax.ygrid(fmt="%.0f")
    xstep = 2e6 if xmax > 4e6 else 5e5
    ax.xticks((xstep * i, "%gM" % (xstep * i / 1e6))
              for i in range(int(xmax / xstep) + 1))
    ax.labels("job records", ylabel)
    ax.target(target, target_label)
    if fit:
        ax.fit(fit)
    legend = []
    for k, (what, s) in enumerate(sorted(series.items())):
        col = COLORS.get(what, "#2ca02c")
        # the what-ifs side by side, 5 pixels apart
        ax.series(sorted(s), col, offset=(k - 0.5) * 5)
        legend.append((LABELS.get(what, what), col, False))
    ax.legend(legend, "bottom right")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wall, mem = {}, {}
    with open(sys.argv[1], newline="") as f:
        for r in csv.DictReader(f):
            n = int(r["records"])
            wall.setdefault(r["whatif"], []).append(
                (n, float(r["wall_med"]), float(r["wall_min"]),
                 float(r["wall_max"])))
            p = float(r["peak_mib"])
            mem.setdefault(r["whatif"], []).append((n, p, p, p))
    if not wall:
        sys.exit("plot_replay: no rows in %s" % sys.argv[1])
    first = min(p for s in wall.values() for p in s)
    fit = first[1] / first[0]
    body = []
    panel(body, 0, "mfprio replay: wall time", wall,
          "seconds (median, min to max)", 60.0, "target 60 s at 10M", fit)
    panel(body, W, "mfprio replay: peak memory", mem, "MiB (peak RSS)",
          1907.0, "target 2 GB (1907 MiB)", None)
    with open(sys.argv[2], "w") as f:
        f.write(svgplot.document(2 * W, H, body))


if __name__ == "__main__":
    main()
