#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time and peak memory of `mfprio priority` over generated dumps of 10k,
# 100k and 1M pending jobs (bench/gen_jobs.py), with GNU time.
#
# Usage: bench/bench_mfprio.sh [MFPRIO [WORKDIR [COUNTS...]]]
#   MFPRIO   the binary (default: _build/bench/mfprio, else mfprio in PATH)
#   WORKDIR  where the dumps go (default /var/tmp/mfprio-bench; 1M jobs
#            take 1.3 GB); a dump already there is reused
#   COUNTS   job counts (default: 10000 100000 1000000)
# Prints one line per count: jobs, dump MB, rows, wall s, peak RSS MB,
# then the same as CSV on the lines starting "csv,".  Each count is run
# three times and the fastest kept (the machine is shared).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
find_mfprio "${1:-}"
work=${2:-/var/tmp/mfprio-bench}
[ $# -gt 2 ] && shift 2 || set -- 10000 100000 1000000
need_time
mkdir -p "$work"
printf '%10s %9s %9s %8s %9s\n' jobs dump_MB rows wall_s peak_MB
for n in "$@"; do
	d=$work/$n
	make_jobs "$d" "$n"
	best_t='' best_m=''
	for _ in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$work/time.txt" \
			"$mfprio" priority --conf "$d/slurm.conf" \
			--qos "$d/qos.txt" --assoc "$d/assoc.txt" \
			--usage "$d/usage.txt" --jobs "$d/jobs.txt" \
			--now 1700000000 >"$work/out.txt"
		read -r t m <"$work/time.txt"
		if [ -z "$best_t" ] || awk "BEGIN { exit !($t < $best_t) }"; then
			best_t=$t best_m=$m
		fi
	done
	rows=$(($(wc -l <"$work/out.txt") - 1))
	mb=$(($(wc -c <"$d/jobs.txt") / 1000000))
	printf '%10s %9s %9s %8s %9s\n' "$n" "$mb" "$rows" "$best_t" \
		"$((best_m / 1024))"
	echo "csv,$n,$mb,$rows,$best_t,$((best_m / 1024))"
done
