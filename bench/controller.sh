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
# The busy controller (BENCH_RUNNING=R, R > 0): the node is declared with R
# CPUs (MFPRIO_NODE_CPUS; slurmd told to take it, config_overrides), not
# drained, and R one-CPU jobs that sleep for two days are started first, in
# batches of 100 (no batch more once MemAvailable falls under
# BENCH_MEM_FLOOR_MB): the node is full, so the N jobs submitted after them
# stay pending (Resources, Priority) and backfill (sched/backfill, the
# cluster's) works over them every bf_interval, while the decay thread
# charges the R running jobs every cycle.  Then, besides the figures
# above, per plugin, from uprobes (perf probe) on slurmctld's
# lock_slurmctld / unlock_slurmctld and libc's pthread_cond_timedwait /
# pthread_cond_clockwait, recorded for the decay thread alone (perf record
# -t): every hold of a slurmctld lock by the thread (from lock_slurmctld's
# return to unlock_slurmctld: the longest, their count and sum a pass), its
# waits for the lock (lock_slurmctld's entry to return), and each pass
# from the thread's wake out of its timed wait to its next wait (the
# CYCLES longest such spans: ours also wakes between ticks to sweep ended
# jobs, short spans left out); ours's own mfprio_stats after each cycle
# (wall_ms, job_lock_longest_ms); sdiag's backfill and main-scheduler
# cycle figures over the same cycles (sdiag -r first); MemAvailable and the
# load average.  The figures go to BENCH_OUT/controller-busy.csv.
# BENCH_PROBES=1 takes these figures with the node drained and no job
# running (BENCH_RUNNING=0) too.
#
# Environment:
#   MFPRIO_PLUGIN_SO         our installed plugin (required; see README)
#   MFPRIO_CLUSTER_INSTANCE  the test cluster (default 50)
#   MFPRIO_SLURM_PREFIX      a release under a prefix (default Debian's)
#   BENCH_CYCLES             decay cycles measured per plugin (default 3)
#   BENCH_OUT                output directory (default /tmp/mfprio-bench-controller)
#   BENCH_RUNNING            jobs running meanwhile (default 0: the node drained)
#   BENCH_PROBES             the busy figures (default 1 if BENCH_RUNNING > 0)
#   BENCH_MEM_FLOOR_MB       no more running jobs below this MemAvailable
#                            (default 6144)
# Runs as root; takes long (submitting 100,000 jobs alone takes minutes).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=controller
OUT=${BENCH_OUT:-/tmp/mfprio-bench-controller}

. "$here/ctld-lib.sh"
CYCLES=${BENCH_CYCLES:-3}
read -ra counts <<<"${*:-10000 50000 100000}"
csv=$OUT/controller.csv
RUNNING=${BENCH_RUNNING:-0}
[[ $RUNNING =~ ^[0-9]+$ ]] || die "BENCH_RUNNING=$RUNNING is not a number"
PROBES=${BENCH_PROBES:-$((RUNNING > 0))}
MEM_FLOOR=${BENCH_MEM_FLOOR_MB:-6144}
bcsv=$OUT/controller-busy.csv
if ((PROBES)); then
	command -v perf >/dev/null || die "perf is missing (apt-get install linux-perf)"
fi

