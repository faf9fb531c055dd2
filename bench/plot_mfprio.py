#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plot bench/bench_mfprio.sh results as an SVG (standard library only).

Usage: bench/plot_mfprio.py RESULTS.csv OUT.svg

RESULTS.csv: the header "jobs,dump_mb,rows,wall_s,peak_mb" and one line a
job count (bench_mfprio.sh's "csv," lines without that prefix).  Two
panels against the number of pending jobs, linear axes: wall time, with
the line through the origin and the 100k point (what linear growth gives)
and the 6 s target of issue 12 dashed; peak resident memory, with the
400 MB target dashed.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svgplot  # noqa: E402

W, H = 360, 300
MARGINS = (58, 14, 40, 46)      # left, right, top, bottom of a panel


def panel(out, x0, title, pts, ylabel, target, target_label, fit):
    xmax = max(p[0] for p in pts) * 1.05
    ymax = max([p[1] for p in pts] + [target]) * 1.15
    ax = svgplot.Axes(out, x0, 0, W, H, MARGINS, xmax, ymax)
    ax.title(title)
    ax.frame()
    ax.ygrid()
    ax.xticks((xmax * i / 5, "%gk" % round(xmax * i / 5000))
              for i in range(6))
    ax.labels("pending jobs", ylabel)
    ax.target(target, target_label)
    if fit:
        ax.fit(fit)
    ax.series(pts, "#1f77b4")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = sorted((int(r["jobs"]), float(r["wall_s"]),
                       float(r["peak_mb"])) for r in csv.DictReader(f))
    if not rows:
        sys.exit("plot_mfprio: no rows in %s" % sys.argv[1])
    at100k = [r for r in rows if r[0] == 100000]
    fit = at100k[0][1] / 100000 if at100k else None
    body = []
    panel(body, 0, "mfprio priority: wall time",
          [(r[0], r[1]) for r in rows], "seconds", 6.0,
          "target 6 s at 1M", fit)
    panel(body, W, "mfprio priority: peak memory",
          [(r[0], r[2]) for r in rows], "MB (peak RSS)", 400.0,
          "target 400 MB at 1M", None)
    with open(sys.argv[2], "w") as f:
        f.write(svgplot.document(2 * W, H, body))


if __name__ == "__main__":
    main()
