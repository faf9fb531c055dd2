#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-faults.sh: state and data faults in a live slurmctld running mfprio's
# plugin; the controller stays up, its figures stay finite and in range, and
# usage already accounted is neither lost nor counted twice.
#
# Usage is checked per association against the jobs' own records: sacct's
# ElapsedRaw x billing (the job's allocated CPUs here: no TRESBillingWeights)
# summed over the association's finished jobs, which is what the association
# must hold (PriorityDecayHalfLife=7-0: over the few minutes of this test the
# decay takes < 0.05%, the tolerance is 0.2% + 1; a state file that made the
# plugin decay over decades would leave 0).
#
# Cases, in this order, on one cluster (doc/state-faults.md tables them):
#   1. usage 0 everywhere: the first pass, pending jobs of every user;
#      then very large usage: a job under a QOS with UsageFactor=1e15;
#   2. both state files garbage: priority_last_decay_ran with the last decay
#      in 1970 and the last reset in 2100, mfprio_charged_jobs with bad lines
#      among good ones; slurmctld restarted;
#   3. StateSaveLocation not writable (mode 0500) across a pass while a job
#      runs and ends; then writable again;
#   4. a QOS deleted while a job asks for it; an association whose jobs pend
#      cannot be deleted (sacctmgr refuses); shares 0 everywhere;
#   5. slurmctld killed (SIGKILL) in the middle of a pass (stopped there by
#      gdb) while a job runs and 300 are pending, and started again.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

N_PENDING=${MFPRIO_FAULTS_PENDING:-300}
use_plugin ours
start_cluster "$here/priority-default.conf"
m0=$(log_mark)
check "our plugin is loaded" loaded_is "$plugin_so"

# Jobs that must stay pending ask for QOS "wait" (GrpJobs=0: it survives
# restarts, unlike a partition set DOWN), the very large usage comes from QOS
# "huge".
UF_HUGE=1000000000000000
sacctmgr -i add qos wait GrpJobs=0 >/dev/null 2>&1
sacctmgr -i add qos huge UsageFactor=$UF_HUGE >/dev/null 2>&1
sacctmgr -i modify user where name=u1,u2,u3,u4,u5,u7 set qos+=wait,huge >/dev/null 2>&1

# usage_now FILE: "account|user|RawUsage" of every user association
usage_now() {
	sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' |
		awk -F'|' '$2 != "" { print $1 "|" $2 "|" $3 }' | sort >"$1"
}

# worth_now FILE: "account|user|ElapsedRaw x billing" summed over the
# finished jobs of each association, from sacct (x UsageFactor for QOS huge)
worth_now() {
	sacct -X -n -P -a -S 2020-01-01 -o Account,User,ElapsedRaw,AllocTRES,State,QOS |
		awk -F'|' -v huge="$UF_HUGE" '$5 !~ /RUNNING|PENDING/ {
			b = 0
			if (match($4, /billing=[0-9]+/))
				b = substr($4, RSTART + 8, RLENGTH - 8)
			w[$1 "|" $2] += $3 * b * ($6 == "huge" ? huge : 1)
		} END { for (k in w) print k "|" w[k] }' | sort >"$1"
}

# conserved LABEL: every association's usage is its jobs' worth
conserved() {
	usage_now "$out/$1.usage"
	worth_now "$out/$1.worth"
	awk -F'|' 'NR == FNR { w[$1 "|" $2] = $3; nw++; next }
		{ k = $1 "|" $2; e = w[k] + 0; d = $3 - e; if (d < 0) d = -d; nu++
		  if (d > 1 + e * 2e-3) { print k ": usage " $3 ", jobs worth " e; bad = 1 }
		  seen[k] = 1 }
		END { for (k in w) if (!(k in seen) && w[k] > 0) { print k ": no association, jobs worth " w[k]; bad = 1 }
		      if (!nw || !nu) print "no rows (jobs worth " nw + 0 ", usage " nu + 0 ")"
		      exit bad || !nw || !nu }' "$out/$1.worth" "$out/$1.usage" >"$out/$1.diff"
	local rc=$?
	[[ $rc -eq 0 ]] || sed "s/^/$test_name: $1: /" "$out/$1.diff"
	return $rc
}

