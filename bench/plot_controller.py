#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plot bench/controller.sh's controller.csv as an SVG (standard library only).

Usage: bench/plot_controller.py controller.csv OUT.svg

Four panels against the number of pending jobs, upstream's plugin and ours
side by side: the decay thread's CPU per cycle, the longest job-RPC stall,
sprio's wall time and slurmctld's RSS.
"""
import csv
import sys

PANELS = [
    ("decay_cpu_us_per_cycle", "decay thread CPU a cycle (ms)", 1e-3),
    ("longest_job_rpc_ms", "longest job RPC stall (ms)", 1.0),
    ("sprio_ms", "sprio wall time (ms)", 1.0),
    ("rss_kb", "slurmctld RSS (MB)", 1 / 1024),
]
COLORS = {"upstream": "#d62728", "ours": "#1f77b4"}
W, H = 320, 260
ML, MR, MT, MB = 62, 12, 36, 44


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    if not rows:
        sys.exit("plot_controller: %s: no rows" % sys.argv[1])
    jobs = sorted({int(r["jobs"]) for r in rows})
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (W * 2, H * 2 + 24)]
    out.append('<rect width="100%" height="100%" fill="white"/>')
    out.append('<text x="%d" y="16" font-size="13">mfprio vs upstream '
               'priority/multifactor in slurmctld</text>' % 8)
    for k, (key, title, scale) in enumerate(PANELS):
        ox, oy = (k % 2) * W, 24 + (k // 2) * H
        pts = {p: [(int(r["jobs"]), float(r[key]) * scale)
                   for r in rows if r["plugin"] == p] for p in COLORS}
        ymax = max([y for p in pts.values() for _, y in p] + [1e-9]) * 1.1
        xmax = max(jobs) * 1.05
        pw, ph = W - ML - MR, H - MT - MB

        def X(x):
            return ox + ML + pw * x / xmax

        def Y(y):
            return oy + MT + ph * (1 - y / ymax)
        out.append('<text x="%d" y="%d" font-size="12">%s</text>'
                   % (ox + ML, oy + MT - 12, esc(title)))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" '
                   'stroke="#888"/>' % (ox + ML, oy + MT, pw, ph))
        for i in range(5):
            yv = ymax * i / 4
            out.append('<text x="%d" y="%.1f" text-anchor="end">%.3g</text>'
                       % (ox + ML - 4, Y(yv) + 4, yv))
        for j in jobs:
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%dk</text>'
                       % (X(j), oy + MT + ph + 14, j // 1000))
        out.append('<text x="%d" y="%d" text-anchor="middle">pending jobs'
                   '</text>' % (ox + ML + pw / 2, oy + MT + ph + 30))
        for li, (p, c) in enumerate(COLORS.items()):
            ps = sorted(pts[p])
            if ps:
                out.append('<polyline fill="none" stroke="%s" stroke-width="2" '
                           'points="%s"/>' % (c, " ".join(
                               "%.1f,%.1f" % (X(x), Y(y)) for x, y in ps)))
                for x, y in ps:
                    out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                               % (X(x), Y(y), c))
            out.append('<text x="%d" y="%d" fill="%s">%s</text>'
                       % (ox + ML + 8, oy + MT + 14 + 13 * li, c, p))
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
