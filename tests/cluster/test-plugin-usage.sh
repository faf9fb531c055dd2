#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-usage.sh: jobs of known size and length charge the usage they
# should, through mfprio's plugin in the live slurmctld.
#
# A job of C CPUs running S seconds under a QOS with UsageFactor F charges
# about C * S * F to its association and each ancestor (billing is the CPU
# count here; the half-life of 7 days decays it by under 0.1% meanwhile).
#
#   1. AccountingStorageEnforce with limits (the cluster's default):
#      slurmctld reports the job's end and the usage is there at once;
#   2. AccountingStorageEnforce=associations only: slurmctld reports no job
#      end to the plugin.  Upstream's plugin then loses whatever the job ran
#      after the last decay pass (a 20 s job between two passes charges
#      nothing); mfprio charges finished jobs at the next pass, so nothing
#      is lost.  The same job under upstream's plugin shows the difference.
#   3. the same with a job that ends, is requeued and ends again between two
#      passes: both runs are charged.
#   4. the same with a running job that is requeued (scontrol requeue, as an
#      administrator, PreemptMode=REQUEUE or a node failure does) and runs
#      again: slurmctld clears its first run without any end the plugin is
#      told of; both runs are charged, within 10% of sacct's CPU-seconds.
#   5. the same with a running job preempted and requeued
#      (PreemptType=preempt/qos, PreemptMode=REQUEUE) by a job of a higher
#      QOS.
#   Cases 4 and 5 each charge an association made for the case (zero
#   usage, so that no decay of earlier usage counts against the charge:
#   within 10% holds both under and over).  From 24.11 on, case 4's job is
#   submitted with two QOS, --qos=qa,qb (qa UsageFactor 1000 and Priority
#   20, qb UsageFactor 1 and Priority 10): it runs under qa, and each run
#   must be charged to the QOS it ran under (sacct's QOS of the run): qa
#   holds both runs' CPU-seconds x 1000 within 10%, qb holds nothing.  A
#   job requeued as such waits two minutes (its BeginTime), out of every
#   queue slurmctld builds, so its qos_ptr stays qa until the plugin has
#   settled the run (~10 s).  Here its node is drained and, once pending,
#   it is made eligible at once (scontrol update StartTime=now): the queue
#   slurmctld builds then goes through its QOS in order of priority and
#   leaves its qos_ptr on qb while the plugin settles the ~30 s of its run
#   since the last tick; a plugin that books that to the job's QOS now puts
#   ~60000 on qb (seen on 24.11.7 and 26.11.0-0rc1 with eae5abf's change to
#   src/ undone).
#
# The cluster and Slurm release: MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh); slurmctld is restarted from that release's sbin, with its
# plugin directory.  Upstream charges a job's end only through the limits
# code in every release from 22.05 to 26.05 (seen live on 26.05.3: the
# 20 s job charged 0), so the expectations do not depend on the release.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

UF=1000
SECS=20
CPUS=2
expect=$((CPUS * SECS * UF))

use_plugin ours
start_cluster "$here/priority-default.conf"
users=$(awk '$1 == "user" { print $3 }' "$here/layout-basic.txt" | sort -u | paste -sd,)
sacctmgr -i add qos uf UsageFactor=$UF >/dev/null 2>&1 ||
	sacctmgr -i modify qos uf set UsageFactor=$UF >/dev/null
sacctmgr -i modify user where name="$users" set qos+=uf >/dev/null

# raw_usage ACCOUNT [USER]: sshare's RawUsage of that association
raw_usage() {
	sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' |
		awk -F'|' -v a="$1" -v u="${2:-}" '$1 == a && $2 == u { print $3; f = 1 } END { if (!f) print 0 }'
}

# run_job USER ACCOUNT: a CPUS x SECS job under QOS uf, waited for
run_job() {
	local id state end=$((SECONDS + SECS + 90))
	id=$(sbatch --parsable --uid="$1" -A "$2" -n "$CPUS" --qos=uf -D /tmp -o /dev/null \
		--wrap "sleep $SECS") || return 1
	while ((SECONDS < end)); do
		state=$(scontrol show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z]*' | cut -d= -f2)
		[[ $state == COMPLETED ]] && return 0
		[[ $state == FAILED || $state == CANCELLED ]] && break
		sleep 1
	done
	say "job $id of $1 ended $state"
	return 1
}

