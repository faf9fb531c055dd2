#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-stats.sh: the plugin measures its own decay cycles.
#
# With the node drained, four pending jobs (one in two partitions: still one
# job record) and one held job: after a cycle, StateSaveLocation/mfprio_stats
# says 4 priorities recomputed and the held job skipped, the cycle count and
# the lock and CPU times are numbers, and under DebugFlags=Priority with
# the verbose log level (set at run time with scontrol) the log has the
# cycle's line.  The metrics file (PriorityParameters=mfprio_metrics_file=)
# of that cycle has sshare's fair-share figures and sprio's pending jobs.
# Then sprio, sshare, a reconfigure and a job's end: no
# entry point read the settings outside its scope (mfp_settings.h).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin ours
# with the metrics file (PriorityParameters, other items left alone), in
# StateSaveLocation, which user slurm writes
{ cat "$here/priority-default.conf"
  echo "PriorityParameters=site_knob=1,mfprio_metrics_file=$STATE/mfprio.prom"; } >"$out/priority.conf"
start_cluster "$out/priority.conf"
drain mfprio-stats
j1=$(sub --uid=u1 -A b -p debug)
j2=$(sub --uid=u2 -A c -p big)
j3=$(sub --uid=u2 -A c -p debug,big)
j4=$(sub --uid=u5 -A f -p debug)
j5=$(sub --uid=u4 -A e -p debug --hold)
# log_flag lines are at the verbose level
scontrol setdebug verbose >/dev/null
scontrol setdebugflags +Priority >/dev/null
m=$(log_mark)
wait_tick "$(date +%s)"
wait_tick "$(date +%s)"
f=$STATE/mfprio_stats
cp "$f" "$out/mfprio_stats" 2>/dev/null
# stat KEY: its value in the file
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$f" 2>/dev/null; }
check "$f is there" test -s "$f"
check "a cycle count ($(stat_of cycle))" grep -qE '^cycle [1-9][0-9]*$' "$f"
check "4 priorities recomputed ($(stat_of jobs_recomputed))" test "$(stat_of jobs_recomputed)" = 4
check "the held job skipped ($(stat_of jobs_skipped))" test "$(stat_of jobs_skipped)" -ge 1
check "jobs in all >= 5 ($(stat_of jobs_total))" test "$(stat_of jobs_total)" -ge 5
# a cycle after the associations came in built the association tree,
# the next one kept it
check "the tree kept by the second cycle ($(stat_of fairshare_tree_built))" test "$(stat_of fairshare_tree_built)" = 0
check "a tree built since the start ($(stat_of fairshare_tree_builds))" test "$(stat_of fairshare_tree_builds)" -ge 1
for k in job_lock_ms job_lock_priorities_ms job_lock_longest_ms thread_cpu_ms assoc_lock_ms wall_ms job_lock_ms_max; do
	check "$k is a duration in ms ($(stat_of $k))" \
		awk -v v="$(stat_of $k)" 'BEGIN { exit !(v ~ /^[0-9]+\.[0-9]+$/ && v < 60000) }'
done
check "the lock is held no longer than the cycle lasts" \
	awk -v l="$(stat_of job_lock_ms)" -v w="$(stat_of wall_ms)" 'BEGIN { exit !(l <= w) }'
check "no single hold longer than all holds together ($(stat_of job_lock_longest_ms) <= $(stat_of job_lock_ms))" \
	awk -v m="$(stat_of job_lock_longest_ms)" -v l="$(stat_of job_lock_ms)" 'BEGIN { exit !(m <= l) }'
# a few jobs take one slice each (2 ms of the lock covers thousands)
check "priorities set in one slice here ($(stat_of job_lock_priorities_slices))" \
	test "$(stat_of job_lock_priorities_slices)" = 1
check "usage charged in one slice here ($(stat_of job_lock_charge_slices))" \
	test "$(stat_of job_lock_charge_slices)" = 1
# the metrics file of the same cycle: its fair-share figures are sshare's
# (nothing runs, so nothing changes before the next tick)
sshare -a -l -P >"$out/sshare" 2>&1
cp "$STATE/mfprio.prom" "$out/mfprio.prom" 2>/dev/null
for fam in mfprio_assoc_shares_norm_ratio mfprio_assoc_usage_raw_seconds \
	mfprio_assoc_usage_effective_ratio mfprio_assoc_fairshare_ratio \
	mfprio_assoc_level_fairshare; do
	check "metrics file: $fam equals sshare -a -l -P" \
		sh -c "python3 '$here/metrics-compare.py' --file '$out/mfprio.prom' --family $fam --sshare '$out/sshare' >'$out/cmp.$fam' 2>&1"
done
check "metrics file: pending jobs per user and partition equal sprio -l" \
	sh -c "sprio -l >'$out/sprio' 2>&1 && python3 '$here/metrics-compare.py' --file '$out/mfprio.prom' --family mfprio_pending_jobs --sprio '$out/sprio' >'$out/cmp.pending' 2>&1"
check "metrics file: the cycle's jobs recomputed = mfprio_stats's" \
	test "$(awk '/^mfprio_cycle_jobs\{.*state="recomputed"/ { print $2 }' "$out/mfprio.prom")" = "$(stat_of jobs_recomputed)"
check "the log has the cycle line (DebugFlags=Priority)" \
	log_has "$m" 'mfprio: cycle [0-9]+: job write lock [0-9.]+ ms \(charge [0-9.]+ in [0-9]+ slices \+ priorities [0-9.]+ in [0-9]+ slices, longest hold [0-9.]+\), assoc lock [0-9.]+ ms \(tree (built|kept)\), thread CPU [0-9.]+ ms, wall [0-9.]+ ms; jobs: 4 recomputed, [0-9]+ changed, [0-9]+ skipped, [0-9]+ in all'
# every entry point once more with the flag on: sprio, sshare, a
# reconfigure (settings replaced whole), a job that ends
sprio -l >/dev/null 2>&1
sshare -a -l >/dev/null 2>&1
scontrol reconfigure >/dev/null 2>&1
sleep 3
sprio -l >"$out/sprio.after-reconfigure" 2>&1
check "sprio still lists the 4 pending jobs after a reconfigure" \
	test "$(awk 'NR > 1 { print $1 }' "$out/sprio.after-reconfigure" | sort -u | wc -l)" -eq 4
scontrol update nodename="$NODE" state=resume
scancel "$j2" "$j3" "$j4"
end=$((SECONDS + 60))
until [[ $(scontrol show job "$j1" 2>/dev/null | grep -o 'JobState=[A-Z]*') == JobState=COMPLETED ]] ||
	((SECONDS > end)); do sleep 1; done
wait_tick "$(date +%s)"
check "every read of the settings was inside a scope (DebugFlags=Priority log)" \
	log_lacks "$m" 'mfprio: settings read outside a scope'
scontrol setdebugflags -Priority >/dev/null
scontrol setdebug info >/dev/null
scancel "$j1" "$j5" 2>/dev/null
finish
