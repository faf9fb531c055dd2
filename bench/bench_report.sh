#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio report --html` at a big site's size: the dump of bench/gen_jobs.py
# (200 accounts, 5,000 users, 100,000 pending jobs by default), the page's
# write time (wall seconds of each run, GNU time) and size, then its first
# render in headless chromium (bench/report_render.py: the page's own
# measure, from its script's start to the tree and queue drawn, and the
# browser's load event), each several times.  The issue's bounds: written
# in at most 2 s, at most 5 MB, first render at most 1 s.  Each write is
# printed beside `mfprio priority` on the same input, and their ratio.
# MFPRIO_BENCH_FLAT=1: the site's accounts under root, no departments
# (the flat shape of tests/browser/report-html.sh; its own WORKDIR).
#
# Usage: bench/bench_report.sh [MFPRIO [WORKDIR [NJOBS]]]
#   MFPRIO   the binary (default: _build/bench/mfprio, else mfprio in PATH)
#   WORKDIR  where the dump goes (default /var/tmp/mfprio-bench/report-N);
#            a dump already there is reused
# MFPRIO_BENCH_RUNS: runs of each (default 5).  The load average before and
# after is printed: the machine may be shared.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
find_mfprio "${1:-}"
n=${3:-100000}
work=${2:-/var/tmp/mfprio-bench/report-$n}
runs=${MFPRIO_BENCH_RUNS:-5}
need_time
mkdir -p "$work"
if [ "${MFPRIO_BENCH_FLAT:-0}" = 1 ]; then
	work=$work-flat
	mkdir -p "$work"
	make_jobs "$work" "$n"
	sed -i -e '/^dept[0-9]*||root|/d' -e 's/^\(acct[0-9]*\)||dept[0-9]*|/\1||root|/' "$work/assoc.txt"
else
	make_jobs "$work" "$n"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$runs" ]; do
	/usr/bin/time -f "%e %M" -o "$work/time" "$mfprio" report --html "$work/page.html" \
		--conf "$work/slurm.conf" --jobs "$work/jobs.txt" --qos "$work/qos.txt" \
		--assoc "$work/assoc.txt" --usage "$work/usage.txt"
	read -r secs kb <"$work/time"
	# `mfprio priority` on the same input, beside it: the page's cost over
	# the command that computes the same rows
	/usr/bin/time -f "%e" -o "$work/ptime" "$mfprio" priority \
		--conf "$work/slurm.conf" --jobs "$work/jobs.txt" --qos "$work/qos.txt" \
		--assoc "$work/assoc.txt" --usage "$work/usage.txt" >/dev/null
	read -r psecs <"$work/ptime"
	echo "write: $secs s, peak $((kb / 1024)) MiB, $(stat -c %s "$work/page.html") bytes;" \
		"priority: $psecs s; ratio $(awk -v a="$secs" -v b="$psecs" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
	i=$((i + 1))
done
/usr/bin/python3 "$here/report_render.py" "$work/page.html" "$runs"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