# start_ctld_enforce ENFORCE: slurmctld again with AccountingStorageEnforce
# set to ENFORCE (cluster.sh always writes the limits one, so this edits its
# slurm.conf and starts the daemon the way cluster.sh does)
start_ctld_enforce() {
	stop_ctld
	sed -i "s/^AccountingStorageEnforce=.*/AccountingStorageEnforce=$1/" "$SLURM_CONF"
	if [[ -n ${MFPRIO_PLUGIN_DIR:-} ]]; then
		sed -i "s|^PluginDir=.*|PluginDir=$MFPRIO_PLUGIN_DIR:${UPSTREAM_SO%/*}|" "$SLURM_CONF"
	else
		sed -i "s|^PluginDir=.*|PluginDir=${UPSTREAM_SO%/*}|" "$SLURM_CONF"
	fi
	local t
	t=$(date +%s)
	setsid "$SLURM_SBIN/slurmctld" -f "$SLURM_CONF" </dev/null >>"$DIR/log/slurmctld.stderr" 2>&1
	local end=$((SECONDS + 60))
	until ctld_alive && scontrol show node "$NODE" 2>/dev/null | grep -q 'State=IDLE'; do
		((SECONDS < end)) || { say "slurmctld did not come back"; return 1; }
		sleep 1
	done
	wait_tick "$t"
}

# 1. with limits: the job's end is reported
before=$(raw_usage c u2)
run_job u2 c
sleep 2
after=$(raw_usage c u2)
got=$((after - before))
check "limits: a ${SECS}s job of $CPUS CPUs charged $got at its end (expected ~$expect)" \
	within "$got" "$expect" 10

# 2. without limits
start_ctld_enforce associations || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
check "our plugin runs without limits enforcement ($(loaded_so))" loaded_is "$plugin_dir/priority_multifactor.so"
before=$(raw_usage e u4)
wait_tick "$(date +%s)"
run_job u4 e
wait_tick "$(date +%s)"
after=$(raw_usage e u4)
got=$((after - before))
check "no limits: our plugin charged $got for a ${SECS}s job (expected ~$expect)" \
	within "$got" "$expect" 10
acct_got=$(($(raw_usage e) - 0))
check "no limits: its account e holds it too ($acct_got)" within "$acct_got" "$expect" 10

# 3. without limits, a job that ends, is requeued and ends again before
#    the next decay pass, with MinJobAge short enough that a sweep between
#    passes charges each end before slurmctld could purge the job: both
#    runs are charged (each run's EndTime - StartTime x CPUs x UF)
sed -i '/^MinJobAge=/d' "$SLURM_CONF"
echo "MinJobAge=30" >>"$SLURM_CONF"
start_ctld_enforce associations || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
RQ=8
before=$(raw_usage z u7)
wait_tick "$(date +%s)"
t_rq=$SECONDS
rq=$(sbatch --parsable --requeue --uid=u7 -A z -n "$CPUS" --qos=uf -D /tmp -o /dev/null \
	--wrap "sleep $RQ")
# run_state ID: the job's state in slurmctld
run_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z]*' | cut -d= -f2; }
# run_secs ID: its last run's EndTime - StartTime, as slurmctld has them
# (sacct gives a requeued run the requeue time as its end)
run_secs() {
	local s e
	s=$(scontrol -o show job "$1" | grep -o ' StartTime=[^ ]*' | cut -d= -f2)
	e=$(scontrol -o show job "$1" | grep -o ' EndTime=[^ ]*' | cut -d= -f2)
	echo $(($(date -d "$e" +%s) - $(date -d "$s" +%s)))
}
end=$((SECONDS + 60))
until [[ $(run_state "$rq") == COMPLETED ]] || ((SECONDS > end)); do sleep 1; done
secs=$(run_secs "$rq")
# a sweep (every MinJobAge/2 = 15 s) charges the first end: wait for it
# (up to a minute) rather than for a fixed time
end=$((SECONDS + 60))
until (($(raw_usage z u7) > before)) || ((SECONDS > end)); do sleep 1; done
check "no limits, requeued: the first end is charged by a sweep before the requeue" \
	test "$(raw_usage z u7)" -gt "$before"
