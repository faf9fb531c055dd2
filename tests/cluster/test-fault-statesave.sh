#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-fault-statesave.sh: StateSaveLocation full, then read-only, while
# jobs run and end (issue 28).  The controller keeps running, the plugin
# says that it cannot write its files at most once per decay tick, the jobs
# that ran during the fault are charged, and once the disk is back the
# files are written again with that usage in them.
#
# The cluster starts as usual; slurmctld is then stopped, a small tmpfs
# (MFPRIO_STATESAVE_SIZE, 8 MiB) mounted over its StateSaveLocation with the
# files copied in, and slurmctld started on it (its decay ticks then fall
# every PriorityCalcPeriod, 60 s, on a grid from that start).  Two 1-CPU
# jobs of two associations (b/u1 for JOB_A s, e/u4 for JOB_B s; the node
# has 2 CPUs):
#   full:  a file fills the tmpfs (ENOSPC for any new byte, root's or
#          slurm's alike, unlike a mode 0500 which root bypasses) for at
#          least 62 s (so at least one tick falls in it) and until job A
#          has ended; the file is then removed;
#   ro:    mount -o remount,ro for at least 62 s and until job B has ended;
#   back:  mount -o remount,rw; the next tick writes priority_last_decay_ran
#          (and, ours, the usage record mfprio_usage) again.
# Each association started from 0, so each holds its one job: sacct's
# ElapsedRaw x billing (billing = the job's CPUs here, no
# TRESBillingWeights), e.g. about 65 x 1 = 65 for job A; the half-life of
# 7 days takes < 0.05% over the test.  Whatever was mounted is unmounted on
# every exit (trap).
#
# MFPRIO_FAULT_PLUGIN=ours (default): asserts, besides the scenario itself,
#   each job's usage within 10% of sacct's (sshare, and the record written
#   after the disk is back), the failure logged in each phase and at most
#   once per tick that fell in the fault (counted against the ticks' times)
# MFPRIO_FAULT_PLUGIN=upstream: the same scenario under the release's own
#   plugin; prints the same figures, asserts only that the scenario ran
#   (jobs ran and ended in their phases, the controller answered).
# Prints per job a line "fault-statesave: plugin=P release=R job J usage U
# sacct S ratio X".  Environment as the other tests (plugin-lib.sh).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

PLUGIN=${MFPRIO_FAULT_PLUGIN:-ours}
SIZE=${MFPRIO_STATESAVE_SIZE:-8m}
JOB_A=65
JOB_B=130
PHASE_MIN=62
REC=$STATE/mfprio_usage
STAMP=$STATE/priority_last_decay_ran
case $PLUGIN in
ours) so=$plugin_so ;;
upstream) so=$UPSTREAM_SO ;;
*)
	say "MFPRIO_FAULT_PLUGIN=$PLUGIN: ours or upstream"
	echo "0 passed, 1 failed"
	exit 1
	;;
esac

# The tmpfs is ours to unmount, whatever ends the test: the cluster stops
# first (nothing holds the directory open then); a ro mount is unmounted
# as well.  A signal ends the script through the EXIT trap.
mounted=0
unmount_state() {
	cleanup
	if ((mounted)) && mountpoint -q "$STATE"; then
		umount "$STATE" 2>/dev/null || umount -l "$STATE" ||
			say "could not unmount $STATE"
	fi
}
trap unmount_state EXIT
trap 'exit 143' TERM INT HUP
# an earlier run killed before its trap ran leaves its tmpfs: the start's
# wipe of the state directory cannot remove a mount point
if mountpoint -q "$STATE" && findmnt -n -o SOURCE "$STATE" | grep -qx "mfprio-statesave-$CLUSTER_INSTANCE"; then
	umount "$STATE" || umount -l "$STATE"
fi

use_plugin "$PLUGIN"
start_cluster "$here/priority-default.conf"

# slurmctld onto the tmpfs: stopped (it saves its state), the files
# copied in, started again
stop_ctld
mkdir -p "$out/state"
cp -a "$STATE/." "$out/state/"
mount -t tmpfs -o "size=$SIZE,mode=0755" "mfprio-statesave-$CLUSTER_INSTANCE" "$STATE" ||
	{ say "cannot mount a tmpfs on $STATE"; echo "0 passed, 1 failed"; exit 1; }
mounted=1
cp -a "$out/state/." "$STATE/"
chown slurm:slurm "$STATE"
# (no wait for a tick: 22.05's first comes as slurmctld starts, 26.11's a
# PriorityCalcPeriod later; each phase below lasts longer than one period)
start_ctld tmpfs
check "slurmctld runs on the tmpfs ($SIZE)" \
	bash -c "test \"\$(findmnt -n -o FSTYPE '$STATE')\" = tmpfs && scontrol ping | grep -q 'is UP'"
check "the $PLUGIN plugin is loaded" loaded_is "$so"

# ended ID: job ID is no longer in squeue
ended() { [[ -z $(squeue -h -j "$1" 2>/dev/null) ]]; }
# phase_wait SECONDS ID: until SECONDS have passed and job ID ended (at most
# SECONDS + its run + 60)
phase_wait() {
	local from=$SECONDS end=$((SECONDS + $1 + JOB_B + 60))
	until (((SECONDS - from) >= $1)) && ended "$2"; do
		((SECONDS < end)) || return 1
		sleep 1
	done
}
a=$(sbatch --parsable --uid=u1 --gid=u1 -A b -n 1 -D /tmp -o /dev/null --wrap "sleep $JOB_A")
b=$(sbatch --parsable --uid=u4 --gid=u4 -A e -n 1 -D /tmp -o /dev/null --wrap "sleep $JOB_B")
end=$((SECONDS + 60))
until [[ $(squeue -h -t R | wc -l) -eq 2 ]] || ((SECONDS > end)); do sleep 1; done
check "jobs $a (b/u1, ${JOB_A} s) and $b (e/u4, ${JOB_B} s) run" test "$(squeue -h -t R | wc -l)" -eq 2

