#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""compare-tables.py: compare two tables (sshare -P, sprio) field by field.

Usage: compare-tables.py NAME EXPECTED ACTUAL [COLUMN=TOL ...] [--sep=|]

The first line of each file is the header.  Fields equal as strings pass;
numbers pass within the column's tolerance: TOL is absolute, or relative
when written with a trailing 'r' (RawUsage=1e-3r), and relative but never
under an absolute floor with 'r+FLOOR' (GrpTRESRaw=1e-3r+1: sshare cuts
TRES-seconds to whole minutes, so one minute either way is rounding);
columns without one use 1.01e-6.  A field that is a TRES list ("cpu=12,mem=3000,billing=12", as
sshare's GrpTRESRaw and TRESRunMins print) is compared TRES by TRES, with
the column's tolerance, a TRES missing from one side counting as 0.
Repeated header names (sprio's two PARTITION columns) are numbered in
order: PARTITION, PARTITION#2.  Prints each difference and a summary line;
exits 1 on any difference.
"""
import sys


def parse(path, sep):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            rows.append(line.split(sep) if sep else line.split())
    return rows


def names(header):
    seen, out = {}, []
    for h in header:
        seen[h] = seen.get(h, 0) + 1
        out.append(h if seen[h] == 1 else "%s#%d" % (h, seen[h]))
    return out


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def tres_list(s):
    """{name: value} of a TRES list field, or None if it is not one."""
    if "=" not in s:
        return None
    out = {}
    for item in s.split(","):
        k, eq, v = item.partition("=")
        f = num(v)
        if not eq or not k or f is None:
            return None
        out[k] = f
    return out


def close(fx, fy, tol, rel, floor=0.0):
    d = abs(fx - fy)
    lim = tol * max(abs(fx), abs(fy), 1.0) if rel else tol
    return d, d <= max(lim, floor)


def parse_tol(text):
    """'1e-3' (absolute), '1e-3r' (relative), '1e-3r+1' (relative, floor 1)"""
    if "r" not in text:
        return float(text), False, 0.0
    rel, _, floor = text.partition("r")
    return float(rel), True, float(floor[1:]) if floor.startswith("+") else 0.0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--sep=")]
    seps = [a[6:] for a in sys.argv[1:] if a.startswith("--sep=")]
    sep = seps[0] if seps else None
    name, exp_path, act_path = args[:3]
    tols = {}
    for a in args[3:]:
        col, tol = a.split("=", 1)
        tols[col] = parse_tol(tol)
    exp, act = parse(exp_path, sep), parse(act_path, sep)
    bad, worst = 0, {}
    # a header alone is no answer: every caller's table has rows
    if len(exp) < 2 or len(act) < 2:
        print("%s: no rows (expected %d lines, got %d)" % (name, len(exp), len(act)))
        return 1
    cols = names(exp[0])
    if exp[0] != act[0]:
        print("%s: headers differ: %s / %s" % (name, exp[0], act[0]))
        return 1
    if len(exp) != len(act):
        print("%s: %d rows expected, %d found" % (name, len(exp) - 1, len(act) - 1))
        bad += 1
    for i, (e, a) in enumerate(zip(exp[1:], act[1:]), start=2):
        if len(e) != len(a):
            print("%s: line %d: %d fields expected, %d found:\n  %s\n  %s"
                  % (name, i, len(e), len(a), e, a))
            bad += 1
            continue
        for c, x, y in zip(cols, e, a):
            if x == y:
                continue
            fx, fy = num(x), num(y)
            tol, rel, floor = tols.get(c, (1.01e-6, False, 0.0))
            if fx is not None and fy is not None:
                d, good = close(fx, fy, tol, rel, floor)
                worst[c] = max(worst.get(c, 0.0), d)
                if good:
                    continue
            tx, ty = tres_list(x), tres_list(y)
            if tx is not None and ty is not None:
                good = True
                for k in set(tx) | set(ty):
                    d, g = close(tx.get(k, 0.0), ty.get(k, 0.0), tol, rel, floor)
                    worst[c] = max(worst.get(c, 0.0), d)
                    good = good and g
                if good:
                    continue
            print("%s: line %d column %s: expected %r, got %r" % (name, i, c, x, y))
            bad += 1
    w = ", ".join("%s %.3g" % kv for kv in sorted(worst.items()))
    print("%s: %d rows, %d differences%s" % (name, len(exp) - 1, bad,
                                             (" (largest: %s)" % w) if w else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
