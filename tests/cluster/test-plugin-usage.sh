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
#   within 10% holds both under and over).
#   6. the same with a job of two partitions, -p pa,pb (both on the node,
#      pa of PriorityTier 2, pb of 1, each with a partition QOS, qpa and
#      qpb, of no usage), from 24.11 on also of two QOS, --qos=qa,qb (qa
#      UsageFactor 1000 and Priority 20, qb UsageFactor 1 and Priority 10;
#      before 24.11, --qos=qa alone): it runs under pa and qa, is
#      requeued, and its run is settled while it is pending under the
#      other partition and QOS.  Its node is drained first (so that it
#      cannot start again), the requeue comes 3 s after one of the
#      plugin's looks at its noted runs (every 10 s), and the job, once
#      pending, is made eligible at once (scontrol update StartTime=now):
#      the queue slurmctld then builds goes through its partitions (and
#      QOS) in order and leaves its part_ptr on pb (and qos_ptr on qb)
#      when the plugin's next look settles the run (a requeued batch job
#      would otherwise wait two minutes, its BeginTime, out of every
#      queue).  The run's usage, sacct's CPU-seconds of it x 1000, must
#      be on qpa and qa within 10%, and nothing on qpb (nor qb).  The
#      checks first make sure of that order: the job's Reason set by the
#      scheduler (not BeginTime nor Cleaning) before the settle that
#      DebugFlags=Priority logs (the plugin's looks drift from the tick:
#      a try whose settle came first is made again, up to three).  A
#      plugin that books the settled run to the job's partition QOS now
#      puts it all on qpb (seen on 22.05.8 and 26.11.0-0rc1 before
#      87fb810: qpa 0.0, qpb 49998.6 and 47998.7 for 50 and 48 CPU-s; gdb
#      at the settle: part_ptr pb), and one that books it to the job's
#      QOS now puts it on qb (26.11.0-0rc1 with that undone by hand: qa
#      0.0, qb 31999.4 for 32 CPU-s).
#      Case 6 is the matrix's check of multi-QOS jobs (case 4's job was
#      one until it moved here): short, it runs on every live release.
#
# Parts (MFPRIO_USAGE_CASES, words or commas; default all three):
#   base     cases 1-3 and the comparison with upstream's plugin
#   requeue  cases 4-5 (a running job requeued, then run again; about seven
#            minutes); MFPRIO_USAGE_NO_REQUEUE=1 leaves it out too
#   multi    case 6 (about a minute and a half, a restart of slurmctld
#            with the partitions among it)
# A part left out is named on a "SKIPPED: ..." line and counted: the run
# ends "N passed, M failed, K skipped", and matrix.sh records each as a skip
# of the check (it runs the requeue part on the oldest and the newest live
# release only), so a run without it does not read as the whole test.
#
# The cluster and Slurm release: MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh); slurmctld is restarted from that release's sbin, with its
# plugin directory.  Upstream charges a job's end only through the limits
# code in every release from 22.05 to 26.11 (seen live on 26.05.3: the
# 20 s job charged 0), so the expectations do not depend on the release.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

UF=1000
SECS=20
CPUS=2
expect=$((CPUS * SECS * UF))

usage_parts=${MFPRIO_USAGE_CASES:-base requeue multi}
usage_parts=" ${usage_parts//,/ } "
for p in $usage_parts; do
	case $p in
	base | requeue | multi) ;;
	*) say "MFPRIO_USAGE_CASES: no part \"$p\" (base, requeue, multi)"; echo "0 passed, 1 failed"; exit 1 ;;
	esac
