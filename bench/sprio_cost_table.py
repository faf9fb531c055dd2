#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""sprio_cost_table.py CSV: the table of bench/sprio_cost.sh's figures.

One row per job count and request: the median over the repeats of
slurmctld's time (ctld), the plugin's factors list (list) and sprio's wall
time, in ms, for upstream's plugin and ours, and ours/upstream."""
import csv
import statistics
import sys


def med(rows, key):
    vals = [float(r[key]) for r in rows if r.get(key)]
    return statistics.median(vals) / 1000 if vals else float("nan")


def main(path):
    groups = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            groups.setdefault((int(r["jobs"]), r["request"], r["plugin"]), []).append(r)
    keys = sorted({(j, q) for j, q, _ in groups})
    order = {"sprio": 0, "sprio-l": 1, "sprio-w": 2, "sprio-j": 3}
    keys.sort(key=lambda k: (k[0], order.get(k[1], 9)))
    head = ("jobs", "request", "ctld up", "ctld ours", "ratio", "list up",
            "list ours", "ratio", "wall up", "wall ours", "client ours")
    print("%7s %-8s %8s %9s %6s %8s %9s %6s %8s %9s %11s" % head)
    print("%7s %-8s %8s %9s %6s %8s %9s %6s %8s %9s %11s" % (
        "", "", "ms", "ms", "", "ms", "ms", "", "ms", "ms", "ms"))
    for jobs, req in keys:
        up = groups.get((jobs, req, "upstream"), [])
        ours = groups.get((jobs, req, "ours"), [])
        cu, co = med(up, "ctld_us"), med(ours, "ctld_us")
        lu, lo = med(up, "list_us"), med(ours, "list_us")
        wu, wo = med(up, "wall_us"), med(ours, "wall_us")
        print("%7d %-8s %8.1f %9.1f %6.2f %8.1f %9.1f %6.2f %8.0f %9.0f %11.0f" % (
            jobs, req, cu, co, co / cu if cu else float("nan"),
            lu, lo, lo / lu if lu else float("nan"), wu, wo, wo - co))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: sprio_cost_table.py CSV")
    main(sys.argv[1])
