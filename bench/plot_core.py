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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svgplot  # noqa: E402

PANELS = [
    ("priority", "Priority of every job: ns a job"),
    ("fs-compute", "Fair-share, tree kept: ns an assoc"),
    ("fs-cycle", "Fair-share, tree rebuilt: ns an assoc"),
]
COLORS = {"fair_tree": "#1f77b4", "classic": "#d62728",
          "depth_oblivious": "#2ca02c"}
W, H = 330, 300          # one panel
MARGINS = (58, 12, 40, 46)      # left, right, top, bottom of a panel


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
    target = 50.0 if what == "priority" else 200.0
    ymax = nice_max(max([r["ns"] for r in sel] + [target]) * 1.1)
    # log x, 0.15 of a decade beyond the points on each side
    ax = svgplot.Axes(out, x0, 0, W, H, MARGINS, max(xs) * 10 ** 0.15, ymax,
                      xmin=min(xs) / 10 ** 0.15, logx=True)
    ax.title(title, size=11)
    ax.frame(stroke="#888")
    ax.ygrid(fmt="%g")
    # ticks at the powers of ten (a tree of 10k users has 10,111
    # associations: its point sits just right of the 10k tick)
    decades = sorted(set(10 ** round(math.log10(n)) for n in xs))
    ax.xticks(((n, "%dk" % (n // 1000) if n < 1000000 else
                "%dM" % (n // 1000000)) for n in decades), grid=True)
    ax.labels("jobs" if what == "priority" else "associations")
    # the target: for fair-share at 100k only
    if what == "priority":
        ax.target(target, "target: 50 ns a job", color="#000")
    else:
        ax.target(target, "target: 20 ms at 100k", color="#000", at=100000)
    # the series: a tree's solid, a flat one's dashed
    series = {}
    for r in sel:
        series.setdefault((r["shape"], r["algo"]), []).append(r)
    legend = []
    for (shape, algo), pts in sorted(series.items()):
        pts.sort(key=lambda r: r["items"])
        color = COLORS.get(algo, "#555")
        ax.series([(p["items"], p["ns"]) for p in pts], color,
                  dash=shape == "flat")
        name = algo if what == "priority" else "%s, %s" % (algo, shape)
        legend.append((name, color, shape == "flat"))
    ax.legend(legend)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_core.py RESULTS.csv OUT.svg")
    rows = read(sys.argv[1])
    body = []
    for i, (what, title) in enumerate(PANELS):
        panel(body, i * W, what, title, rows)
    prolog = ['<?xml version="1.0" encoding="UTF-8"?>',
              '<!-- SPDX-License-Identifier: GPL-2.0-or-later -->',
              '<!-- made by bench/plot_core.py from what bench_core prints '
              'as CSV -->']
    with open(sys.argv[2], "w") as f:
        f.write(svgplot.document(W * len(PANELS), H, body, prolog))

if __name__ == "__main__":
    main()