done
[[ ${MFPRIO_USAGE_NO_REQUEUE:-} == 1 ]] && usage_parts=${usage_parts// requeue / }
# has_part NAME: that part is run
has_part() { [[ $usage_parts == *" $1 "* ]]; }

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
# fresh_assoc USER ACCOUNT QOS,...: a new association (zero usage)
# allowed those QOS, once slurmctld has it
# shellcheck disable=SC2317  # called through check
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
# no_limits: slurmctld runs without limits enforcement (cases 2-6)
no_limits() { grep -qx 'AccountingStorageEnforce=associations' "$SLURM_CONF"; }
# multi_conf: slurmctld runs our plugin without limits, with partitions pa
# and pb of partition QOS qpa and qpb (case 6)
# shellcheck disable=SC2317  # called through check
multi_conf() {
	no_limits && loaded_is "$plugin_dir/priority_multifactor.so" &&
		scontrol -o show partition pa | grep -q ' QoS=qpa ' &&
		scontrol -o show partition pb | grep -q ' QoS=qpb '
}
# one_run_under PARTITION QOS FILE: FILE (sacct's Partition|QOS|CPU-s of a
# job's runs) has one run, under PARTITION and QOS
# shellcheck disable=SC2317  # called through check
one_run_under() {
	[[ $(wc -l <"$3") -eq 1 && $(cut -d'|' -f1,2 "$3") == "$1|$2" ]]
}

if has_part base; then
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
	ours_got=$got
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
else
	skip_part "cases 1-3 and upstream's plugin (short jobs charged)" "not in MFPRIO_USAGE_CASES=${MFPRIO_USAGE_CASES:-}"
fi

# Cases 4 and 5 (a running job requeued) take about seven minutes: the
# matrix runs them on the oldest and the newest live release, and sets
# MFPRIO_USAGE_NO_REQUEUE=1 for the releases between
if has_part requeue; then
	if ! no_limits; then
		start_ctld_enforce associations || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
	fi
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
	# 4. without limits, a running job requeued after RUN1 seconds, which then
	#    runs its whole RUN2 seconds: sacct -D has both runs (the first ending
	#    at the requeue), and the association is charged both
	RUN1=25
	RUN2=40
	check "4: a fresh association d/u3" fresh_assoc u3 d normal,uf
	before=$(raw_usage d u3)
	wait_tick "$(date +%s)"
	rr=$(sbatch --parsable --requeue --uid=u3 -A d -n "$CPUS" --qos=uf -D /tmp -o /dev/null \
		--wrap "sleep $RUN2")
	end=$((SECONDS + 60))
	until [[ $(run_state "$rr") == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
	sleep "$RUN1"
	scontrol requeue "$rr" >/dev/null 2>&1
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
	skip_part "cases 4-5 (a running job requeued, then run again)" \
		"$([[ ${MFPRIO_USAGE_NO_REQUEUE:-} == 1 ]] && echo "MFPRIO_USAGE_NO_REQUEUE=1 (the matrix runs them on the oldest and the newest live release)" || echo "not in MFPRIO_USAGE_CASES=${MFPRIO_USAGE_CASES:-}")"
fi

# 6. without limits, a running job of two partitions (and, from 24.11, two
#    QOS) requeued and settled while pending under the others (the header)
if has_part multi; then
	sacctmgr -i add qos qpa,qpb >/dev/null 2>&1
	sacctmgr -i add qos qa UsageFactor=$UF Priority=20 >/dev/null 2>&1
	sacctmgr -i add qos qb UsageFactor=1 Priority=10 >/dev/null 2>&1
	mq_qos=qa
	slurm_at_least 24.11 && mq_qos=qa,qb
	# the partitions, read by slurmctld once their QOS exist (a partition
	# of an unknown QOS is fatal to it); the cluster's own slurm.conf
	# written anew, without limits enforcement
	cat >"$out/partitions.conf" <<-PART
		PartitionName=pa Nodes=$NODE QOS=qpa PriorityTier=2 MaxTime=INFINITE State=UP
		PartitionName=pb Nodes=$NODE QOS=qpb PriorityTier=1 MaxTime=INFINITE State=UP
	PART
	export MFPRIO_CONF_EXTRA=$out/partitions.conf MFPRIO_ACCT_ENFORCE=associations
	restart_ctld multi || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
	check "6: slurmctld has partitions pa and pb of QOS qpa and qpb, without limits ($(loaded_so))" \
		multi_conf
	check "6: a fresh association d/u1" fresh_assoc u1 d "normal,qa,qb"
	MRUN=15
	# mq_try: one try of the case: a job of partitions pa,pb run MRUN s,
	# requeued and settled while pending; sets mp, mp_why, t_queued,
	# settle, t_settle, want (sacct's CPU-seconds of its run x 1000, its
	# Partition|QOS|CPU-s in $out/multi.runs) and what each QOS gained
	# meanwhile (d_qpa, d_qpb, d_qa, d_qb); true if the job was in the
	# scheduler's queue before the settle.  The plugin's looks drift from
	# the tick (each comes 10 s after the end of the last), so the requeue
	# 3 s after one is a guess: a try whose settle came first is tried
	# again (its usage, booked under pa, is not counted in the next one's).
	mq_try() {
		local end q0 q
		q0=$(for q in qpa qpb qa qb; do qos_usage "$q"; done | paste -sd' ')
		mp=$(sbatch --parsable --requeue --uid=u1 -A d -p pa,pb -n "$CPUS" --qos="$mq_qos" -D /tmp \
			-o /dev/null --wrap "sleep 600")
		end=$((SECONDS + 60))
		until [[ $(run_state "$mp") == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
		sleep "$MRUN"
		# the node drained (the job runs on); DebugFlags=Priority for the
		# plugin's line of the settle (logged at level verbose); the
		# requeue 3 s after a look
		scontrol update nodename="$NODE" state=drain reason=mfprio-usage-6 >/dev/null
		scontrol setdebugflags +Priority >/dev/null 2>&1
		scontrol setdebug verbose >/dev/null 2>&1
		m=$(log_mark)
		past_look
		scontrol requeue "$mp" >/dev/null 2>&1
		end=$((SECONDS + 60))
		until [[ $(run_state "$mp") == PENDING ]] || ((SECONDS > end)); do sleep 0.2; done
		# pending, eligible at once, on no node: in the scheduler's
		# queue (a Reason of the scheduler's own) before the plugin's
		# next look, it is left under pb (and qb)
		scontrol update jobid="$mp" StartTime=now >/dev/null 2>&1
		mp_why="" t_queued=""
		end=$((SECONDS + 30))
		while ((SECONDS < end)); do
			mp_why=$(scontrol -o show job "$mp" | grep -o ' Reason=[^ ]*' | cut -d= -f2)
			if [[ -n $mp_why && $mp_why != BeginTime && $mp_why != Cleaning && $mp_why != None ]]; then
				t_queued=$(date +%s.%N)
				break
			fi
			sleep 0.2
		done
		# the settle, as the plugin logs it: "... the end of its run of
		# START under QOS NAME"
		settle_re="mfprio: JobId=$mp owes .* the end of its run of [0-9]+ under QOS"
		wait_until 30 log_has "$m" "$settle_re"
		settle=$(tail -n +"$((${m#*:} + 1))" "$LOG" | grep -E -m 1 -- "$settle_re")
		t_settle=$(sed -n 's/^\[\([0-9T:.-]*\)\].*/\1/p' <<<"$settle")
		t_settle=$(date -d "${t_settle/T/ }" +%s.%N 2>/dev/null)
		scontrol setdebugflags -Priority >/dev/null 2>&1
		scontrol setdebug info >/dev/null 2>&1
		say "6: job $mp of partitions pa,pb: in the queue (Reason=$mp_why) at ${t_queued:-never}; settled at ${t_settle:-never}: ${settle#*mfprio: }"
		# the run as sacct has it (the record of the requeue) and the
		# QOS' usage, read while the job is still pending on the
		# drained node
		end=$((SECONDS + 30))
		until sacct -n -P -X --duplicates -j "$mp" -o CPUTimeRAW 2>/dev/null | grep -q '^[1-9]' ||
			((SECONDS > end)); do sleep 1; done
		sacct -n -P -X --duplicates -j "$mp" -o Partition,QOS,CPUTimeRAW 2>/dev/null |
			awk -F'|' '$3 > 0' >"$out/multi.runs"
		want=$(awk -F'|' '{ s += $3 } END { print s * 1000 }' "$out/multi.runs")
		read -r d_qpa d_qpb d_qa d_qb < <(
			for q in qpa qpb qa qb; do qos_usage "$q"; done | paste -sd' ' |
				awk -v b="$q0" '{ split(b, o, " "); for (i = 1; i <= 4; i++) printf "%s%s", ($i ~ /^[0-9.]+$/ ? sprintf("%.1f", $i - o[i]) : "none"), (i < 4 ? " " : "\n") }')
		scancel "$mp" >/dev/null 2>&1
		scontrol update nodename="$NODE" state=resume >/dev/null
		end=$((SECONDS + 30))
		until [[ $(run_state "$mp") == CANCELLED ]] || ((SECONDS > end)); do sleep 1; done
		awk -v q="${t_queued:-x}" -v s="${t_settle:-x}" 'BEGIN { exit !(q ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && q <= s) }'
	}
	for try in 1 2 3; do
		mq_try && break
		say "6: try $try: job $mp was settled before it was in the queue: not the case; again"
	done
	check "6: requeued job $mp was in slurmctld's queue (Reason=${mp_why:-none}, not BeginTime or Cleaning) before the plugin settled its run (try $try)" \
		awk -v q="${t_queued:-x}" -v s="${t_settle:-x}" 'BEGIN { exit !(q ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && q <= s) }'
	say "6: job $mp: run (partition|QOS|CPU-s) $(paste -sd' ' "$out/multi.runs"); gained: qpa ${d_qpa:-none}, qpb ${d_qpb:-none}, qa ${d_qa:-none}, qb ${d_qb:-none}"
	check "6: its one run was under partition pa and QOS qa ($(paste -sd' ' "$out/multi.runs"))" \
		one_run_under pa qa "$out/multi.runs"
	check "6: partition QOS qpa gained the run's CPU-seconds x 1000 within 10% (${d_qpa:-none}, expected $want)" \
		within "${d_qpa:-0}" "$want" 10
	check "6: partition QOS qpb gained nothing (${d_qpb:-none})" \
		awk -v g="${d_qpb:-x}" 'BEGIN { exit !(g ~ /^-?[0-9.]+$/ && g < 1) }'
	check "6: the job's QOS qa gained it too (${d_qa:-none}, expected $want)" \
		within "${d_qa:-0}" "$want" 10
	if [[ $mq_qos == qa,qb ]]; then
		check "6: its other QOS qb gained nothing (${d_qb:-none})" \
			awk -v g="${d_qb:-x}" 'BEGIN { exit !(g ~ /^-?[0-9.]+$/ && g < 1) }'
	else
		say "6: a job of one QOS ($SLURM_RELEASE: jobs of several QOS from 24.11 on)"
	fi
else
	skip_part "case 6 (a job of two partitions requeued)" "not in MFPRIO_USAGE_CASES=${MFPRIO_USAGE_CASES:-}"
fi

if has_part base; then
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
	check "no limits: upstream loses what ours keeps ($up_got, ours $ours_got)" \
		test "$up_rc" -eq 0 -a "$up_got" -lt "$((expect / 10))" \
		-a -n "$(sshare -n -P -a -o Account,User | tr -d ' ' | grep -x 'f|u5')"
fi

# back to the cluster's own configuration
use_plugin ours
unset MFPRIO_CONF_EXTRA MFPRIO_ACCT_ENFORCE
"$here/cluster.sh" restart-ctld >"$out/restore.log" 2>&1
check "slurmctld is up" ctld_alive
finish
