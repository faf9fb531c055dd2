#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Plot bench_core --csv output as an SVG (standard library only).

Usage: bench/plot_core.py RESULTS.csv OUT.svg

Three panels, cost per item (ns, the CPU-time median) against the number
of items (log scale): a flat line is a cost that grows linearly.  The
targets of issue 8 are drawn dashed: 50 ns a job at 1M jobs, and 20 ms
for fair-share over 100k associations (200 ns an association at 100k).
"""
import csv
import math
import sys

PANELS = [
    ("priority", "Priority of every job: ns a job"),
    ("fs-compute", "Fair-share, tree kept: ns an assoc"),
    ("fs-cycle", "Fair-share, tree rebuilt: ns an assoc"),
]
COLORS = {"fair_tree": "#1f77b4", "classic": "#d62728",
          "depth_oblivious": "#2ca02c"}
W, H = 330, 300          # one panel
ML, MR, MT, MB = 58, 12, 40, 46


def esc(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def read(path):
    rows = []
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            for r in reader:
                try:
                    row = {"what": r["what"], "shape": r["shape"],
                           "algo": r["algo"], "items": int(r["items"]),
                           "ns": float(r["ns_per_item"])}
                except (KeyError, TypeError, ValueError) as e:
                    sys.exit("plot_core: %s:%d: not a bench_core --csv "
                             "row (%s)" % (path, reader.line_num, e))
                if row["items"] <= 0 or not math.isfinite(row["ns"]):
                    sys.exit("plot_core: %s:%d: bad items or ns_per_item"
                             % (path, reader.line_num))
                rows.append(row)
    except OSError as e:
        sys.exit("plot_core: %s: %s" % (path, e.strerror))
    if not rows:
        sys.exit("plot_core: %s: no rows" % path)
    return rows


def nice_max(v):
    """A round number at or above V for the top of an axis."""
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 2.5, 5, 10):
        if m * e >= v:
            return m * e
    return 10 * e


def panel(out, x0, what, title, rows):
    sel = [r for r in rows if r["what"] == what]
    if not sel:
        return
    xs = [r["items"] for r in sel]
    lx0, lx1 = math.log10(min(xs)) - 0.15, math.log10(max(xs)) + 0.15
    target = 50.0 if what == "priority" else 200.0
    ymax = nice_max(max([r["ns"] for r in sel] + [target]) * 1.1)
    pw, ph = W - ML - MR, H - MT - MB

    def px(n):
        return x0 + ML + (math.log10(n) - lx0) / (lx1 - lx0) * pw

    def py(v):
        return MT + ph - v / ymax * ph

    out.append('<text x="%g" y="18" font-size="11" font-weight="bold">'
               '%s</text>' % (x0 + 8, esc(title)))
    out.append('<rect x="%g" y="%g" width="%g" height="%g" fill="none" '
               'stroke="#888"/>' % (x0 + ML, MT, pw, ph))
    for i in range(6):
        v = ymax * i / 5
        y = py(v)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>'
                   % (x0 + ML, y, x0 + ML + pw, y))
        out.append('<text x="%g" y="%g" font-size="10" text-anchor="end">'
                   '%g</text>' % (x0 + ML - 4, y + 3, round(v, 1)))
    # ticks at the powers of ten (a tree of 10k users has 10,111
    # associations: its point sits just right of the 10k tick)
    decades = sorted(set(10 ** round(math.log10(n)) for n in xs))
    for n in decades:
        x = px(n)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#ddd"/>'
                   % (x, MT, x, MT + ph))
        label = "%dk" % (n // 1000) if n < 1000000 else "%dM" % (
            n // 1000000)
        out.append('<text x="%g" y="%g" font-size="10" '
                   'text-anchor="middle">%s</text>' % (x, MT + ph + 14,
                                                        label))
    out.append('<text x="%g" y="%g" font-size="10" text-anchor="middle">'
               '%s</text>' % (x0 + ML + pw / 2, H - 12,
                              "jobs" if what == "priority" else
                              "associations"))
    # the target
    if what == "priority":
        y = py(target)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#000" '
                   'stroke-dasharray="6,4"/>' % (x0 + ML, y, x0 + ML + pw, y))
        out.append('<text x="%g" y="%g" font-size="10">target: 50 ns a job'
                   '</text>' % (x0 + ML + 4, y + 13))
    else:
        x, y = px(100000), py(target)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#000" '
                   'stroke-dasharray="6,4"/>' % (x - 40, y, x + 40, y))
        out.append('<text x="%g" y="%g" font-size="10" '
                   'text-anchor="middle">target: 20 ms at 100k</text>'
                   % (x, y - 4))
    # the series
    series = {}
    for r in sel:
        series.setdefault((r["shape"], r["algo"]), []).append(r)
    ly = MT + 12
    for (shape, algo), pts in sorted(series.items()):
        pts.sort(key=lambda r: r["items"])
        color = COLORS.get(algo, "#555")
        dash = ' stroke-dasharray="3,3"' if shape == "flat" else ""
        path = " ".join("%s%g,%g" % ("M" if i == 0 else "L", px(p["items"]),
                                     py(p["ns"]))
                        for i, p in enumerate(pts))
        out.append('<path d="%s" fill="none" stroke="%s" stroke-width="2"'
                   '%s/>' % (path, color, dash))
        for p in pts:
            out.append('<circle cx="%g" cy="%g" r="3" fill="%s"/>'
                       % (px(p["items"]), py(p["ns"]), color))
        name = algo if what == "priority" else "%s, %s" % (algo, shape)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" '
                   'stroke-width="2"%s/>' % (x0 + ML + 6, ly, x0 + ML + 24,
                                             ly, color, dash))
        out.append('<text x="%g" y="%g" font-size="9">%s</text>'
                   % (x0 + ML + 28, ly + 3, esc(name)))
        ly += 12


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_core.py RESULTS.csv OUT.svg")
    rows = read(sys.argv[1])
    total_w = W * len(PANELS)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!-- SPDX-License-Identifier: GPL-2.0-or-later -->',
           '<!-- made by bench/plot_core.py from what bench_core prints as CSV -->',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif">'
           % (total_w, H, total_w, H),
           '<rect width="100%" height="100%" fill="#fff"/>']
    for i, (what, title) in enumerate(PANELS):
        panel(out, i * W, what, title, rows)
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
