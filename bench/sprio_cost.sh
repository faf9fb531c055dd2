#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source-path=SCRIPTDIR
# sprio_cost.sh: what one sprio request costs slurmctld, upstream's
# installed priority_multifactor.so and ours on the same state, in one run.
#
# Usage: bench/sprio_cost.sh [JOBS...]      (default: 10000 50000 100000)
#
# One test cluster (bench/ctld-lib.sh: ~1,100 associations, the node
# drained); the pending jobs are submitted up to each count in turn (the
# counts in increasing order, the jobs kept between them).  At each count,
# for upstream's plugin, then ours (slurmctld restarted between them, the
# same jobs), after a decay cycle has ended, each of four requests is sent
# BENCH_REPEAT times: `sprio`, `sprio -l`, `sprio -w` and `sprio -j ID` of
# one pending job.  For each request:
#   ctld   slurmctld's time for the RPC (sdiag -r before it; sdiag's
#          REQUEST_PRIORITY_FACTORS total_time after it): from the request
#          read to the answer sent and the list freed, locks included;
#   list   the plugin's priority_p_get_priority_factors_list, entry to
#          return, from two uprobes (perf probe) on the loaded plugin: in
#          22.05 the job read lock is taken and released inside it (the
#          lock's hold is this time); from 23.02 slurmctld takes the lock
#          around the list, the packing and the send (the hold is about
#          ctld);
#   wall   the sprio command's wall time; wall - ctld is the client's part
#          (connecting, receiving, sorting, printing) and the config
#          request sprio sends first.
# The median of the repeats is printed, and ours/upstream per request.
# BENCH_OUT/sprio_cost.csv keeps every figure.
#
# Environment: as bench/ctld-lib.sh (MFPRIO_PLUGIN_SO required), and
#   BENCH_REPEAT   requests of each kind per plugin (default 5)
#   BENCH_OUT      output directory (default /tmp/mfprio-bench-sprio)
# Runs as root; the jobs' submission takes most of the time (about 300
# jobs a second).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=sprio_cost
OUT=${BENCH_OUT:-/tmp/mfprio-bench-sprio}

. "$here/ctld-lib.sh"
REPEAT=${BENCH_REPEAT:-5}
read -ra counts <<<"${*:-10000 50000 100000}"
csv=$OUT/sprio_cost.csv
command -v perf >/dev/null || die "perf is missing (apt-get install linux-perf)"

exec 9>"$CLUSTER_LOCK"
flock -w 3600 9 || die "cannot lock $CLUSTER_LOCK"
probes=()
cleanup() {
	local p
	for p in "${probes[@]}"; do perf probe -q -d "$p" 2>/dev/null; done
	"$cl/cluster.sh" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

# probe_so FILE TAG: uprobes on FILE's factors list, entry and return
probe_so() {
	local f=priority_p_get_priority_factors_list
	perf probe -q -d "probe_priority_multifactor:$2*" 2>/dev/null
	perf probe -q -x "$1" -a "${2}_in=$f" -a "${2}_out=$f%return" ||
		die "perf probe on $1 failed"
	probes+=("probe_priority_multifactor:${2}_*")
}
up_so=$SLURM_PLUGIN_DIR/priority_multifactor.so
[[ -f $up_so ]] || die "no upstream plugin at $up_so"
probe_so "$(readlink -f "$up_so")" mfpup
probe_so "$(readlink -f "$so")" mfpours

# sdiag_us: slurmctld's total time for REQUEST_PRIORITY_FACTORS since the
# last reset, in microseconds (0: none)
sdiag_us() {
	sdiag 2>/dev/null | awk '$1 == "REQUEST_PRIORITY_FACTORS" {
		for (i = 1; i <= NF; i++) if ($i ~ /^total_time:/) { sub(/.*:/, "", $i); t = $i } }
		END { print t + 0 }'
}

# list_us TAG FILE: the factors list's times (us) in perf data FILE
list_us() {
	perf script -i "$2" -F event,time 2>/dev/null | awk -v tag="$1" '
		{ t = $1; sub(/:$/, "", t); ev = $2 }
		ev ~ tag "_in" { t0 = t }
		ev ~ tag "_out" && t0 { printf "%d\n", (t - t0) * 1e6; t0 = 0 }'
}

# request N PLUGIN KIND ARGS...: REPEAT requests; one CSV line each
request() {
	local n=$1 plugin=$2 kind=$3 tag pid i t0 wall ctld data lists
	shift 3
	tag=mfpup; [[ $plugin == ours ]] && tag=mfpours
	pid=$(ctld_pid)
	data=$OUT/perf-$n-$plugin-$kind.data
	perf record -q -o "$data" -e "probe_priority_multifactor:${tag}_in" \
		-e "probe_priority_multifactor:${tag}_out__return" -p "$pid" >/dev/null 2>&1 &
	local perf_pid=$!
	sleep 1
	for i in $(seq "$REPEAT"); do
		sdiag -r >/dev/null 2>&1
		t0=$(date +%s%N)
		sprio "$@" >/dev/null 2>&1 || say "sprio $* failed"
		wall=$((($(date +%s%N) - t0) / 1000))
		ctld=$(sdiag_us)
		echo "$n,$plugin,$kind,$i,$ctld,$wall"
	done >"$OUT/req.tmp"
	kill -INT "$perf_pid" 2>/dev/null
	wait "$perf_pid" 2>/dev/null
	mapfile -t lists < <(list_us "$tag" "$data")
	awk -F, -v l="${lists[*]}" 'BEGIN { split(l, v, " ") }
		{ print $0 "," (v[NR] == "" ? "" : v[NR]) }' "$OUT/req.tmp" >>"$csv"
}

measure() {
	local n=$1 plugin=$2 job
	restart_with "$plugin"
	wait_cycle "$(stamp)" >/dev/null || die "$plugin: no decay cycle"
	job=$(squeue -h -t PD -o %i | sort -n | head -n 1)
	request "$n" "$plugin" sprio -h
	request "$n" "$plugin" sprio-l -h -l
	request "$n" "$plugin" sprio-w -h -w
	request "$n" "$plugin" sprio-j -h -j "$job"
}

ctld_layout
unset MFPRIO_PLUGIN_DIR
max=0
for n in "${counts[@]}"; do ((n > max)) && max=$n; done
MFPRIO_MAX_JOB_COUNT=$((max + 10000)) MFPRIO_CLUSTER_FRESH=1 \
	"$cl/cluster.sh" start >"$OUT/start.log" 2>&1 || die "cluster start (see $OUT/start.log)"
export MFPRIO_MAX_JOB_COUNT=$((max + 10000))
add_associations
scontrol update nodename="$NODE" state=drain reason=mfprio-bench
echo "jobs,plugin,request,repeat,ctld_us,wall_us,list_us" >"$csv"
have=0
for n in "${counts[@]}"; do
	if ((n > have)); then
		t=$SECONDS
		bad=$(submit "$have" $((n - have)))
		say "$n jobs: $((n - have)) submitted in $((SECONDS - t)) s ($bad refused)"
		have=$n
	fi
	measure "$n" upstream
	measure "$n" ours
done

say "every figure in $csv"
python3 "$here/sprio_cost_table.py" "$csv"
