#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-crash-usage.sh: a controller killed (SIGKILL) while jobs run loses
# at most one PriorityCalcPeriod of their usage: the plugin's own record
# (StateSaveLocation/mfprio_usage, written after each tick) is taken at the
# next start where it is newer than slurmctld's saved assoc_usage; a record
# that cannot be trusted is named in the log and left alone.
#
#   1. two 1-CPU jobs (the test node has 2 CPUs) of two associations run
#      JOB_SECS seconds from zero usage; after two ticks of their run
#      slurmctld is SIGKILLed and started again; once they have ended, each
#      association holds its job's CPU-seconds as sacct has them, within
#      10%.  (slurmctld saves
#      assoc_usage every 5 minutes: without the record whatever was charged
#      since is lost; upstream lost 46% of such jobs.)
#   2. records that must not be used, each put in place of a good one
#      while slurmctld is stopped: cut in the middle of a line; then, each
#      with a correct sum and slurmctld killed with its own save older than
#      the record: of another cluster; of another set of associations;
#      after the last tick.  Each is named in the log with the reason, the
#      controller runs, and the usage is what slurmctld held.
#
# Environment as the other tests (plugin-lib.sh): MFPRIO_CLUSTER_INSTANCE,
# MFPRIO_SLURM_PREFIX, MFPRIO_PLUGIN_SO.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

JOB_SECS=150
CPUS=1
REC=$STATE/mfprio_usage

use_plugin ours
start_cluster "$here/priority-default.conf"
check "our plugin is loaded" loaded_is "$plugin_so"

kill_ctld() {
	local pid end=$((SECONDS + 30))
	pid=$(ctld_pid)
	[[ -n $pid ]] || return 1
	kill -KILL "$pid" 2>/dev/null || return 1
	while [[ -e /proc/$pid ]] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
		((SECONDS < end)) || return 1
		sleep 1
	done
}

# 1. the crash.  A clean restart first (it also starts slurmctld's 300 s
# between two saves of assoc_usage afresh): slurmctld saves assoc_usage as it
# stops (usage 0 here), as it would have at some point on a real cluster;
# from 26.05 on (seen on 26.11) slurmctld refuses to start again without
# that file once it has state to recover
restart_ctld saved
declare -A job
for au in b:u1 e:u4; do
	job[$au]=$(sbatch --parsable --uid="${au#*:}" -A "${au%%:*}" -n "$CPUS" -D /tmp -o /dev/null \
		--wrap "sleep $JOB_SECS")
done
end=$((SECONDS + 90))
until [[ $(squeue -h -t R | wc -l) -eq 2 ]] || ((SECONDS > end)); do sleep 1; done
check "1: the two jobs run" test "$(squeue -h -t R | wc -l)" -eq 2
wait_tick "$(date +%s)"
wait_tick "$(date +%s)"
check "1: the record was written after the ticks" test -s "$REC"
pre=$(raw_usage b u1)
say "before the kill: b/u1 holds $pre"
m=$(log_mark)
check "1: slurmctld SIGKILLed while the jobs run" kill_ctld
# slurmctld saves assoc_usage 300 s after its start (then every 300 s): the
# jobs started and the two ticks came within 210 s of the restart above,
# so its last save is the restart's and the record, written after each
# tick, is newer: it must be taken (mfp_record.c compares the two mtimes)
check "1: at the kill the record is newer than slurmctld's saved usage" \
	test "$REC" -nt "$STATE/assoc_usage"
start_ctld killed
check "1: slurmctld starts again" ctld_alive
check "1: the record is taken at the start" \
	log_has "$m" "mfprio: usage of [0-9]+ associations and [0-9]+ QOS taken from $REC, of [0-9]+, newer than slurmctld's saved usage"
after_start=$(raw_usage b u1)
check "1: right after the start b/u1 holds what it held before the kill ($after_start, $pre)" \
	awk -v a="$after_start" -v p="$pre" 'BEGIN { exit !(p > 0 && a >= p * 0.95 - 1) }'
