#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-robust.sh: mfprio's plugin in a live slurmctld under churn.
#
# While jobs are submitted and sprio/sshare ask continuously, slurmctld is
# reconfigured again and again (switching the fair-share algorithm, the
# dampening factor, the PRIO debug flag, fsdampeningfactor by scontrol).
# Then: slurmctld is the same process and answers, every job submitted ran,
# sprio and sshare never failed, and the decay thread still ticks.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin "${MFPRIO_ROBUST_PLUGIN:-ours}"
m0=$(log_mark)
start_cluster "$here/priority-default.conf"
pid0=$(ctld_pid)
if [[ ${MFPRIO_ROBUST_PLUGIN:-ours} == ours ]]; then
	check "our plugin is loaded ($(loaded_so))" loaded_is "$plugin_dir/priority_multifactor.so"
else
	check "upstream's plugin is loaded ($(loaded_so))" loaded_is "$UPSTREAM_SO"
fi

stop=$out/stop
# submitter: short jobs from several users and partitions
(
	i=0
	while [[ ! -e $stop ]]; do
		for spec in u1:b:debug u2:c:big u4:e:debug,big u5:f:debug u7:z:big; do
			IFS=: read -r u a p <<<"$spec"
			sbatch --parsable --uid="$u" -A "$a" -p "$p" -n 1 --mem=10 -D /tmp \
				-o /dev/null --wrap 'sleep 1' >>"$out/ids" 2>>"$out/sbatch.err" ||
				echo x >>"$out/sbatch.fail"
		done
		i=$((i + 1))
		sleep 2
	done
) &
sub=$!
# readers
(
	while [[ ! -e $stop ]]; do
		sprio -l >/dev/null 2>>"$out/sprio.err" || echo x >>"$out/sprio.fail"
		sprio -l -u u1 -p debug >/dev/null 2>>"$out/sprio.err" || true
		sshare -a -l -P >/dev/null 2>>"$out/sshare.err" || echo x >>"$out/sshare.fail"
	done
) &
rd=$!

variants=("" "PriorityFlags=NO_FAIR_TREE" "PriorityFlags=DEPTH_OBLIVIOUS"
	"PriorityFlags=NO_FAIR_TREE
FairShareDampeningFactor=3" "PriorityFlags=CALCULATE_RUNNING,INCR_ONLY" "")
n=0
for v in "${variants[@]}"; do
	# replaced at once: clients read it too
	{ cat "$here/priority-default.conf"; printf '%s\n' "$v"; } >"$DIR/etc/priority.conf.new"
	chmod 644 "$DIR/etc/priority.conf.new"
	mv -f "$DIR/etc/priority.conf.new" "$DIR/etc/priority.conf"
	scontrol reconfigure >>"$out/reconf.log" 2>&1 || echo x >>"$out/reconf.fail"
	scontrol setdebugflags +priority >>"$out/reconf.log" 2>&1
	scontrol setdebugflags -priority >>"$out/reconf.log" 2>&1
	scontrol setfsdampeningfactor $((n % 3 + 1)) >>"$out/reconf.log" 2>&1
	n=$((n + 1))
	sleep 8
done
touch "$stop"
wait "$sub" "$rd"

check "slurmctld is the same process ($pid0) and answers" \
	bash -c "[[ \$(cat '$DIR/run/slurmctld.pid' | tr -dc 0-9) == $pid0 ]]"
check "slurmctld answers" ctld_alive
check "no reconfigure failed" test ! -e "$out/reconf.fail"
# An RPC answered at the instant a reconfigure completes can lose its reply
# (slurmctld logs "slurm_msg_sendto ... Socket timed out" and the client
# "Zero Bytes were transmitted", or, with other clusters loading the
# machine, "Unexpected missing socket error" for the same dropped reply);
# reconfigures themselves take ~5 ms here.  Once in a CI run sshare's
# connection was reset instead ("Connection reset by peer").  They still
# count against the limit of 3.
# MFPRIO_ROBUST_PLUGIN=upstream runs this test on upstream's plugin to
# compare.  Anything else is a failure.
dropped='Zero Bytes were transmitted|timed out|Unexpected missing socket error|Connection reset by peer'
n_fail=$(cat "$out/sprio.fail" 2>/dev/null | wc -l)
other=$(grep -cvE "$dropped" "$out/sprio.err" 2>/dev/null)
check "sprio: no failure but $n_fail time-outs during reconfigures" \
	test "${other:-0}" -eq 0 -a "$n_fail" -le 3
n_fail=$(cat "$out/sshare.fail" 2>/dev/null | wc -l)
other=$(grep -cvE "$dropped" "$out/sshare.err" 2>/dev/null)
check "sshare: no failure but $n_fail time-outs during reconfigures" \
	test "${other:-0}" -eq 0 -a "$n_fail" -le 3
check "sprio answers after the churn" bash -c "sprio -l >/dev/null"
# sbatch meets the same dropped reply (CI, 2 cores busy with seven other
# clusters: "Batch job submission failed: Zero Bytes were transmitted or
# received"): counted against the same limit, and any other error fails
n_fail=$(cat "$out/sbatch.fail" 2>/dev/null | wc -l)
other=$(grep 'error:' "$out/sbatch.err" 2>/dev/null |
	grep -cvE "$dropped")
check "sbatch: no failure but $n_fail time-outs during reconfigures" \
	test "${other:-0}" -eq 0 -a "$n_fail" -le 3
total=$(wc -l <"$out/ids")
end=$((SECONDS + 300))
while ((SECONDS < end)); do
	left=$(squeue -h | wc -l)
	((left == 0)) && break
	sleep 2
done
check "all $total jobs ran (left in queue: $left)" test "$left" -eq 0
t=$(date +%s)
check "the decay thread still ticks" wait_tick "$t"
check "no fatal error logged" log_lacks "$m0" 'fatal'
scancel $(cut -d';' -f1 "$out/ids") 2>/dev/null
finish
