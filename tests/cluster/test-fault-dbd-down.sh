#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-fault-dbd-down.sh: slurmdbd stopped for DOWN seconds (ten minutes)
# while jobs run, start and end.  slurmctld keeps the associations it loaded
# and queues its job records for slurmdbd; the priority plugin must go on
# charging usage from slurmctld's own job records, serve sprio and sshare,
# and charge no job twice when the queued records go out.
#
# One CPU-second is one unit of usage here (billing is the job's CPUs, no
# TRESBillingWeights, no UsageFactor), and PriorityDecayHalfLife=7-0 takes
# 2^(-15 min / 7 days) = 0.1% off over the test: each association must
# hold, within 10%, sacct's ElapsedRaw x billing of its one job.
#
# The node has 2 CPUs; every job asks for 1.  With t = 0 at slurmdbd's stop:
#   A  b/u1  runs from before the stop to DOWN/2         (ends during it)
#   B  e/u4  runs from before the stop to DOWN + 60      (ends after it)
#   C  c/u2  submitted during the outage, runs DOWN/2 .. 3 DOWN/4 on A's CPU
#   E  f/u5  submitted during the outage after C (afterany), runs
#            3 DOWN/4 .. DOWN + 60
#   F  c/u3  QOS "wait" (GrpJobs=0): pends throughout, for sprio to show
# so with DOWN = 600: A 300 s of the outage, C 150 s, E 150 s in it and 60
# after, B the whole outage and 60 after.  Every 30 s of the outage
# slurmctld must answer and sprio list F (and C until it starts); a decay
# tick must come and charge A during the outage, and our plugin log
# nothing (slurmctld's own retries are counted).  Then slurmdbd is started
# again; once sacct has the four jobs ended (C and E were submitted while it
# was down) and a tick has come, the figures are printed, one line a job:
#   fault-dbd-down: plugin=P release=V job J A/U usage U sacct S ratio R
# Under ours each ratio must be within 10% of 1; under upstream's plugin
# the same scenario runs and prints, and only the scenario is checked
# (jobs ran, the controller answered, sacct has the jobs).
#
# Environment: MFPRIO_FAULT_PLUGIN=ours (default) | upstream;
# MFPRIO_DBD_DOWN_SECONDS (default 600; >= 120, shorter only to try the
# test while changing it); and as the other tests (plugin-lib.sh):
# MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX, MFPRIO_PLUGIN_SO.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

PLUGIN=${MFPRIO_FAULT_PLUGIN:-ours}
DOWN=${MFPRIO_DBD_DOWN_SECONDS:-600}
case $PLUGIN in
ours) want_so=$plugin_so ;;
upstream) want_so=$UPSTREAM_SO ;;
*) say "MFPRIO_FAULT_PLUGIN=$PLUGIN: ours or upstream"; echo "0 passed, 1 failed"; exit 1 ;;
esac
if ! [[ $DOWN =~ ^[0-9]+$ ]] || ((DOWN < 120)); then
	say "MFPRIO_DBD_DOWN_SECONDS=$DOWN: a whole number of seconds, at least 120"
	echo "0 passed, 1 failed"
	exit 1
fi
LEAD=15 # seconds from the first submission to slurmdbd's stop

use_plugin "$PLUGIN"
start_cluster "$here/priority-default.conf"
check "$PLUGIN: its plugin is loaded ($(loaded_so))" loaded_is "$want_so"
sacctmgr -i add qos wait GrpJobs=0 >/dev/null 2>&1
sacctmgr -i modify user where name=u3 set qos+=wait >/dev/null 2>&1

