#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source-path=SCRIPTDIR
# controller.sh: what the priority plugin costs a real slurmctld, upstream's
# installed priority_multifactor.so and ours on the same state, in one run.
#
# Usage: bench/controller.sh [JOBS...]      (default: 10000 50000 100000)
#
# For each job count N, on one test cluster (tests/cluster/cluster.sh):
#   1. a fresh cluster with ~1,100 associations: 100 accounts under root,
#      100 users (mfpb001..mfpb100, created as system users if missing), each
#      user in the 10 accounts of its group (10 groups: 1,000 user
#      associations); the node drained; N pending jobs submitted over those
#      associations (8 sbatch at a time);
#   2. for upstream's plugin, then ours, on the same saved state (slurmctld
#      restarted in between, jobs kept): wait for a decay cycle, then over
#      BENCH_CYCLES cycles measure
#        - the decay thread's CPU per cycle, from
#          /proc/PID/task/TID/schedstat (upstream's thread is named "decay",
#          ours "mfprio_decay");
#        - the longest stall of a job RPC: `squeue -j 1` (which needs the job
#          read lock) run back to back during the cycles; the longest answer
#          bounds how long the job write lock was held (the same probe for
#          both plugins); ours also reports its own lock time in
#          StateSaveLocation/mfprio_stats;
#        - `sprio -h` wall time (median of 3) and slurmctld's RSS;
#   3. a table, ours/upstream ratios, and BENCH_OUT/controller.csv for
#      bench/plot_controller.py.
#
# Environment:
#   MFPRIO_PLUGIN_SO         our installed plugin (required; see README)
#   MFPRIO_CLUSTER_INSTANCE  the test cluster (default 50)
#   MFPRIO_SLURM_PREFIX      a release under a prefix (default Debian's)
#   BENCH_CYCLES             decay cycles measured per plugin (default 3)
#   BENCH_OUT                output directory (default /tmp/mfprio-bench-controller)
# Runs as root; takes long (submitting 100,000 jobs alone takes minutes).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=controller
OUT=${BENCH_OUT:-/tmp/mfprio-bench-controller}

. "$here/ctld-lib.sh"
CYCLES=${BENCH_CYCLES:-3}
read -ra counts <<<"${*:-10000 50000 100000}"
csv=$OUT/controller.csv

exec 9>"$CLUSTER_LOCK"
flock -w 3600 9 || die "cannot lock $CLUSTER_LOCK"
trap '"$cl/cluster.sh" stop >/dev/null 2>&1 || true' EXIT

ctld_layout

# decay_tid PID NAME: the thread of PID named NAME
decay_tid() {
	local t
	for t in /proc/"$1"/task/*; do
		[[ $(cat "$t/comm" 2>/dev/null) == "$2" ]] && { echo "${t##*/}"; return; }
	done
}

# thread_ns PID TID: CPU time of the thread so far, in ns
thread_ns() { awk '{ print $1 }' "/proc/$1/task/$2/schedstat" 2>/dev/null; }

# measure LABEL THREAD N: one plugin's figures over CYCLES cycles
measure() {
	local label=$1 tname=$2 n=$3 pid tid s0 s c0 c1 probe ppid maxms rss sp
	pid=$(ctld_pid)
	s0=$(wait_cycle "$(stamp)") || die "$label: no decay cycle"
	tid=$(decay_tid "$pid" "$tname")
	[[ -n $tid ]] || die "$label: no thread named $tname in slurmctld $pid"
	c0=$(thread_ns "$pid" "$tid")
	probe=$OUT/probe-$label-$n.txt
	# the job-RPC probe, back to back, each answer's latency in ms
	(
		while :; do
			t0=$(date +%s%N)
			squeue -h -j 1 -o %i >/dev/null 2>&1
			echo $((($(date +%s%N) - t0) / 1000000))
		done
	) >"$probe" &
	ppid=$!
	s=$s0
	for _ in $(seq "$CYCLES"); do
		s=$(wait_cycle "$s") || die "$label: a cycle did not come"
	done
	c1=$(thread_ns "$pid" "$tid")
	kill "$ppid" 2>/dev/null
	wait "$ppid" 2>/dev/null
	maxms=$(sort -n "$probe" | tail -n 1)
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
	sp=$(for _ in 1 2 3; do
		t0=$(date +%s%N)
		sprio -h >/dev/null 2>&1
		echo $((($(date +%s%N) - t0) / 1000000))
	done | sort -n | sed -n 2p)
	echo "$n,$label,$(((c1 - c0) / CYCLES / 1000)),$maxms,$sp,$rss"
}

echo "jobs,plugin,decay_cpu_us_per_cycle,longest_job_rpc_ms,sprio_ms,rss_kb" >"$csv"
for n in "${counts[@]}"; do
	say "$n jobs: a fresh cluster ($SLURM_RELEASE, instance $CLUSTER_INSTANCE)"
	unset MFPRIO_PLUGIN_DIR
	MFPRIO_MAX_JOB_COUNT=$((n + 10000)) MFPRIO_CLUSTER_FRESH=1 \
		"$cl/cluster.sh" start >"$OUT/start-$n.log" 2>&1 || die "cluster start (see $OUT/start-$n.log)"
	add_associations
	scontrol update nodename="$NODE" state=drain reason=mfprio-bench
	t=$SECONDS
	bad=$(submit 0 "$n")
	say "$n jobs: submitted in $((SECONDS - t)) s ($bad refused)"
	export MFPRIO_MAX_JOB_COUNT=$((n + 10000))
	restart_with upstream
	measure upstream decay "$n" >>"$csv"
	restart_with ours
	measure ours mfprio_decay "$n" >>"$csv"
	cp "$STATE/mfprio_stats" "$OUT/mfprio_stats-$n.txt" 2>/dev/null
	unset MFPRIO_MAX_JOB_COUNT
	scancel --state=PENDING --quiet 2>/dev/null
done

say "results in $csv"
awk -F, 'NR > 1 { v[$1 "," $2] = $0; n[$1] = 1 }
	END {
		printf "%8s %-9s %14s %14s %10s %10s\n", "jobs", "plugin", "decay CPU/cyc", "longest RPC", "sprio", "RSS"
		for (j in n) for (p = 0; p < 2; p++) {
			lab = p ? "ours" : "upstream"; split(v[j "," lab], f, ",")
			printf "%8d %-9s %11.1f ms %11d ms %7d ms %7.0f MB\n", j, lab, f[3] / 1000, f[4], f[5], f[6] / 1024
		}
		for (j in n) {
			split(v[j ",upstream"], u, ","); split(v[j ",ours"], o, ",")
			printf "%8d ours/upstream: decay CPU %.2f, longest RPC %.2f, sprio %.2f, RSS %.2f\n", j,
				(u[3] ? o[3] / u[3] : 0), (u[4] ? o[4] / u[4] : 0), (u[5] ? o[5] / u[5] : 0), (u[6] ? o[6] / u[6] : 0)
		}
	}' "$csv" | sort -n