end=$((SECONDS + JOB_SECS + 120))
until [[ $(squeue -h | wc -l) -eq 0 ]] || ((SECONDS > end)); do sleep 2; done
check "1: the jobs ended" test "$(squeue -h | wc -l)" -eq 0
wait_tick "$(date +%s)"
for au in b:u1 e:u4; do
	a=${au%%:*} u=${au#*:}
	got=$(raw_usage "$a" "$u")
	want=$(cpu_secs "${job[$au]}")
	check "1: $a/$u holds its job's $want CPU-seconds within 10% ($got)" within "$got" "$want" 10
done

# 2. records not to be used.  Each bad record holds b/u1's raw usage set to
# 2^20 (0x1p+20 = 1048576 units, where b/u1 holds its job's ~150): used, it
# would show in sshare; the last, a good record with that same edit, must
# be taken and show it (so the edit reaches the usage when a record is used)
# put_record LABEL EDIT [FROM]: kill slurmctld, replace the record by what
# the sed script EDIT makes of it (or of FROM, a good record kept from
# before), with its sum made right again, make slurmctld's own saved usage
# older than the record (as after a crash between two of its saves), and
# start slurmctld
put_record() {
	local label=$1 edit=$2 sum t
	kill_ctld
	cp "${3:-$REC}" "$out/$label.orig"
	t=$(sed -n 's/^time //p' "$out/$label.orig")
	sed -e '/^sum /d' -e "$edit" -e "$big" "$out/$label.orig" >"$out/$label.body"
	sum=$(sha256sum "$out/$label.body" | cut -d' ' -f1)
	{ cat "$out/$label.body"; echo "sum $sum"; } >"$REC"
	touch -d "@$((t - 1))" "$STATE/assoc_usage"
	m=$(log_mark)
	start_ctld "$label"
}
restart_ctld base >/dev/null
base=$(raw_usage b u1)
id=$(sacctmgr -n -P show assoc where cluster="$CLUSTER_NAME" account=b user=u1 format=ID)
big="s/^a $id [^ ]* /a $id 0x1p+20 /"
check "2: b/u1 (id $id) holds its job's usage, far from 2^20 ($base)" \
	awk -v b="$base" 'BEGIN { exit !(b > 50 && b < 10000) }'
# unchanged LABEL: right after the start with record LABEL, b/u1 holds what
# it held, within 1% (each start reloads slurmctld's own saved usage, so
# the figure is read before the next one)
unchanged() {
	local now
	now=$(raw_usage b u1)
	check "2: ... b/u1 holds what it held ($now, $base): the $1 record left it alone" \
		within "$now" "$base" 1
}
# a record cut in the middle of a line (no sum)
stop_ctld
head -c "$(($(stat -c %s "$REC") / 2))" "$REC" >"$out/cut.rec"
cp "$out/cut.rec" "$REC"
m=$(log_mark)
start_ctld cut
check "2: a record cut short is named and not used" log_has "$m" "mfprio: $REC is not used: line [0-9]+: cut short"
check "2: ... and the controller runs" ctld_alive
unchanged cut
wait_tick "$(date +%s)"
put_record cluster 's/^cluster .*/cluster elsewhere/'
check "2: a record of another cluster is named and not used" log_has "$m" "mfprio: $REC is not used: it is of another cluster"
unchanged cluster
# the next ones start from the good record the cluster case replaced (no
# tick needed for the plugin to write a new one)
put_record assocs 's/^assocs \([0-9]*\) /assocs 1\1 /' "$out/cluster.orig"
check "2: a record of another set of associations is named and not used" \
	log_has "$m" "mfprio: $REC is not used: it is of another set of associations"
unchanged assocs
put_record future "s/^time .*/time $(($(date +%s) + 3600))/" "$out/cluster.orig"
check "2: a record after the last tick is named and not used" \
	log_has "$m" "mfprio: $REC is not used: it is of [0-9]+, after the last decay tick"
unchanged future
check "2: the controller runs" ctld_alive
put_record good '' "$out/cluster.orig"
check "2: the good record is taken" log_has "$m" "mfprio: usage of [0-9]+ associations and [0-9]+ QOS taken from $REC"
now=$(raw_usage b u1)
check "2: ... and b/u1 holds its 2^20 = 1048576 within 1% ($now)" within "$now" 1048576 1
finish
