#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-sprio.sh SPRIO MFPRIO: compare `sprio -l` output with `mfprio
# priority` output row by row, keyed by job id and partition; or, when the
# header has '|' in it, `sprio -o '%i|%r|%u|%Y|%S|%A|%B|%F|%J|%P|%Q|%N|%T'`
# with `mfprio priority -P`.
# Prints "identical: N rows" and exits 0, or lists every differing field
# (and every row only one side has) and exits 1.
set -euo pipefail

[[ $# -eq 2 ]] || { echo "usage: $0 SPRIO MFPRIO" >&2; exit 2; }

awk -v sep=" " '
function key(f) { return f[1] " " f[2] }
FNR == 1 {
	if (FILENAME == ARGV[1]) head1 = $0; else head2 = $0
	if (index($0, "|")) sep = "|"
	next
}
{
	n = split($0, f, sep)
	k = key(f)
	if (FILENAME == ARGV[1]) { a[k] = $0; an[k] = n; order[++rows] = k }
	else b[k] = $0
}
END {
	split("JOBID PARTITION USER PRIORITY SITE AGE ASSOC FAIRSHARE JOBSIZE PARTITION QOS NICE TRES", name, " ")
	bad = 0
	if (head1 != head2) {
		print "header differs:\n  sprio:  " head1 "\n  mfprio: " head2
		bad++
	}
	for (i = 1; i <= rows; i++) {
		k = order[i]
		if (!(k in b)) { print "only in sprio:  " a[k]; bad++; continue }
		if (a[k] == b[k]) { same++; continue }
		na = split(a[k], x, sep); nb = split(b[k], y, sep)
		m = na > nb ? na : nb
		line = ""
		for (j = 1; j <= m; j++)
			if (x[j] != y[j])
				line = line sprintf(" %s sprio=%s mfprio=%s", name[j], x[j], y[j])
		if (line == "")
			line = " (spacing only)"
		print "job " k ":" line
		bad++
	}
	for (k in b)
		if (!(k in a)) { print "only in mfprio: " b[k]; bad++ }
	if (bad) { printf "%d row(s) identical, %d difference(s)\n", same, bad; exit 1 }
	printf "identical: %d rows\n", same
}' "$1" "$2"
