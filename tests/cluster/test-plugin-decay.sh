#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-decay.sh: decay and resets of usage through mfprio's plugin.
#
#   - decay over a restart: with PriorityDecayHalfLife=5:00 (300 s), root's
#     RawUsage after slurmctld was down is RawUsage x D^(t1 - t0), t0 and t1
#     being the last pass before the stop and the first after the start
#     (read from the state file), D = 1 - 0.693/300, Slurm's factor;
#   - PriorityDecayHalfLife=0: no decay, usage unchanged from pass to pass;
#   - PriorityUsageResetPeriod=NOW: every association's usage is 0 after the
#     first pass.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin ours
export MFPRIO_PRIORITY_CONF=$out/priority.conf
{ cat "$here/priority-default.conf"; echo "PriorityDecayHalfLife=5:00"; } >"$MFPRIO_PRIORITY_CONF"
start_cluster "$MFPRIO_PRIORITY_CONF"
sacctmgr -i add qos uf UsageFactor=100000 >/dev/null 2>&1
sacctmgr -i modify user where name=u1 set qos+=uf >/dev/null
id=$(sbatch --parsable --uid=u1 -A b -n 2 --qos=uf -D /tmp -o /dev/null --wrap 'sleep 10')
end=$((SECONDS + 90))
while ((SECONDS < end)) && squeue -h -j "$id" 2>/dev/null | grep -q .; do sleep 1; done

root_usage() {
	sshare -n -P -o Account,User,RawUsage | awk -F'|' '$1 == "root" && $2 == "" { print $3 }'
}

# decay over a restart
wait_tick "$(date +%s)"
u0=$(root_usage)
t0=$(last_ran)
check "usage to decay ($u0)" test "${u0:-0}" -gt 1000000
stop_ctld
sleep 45
t=$(date +%s)
start_ctld decay
wait_tick "$t"
u1=$(root_usage)
t1=$(last_ran)
exp=$(awk -v u="$u0" -v d=$((t1 - t0)) 'BEGIN { printf "%.0f", u * (1 - 0.693 / 300) ^ d }')
say "root RawUsage $u0 at $t0, $u1 at $t1 (expected $exp after $((t1 - t0)) s)"
check "decay over a restart of $((t1 - t0)) s: $u1, expected $exp" \
	awk -v a="$u1" -v e="$exp" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= e * 1e-3 + 1) }'

# no decay
{ cat "$here/priority-default.conf"; echo "PriorityDecayHalfLife=0"; } >"$DIR/etc/priority.conf"
restart_ctld nodecay
a=$(root_usage)
wait_tick "$(date +%s)"
b=$(root_usage)
check "PriorityDecayHalfLife=0: usage unchanged over a pass ($a, $b)" test "${a:-0}" -gt 0 -a "$a" = "$b"

# reset now
{ cat "$here/priority-default.conf"; echo "PriorityUsageResetPeriod=NOW"; } >"$DIR/etc/priority.conf"
restart_ctld reset
sshare -a -n -P -o Account,User,RawUsage >"$out/reset.usage"
check "PriorityUsageResetPeriod=NOW: all usage is 0" \
	awk -F'|' '{ n++ } $3 != 0 { bad = 1 } END { exit bad || n == 0 }' "$out/reset.usage"
check "slurmctld is up" ctld_alive
finish