exec 9>"$CLUSTER_LOCK"
flock -w 3600 9 || die "cannot lock $CLUSTER_LOCK"
cleanup() {
	((PROBES)) && perf probe -q -d 'mfpbb:*' 2>/dev/null
	((RUNNING)) && ctld_pid >/dev/null && cancel_all
	"$cl/cluster.sh" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

ctld_layout

# rpc_probe: the job-RPC probe, back to back: each answer's latency in ms,
# a line each, until killed (squeue -j needs the job read lock)
rpc_probe() {
	local t0
	while :; do
		t0=$(date +%s%N)
		squeue -h -j 1 -o %i >/dev/null 2>&1
		echo $((($(date +%s%N) - t0) / 1000000))
	done
}

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
	rpc_probe >"$probe" &
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

# ---------------------------------------------------------------- busy

# The uprobes: slurmctld's lock calls, libc's timed waits (by address: libc
# keeps an older pthread_cond_timedwait beside the one programs link to).
add_probes() {
	local exe libc tw cw
	exe=$(readlink -f "$SLURM_SBIN/slurmctld")
	libc=$(ldd "$exe" | awk '$1 == "libc.so.6" { print $3 }')
	libc=$(readlink -f "$libc")
	tw=$(nm -D "$libc" | awk '$3 == "pthread_cond_timedwait@@GLIBC_2.3.2" { print $1 }')
	cw=$(nm -D "$libc" | awk '$3 ~ /^pthread_cond_clockwait@@/ { print $1 }')
	[[ -n $tw ]] || die "no pthread_cond_timedwait in $libc"
	perf probe -q -d 'mfpbb:*' 2>/dev/null
	perf probe -q -x "$exe" -a mfpbb:lk=lock_slurmctld \
		-a mfpbb:lkr=lock_slurmctld%return -a mfpbb:ulk=unlock_slurmctld ||
		die "perf probe on $exe failed"
	perf probe -q -x "$libc" -a "mfpbb:tw=0x$tw" -a "mfpbb:twr=0x$tw%return" ||
		die "perf probe on $libc failed"
	if [[ -n $cw ]]; then
		perf probe -q -x "$libc" -a "mfpbb:cw=0x$cw" -a "mfpbb:cwr=0x$cw%return" ||
			die "perf probe on $libc failed"
	fi
}

# probe_figures FILE CYCLES: from the decay thread's events in perf data
# FILE from its first wake on, "longest hold ms, holds a pass, hold ms a
# pass, longest wait ms, longest pass ms, mean pass ms" (the CYCLES longest
# wake-to-wait spans are the passes)
probe_figures() {
	perf script -i "$1" -F time,event 2>/dev/null | awk -v cyc="$2" '
		{ t = $1; sub(/:$/, "", t); ev = $2; sub(/:$/, "", ev); sub(/^mfpbb:/, "", ev) }
		!on && ev !~ /^(tw|cw)r/ { next }
		{ on = 1 }
		ev == "lk" { lk = t }
		ev ~ /^lkr/ { if (lk && t - lk > wmax) wmax = t - lk; held = t; lk = 0 }
		ev == "ulk" && held { h = t - held; if (h > hmax) hmax = h; hsum += h; nh++; held = 0 }
		ev == "tw" || ev == "cw" { if (woke) span[++ns] = t - woke; woke = 0 }
		ev ~ /^(tw|cw)r/ { woke = t }
		END {
			# the CYCLES longest spans, by selection (few spans)
			for (k = 1; k <= cyc && k <= ns; k++) {
				m = 0; for (i = 1; i <= ns; i++) if (!(i in used) && (!m || span[i] > span[m])) m = i
				used[m] = 1; psum += span[m]; if (span[m] > pmax) pmax = span[m]; np++
			}
			printf "%.3f,%.1f,%.3f,%.3f,%.3f,%.3f\n", hmax * 1e3, nh / cyc, hsum * 1e3 / cyc,
				wmax * 1e3, pmax * 1e3, (np ? psum * 1e3 / np : 0)
		}'
}

# sdiag_figures: "backfill cycles, mean ms, max ms, mean depth, main
# scheduler cycles, mean ms, max ms" since the last sdiag -r
sdiag_figures() {
	sdiag 2>/dev/null | awk '
		/^Main schedule statistics/ { sec = "m" }
		/^Backfilling stats/ { sec = "b" }
		/^(Latency|Remote|Pending RPC|Remote Procedure)/ { sec = "" }
		sec != "" {
			line = $0; sub(/^[ \t]+/, "", line); k = line; sub(/:.*/, "", k); v = line; sub(/^[^:]*:[ \t]*/, "", v)
			f[sec, k] = v + 0
		}
		END {
			printf "%d,%.1f,%.1f,%.0f,%d,%.1f,%.1f\n", f["b", "Total cycles"], f["b", "Mean cycle"] / 1e3,
				f["b", "Max cycle"] / 1e3, f["b", "Depth Mean"], f["m", "Total cycles"],
				f["m", "Mean cycle"] / 1e3, f["m", "Max cycle"] / 1e3
		}'
}

# stat_of FILE KEY: a value of a mfprio_stats copy
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1" 2>/dev/null; }

# measure_busy LABEL THREAD N: one plugin's busy figures over CYCLES cycles
measure_busy() {
	local label=$1 tname=$2 n=$3 pid tid s c0 c1 probe ppid maxms rss sp
	local data perf_pid pf sd i wall lock wmax lmax mem load run
	pid=$(ctld_pid)
	s=$(wait_cycle "$(stamp)") || die "$label: no decay cycle"
	tid=$(decay_tid "$pid" "$tname")
	[[ -n $tid ]] || die "$label: no thread named $tname in slurmctld $pid"
	data=$OUT/perf-$label-$n.data
	perf record -q -o "$data" -e 'mfpbb:*' -t "$tid" >/dev/null 2>&1 &
	perf_pid=$!
	# a return probe fires only for a call entered once it is in place: the
	# wait the thread is in now ends unseen, so one pass more first (the
	# figures start at the first wake seen)
	s=$(wait_cycle "$s") || die "$label: a cycle did not come"
	sdiag -r >/dev/null 2>&1
	c0=$(thread_ns "$pid" "$tid")
	probe=$OUT/probe-$label-$n.txt
	rpc_probe >"$probe" &
	ppid=$!
	wmax=0 lmax=0
	for i in $(seq "$CYCLES"); do
		s=$(wait_cycle "$s") || die "$label: a cycle did not come"
		if [[ $label == ours ]]; then
			cp "$STATE/mfprio_stats" "$OUT/mfprio_stats-$n-$i.txt" 2>/dev/null
			wall=$(stat_of "$OUT/mfprio_stats-$n-$i.txt" wall_ms)
			lock=$(stat_of "$OUT/mfprio_stats-$n-$i.txt" job_lock_longest_ms)
			wmax=$(awk -v a="$wmax" -v b="${wall:-0}" 'BEGIN { print (b > a ? b : a) }')
			lmax=$(awk -v a="$lmax" -v b="${lock:-0}" 'BEGIN { print (b > a ? b : a) }')
		fi
	done
	sleep 1
	c1=$(thread_ns "$pid" "$tid")
	sd=$(sdiag_figures)
	kill "$ppid" 2>/dev/null
	wait "$ppid" 2>/dev/null
	kill -INT "$perf_pid" 2>/dev/null
	wait "$perf_pid" 2>/dev/null
	pf=$(probe_figures "$data" "$CYCLES")
	maxms=$(sort -n "$probe" | tail -n 1)
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
	mem=$(mem_avail_mb)
	load=$(cut -d' ' -f1 /proc/loadavg)
	{	# what else the machine was doing: load, other clusters, top CPU
		uptime
		echo "slurmctld processes: $(pgrep -c -x slurmctld)"
		free -m
		ps -e -o pcpu=,pid=,comm= --sort=-pcpu | head -n 15
	} >"$OUT/machine-$label-$n.txt" 2>&1
	run=$(running_count)
	sp=$(for _ in 1 2 3; do
		t0=$(date +%s%N)
		sprio -h >/dev/null 2>&1
		echo $((($(date +%s%N) - t0) / 1000000))
	done | sort -n | sed -n 2p)
	[[ $label == ours ]] || wmax="" lmax=""
	echo "$n,$run,$label,$(((c1 - c0) / CYCLES / 1000)),$pf,$wmax,$lmax,$maxms,$sd,$sp,$rss,$mem,$load"
}

# busy_table CSV: the busy figures, a row a plugin, and ours/upstream
busy_table() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = $1 "," $3; for (i = 1; i <= NF; i++) v[k, i] = $i; n[$1] = $2 }
		function g(k, name) { return v[k, c[name]] }
		END {
			printf "%8s %5s %-8s %9s %9s %7s %9s %9s %9s %9s %9s %9s %7s %6s\n", "pending", "run",
				"plugin", "CPU/pass", "pass", "holds", "hold/pass", "max hold", "max wait",
				"job RPC", "bf mean", "bf max", "sprio", "RSS"
			for (j in n) for (p = 0; p < 2; p++) {
				k = j "," (p ? "ours" : "upstream")
				printf "%8d %5d %-8s %6.1f ms %6.1f ms %7.1f %6.1f ms %6.1f ms %6.1f ms %6d ms %6.0f ms %6.0f ms %4d ms %3.0f MB\n",
					j, g(k, "running"), p ? "ours" : "upstream", g(k, "decay_cpu_us_per_pass") / 1000,
					g(k, "pass_mean_ms"), g(k, "lock_holds_per_pass"), g(k, "lock_hold_ms_per_pass"),
					g(k, "lock_hold_longest_ms"), g(k, "lock_wait_longest_ms"), g(k, "longest_job_rpc_ms"),
					g(k, "bf_mean_ms"), g(k, "bf_max_ms"), g(k, "sprio_ms"), g(k, "rss_kb") / 1024
			}
			for (j in n) {
				u = j ",upstream"; o = j ",ours"
				printf "%8d ours/upstream: decay CPU %.2f, pass %.2f, lock a pass %.2f, longest hold %.2f, job RPC %.2f, backfill mean %.2f, sprio %.2f\n",
					j, r(o, u, "decay_cpu_us_per_pass"), r(o, u, "pass_mean_ms"),
					r(o, u, "lock_hold_ms_per_pass"), r(o, u, "lock_hold_longest_ms"),
					r(o, u, "longest_job_rpc_ms"), r(o, u, "bf_mean_ms"), r(o, u, "sprio_ms")
				printf "%8d ours (mfprio_stats): pass wall up to %.1f ms, longest hold up to %.1f ms\n",
					j, g(o, "ours_wall_ms_max"), g(o, "ours_lock_longest_ms_max")
			}
		}
		function r(o, u, name) { return g(u, name) + 0 ? g(o, name) / g(u, name) : 0 }' "$1" | sort -n
}

