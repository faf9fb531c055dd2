#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-no-state-charge.sh: slurmctld restarted without the plugin's state
# file while a job runs must not charge that job again for the time it was
# charged already.
#
# A 2-CPU job runs; a decay pass at least 30 s after its start charges it
# (about 2 x its run time so far).  slurmctld stops, priority_last_decay_ran
# and its .old are deleted, slurmctld starts.  Nothing tells the plugin up
# to when the job was charged: mfprio counts usage from its own start, so
# the next pass adds about 2 x (the time since the stop), never the job's
# whole run again.  Charging from the job's start would add at least 60
# more.  Usage already accounted stays (half-life 7 days: < 0.1% decay).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

CPUS=2
use_plugin ours
start_cluster "$here/priority-default.conf"

# raw_usage ACCOUNT USER: sshare's RawUsage of that association
raw_usage() {
	sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' |
		awk -F'|' -v a="$1" -v u="$2" '$1 == a && $2 == u { print $3; f = 1 } END { if (!f) print -1 }'
}

id=$(sbatch --parsable --uid=u1 -A b -n "$CPUS" -D /tmp -o /dev/null --wrap 'sleep 400')
check "a job of u1 submitted ($id)" test -n "$id"
end=$((SECONDS + 90))
until [[ $(squeue -h -j "$id" -o %T 2>/dev/null) == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
check "it runs" test "$(squeue -h -j "$id" -o %T 2>/dev/null)" = RUNNING
start=$(date +%s)

# a pass at least 30 s into its run charges it
wait_tick $((start + 30)) >/dev/null
before=$(raw_usage b u1)
check "charged before the restart ($before >= $((CPUS * 30)))" test "$before" -ge $((CPUS * 30))

stop_ctld
t_stop=$(date +%s)
rm -f "$STATE/priority_last_decay_ran" "$STATE/priority_last_decay_ran.old" \
	"$STATE/priority_last_decay_ran.new"
m=$(log_mark)
start_ctld nostate
check "slurmctld starts without the state file" ctld_alive
check "the log says usage counts from now" \
	log_has "$m" 'mfprio: usage of running jobs is charged from now'
wait_tick "$(date +%s)" >/dev/null
after=$(raw_usage b u1)
t_after=$(date +%s)
bound=$((CPUS * (t_after - t_stop) + 4))
say "usage of u1 in b: $before before the restart, $after after the first pass; $((after - before)) added in $((t_after - t_stop)) s (bound $bound)"
check "not charged again from the job's start (added $((after - before)) <= $bound)" \
	test $((after - before)) -le "$bound"
check "usage already accounted is kept ($after >= $before - 1)" test "$after" -ge $((before - 1))
check "the job still runs" test "$(squeue -h -j "$id" -o %T 2>/dev/null)" = RUNNING
scancel "$id" 2>/dev/null
finish
