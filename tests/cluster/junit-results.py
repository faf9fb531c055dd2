#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""junit-results.py XML: one line per test case of a pytest JUnit report
(pytest --junitxml), "FILE::NAME|STATUS|WHY", STATUS one of PASS, FAIL
(a failure or an error), SKIP; WHY the first line of the message pytest
gave a failure or a skip (empty for a pass).  Exit status 2 when the
report cannot be read."""
import sys
import xml.etree.ElementTree as ET


def why(node):
    text = (node.get('message') or node.text or '').strip()
    line = text.splitlines()[0] if text else ''
    return line.replace('|', '/')[:200]


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__ + '\n')
        return 2
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        print('cannot read %s: %s' % (sys.argv[1], e), file=sys.stderr)
        return 2
    for case in root.iter('testcase'):
        where = case.get('file') or case.get('classname', '').replace('.', '/') + '.py'
        name = '%s::%s' % (where, case.get('name'))
        status, reason = 'PASS', ''
        for tag in ('failure', 'error'):
            node = case.find(tag)
            if node is not None:
                status, reason = 'FAIL', why(node)
                break
        else:
            node = case.find('skipped')
            if node is not None:
                status, reason = 'SKIP', why(node)
        print('%s|%s|%s' % (name, status, reason))
    return 0


if __name__ == '__main__':
    sys.exit(main())
