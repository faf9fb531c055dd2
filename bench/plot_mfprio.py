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
import sys

W, H = 360, 300
ML, MR, MT, MB = 58, 14, 40, 46


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def panel(x0, title, pts, ylabel, target, target_label, fit):
    out = []
    xmax = max(p[0] for p in pts) * 1.05
    ymax = max([p[1] for p in pts] + [target]) * 1.15
    pw, ph = W - ML - MR, H - MT - MB

    def sx(v):
        return x0 + ML + pw * v / xmax

    def sy(v):
        return MT + ph - ph * v / ymax

    out.append('<text x="%g" y="22" font-size="13" text-anchor="middle" '
               'font-weight="bold">%s</text>' % (x0 + ML + pw / 2, esc(title)))
    out.append('<rect x="%g" y="%g" width="%g" height="%g" fill="none" '
               'stroke="#444"/>' % (x0 + ML, MT, pw, ph))
    for i in range(6):
        xv, yv = xmax * i / 5, ymax * i / 5
        out.append('<text x="%g" y="%g" font-size="10" text-anchor="middle">'
                   '%s</text>' % (sx(xv), MT + ph + 14, "%gk" % round(xv / 1000)))
        out.append('<text x="%g" y="%g" font-size="10" text-anchor="end">'
                   '%.3g</text>' % (x0 + ML - 4, sy(yv) + 3, yv))
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>'
                   % (x0 + ML, sy(yv), x0 + ML + pw, sy(yv)))
    out.append('<text x="%g" y="%g" font-size="11" text-anchor="middle">'
               'pending jobs</text>' % (x0 + ML + pw / 2, H - 8))
    out.append('<text x="%g" y="%g" font-size="11" text-anchor="middle" '
               'transform="rotate(-90 %g %g)">%s</text>'
               % (x0 + 14, MT + ph / 2, x0 + 14, MT + ph / 2, esc(ylabel)))
    out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#d62728" '
               'stroke-dasharray="6,4"/>' % (x0 + ML, sy(target),
                                              x0 + ML + pw, sy(target)))
    out.append('<text x="%g" y="%g" font-size="10" fill="#d62728" '
               'text-anchor="end">%s</text>' % (x0 + ML + pw - 4,
                                                sy(target) - 4,
                                                esc(target_label)))
    if fit:
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#999" '
                   'stroke-dasharray="2,3"/>' % (sx(0), sy(0), sx(xmax),
                                                 sy(fit * xmax)))
    path = " ".join("%s%g,%g" % ("M" if i == 0 else "L", sx(x), sy(y))
                    for i, (x, y) in enumerate(pts))
    out.append('<path d="%s" fill="none" stroke="#1f77b4" stroke-width="2"/>'
               % path)
    for x, y in pts:
        out.append('<circle cx="%g" cy="%g" r="3" fill="#1f77b4"/>'
                   % (sx(x), sy(y)))
    return out


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
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (2 * W, H),
           '<rect width="100%" height="100%" fill="white"/>']
    svg += panel(0, "mfprio priority: wall time",
                 [(r[0], r[1]) for r in rows], "seconds", 6.0,
                 "target 6 s at 1M", fit)
    svg += panel(W, "mfprio priority: peak memory",
                 [(r[0], r[2]) for r in rows], "MB (peak RSS)", 400.0,
                 "target 400 MB at 1M", None)
    svg.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
