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
import sys

W, H = 360, 300
ML, MR, MT, MB = 66, 14, 40, 46
COLORS = {"halflife": "#1f77b4", "share": "#ff7f0e"}
LABELS = {"halflife": "--set PriorityDecayHalfLife=14-0",
          "share": "--share acct013=200"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def panel(x0, title, series, ylabel, target, target_label, fit):
    """SERIES: what-if -> [(records, median, low, high)]."""
    out = []
    pts = [p for s in series.values() for p in s]
    xmax = max(p[0] for p in pts) * 1.08
    ymax = max([p[3] for p in pts] + [target]) * 1.15
    pw, ph = W - ML - MR, H - MT - MB

    def sx(v):
        return x0 + ML + pw * v / xmax

    def sy(v):
        return MT + ph - ph * v / ymax

    out.append('<text x="%g" y="22" font-size="13" text-anchor="middle" '
               'font-weight="bold">%s</text>' % (x0 + ML + pw / 2, esc(title)))
    out.append('<rect x="%g" y="%g" width="%g" height="%g" fill="none" '
               'stroke="#444"/>' % (x0 + ML, MT, pw, ph))
    xstep = 2e6 if xmax > 4e6 else 5e5
    for i in range(int(xmax / xstep) + 1):
        xv = xstep * i
        out.append('<text x="%g" y="%g" font-size="10" text-anchor="middle">'
                   '%gM</text>' % (sx(xv), MT + ph + 14, xv / 1e6))
    for i in range(6):
        yv = ymax * i / 5
        out.append('<text x="%g" y="%g" font-size="10" text-anchor="end">'
                   '%.0f</text>' % (x0 + ML - 4, sy(yv) + 3, yv))
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>'
                   % (x0 + ML, sy(yv), x0 + ML + pw, sy(yv)))
    out.append('<text x="%g" y="%g" font-size="11" text-anchor="middle">'
               'job records</text>' % (x0 + ML + pw / 2, H - 8))
    out.append('<text x="%g" y="%g" font-size="11" text-anchor="middle" '
               'transform="rotate(-90 %g %g)">%s</text>'
               % (x0 + 16, MT + ph / 2, x0 + 16, MT + ph / 2, esc(ylabel)))
    out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#d62728" '
               'stroke-dasharray="6,4"/>' % (x0 + ML, sy(target),
                                              x0 + ML + pw, sy(target)))
    out.append('<text x="%g" y="%g" font-size="10" fill="#d62728" '
               'text-anchor="end">%s</text>' % (x0 + ML + pw - 4,
                                                sy(target) - 4,
                                                esc(target_label)))
    if fit:
        xe = min(xmax, ymax / fit)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#999" '
                   'stroke-dasharray="2,3"/>' % (sx(0), sy(0), sx(xe),
                                                 sy(fit * xe)))
    for k, (what, s) in enumerate(sorted(series.items())):
        col = COLORS.get(what, "#2ca02c")
        s = sorted(s)
        off = (k - 0.5) * 5
        path = " ".join("%s%g,%g" % ("M" if i == 0 else "L", sx(x) + off,
                                     sy(y))
                        for i, (x, y, _, _) in enumerate(s))
        out.append('<path d="%s" fill="none" stroke="%s" stroke-width="2"/>'
                   % (path, col))
        for x, y, lo, hi in s:
            out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s"/>'
                       % (sx(x) + off, sy(lo), sx(x) + off, sy(hi), col))
            out.append('<circle cx="%g" cy="%g" r="3" fill="%s"/>'
                       % (sx(x) + off, sy(y), col))
        out.append('<text x="%g" y="%g" font-size="10" fill="%s" '
                   'text-anchor="end">%s</text>'
                   % (x0 + ML + pw - 6, MT + ph - 10 - 13 * k, col,
                      esc(LABELS.get(what, what))))
    return out


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
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (2 * W, H),
           '<rect width="100%" height="100%" fill="white"/>']
    svg += panel(0, "mfprio replay: wall time", wall,
                 "seconds (median, min to max)", 60.0, "target 60 s at 10M",
                 fit)
    svg += panel(W, "mfprio replay: peak memory", mem, "MiB (peak RSS)",
                 1907.0, "target 2 GB (1907 MiB)", None)
    svg.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
