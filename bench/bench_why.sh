#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time and peak memory of `mfprio why JOBID` (one job: why it waits) on a
# cluster of N pending jobs (default 100000), through the same code as the
# live command: its dumps in a snapshot directory (jobs, config, sprio,
# sshare, time), read and answered.  The worst case is taken: the jobs
# dump is a whole `scontrol -o show job` of the cluster (bench/gen_jobs.py,
# about 1 kB a job; the live command asks scontrol for the one job), the
# job asked about is its last line, and sshare lists every association
# (as `sshare -a` would), so nothing is skipped that a user's dumps
# would hold.
#
# Usage: bench/bench_why.sh [MFPRIO [WORKDIR [N]]]
#   MFPRIO   the binary (default: _build/bench/mfprio, else mfprio in PATH)
#   WORKDIR  where the dumps go (default /var/tmp/mfprio-bench); a dump
#            already there is reused
# Prints: jobs, sprio rows, wall s (the fastest of three runs: the
# machine is shared), peak RSS MB, and "csv,..." with the same; then the
# same for `mfprio report --html --user` of that job's user (all their
# pending jobs, and the page's size), and "csv-user,...".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
find_mfprio "${1:-}"
work=${2:-/var/tmp/mfprio-bench}
n=${3:-100000}
need_time
d=$work/$n
make_jobs "$d" "$n"
w=$d/why
mkdir -p "$w"
# jobs: the cluster's whole dump, the last job asked about
[ -e "$w/jobs" ] || ln -s "$d/jobs.txt" "$w/jobs"
job=$(tail -n 1 "$d/jobs.txt" | sed 's/^JobId=\([0-9]*\) .*/\1/')
echo 1700000000 >"$w/time"
cat >"$w/config" <<'EOF'
AccountingStorageEnforce = associations,limits,qos
FairShareDampeningFactor = 1
PriorityDecayHalfLife   = 7-00:00:00
PriorityCalcPeriod      = 00:05:00
PriorityFlags           = 
PriorityMaxAge          = 7-00:00:00
PriorityWeightAge       = 1000
PriorityWeightFairShare = 10000
PrivateData             = none
EOF
# sprio: a row per job and partition, the columns of MF_WAIT_SPRIO_FORMAT;
# priorities spread by a fixed hash of the job id
if [ ! -s "$w/sprio" ]; then
	awk '{
		id = substr($1, 7); u = ""; p = ""
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^UserId=/) { u = substr($i, 8); sub(/\(.*/, "", u) }
			if ($i ~ /^Partition=/) p = substr($i, 11)
		}
		np = split(p, parts, ",")
		for (k = 1; k <= np; k++) {
			age = (id * 7919 % 1000) / 1000
			fs = id * 104729 % 9000
			printf "%s|%s|%s|%d|%.7f|%d|0|%d|0|%d|0|0|0\n", id, parts[k],
				u, age * 1000 + fs + k * 500, age, age * 1000, fs, k * 500
		}
	}' "$d/jobs.txt" >"$w/sprio"
fi
# sshare: every association of the dump's tree, as sshare -a -P prints
if [ ! -s "$w/sshare" ]; then
	awk -F'|' '$2 == "" { printf " %s||0.010000|1000|0.010000||1.000000||cpu=16|cpu=0\n", $1; next }
		{ printf "  %s|%s|0.010000|100|0.010000|0.500000|1.000000||cpu=1|cpu=0\n", $1, $2 }' \
		"$d/assoc.txt" >"$w/sshare"
fi
rows=$(wc -l <"$w/sprio")
# best OUT ARGS...: mfprio ARGS three times, its output in OUT; the
# fastest run's wall seconds and peak RSS in best_t and best_m
best() {
	_o=$1
	shift
	best_t='' best_m=''
	for _ in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$work/time.txt" \
			"$mfprio" "$@" >"$_o"
		read -r t m <"$work/time.txt"
		if [ -z "$best_t" ] || awk "BEGIN { exit !($t < $best_t) }"; then
			best_t=$t best_m=$m
		fi
	done
}
best "$work/why.out" why "$job" --snapshot "$w"
grep -q "^Where it stands:" "$work/why.out" ||
	{ echo "$name: no answer:" >&2; cat "$work/why.out" >&2; exit 1; }
printf '%10s %10s %8s %9s\n' jobs sprio_rows wall_s peak_MB
printf '%10s %10s %8s %9s\n' "$n" "$rows" "$best_t" $((best_m / 1024))
echo "csv,$n,$rows,$best_t,$((best_m / 1024))"
# the user page of that job's user: every pending job of theirs described
# from the same dumps (report --user reads them once)
user=$(tail -n 1 "$d/jobs.txt" | sed 's/.* UserId=\([^(]*\)(.*/\1/')
mine=$(grep -c " UserId=$user(.* JobState=PENDING " "$d/jobs.txt" || true)
best "$work/user.out" report --html "$work/user.html" --user "$user" \
	--snapshot "$w"
printf '%10s %10s %8s %9s %9s\n' user_jobs sprio_rows wall_s peak_MB page_kB
printf '%10s %10s %8s %9s %9s\n' "$mine" "$rows" "$best_t" \
	$((best_m / 1024)) $(($(wc -c <"$work/user.html") / 1024))
echo "csv-user,$mine,$rows,$best_t,$((best_m / 1024))"
