#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""slurm-prog-rows.py TESTFILE OUTPUT: the rows Slurm's own test expects of
its fair-share test program, read from that release's test file, checked
against what the program printed.

TESTFILE is one of
  testsuite/expect/test24.1, test24.4  (an expect script: each expected row
                                        is a quoted pattern with a '|' in an
                                        expect block, matched as a plain
                                        substring; the script's
                                        "$matches != N", or "$matches !=
                                        $VAR" with "set VAR N", says how
                                        many)
  testsuite/python/tests/test_130_2.py (pytest: each row is the raw
                                        string of a re.search(), a regular
                                        expression searched in the output)
OUTPUT is the program's standard output.

Prints each row with "found" or "MISSING", then "N of M rows as expected";
exit status 0 only when every row was found and M is the count the test
file itself asserts (a test file read wrong must not pass), 2 when the
test file holds no row at all.
"""
import re
import sys


def rows_expect(text):
    """test24.1, test24.4: the quoted patterns of the expect block that hold
    a '|' (the others are the log lines it tolerates); the count it asks,
    written in the comparison or in the variable it compares with."""
    rows = re.findall(r'^\s*"([^"\n]*\|[^"\n]*)"\s*\{', text, re.M)
    want = None
    m = re.search(r'\$matches\s*!=\s*(\d+|\$\w+)', text)
    if m and m.group(1).startswith('$'):
        m = re.search(r'^\s*set\s+%s\s+(\d+)\s*$' % re.escape(m.group(1)[1:]),
                      text, re.M)
    if m:
        want = int(m.group(1))
    return [('substring', r) for r in rows], want


def rows_pytest(text):
    """test_130_2.py: the raw strings of its re.search() calls."""
    rows = re.findall(r're\.search\(\s*r"([^"\n]*)"', text)
    want = len(re.findall(r're\.search\(', text))
    return [('regex', r) for r in rows], want


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    text = open(sys.argv[1]).read()
    out = open(sys.argv[2], errors='replace').read()
    if sys.argv[1].endswith('.py'):
        rows, want = rows_pytest(text)
    else:
        rows, want = rows_expect(text)
    if not rows:
        print('no expected row found in %s' % sys.argv[1])
        return 2
    found = 0
    for kind, row in rows:
        hit = (row in out) if kind == 'substring' else \
            re.search(row, out) is not None
        found += hit
        print('%s: %s' % ('found' if hit else 'MISSING', row))
    print('%d of %d rows as expected (%s asks %s)' %
          (found, len(rows), sys.argv[1], want))
    if want is not None and want != len(rows):
        print('the test file asks %d matches but %d rows were read from it'
              % (want, len(rows)))
        return 1
    return 0 if found == len(rows) else 1


if __name__ == '__main__':
    sys.exit(main())
