#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio priority` over a dump of pending jobs against a plain scan of
# the same file, `grep -c JobState=PENDING`, run side by side (issue 18,
# item 4: at most 2 s and 6 times the scan for 1M jobs).
#
# Usage: bench/bench_vs_grep.sh [MFPRIO [DIR [RUNS]]]
#   MFPRIO  the binary (default: _build/bench/mfprio, else mfprio in PATH)
#   DIR     the dumps (default /var/tmp/mfprio-bench/1000000; made by
#           bench/gen_jobs.py DIR 1000000 when missing: 1.3 GB)
#   RUNS    runs of each command (default 7)
#
# Both read the dump from the page cache (one run of each first, not
# counted).  The two commands run in turn, mfprio then grep, RUNS times:
# the ratio of each pair is taken, so that a machine whose speed drifts
# (a shared one) moves both.  mfprio writes its table to DIR/../out.txt,
# as `mfprio priority ... > out` does.  Prints min and median wall time
# of each, mfprio's peak resident memory (max of the runs), and the
# median of the pair ratios.  Needs GNU time (/usr/bin/time).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
find_mfprio "${1:-}"
d=${2:-/var/tmp/mfprio-bench/1000000}
runs=${3:-7}
need_time
make_jobs "$d" 1000000
out=$(dirname "$d")/out.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_mfprio() {
	/usr/bin/time -f '%e %M' -o "$tmp/t" "$mfprio" priority \
		--conf "$d/slurm.conf" --qos "$d/qos.txt" \
		--assoc "$d/assoc.txt" --usage "$d/usage.txt" \
		--jobs "$d/jobs.txt" --now 1700000000 >"$out"
	cat "$tmp/t"
}

run_grep() {
	# into a file: GNU grep writing to /dev/null stops at the first match
	/usr/bin/time -f '%e %M' -o "$tmp/t" grep -c JobState=PENDING \
		"$d/jobs.txt" >"$tmp/count"
	cat "$tmp/t"
}

run_mfprio >/dev/null
run_grep >/dev/null
i=0
while [ "$i" -lt "$runs" ]; do
	run_mfprio >>"$tmp/mfprio"
	run_grep >>"$tmp/grep"
	i=$((i + 1))
done
paste -d ' ' "$tmp/mfprio" "$tmp/grep" >"$tmp/pairs"

# min and median of column C of file F
stats() {
	awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '
		{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f\n", v[1], m }'
}

set -- $(stats "$tmp/mfprio" 1)
m_min=$1 m_med=$2
set -- $(stats "$tmp/grep" 1)
g_min=$1 g_med=$2
rss=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print int(m / 1024) }' \
	"$tmp/mfprio")
awk '{ print ($3 > 0 ? $1 / $3 : 0) }' "$tmp/pairs" >"$tmp/ratios"
set -- $(stats "$tmp/ratios" 1)
r_min=$1 r_med=$2
jobs=$(grep -c . "$d/jobs.txt" || true)
rows=$(($(wc -l <"$out") - 1))

printf '%-28s %9s %9s\n' "$jobs job lines, $rows rows" min_s median_s
printf '%-28s %9s %9s\n' "mfprio priority" "$m_min" "$m_med"
printf '%-28s %9s %9s\n' "grep -c JobState=PENDING" "$g_min" "$g_med"
printf '%-28s %9s %9s\n' "ratio (pair by pair)" "$r_min" "$r_med"
printf 'mfprio peak RSS: %s MB; %s runs each\n' "$rss" "$runs"
echo "csv,$jobs,$rows,$m_min,$m_med,$g_min,$g_med,$r_med,$rss"
