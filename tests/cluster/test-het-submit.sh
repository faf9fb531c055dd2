#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-het-submit.sh: a heterogeneous job is charged what it ran, not the
# time between the last decay pass and its submission.
#
# Slurm 26.11's het-job submit RPC checks each component against the limits
# by a simulated start and end (acct_policy_job_begin, then
# acct_policy_job_fini, which calls priority_p_job_end when limits are
# enforced) on the component that is still pending and has never started.
# A job end charges from the last pass to now: without a guard, each
# component was charged (submit time - last pass) x its billing for a run
# that never was (the soak's e/u4 +7.6% and b/u6 +8.8% on 26.11, about
# 58 s and 53 s of two het jobs; upstream's plugin does the same, by when
# its passes fell).  Releases before 26.11 never call it at submission.
#
# On one cluster of two nodes (cluster.sh's MFPRIO_CLUSTER_NODES=2: a het
# job on a single node may never be scheduled), limits enforced (the
# default), a partition "het" billing 2 a CPU: a tick, then some 45 s later
# a het job of e/u4 (1 CPU + 2 CPUs) that runs 20 s.  Once it has ended,
# e/u4's RawUsage must be sacct's billing x (End - Start) of its runs
# within 10% (without the guard it holds some 45 s x 6 more).  On releases
# before 26.11 nothing is charged at submission: the check holds either way.
#
# MFPRIO_HET_PLUGIN=ours (default) asserts the above; =upstream runs the same
# under the release's own plugin and prints the figures (upstream charges
# the run that never was, on 26.11), asserting only that the job ran.
# About 3 minutes.  Environment as the other tests (plugin-lib.sh).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

PLUGIN=${MFPRIO_HET_PLUGIN:-ours}
case $PLUGIN in
ours | upstream) ;;
*) say "MFPRIO_HET_PLUGIN=$PLUGIN: ours or upstream"; echo "0 passed, 1 failed"; exit 1 ;;
esac

export MFPRIO_CLUSTER_NODES=2
# a partition with billing weights, as a site's (without any, a pending
# job's billing is 0 and the charge of the run that never was is 0 too)
export MFPRIO_CONF_EXTRA=$out/extra.conf
echo "PartitionName=het Nodes=ALL TRESBillingWeights=CPU=2.0 MaxTime=INFINITE State=UP" >"$MFPRIO_CONF_EXTRA"
use_plugin "$PLUGIN"
start_cluster "$here/priority-default.conf"
if [[ $PLUGIN == ours ]]; then
	check "ours is loaded" loaded_is "$plugin_so"
fi
scontrol setdebugflags +priority >/dev/null 2>&1
scontrol setdebug verbose >/dev/null 2>&1
# shellcheck disable=SC2016  # the job script's own $1
printf '#!/bin/sh\nsleep "$1"\n' >"$out/job.sh"
chmod 755 "$out/job.sh"

# a pass, then the submission late in the period (PriorityCalcPeriod=1)
t=$(date +%s)
wait_tick "$t" || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
tick=$(stat -c %Y "$STATE/priority_last_decay_ran")
d=$((45 - ($(date +%s) - tick)))
((d > 0)) && sleep "$d"
mark=$(log_mark)
jid=$(sbatch --parsable --uid=u4 -A e -p het -n 1 -t 5 -o /dev/null \
	: -p het -n 2 -t 5 "$out/job.sh" 20)
sub=$(date +%s)
say "het job $jid submitted $((sub - tick)) s after the pass of $tick"
end=$((SECONDS + 240))
while [[ -n $(squeue -h -j "$jid" -o %i 2>/dev/null) ]] && ((SECONDS < end)); do
	sleep 3
done
sleep 2
sacct -D -n -P -X -j "$jid" -o JobID,State,Start,End,ElapsedRaw,AllocTRES >"$out/sacct"
cat "$out/sacct"
check "het job $jid ran and completed (sacct)" \
	eval "[[ \$(grep -c '|COMPLETED|' '$out/sacct') == 2 ]]"
exp=$(awk -F'|' '$3 ~ /^[0-9]/ {
	cmd = "date -d " $3 " +%s"; cmd | getline s; close(cmd)
	cmd = "date -d " $4 " +%s"; cmd | getline e; close(cmd)
	if (match($6, /billing=[0-9]+/)) t += substr($6, RSTART + 8, RLENGTH - 8) * (e - s)
} END { print t + 0 }' "$out/sacct")
got=$(raw_usage e u4)
sshare -n -P -a -o Account,User,RawUsage >"$out/sshare"
tail -n +"$((${mark#*:} + 1))" "$LOG" | grep -a 'owes\|_apply_new_usage\|ran for' >"$out/charges" || true
say "e/u4 RawUsage $got; sacct billing x (End - Start) $exp ($PLUGIN)"
if [[ $PLUGIN == ours ]]; then
	check "e/u4 RawUsage $got is sacct's $exp within 10%, not also the time from the pass to the submission" \
		within "$got" "$exp" 10
fi
finish