# full
m_full=$(log_mark)
t_full=$(date +%s)
dd if=/dev/zero of="$STATE/fill" bs=64k 2>/dev/null
say "full: $(df -h --output=used,avail "$STATE" | tail -n 1)"
check "full: no new byte fits, even as root" \
	bash -c "! echo x >'$STATE/probe' 2>/dev/null"
rm -f "$STATE/probe"
check "full: job $a ran and ended during the fault" phase_wait "$PHASE_MIN" "$a"
check "full: slurmctld answers" ctld_alive
rm -f "$STATE/fill"

# read-only
m_ro=$(log_mark)
mount -o remount,ro "$STATE"
check "ro: the tmpfs is read-only" bash -c "findmnt -n -o OPTIONS '$STATE' | grep -q '^ro'"
check "ro: job $b ended during the fault" phase_wait "$PHASE_MIN" "$b"
check "ro: slurmctld answers" ctld_alive
mount -o remount,rw "$STATE"
t_back=$(date +%s)
m_back=$(log_mark)

# back: the next tick writes the state file again (and ours its record);
# the ticks fall every 60 s back from that one's time
check "back: the next tick writes $(basename "$STAMP") again" wait_tick "$t_back"
t_last=$(last_ran)
check "back: slurmctld answers" ctld_alive

# what the plugin logged: its state file or record not written, each
# phase's lines (with the error), and the ticks that fell in the fault
plugin_lines() {
	local ino=${1%%:*} n=${1#*:}
	[[ $(stat -c %i "$LOG") == "$ino" ]] || n=0
	tail -n +"$((n + 1))" "$LOG" | grep -E -- "$2" | grep -E "$3"
}
files="(priority_last_decay_ran|mfprio_usage|mfprio_charged_jobs)"
n_full=$(plugin_lines "$m_full" "$files" 'No space left on device' | wc -l)
n_ro=$(plugin_lines "$m_ro" "$files" 'Read-only file system' | wc -l)
n_all=$(plugin_lines "$m_full" "$files" 'No space left on device|Read-only file system' | wc -l)
ticks=$(awk -v t1="$t_last" -v a="$t_full" -v b="$t_back" 'BEGIN {
	for (t = t1; t >= a - 1; t -= 60) if (t <= b + 1) n++; print n + 0 }')
say "log: $n_full lines (full) + $n_ro (ro) naming the state files, $ticks ticks in the fault ($t_full-$t_back; ticks at $t_last - k x 60)"
say "the fault's lines of slurmctld's log (its own and the plugin's):"
plugin_lines "$m_full" '.' 'No space left on device|Read-only file system' |
	sed 's/^/    /' | head -n 12
plugin_lines "$m_full" '.' 'error' >"$out/fault-errors.log"
say "slurmctld logged $(wc -l <"$out/fault-errors.log") error lines in all during the fault ($out/fault-errors.log)"

# the usage of each job: sshare, and (ours) the record written once back
id_of() {
	sacctmgr -n -P show assoc where cluster="$CLUSTER_NAME" account="$1" user="$2" format=ID
}
worth() {
	sacct -n -P -X -j "$1" -o ElapsedRaw,AllocTRES 2>/dev/null |
		awk -F'|' 'match($2, /billing=[0-9]+/) { s += $1 * substr($2, RSTART + 8, RLENGTH - 8) } END { print s + 0 }'
}
# in_record ID: association ID's raw usage in the record (0 if absent)
in_record() {
	local v
	v=$(awk -v id="$1" '$1 == "a" && $2 == id { print $3 }' "$REC" 2>/dev/null)
	printf '%.3f\n' "${v:-0}"
}
ratio() { awk -v u="$1" -v s="$2" 'BEGIN { printf "%.3f", (s > 0 ? u / s : 0) }'; }
near() { awk -v r="$1" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }'; }
usage=$(sshare -n -P -a -o Account,User,RawUsage | tr -d ' ')
for j in "$a:b:u1" "$b:e:u4"; do
	IFS=: read -r id acct user <<<"$j"
	s=$(worth "$id")
	u=$(awk -F'|' -v a="$acct" -v u="$user" '$1 == a && $2 == u { print $3 }' <<<"$usage")
	r=$(ratio "${u:-0}" "$s")
	rec=-
	[[ $PLUGIN == ours ]] && rec=$(in_record "$(id_of "$acct" "$user")")
	echo "fault-statesave: plugin=$PLUGIN release=$SLURM_VERSION job $id ($acct/$user) usage ${u:-none} sacct $s ratio $r record $rec"
	check "job $id ended with a run sacct knows ($s)" test "$s" -gt 0
	[[ $PLUGIN == ours ]] || continue
	check "job $id: $acct/$user holds its usage within 10% of sacct's ($r)" near "$r"
	check "job $id: the record written once back holds it within 10% ($rec, $s)" near "$(ratio "$rec" "$s")"
done
if [[ $PLUGIN == ours ]]; then
	check "full: the failure to write is named ($n_full lines)" test "$n_full" -ge 1
	check "ro: the failure to write is named ($n_ro lines)" test "$n_ro" -ge 1
	check "at most one such line per tick in the fault ($n_all lines, $ticks ticks)" test "$n_all" -le "$ticks"
	check "back: the record is written after the disk is back" test "$(stat -c %Y "$REC")" -ge "$t_back"
	check "back: no failure logged since" log_lacks "$m_back" "mfprio: cannot"
fi
check "no fatal error logged" log_lacks "$m_full" 'fatal'
finish