# start_running R: R running jobs, in batches of 100 while MemAvailable
# stays above MEM_FLOOR; prints how many run
start_running() {
	local want=$1 have=0 b end m0
	m0=$(mem_avail_mb)
	while ((have < want)); do
		if (($(mem_avail_mb) < MEM_FLOOR)); then
			say "MemAvailable $(mem_avail_mb) MiB < $MEM_FLOOR: no more running jobs"
			break
		fi
		b=$((want - have < 100 ? want - have : 100))
		submit_running $((1000000 + have)) "$b" >/dev/null
		have=$((have + b))
		end=$((SECONDS + 600))
		while (($(running_count) < have)) && ((SECONDS < end)); do sleep 2; done
		say "$(running_count) jobs running; MemAvailable $(mem_avail_mb) MiB (was $m0)"
	done
	running_count
}

busy_header="pending,running,plugin,decay_cpu_us_per_pass,lock_hold_longest_ms,lock_holds_per_pass,lock_hold_ms_per_pass,lock_wait_longest_ms,pass_longest_ms,pass_mean_ms,ours_wall_ms_max,ours_lock_longest_ms_max,longest_job_rpc_ms,bf_cycles,bf_mean_ms,bf_max_ms,bf_depth_mean,sched_cycles,sched_mean_ms,sched_max_ms,sprio_ms,rss_kb,mem_avail_mb,load1"