declare -A job
# submit KEY ACCOUNT USER SECONDS [SBATCH OPTION...]: a 1-CPU job sleeping
# SECONDS, its id kept as job[KEY]
submit() {
	local key=$1 a=$2 u=$3 secs=$4
	shift 4
	job[$key]=$(sbatch --parsable --uid="$u" --gid="$(id -g "$u")" -A "$a" -n 1 -D /tmp \
		-o /dev/null "$@" --wrap "sleep $secs" 2>>"$out/sbatch.err")
	job[$key]=${job[$key]%%;*}
	[[ ${job[$key]} =~ ^[0-9]+$ ]]
}
# state ID: the job's state as slurmctld has it (empty once it is gone)
state() {
	squeue -h -j "$1" -o %T 2>/dev/null
}
# ended ID: the job ended well (squeue shows it COMPLETED for MinJobAge,
# then no more)
ended() {
	[[ $(state "$1") =~ ^(COMPLETED)?$ ]]
}
# running N: N jobs run
running() {
	[[ $(squeue -h -t R | wc -l) -eq $1 ]]
}

# dbd stop-dbd|start-dbd: cluster.sh's, its output kept
dbd() {
	"$here/cluster.sh" "$1" >"$out/$1.log" 2>&1
}
# expect DESCRIPTION COMMAND...: what the plugin must do: a check under
# ours; under upstream's plugin only said (upstream's behaviour is a figure
# of the table, not a failure of the test)
expect() {
	if [[ $PLUGIN == ours ]]; then
		check "$@"
	elif "${@:2}"; then
		say "upstream: yes: $1"
	else
		say "upstream: NO: $1"
	fi
}

s0=$(date +%s)
check "before: jobs A (b/u1) and B (e/u4) submitted" \
	eval 'submit A b u1 $((LEAD + DOWN / 2)) && submit B e u4 $((LEAD + DOWN + 60))'
check "before: F (c/u3, QOS wait) submitted" submit F c u3 60 --qos=wait
check "before: A and B run" wait_until 60 running 2
while (($(date +%s) < s0 + LEAD)); do sleep 1; done
m=$(log_mark)
check "before: slurmdbd stopped (cluster.sh stop-dbd)" dbd stop-dbd
t0=$(date +%s)
check "during: sacctmgr cannot reach slurmdbd" \
	eval '! timeout 20 sacctmgr -n show cluster >/dev/null 2>&1'
check "during: C (c/u2) submitted while slurmdbd is down" submit C c u2 $((DOWN / 4))
check "during: E (f/u5, after C) submitted while slurmdbd is down" \
	submit E f u5 $((DOWN / 4 + 60)) --dependency=afterany:"${job[C]}"

# every 30 s of the outage: slurmctld answers, sprio lists F (and C while it
# pends), sshare answers; A's usage sampled (sshare's RawUsage of b/u1)
a_usage() {
	sshare -n -P -A b -u u1 -o User,RawUsage 2>/dev/null | awk -F'|' '$1 == "u1" { print $2 }'
}
samples=0 alive=0 served=0 c_listed=0
a_first=$(a_usage)
while (($(date +%s) < t0 + DOWN)); do
	samples=$((samples + 1))
	ctld_alive && alive=$((alive + 1))
	sprio -h -o '%i' >"$out/sprio.$samples" 2>&1
	if grep -qx "${job[F]}" "$out/sprio.$samples" && sshare -a -n -P >/dev/null 2>&1; then
		served=$((served + 1))
	fi
	grep -qx "${job[C]}" "$out/sprio.$samples" && c_listed=$((c_listed + 1))
	if [[ $(state "${job[A]}") == RUNNING ]]; then a_last=$(a_usage); fi
	left=$((t0 + DOWN - $(date +%s)))
	sleep $((left < 30 ? left : 30))
done
check "during: slurmctld answered at each of $samples samples ($alive)" test "$alive" -eq "$samples"
expect "during: sprio listed F and sshare answered at each sample ($served)" \
	test "$served" -eq "$samples"
expect "during: sprio listed C while it pended ($c_listed samples)" test "$c_listed" -gt 0
expect "during: a decay tick came while slurmdbd was down" \
	test "$(stat -c %Y "$STATE/priority_last_decay_ran")" -gt "$t0"
