#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plot bench/controller.sh's controller.csv as an SVG (standard library only).

Usage: bench/plot_controller.py controller.csv OUT.svg

Four panels against the number of pending jobs, upstream's plugin and ours
side by side: the decay thread's CPU per cycle, the longest job-RPC stall,
sprio's wall time and slurmctld's RSS.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svgplot  # noqa: E402

PANELS = [
    ("decay_cpu_us_per_cycle", "decay thread CPU a cycle (ms)", 1e-3),
    ("longest_job_rpc_ms", "longest job RPC stall (ms)", 1.0),
    ("sprio_ms", "sprio wall time (ms)", 1.0),
    ("rss_kb", "slurmctld RSS (MB)", 1 / 1024),
]
COLORS = {"upstream": "#d62728", "ours": "#1f77b4"}
W, H = 320, 260
MARGINS = (62, 12, 36, 44)      # left, right, top, bottom of a panel


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    if not rows:
        sys.exit("plot_controller: %s: no rows" % sys.argv[1])
    jobs = sorted({int(r["jobs"]) for r in rows})
    body = [svgplot.text(8, 16, "mfprio vs upstream priority/multifactor "
                         "in slurmctld", 13)]
    # the panels two a row under the figure's title
    for k, (key, title, scale) in enumerate(PANELS):
        pts = {p: sorted((int(r["jobs"]), float(r[key]) * scale)
                         for r in rows if r["plugin"] == p) for p in COLORS}
        ymax = max([y for p in pts.values() for _, y in p] + [1e-9]) * 1.1
        ax = svgplot.Axes(body, (k % 2) * W, 24 + (k // 2) * H, W, H,
                          MARGINS, max(jobs) * 1.05, ymax)
        ax.title(title, size=12, bold=False)
        ax.frame(stroke="#888")
        ax.ygrid(4)
        ax.xticks((j, "%dk" % (j // 1000)) for j in jobs)
        ax.labels("pending jobs")
        for p, c in COLORS.items():
            if pts[p]:
                ax.series(pts[p], c)
        ax.legend([(p, c, False) for p, c in COLORS.items()])
    open(sys.argv[2], "w").write(svgplot.document(W * 2, H * 2 + 24, body))


if __name__ == "__main__":
    main()