if ((PROBES)); then
	echo "$busy_header" >"$bcsv"
else
	echo "jobs,plugin,decay_cpu_us_per_cycle,longest_job_rpc_ms,sprio_ms,rss_kb" >"$csv"
fi
((PROBES)) && add_probes
if ((RUNNING)); then
	export MFPRIO_NODE_CPUS=$RUNNING
fi
for n in "${counts[@]}"; do
	say "$n jobs: a fresh cluster ($SLURM_RELEASE, instance $CLUSTER_INSTANCE)"
	unset MFPRIO_PLUGIN_DIR
	MFPRIO_MAX_JOB_COUNT=$((n + RUNNING + 10000)) MFPRIO_CLUSTER_FRESH=1 \
		"$cl/cluster.sh" start >"$OUT/start-$n.log" 2>&1 || die "cluster start (see $OUT/start-$n.log)"
	add_associations
	if ((RUNNING)); then
		say "$n jobs: MemAvailable $(mem_avail_mb) MiB before the running jobs"
		t=$SECONDS
		run=$(start_running "$RUNNING")
		say "$n jobs: $run running after $((SECONDS - t)) s"
	else
		scontrol update nodename="$NODE" state=drain reason=mfprio-bench
	fi
	t=$SECONDS
	bad=$(submit 0 "$n")
	say "$n jobs: submitted in $((SECONDS - t)) s ($bad refused)"
	export MFPRIO_MAX_JOB_COUNT=$((n + RUNNING + 10000))
	restart_with upstream
	if ((PROBES)); then
		measure_busy upstream decay "$n" >>"$bcsv"
	else
		measure upstream decay "$n" >>"$csv"
	fi
	restart_with ours
	if ((PROBES)); then
		measure_busy ours mfprio_decay "$n" >>"$bcsv"
	else
		measure ours mfprio_decay "$n" >>"$csv"
	fi
	cp "$STATE/mfprio_stats" "$OUT/mfprio_stats-$n.txt" 2>/dev/null
	unset MFPRIO_MAX_JOB_COUNT
	if ((RUNNING)); then
		cancel_all
	else
		scancel --state=PENDING --quiet 2>/dev/null
	fi
done

if ((PROBES)); then
	say "results in $bcsv"
	busy_table "$bcsv"
	exit 0
fi
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
