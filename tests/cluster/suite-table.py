#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""suite-table.py: the table test x release x plugin of Slurm's own tests
(doc/slurm-testsuite.md), made from a release matrix's logs, never by hand.

  suite-table.py MATRIX_OUTDIR

Reads, for each release of MATRIX_OUTDIR/results (the matrix's order):
  RELEASE-slurm-suite.log  test-slurm-suite.sh's closing table
                           ("table (test|upstream|ours)" then TEST|U|O rows)
  RELEASE-slurm-prog.log   test-slurm-prog.sh's verdicts of the two
                           programs ("fair-share:" and "fair-tree:" lines:
                           each plugin's rows against the test file's)
and prints a Markdown table, a row per test and a column per release, each
cell "upstream / ours", "-" where the release's run had no such test,
"no testsuite" where the matrix gave the release no slurm-suite task (its
source carries none: OUTDIR/tasks), "not run" where it did but left no
log.
Then one line per release whose suite ran: whether every test that passes
under upstream's plugin passes under ours.  Exit status 1 when one does
not, or when no release's suite was read; else 0.
"""
import os
import re
import subprocess
import sys


def releases(outdir):
    """The releases of OUTDIR/results, in release/releases.tsv's order."""
    seen = []
    with open(os.path.join(outdir, "results")) as f:
        for line in f:
            r = line.split("|")[0]
            if r and r not in seen:
                seen.append(r)
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "..", "..", "release", "releases.sh")
    try:
        order = subprocess.run([table, "tested"], capture_output=True,
                               text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        order = []
    return sorted(seen, key=lambda r: (order.index(r) if r in order
                                       else len(order), seen.index(r)))


def suite_rows(log):
    """TEST -> (upstream, ours) from the log's last closing table."""
    rows, on = {}, False
    for line in open(log, errors="replace"):
        if "table (test|upstream|ours)" in line:
            rows, on = {}, True
            continue
        if on:
            m = re.match(r"^    (\S+)\|(\w+)\|(\w+)\s*$", line)
            if m:
                rows[m.group(1)] = (m.group(2), m.group(3))
            else:
                on = False
    return rows


def prog_rows(log):
    """kind -> "upstream / ours (N rows[, whose program])" from
    test-slurm-prog.sh's verdicts: "ok:" or "FAILED:", then "KIND: upstream's
    plugin prints the rows of F" / "KIND: our plugin prints the rows of F",
    and "KIND: NAME (its own|Slurm V's, rows of F) builds against"."""
    out = {}
    for line in open(log, errors="replace"):
        m = re.search(r"(ok|FAILED): (fair-share|fair-tree): (.*)$", line)
        if not m:
            continue
        good, kind, text = m.group(1) == "ok", m.group(2), m.group(3)
        cell = out.setdefault(kind, ["FAIL", "FAIL", "", ""])
        if text.startswith("upstream's plugin prints the rows of"):
            cell[0] = "PASS" if good else "FAIL"
        elif text.startswith("our plugin prints the rows of"):
            cell[1] = "PASS" if good else "FAIL"
        n = re.search(r"every row of it \((\d+) lines\)", text)
        if n:
            cell[2] = "%s lines as upstream's" % n.group(1)
        w = re.search(r"\((Slurm \S+'s), rows of", text)
        if w:
            cell[3] = w.group(1) + " program"
    return {k: "%s / %s%s" % (v[0], v[1], " (%s)" % ", ".join(
        x for x in v[2:] if x) if any(v[2:]) else "")
        for k, v in out.items()}


def main():
    outdir = sys.argv[1]
    rels = releases(outdir)
    suites, progs, asked = {}, {}, set()
    # the releases the matrix gave a slurm-suite task (those whose source
    # carries the testsuite): the others' cells say there is none
    try:
        with open(os.path.join(outdir, "tasks")) as f:
            for line in f:
                w = line.split()
                if len(w) > 1 and w[1] == "slurm-suite":
                    asked.add(w[0])
    except OSError:
        pass
    for r in rels:
        s = os.path.join(outdir, r + "-slurm-suite.log")
        p = os.path.join(outdir, r + "-slurm-prog.log")
        if os.path.exists(s):
            suites[r] = suite_rows(s)
        if os.path.exists(p):
            progs[r] = prog_rows(p)
    tests = []
    for r in rels:
        for t in suites.get(r, {}):
            if t not in tests:
                tests.append(t)
    print("| test | " + " | ".join(rels) + " |")
    print("|---" * (len(rels) + 1) + "|")
    for kind, name in (("fair-share", "`test24.1.prog.c` / "
                        "`prio_multifactor.c` (slurm-prog)"),
                       ("fair-tree", "`test24.4.prog.c` (slurm-prog)")):
        cells = [progs[r].get(kind, "-") if r in progs else "not run"
                 for r in rels]
        print("| %s | %s |" % (name, " | ".join(cells)))
    for t in tests:
        cells = []
        for r in rels:
            if r not in suites:
                cells.append("not run" if r in asked else "no testsuite")
            elif t in suites[r]:
                cells.append("%s / %s" % suites[r][t])
            else:
                cells.append("-")
        print("| `%s` | %s |" % (t, " | ".join(cells)))
    bad = 0
    print()
    for r in rels:
        if r not in suites:
            continue
        worse = [t for t, (u, o) in suites[r].items()
                 if u == "PASS" and o != "PASS"]
        if not suites[r]:
            bad += 1
            print("%s: no table in its slurm-suite log" % r)
        elif worse:
            bad += 1
            print("%s: passes under upstream's, not under ours: %s"
                  % (r, ", ".join(worse)))
        else:
            print("%s: every test that passes under upstream's plugin "
                  "passes under ours (%d tests)" % (r, len(suites[r])))
    if not suites:
        print("no slurm-suite log read in %s" % outdir)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