# finite LABEL: sprio and sshare answer, with no nan/inf, no wrapped
# priority (4294967295 or more) and fair-share factors within [0, 1]
finite() {
	sprio -l -h >"$out/$1.sprio" 2>"$out/$1.sprio.err" || return 1
	sshare -a -l -P -n >"$out/$1.sshare" 2>"$out/$1.sshare.err" || return 1
	! grep -qiE 'nan|inf' "$out/$1.sprio" || return 1
	awk '{ for (i = 4; i <= NF; i++) if ($i ~ /^[0-9.]+$/ && $i + 0 >= 4294967295) exit 1 }' \
		"$out/$1.sprio" || return 1
	# sshare -l -P: Account|User|RawShares|NormShares|RawUsage|NormUsage|
	# EffectvUsage|FairShare|LevelFS|...; LevelFS is inf where an
	# association has no usage (Fair Tree's shares / 0, as upstream's);
	# FairShare within [0, 1]
	awk -F'|' '{ for (i = 1; i <= NF; i++) if (i != 9 && tolower($i) ~ /nan|inf/) exit 1
		     if (tolower($9) ~ /nan/) exit 1 }
		$8 != "" && ($8 < 0 || $8 > 1) { exit 1 }' "$out/$1.sshare"
}

# run_jobs SPEC...: run ACCOUNT:USER:CPUS:SECONDS[:QOS] jobs and wait until
# they ended
run_jobs() {
	local spec a u c s q ids=() end
	for spec in "$@"; do
		IFS=: read -r a u c s q <<<"$spec"
		ids+=("$(sbatch --parsable --uid="$u" --gid="$u" -A "$a" -n "$c" --qos="${q:-normal}" \
			-D /tmp -o /dev/null --wrap "sleep $s")")
	done
	end=$((SECONDS + 120))
	while ((SECONDS < end)) && squeue -h -j "$(
		IFS=,
		echo "${ids[*]}"
	)" 2>/dev/null | grep -q .; do sleep 1; done
	sleep 2 # the end record reaches slurmdbd
}

pending_users=(b:u1 c:u2 c:u3 e:u4 f:u5 z:u7)
# pend JOBS: JOBS pending jobs (QOS wait) in both partitions, spread over
# the users, from two submitters
pend() {
	local n=$1 k
	for k in 0 1; do
		(
			i=$k
			while ((i < n)); do
				IFS=: read -r a u <<<"${pending_users[i % ${#pending_users[@]}]}"
				p=debug
				((i % 3)) || p=big
				sbatch --uid="$u" --gid="$u" -A "$a" -p "$p" --qos=wait -n 1 -D /tmp \
					-o /dev/null --wrap 'sleep 1' >/dev/null 2>>"$out/pend.err"
				i=$((i + 2))
			done
		) &
	done
	wait
}

pend 12

# 1. usage 0 everywhere
t=$(date +%s)
wait_tick "$t"
check "1: no usage anywhere: sprio and sshare finite and in range" finite zero
check "1: no usage anywhere: 12 pending jobs priced" \
	test "$(wc -l <"$out/zero.sprio")" -eq 12
run_jobs b:u1:2:6 c:u2:1:4 e:u4:1:5 z:u7:1:3:huge
wait_tick "$(date +%s)"
check "1: usage is the jobs' worth (sacct), UsageFactor=1e15 included" conserved jobs1
check "1: very large usage: sprio and sshare finite and in range" finite huge

# 2. both state files garbage
stop_ctld
f=$STATE/priority_last_decay_ran
c=$STATE/mfprio_charged_jobs
# last decay at 1 (1970), last reset in 2100: pack_time's big-endian 64 bits
printf '\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\xf4\x86\x57\x00' >"$f"
cp "$f" "$f.old"
printf 'garbage\n99999 12x\n4294967296 5\n77 %s\n\n-3 4\n' "$(($(date +%s) + 600))" >"$c"
chown slurm: "$f" "$f.old" "$c"
m=$(log_mark)
t=$(date +%s)
start_ctld garbage
check "2: garbage state files: slurmctld starts" ctld_alive
wait_tick "$t"
check "2: a last decay in 1970 is named and taken as now" \
	log_has "$m" "mfprio: state file $f: last decay time 1 is not a plausible time; taken as now"
