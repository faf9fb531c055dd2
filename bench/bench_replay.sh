#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time and peak memory of `mfprio replay` over generated years of history
# (bench/gen_history.py: the accounts and users of bench/gen_jobs.py), each
# replayed under two settings, the generated slurm.conf ("before") and a
# what-if ("after"), with GNU time.  Two what-ifs are timed:
#   halflife  --set PriorityDecayHalfLife=14-0   (the conf has 7-0)
#   share     --share acct013=200
#
# Usage: bench/bench_replay.sh [MFPRIO [WORKDIR [COUNTS...]]]
#   MFPRIO   the binary (default: _build/bench/mfprio, else mfprio in PATH)
#   WORKDIR  where the histories go (default /var/tmp/mfprio-bench), one
#            directory per count (replay-1M, replay-10M; 10M records are
#            1.8 GB); a history already there is reused
#   COUNTS   record counts (default: 1000000 10000000)
# MFPRIO_BENCH_RUNS: runs per count and what-if (default 3).  The machine
# may be shared: the load average before and after is printed with each
# line.  Prints per count and what-if: records, history MB, wall seconds
# (min, median, max of the runs), user seconds (median), peak resident memory
# (largest, MiB), records per second (at the median), then the same as CSV on
# lines starting "csv," (bench/plot_replay.py draws them).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
find_mfprio "${1:-}"
work=${2:-/var/tmp/mfprio-bench}
if [ $# -gt 2 ]; then shift 2; else set -- 1000000 10000000; fi
runs=${MFPRIO_BENCH_RUNS:-3}
need_time
mkdir -p "$work"

label() {
	case $1 in
	*000000) echo "$(($1 / 1000000))M" ;;
	*000) echo "$(($1 / 1000))k" ;;
	*) echo "$1" ;;
	esac
}

# median of the numbers on stdin (one a line)
median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-9s %9s %8s %22s %7s %8s %10s   %s\n' what-if records hist_MB \
	'wall_s min/med/max' user_s peak_MiB records/s 'load before/after'
for n in "$@"; do
	d=$work/replay-$(label "$n")
	make_history "$d" "$n"
	mb=$(($(wc -c <"$d/sacct.txt") / 1000000))
	for what in halflife share; do
		case $what in
		halflife) opt=--set val=PriorityDecayHalfLife=14-0 ;;
		share) opt=--share val=acct013=200 ;;
		esac
		load0=$(cut -d' ' -f1 /proc/loadavg)
		: >"$work/times.txt"
		i=0
		while [ "$i" -lt "$runs" ]; do
			i=$((i + 1))
			/usr/bin/time -f '%e %U %M' -a -o "$work/times.txt" \
				"$mfprio" replay --conf "$d/slurm.conf" \
				--assoc "$d/assoc.txt" --qos "$d/qos.txt" "$opt" "$val" \
				--table users "$d/sacct.txt" \
				>"$work/out-$what.txt" 2>"$work/err-$what.txt"
		done
		load1=$(cut -d' ' -f1 /proc/loadavg)
		wmin=$(cut -d' ' -f1 "$work/times.txt" | sort -n | head -1)
		wmax=$(cut -d' ' -f1 "$work/times.txt" | sort -n | tail -1)
		wmed=$(cut -d' ' -f1 "$work/times.txt" | median)
		umed=$(cut -d' ' -f2 "$work/times.txt" | median)
		peak=$(($(cut -d' ' -f3 "$work/times.txt" | sort -n | tail -1) / 1024))
		rate=$(awk "BEGIN { printf \"%d\", $n / $wmed }")
		printf '%-9s %9s %8s %22s %7s %8s %10s   %s/%s\n' "$what" "$n" \
			"$mb" "$wmin/$wmed/$wmax" "$umed" "$peak" "$rate" \
			"$load0" "$load1"
		echo "csv,$what,$n,$mb,$wmin,$wmed,$wmax,$umed,$peak,$rate,$load0,$load1"
	done
done