scontrol requeue "$rq" >/dev/null 2>&1
# a requeued job waits for its launch credential to expire; start it now
scontrol update jobid="$rq" StartTime=now >/dev/null 2>&1
end=$((SECONDS + 60))
until [[ $(run_state "$rq") == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
until [[ $(run_state "$rq") == COMPLETED ]] || ((SECONDS > end)); do sleep 1; done
secs=$((secs + $(run_secs "$rq")))
say "requeued job $rq ended twice in $((SECONDS - t_rq)) s"
wait_tick "$(date +%s)"
after=$(raw_usage z u7)
got=$((after - before))
runs=$(sacct -n -P -X --duplicates -j "$rq" -o ElapsedRaw 2>/dev/null | grep -c '^[0-9]')
rq_expect=$((CPUS * secs * UF))
check "no limits, requeued: sacct has both runs of job $rq ($runs)" test "$runs" -eq 2
check "no limits, requeued: both runs charged: $got for $secs s of runs (expected ~$rq_expect)" \
	within "$got" "$rq_expect" 15
sed -i '/^MinJobAge=/d' "$SLURM_CONF"

# Cases 4 and 5 (a running job requeued) take about seven minutes: the
# matrix runs them on the oldest and the newest live release, and sets
# MFPRIO_USAGE_NO_REQUEUE=1 for the releases between
if [[ ${MFPRIO_USAGE_NO_REQUEUE:-} != 1 ]]; then
	# second_run ID: the requeued job ID, pending, run again to its end,
	# then a tick; sets runs and cpu (its runs and their CPU-seconds in
	# sacct).  A requeued batch job cannot run again before its launch
	# credential expires (two minutes by default); the plugin looks at the
	# runs it noted every 10 s meanwhile.  Started again sooner it would be
	# seen with its second run only, so it is left pending past one look.
	second_run() {
		local end
		sleep 15
		scontrol update jobid="$1" StartTime=now >/dev/null 2>&1
		end=$((SECONDS + 90))
		until [[ $(run_state "$1") == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
		until [[ $(run_state "$1") == COMPLETED ]] || ((SECONDS > end)); do sleep 1; done
		wait_tick "$(date +%s)"
		runs=$(sacct -n -P -X --duplicates -j "$1" -o CPUTimeRAW 2>/dev/null | grep -c '^[0-9]')
		cpu=$(sacct -n -P -X --duplicates -j "$1" -o CPUTimeRAW 2>/dev/null |
			awk '/^[0-9]/ { s += $1 } END { print s + 0 }')
	}
	# fresh_assoc USER ACCOUNT QOS,...: a new association (zero usage)
	# allowed those QOS, once slurmctld has it
	fresh_assoc() {
		local end=$((SECONDS + 30))
		sacctmgr -i add user "$1" cluster="$CLUSTER_NAME" account="$2" qos="$3" >/dev/null
		until sshare -n -P -a -o Account,User | tr -d ' ' | grep -qx "$2|$1"; do
			((SECONDS < end)) || { say "no association $2/$1 in sshare"; return 1; }
			sleep 1
		done
	}
	# qos_usage NAME: the QOS's UsageRaw in slurmctld
	qos_usage() {
		scontrol -o show assoc_mgr flags=qos qos="$1" 2>/dev/null |
			grep -o 'UsageRaw=[0-9.]*' | head -n 1 | cut -d= -f2
	}
	# past_look: sleep to 3 s after the plugin's next look at its noted runs
	# (every 10 s after a tick; the tick ends with priority_last_decay_ran
	# written)
	past_look() {
		local since=$(($(date +%s) - $(stat -c %Y "$STATE/priority_last_decay_ran")))
		sleep $(((13 - since % 10) % 10))
	}
	# 4. without limits, a running job requeued after RUN1 seconds, which then
	#    runs its whole RUN2 seconds: sacct -D has both runs (the first ending
	#    at the requeue), and the association is charged both
	RUN1=25
	RUN2=40
	rq_qos=uf
	if slurm_at_least 24.11; then
		sacctmgr -i add qos qa UsageFactor=$UF Priority=20 >/dev/null 2>&1
		sacctmgr -i add qos qb UsageFactor=1 Priority=10 >/dev/null 2>&1
		rq_qos=qa,qb
	fi
	check "4: a fresh association d/u3" fresh_assoc u3 d "normal,$rq_qos"
	before=$(raw_usage d u3)
	wait_tick "$(date +%s)"
	rr=$(sbatch --parsable --requeue --uid=u3 -A d -n "$CPUS" --qos="$rq_qos" -D /tmp -o /dev/null \
		--wrap "sleep $RUN2")
	end=$((SECONDS + 60))
	until [[ $(run_state "$rr") == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
	sleep "$RUN1"
	if [[ $rq_qos == qa,qb ]]; then
		# the node drained (the job runs on), and the requeue 3 s after a
		# look, so that the next look comes after the requeued job's queue
		# build below
		scontrol update nodename="$NODE" state=drain reason=mfprio-usage-4 >/dev/null
		past_look
	fi
	scontrol requeue "$rr" >/dev/null 2>&1
	end=$((SECONDS + 60))
	until [[ $(run_state "$rr") == PENDING ]] || ((SECONDS > end)); do sleep 0.2; done
	if [[ $rq_qos == qa,qb ]]; then
		# pending, eligible at once, on no node: slurmctld builds its
		# queue, which leaves the job's qos_ptr on its last QOS, qb, before
		# the plugin's next look settles the run that ran under qa; the
		# node back once that look is past
		scontrol update jobid="$rr" StartTime=now >/dev/null 2>&1
		sleep 12
		# the scheduler gave it a reason of its own: it was in the queue
		rq_why=$(scontrol -o show job "$rr" | grep -o ' Reason=[^ ]*' | cut -d= -f2)
		check "4, multi-QOS: requeued job $rr was in slurmctld's queue on a drained node (Reason=$rq_why, not BeginTime or Cleaning)" \
			test -n "$rq_why" -a "$rq_why" != BeginTime -a "$rq_why" != Cleaning
		scontrol update nodename="$NODE" state=resume >/dev/null
	fi
	second_run "$rr"
	after=$(raw_usage d u3)
	got=$((after - before))
	rr_expect=$((cpu * UF))
	say "running job $rr requeued after ${RUN1}s: sacct has $runs runs, $cpu CPU-seconds; charged $got"
	check "no limits, running job requeued: sacct has both runs of job $rr ($runs)" test "$runs" -eq 2
	check "no limits, running job requeued: both runs charged, $got for $cpu CPU-seconds (expected ~$rr_expect)" \
		within "$got" "$rr_expect" 10
	check "no limits, running job requeued: sacct's runs are at least the $RUN1 s and $RUN2 s run ($cpu)" \
		test "$cpu" -ge $((CPUS * (RUN1 + RUN2) * 9 / 10))
	if [[ $rq_qos == qa,qb ]]; then
		# each run's QOS and CPU-seconds, as sacct has them: qa's UsageFactor
		# is 1000, qb's 1
		sacct -n -P -X --duplicates -j "$rr" -o QOS,CPUTimeRAW >"$out/multi-qos.runs" 2>/dev/null
		want_qa=$(awk -F'|' '$1 == "qa" { s += $2 } END { print s * 1000 }' "$out/multi-qos.runs")
		want_qb=$(awk -F'|' '$1 == "qb" { s += $2 } END { print s + 0 }' "$out/multi-qos.runs")
		got_qa=$(qos_usage qa) got_qb=$(qos_usage qb)
		say "multi-QOS job $rr: runs (QOS|CPU-s) $(paste -sd' ' "$out/multi-qos.runs"); qa holds $got_qa, qb $got_qb"
		check "4, multi-QOS: the first run was under qa" \
			test "$(head -n 1 "$out/multi-qos.runs" | cut -d'|' -f1)" == qa
		check "4, multi-QOS: qa holds its runs' CPU-seconds x 1000 within 10% (${got_qa:-none}, expected $want_qa)" \
			within "${got_qa:-0}" "$want_qa" 10
		check "4, multi-QOS: qb holds its runs' CPU-seconds within 10%, nothing if none ran under it (${got_qb:-none}, expected $want_qb)" \
			awk -v g="${got_qb:-x}" -v w="$want_qb" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g ~ /^[0-9.]+$/ && d <= w * 0.1) }'
	fi

	# 5. without limits, a running job of QOS low preempted after RUN1 seconds
	#    by a job of QOS high, requeued, then run its whole RUN2 seconds
	sacctmgr -i add qos low >/dev/null 2>&1
	sacctmgr -i add qos high Preempt=low >/dev/null 2>&1 ||
		sacctmgr -i modify qos high set Preempt=low >/dev/null
	sacctmgr -i modify user where name=u1,u2 set qos+=low,high >/dev/null
	check "5: a fresh association d/u2" fresh_assoc u2 d normal,low,high
	sed -i '/^Preempt/d' "$SLURM_CONF"
	printf 'PreemptType=preempt/qos\nPreemptMode=REQUEUE\n' >>"$SLURM_CONF"
	start_ctld_enforce associations || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
	before=$(raw_usage d u2)
	wait_tick "$(date +%s)"
	lo=$(sbatch --parsable --requeue --uid=u2 -A d -n "$CPUS" --qos=low -D /tmp -o /dev/null \
		--wrap "sleep $RUN2")
	end=$((SECONDS + 60))
	until [[ $(run_state "$lo") == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
	sleep "$RUN1"
	hi=$(sbatch --parsable --uid=u1 -A b -n "$CPUS" --qos=high -D /tmp -o /dev/null --wrap "sleep 5")
	end=$((SECONDS + 60))
	until [[ $(run_state "$lo") == PENDING ]] || ((SECONDS > end)); do sleep 1; done
	check "no limits, preemption: job $lo of QOS low is requeued by job $hi of QOS high" \
		test "$(run_state "$lo")" == PENDING
	until [[ $(run_state "$hi") == COMPLETED ]] || ((SECONDS > end)); do sleep 1; done
	second_run "$lo"
	after=$(raw_usage d u2)
	got=$((after - before))
	say "preempted job $lo: sacct has $runs runs, $cpu CPU-seconds; charged $got"
	check "no limits, preemption: sacct has both runs of job $lo ($runs)" test "$runs" -eq 2
	check "no limits, preemption: both runs charged, $got for $cpu CPU-seconds" \
		within "$got" "$cpu" 10
	check "no limits, preemption: sacct's runs are at least the $RUN1 s and $RUN2 s run ($cpu)" \
		test "$cpu" -ge $((CPUS * (RUN1 + RUN2) * 9 / 10))
	sed -i '/^Preempt/d' "$SLURM_CONF"
else
	say "cases 4 and 5 (a running job requeued) left out (MFPRIO_USAGE_NO_REQUEUE=1)"
fi

use_plugin upstream
start_ctld_enforce associations || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
before=$(raw_usage f u5)
# right after a pass, so that the whole job falls between two passes
wait_tick "$(date +%s)"
run_job u5 f
up_rc=$?
wait_tick "$(date +%s)"
after=$(raw_usage f u5)
up_got=$((after - before))
say "upstream's plugin charged $up_got for the same job (expected ~$expect): the rest is lost"
# the job must have run, and sshare must still list f/u5: a job that never
# ran or an sshare that failed would read as 0 charged
check "no limits: upstream loses what ours keeps ($up_got, ours $got)" \
	test "$up_rc" -eq 0 -a "$up_got" -lt "$((expect / 10))" \
	-a -n "$(sshare -n -P -a -o Account,User | tr -d ' ' | grep -x 'f|u5')"

# back to the cluster's own configuration
use_plugin ours
"$here/cluster.sh" restart-ctld >"$out/restore.log" 2>&1
check "slurmctld is up" ctld_alive
finish