check "2: a last reset in 2100 is named and taken as now" \
	log_has "$m" "mfprio: state file $f: last usage reset time 4102444800 is [0-9]+ s in the future; taken as now"
check "2: bad lines of $c are named by line" \
	log_has "$m" "mfprio: $c:1: not \"JOBID ENDTIME\": line skipped, the others are kept"
check "2: ... and the line after them is kept" \
	log_has "$m" "mfprio: $c: 1 jobs that ended since the last decay pass were charged already"
check "2: usage is unchanged: the jobs' worth (no decay over decades)" conserved garbage
check "2: sprio and sshare finite and in range" finite garbage

# 3. StateSaveLocation not writable
chmod 0500 "$STATE"
run_jobs f:u5:2:4
m=$(log_mark)
wait_until 90 log_has "$m" "mfprio: cannot create $f.new"
check "3: unwritable StateSaveLocation: the failed write is named" \
	log_has "$m" "mfprio: cannot create $f.new: Permission denied"
check "3: slurmctld answers" ctld_alive
check "3: the job that ran meanwhile is charged, nothing else moved" conserved unwritable
check "3: sprio and sshare finite and in range" finite unwritable
chmod 0755 "$STATE"

# 4. a QOS deleted under a pending job; an association with pending jobs;
# shares 0 everywhere
sacctmgr -i add qos gone >/dev/null 2>&1
sacctmgr -i modify user where name=u4 set qos+=gone >/dev/null 2>&1
sacctmgr -i modify qos gone set GrpJobs=0 >/dev/null 2>&1
gone=$(sbatch --parsable --uid=u4 --gid=u4 -A e --qos=gone -n 1 -D /tmp \
	-o /dev/null --wrap 'sleep 1')
sacctmgr -i delete qos gone >"$out/qos-delete.out" 2>&1
sleep 2
check "4: the job whose QOS was deleted is still known ($gone)" \
	bash -c "scontrol show job $gone | grep -q JobState=PENDING"
scontrol show job "$gone" >"$out/gone.job"
sacctmgr -i delete user u5 account=f >"$out/assoc-delete.out" 2>&1
check "4: sacctmgr refuses to delete an association whose jobs pend" \
	grep -q 'Job(s) active' "$out/assoc-delete.out"
sacctmgr -i modify account where name=a,b,c,d,e,f,z set fairshare=0 >/dev/null 2>&1
sacctmgr -i modify user where name=u1,u2,u3,u4,u5,u7 set fairshare=0 >/dev/null 2>&1
sleep 2
check "3: writable again: the next pass writes the state file (and 4's changes are in)" \
	wait_tick "$(date +%s)"
check "4: shares 0 everywhere: sprio and sshare finite and in range" finite noshares
check "4: usage is still the jobs' worth" conserved noshares

# 5. SIGKILL in the middle of a pass: gdb stops slurmctld where the pass
# has charged the running jobs in memory (for this pass's time) and not yet
# written priority_last_decay_ran (the fair-share step), and SIGKILL is
# delivered there.
pend "$N_PENDING"
n_pend=$(squeue -h -t PD | wc -l)
say "pending jobs: $n_pend"
run=$(sbatch --parsable --uid=u1 --gid=u1 -A b -n 2 -D /tmp -o /dev/null --wrap 'sleep 600')
end=$((SECONDS + 60))
until [[ $(squeue -h -j "$run" -o %T 2>/dev/null) == RUNNING ]] || ((SECONDS > end)); do sleep 1; done
t_s=$(date -d "$(squeue -h -j "$run" -o %S)" +%s)
worth_now "$out/prekill.worth"
usage_now "$out/prekill.usage"
pid=$(ctld_pid)
timeout 150 gdb -p "$pid" -batch -nx -q -ex 'set pagination off' \
	-ex 'break mfp_fairshare_recompute' -ex continue \
	-ex 'signal SIGKILL' >"$out/gdb.log" 2>&1
