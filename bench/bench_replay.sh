#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time and peak memory of `mfprio replay` under two settings (the
# generated slurm.conf, and --set PriorityDecayHalfLife=14-0) over
# generated years of history (bench/gen_history.py), with GNU time.
#
# Usage: bench/bench_replay.sh [MFPRIO [WORKDIR [COUNTS...]]]
#   MFPRIO   the binary (default: _build/bench/mfprio, else mfprio in PATH)
#   WORKDIR  where the histories go (default /var/tmp/mfprio-bench-replay;
#            10M records take 1.9 GB); a history already there is reused
#   COUNTS   record counts (default: 1000000 10000000)
# MFPRIO_BENCH_RUNS: runs per count, the fastest kept (default 1: the
# machine is shared, so say how loaded it was: the load average is printed)
# Prints one line per count: records, history MB, wall s, user s, peak RSS
# MB, then the same as CSV on the lines starting "csv,".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mfprio=${1:-}
if [ -z "$mfprio" ]; then
	if [ -x "$here/../_build/bench/mfprio" ]; then
		mfprio=$here/../_build/bench/mfprio
	else
		mfprio=$(command -v mfprio)
	fi
fi
work=${2:-/var/tmp/mfprio-bench-replay}
if [ $# -gt 2 ]; then shift 2; else set -- 1000000 10000000; fi
runs=${MFPRIO_BENCH_RUNS:-1}
if [ ! -x /usr/bin/time ]; then
	echo "bench_replay: /usr/bin/time is missing (apt-get install time)" >&2
	exit 1
fi
mkdir -p "$work"
TZ=UTC
export TZ
printf '%10s %10s %8s %8s %9s   %s\n' records history_MB wall_s user_s \
	peak_MB load
for n in "$@"; do
	d=$work/$n
	[ -s "$d/sacct.txt" ] || python3 "$here/gen_history.py" "$d" "$n"
	best_t='' best_u='' best_m=''
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		load=$(cut -d' ' -f1 /proc/loadavg)
		/usr/bin/time -f '%e %U %M' -o "$work/time.txt" \
			"$mfprio" replay --conf "$d/slurm.conf" \
			--assoc "$d/assoc.txt" --qos "$d/qos.txt" \
			--set PriorityDecayHalfLife=14-0 --table users \
			"$d/sacct.txt" >"$work/out.txt" 2>"$work/err.txt"
		read -r t u m <"$work/time.txt"
		if [ -z "$best_t" ] || awk "BEGIN { exit !($t < $best_t) }"; then
			best_t=$t best_u=$u best_m=$m
		fi
	done
	mb=$(($(wc -c <"$d/sacct.txt") / 1000000))
	printf '%10s %10s %8s %8s %9s   %s\n' "$n" "$mb" "$best_t" "$best_u" \
		"$((best_m / 1024))" "$load"
	echo "csv,$n,$mb,$best_t,$best_u,$((best_m / 1024)),$load"
done