say "A's usage (b/u1): $a_first at the stop, ${a_last:-?} late in its run"
expect "during: A was charged while slurmdbd was down ($a_first, then ${a_last:-?})" \
	awk -v f="${a_first:-0}" -v l="${a_last:-0}" 'BEGIN { exit !(l > f + 30) }'
# what slurmctld logged during the outage: Slurm's own retries (one or two
# lines every 5 s), and of the plugin (ours logs as "mfprio: ")
tail -n +"$((${m#*:} + 1))" "$LOG" >"$out/outage.log"
n_ours=$(grep -c 'mfprio: ' "$out/outage.log")
say "slurmctld logged $(wc -l <"$out/outage.log") lines during the outage, $(grep -c 'Connection refused' "$out/outage.log") of them 'Connection refused', $n_ours of our plugin"
[[ $PLUGIN == upstream ]] ||
	check "during: the plugin logged nothing while slurmdbd was down ($n_ours lines)" test -s "$out/outage.log" -a "$n_ours" -eq 0
check "during: A ended" ended "${job[A]}"
check "during: C ran and ended" ended "${job[C]}"
check "during: E runs" test "$(state "${job[E]}")" = RUNNING

check "after: slurmdbd started again (cluster.sh start-dbd)" dbd start-dbd
check "after: B and E ended" wait_until 180 running 0
scancel "${job[F]}"
ended=$(date +%s)
# sacct_ended: sacct has A B C E ended (COMPLETED), the queued records sent
sacct_ended() {
	[[ $(sacct -n -X -P -a -j "${job[A]},${job[B]},${job[C]},${job[E]}" -o JobID,State 2>/dev/null |
		grep -c '|COMPLETED$') -eq 4 ]]
}
check "after: sacct has the four jobs COMPLETED (slurmctld's queued records sent)" wait_until 300 sacct_ended
wait_tick "$ended"
check "after: slurmctld answers" ctld_alive

# each job's figures: its association's usage against sacct's
# ElapsedRaw x billing
sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' >"$out/after.sshare"
sacct -n -X -P -a -j "${job[A]},${job[B]},${job[C]},${job[E]}" \
	-o JobID,Account,User,ElapsedRaw,AllocTRES >"$out/after.sacct"
awk -F'|' -v p="$PLUGIN" -v v="$SLURM_VERSION" 'NR == FNR { u[$1 "/" $2] = $3; next }
	{ b = 0; if (match($5, /billing=[0-9]+/)) b = substr($5, RSTART + 8, RLENGTH - 8)
	  s = $4 * b; k = $2 "/" $3; r = s > 0 ? u[k] / s : 0
	  printf "fault-dbd-down: plugin=%s release=%s job %s %s usage %.0f sacct %d ratio %.3f\n",
		p, v, $1, k, u[k], s, r }' "$out/after.sshare" "$out/after.sacct" | tee "$out/figures"
check "after: a line of figures for each of the four jobs" test "$(wc -l <"$out/figures")" -eq 4
# sacct's figures are the jobs' planned lengths (1 CPU, billing 1), within
# 5 s: with DOWN = 600, A 15 + 300 = 315, B 15 + 600 + 60 = 675, C 150,
# E 150 + 60 = 210 CPU-seconds
for k in A:$((LEAD + DOWN / 2)) B:$((LEAD + DOWN + 60)) C:$((DOWN / 4)) E:$((DOWN / 4 + 60)); do
	s=$(awk -v j="${job[${k%%:*}]}" '$5 == j { print $(NF - 2) }' "$out/figures")
	check "after: sacct has job ${k%%:*} (${job[${k%%:*}]}) at its ${k#*:} CPU-seconds within 5 (${s:-none})" \
		awk -v s="${s:-0}" -v w="${k#*:}" 'BEGIN { d = s - w; exit !(d >= -5 && d <= 5) }'
done
if [[ $PLUGIN == ours ]]; then
	while read -r line; do
		r=${line##* }
		check "ours: usage within 10% of sacct's: ${line#fault-dbd-down: }" \
			awk -v r="$r" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }'
	done <"$out/figures"
fi
finish