sleep 1
# gone, or a zombie nobody reaped yet
dead() {
	[[ ! -e /proc/$1 ]] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}
# the decay thread (not a reconfigure's RPC thread) in the pass
check "5: slurmctld ($pid) was stopped in a pass (gdb) and SIGKILL sent" \
	bash -c "grep -q '\"mfprio_decay\" hit Breakpoint 1, mfp_fairshare_recompute' '$out/gdb.log'"
check "5: ... and it is dead" dead "$pid"
l_kill=$(last_ran)
m=$(log_mark)
start_ctld killed
check "5: slurmctld starts again after SIGKILL" ctld_alive
wait_tick "$(date +%s)"
check "5: the state files were whole (no fault logged)" \
	log_lacks "$m" "mfprio: (state file .* is truncated|cannot decode|cannot read|.*not \"JOBID ENDTIME\")"
usage_now "$out/postkill.usage"
l_now=$(last_ran)
t_s2=$(date -d "$(squeue -h -j "$run" -o %S)" +%s)
# The running job of u1 (2 CPUs since t_s): after the restart it is charged
# from the last pass the file holds (l_kill), or from its start if later, to
# l_now: its association holds at least its finished jobs' worth plus that,
# and at most its finished jobs' worth plus the job's whole run (more would
# be time counted twice).  What it was charged before l_kill is in the saved
# usage only if slurmctld saved after that (see doc/state-faults.md).  A job
# whose start slurmctld had not saved yet is recovered pending and started
# again (t_s2): its first run is charged by nobody.
w=$(awk -F'|' '$1 "|" $2 == "b|u1" { print $3 }' "$out/prekill.worth")
u=$(awk -F'|' '$1 "|" $2 == "b|u1" { print $3 }' "$out/postkill.usage")
from=$l_kill
((t_s2 > from)) && from=$t_s2
lo=$((${w:-0} + 2 * (l_now - from)))
hi=$((${w:-0} + 2 * (l_now - t_s)))
say "u1 in b: usage $u; finished jobs worth ${w:-0}, running since $t_s ($t_s2 after the restart), last pass before the kill $l_kill, after $l_now: bounds [$lo, $hi]"
check "5: the running job is charged since the last written pass, and not twice ($u in [$lo, $hi])" \
	awk -v u="${u:--1}" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(u >= lo * 0.998 - 1 && u <= hi * 1.002 + 2) }'
# Every other association: no job ended since the clean start of case 2 but
# case 3's (of u5), so each holds what it held before the kill, or, had no
# periodic save come since case 3, that minus case 3's job.  Never more.
check "5: no usage counted twice: every other association holds at most what it held before the kill" \
	awk -F'|' 'NR == FNR { u[$1 "|" $2] = $3; next }
		{ k = $1 "|" $2; n++; if (k != "b|u1" && $3 > u[k] * 1.002 + 1) { print k ": " $3 " > " u[k]; bad = 1 } }
		END { exit bad || n == 0 }' "$out/prekill.usage" "$out/postkill.usage"
check "5: no usage lost but case 3's job, maybe not saved yet" \
	awk -F'|' 'NR == FNR { k = $1 "|" $2; if (k != "f|u5" && k != "b|u1") u[k] = $3; next }
		($1 "|" $2) in u { k = $1 "|" $2; seen[k] = 1; if ($3 < u[k] * 0.998 - 1) { print k ": " $3 " < " u[k]; bad = 1 } }
		END { for (k in u) if (!(k in seen)) { print k ": gone"; bad = 1 }
			exit bad }' "$out/prekill.usage" "$out/postkill.usage"
check "5: sprio and sshare finite and in range over $n_pend pending jobs" finite killed
scancel "$run" 2>/dev/null
check "no fatal error logged" log_lacks "$m0" 'fatal'
scancel --state=PENDING 2>/dev/null
finish
