#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio why JOBID`: why one job waits, from the dumps a user's own
# commands give (tests/data/wait: scontrol show config, sprio, sshare,
# time; the jobs line of job.in with each Reason put in), every figure
# worked out by hand below.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
W="$TOP_SRCDIR/tests/data/wait"

# case NAME REASON [STATE PRIO DEP ELIG RESV]: a snapshot directory
# $T/NAME with job 123 pending for REASON (and job 110's line before it,
# which the reader must pass over).
case_dir() {
	d=$T/$1
	wait_case "$d" "$2" "${3:-PENDING}" "${4:-1800}" "${5:-(null)}" \
		"${6:-2023-11-12T22:13:20}" "${7:-(null)}"
	sed -e 's/JobId=123 /JobId=110 /' "$d/jobs.1" >"$d/jobs"
	cat "$d/jobs.1" >>"$d/jobs"
	rm "$d/jobs.1"
}

# why NAME [ARGS]: run `mfprio why 123` on $T/NAME; the text with its
# lines joined (the sentences wrap) in $T/flat, the exit status in rc.
why() {
	local n=$1
	shift
	why_flat "$T/$n" "$@"
}
# has and lacks (lib.sh) read the joined text
in=$T/flat



# --- priority.  sprio's rows of partition batch, by priority:
#   101 5400, 102 3000, 110 2100, 118 2000, 123 1800, 125 1800, 130 1100
# so 4 of 7 are ahead of 123 (125 has the same priority and a higher job
# id: behind); the first is 101, the one just ahead 118.
# 118 against 123: age 600 - 200 = 400 theirs, fair-share 400 - 600:
# 200 ours.  Crossing: 123 passes 118 when it is one above it, 201 to
# gain (at equal priorities the lower job id, 118, goes first).
# PriorityMaxAge 10 d = 864000 s, weight 1000; 118 (age 0.6) reaches 1
# after 0.4 * 864000 = 345600 s, the gap unchanged; 123 (0.2 + 0.4 = 0.6
# then) needs 201 / 1000 = 0.201 more, 173664 s: 519264 s in all = 6 d 0
# h 14 min 24 s, shown 6 d 0 h 15 min (minutes rounded up), at
# 1700000000 + 519264 = 2023-11-20T22:27:44.
# Partition long: 123 has 2300, 140 has 2000: first of 2.
# Age per hour: 1000 * 3600 / 864000 = 4.1667 -> 4.2, for (1 - 0.2) *
# 864000 = 691200 s = 8 d.
case_dir prio Priority
why prio
has "priority: the position in batch" 0 \
	"Partition batch: 4 of 7 pending jobs are ahead of it. Its priority is 1800; the first (job 101) has 5400, the one just ahead (job 118) 2000." \
	"Against job 118: their age gives 400 more; your fairshare gives 200 more."
has "priority: the crossing time" 0 \
	"By age alone it passes job 118 in 6 d 0 h 15 min (2023-11-20T22:27:44)"
has "priority: partition long" 0 \
	"Partition long: first of 2 pending jobs, priority 2300."
has "priority: age" 0 \
	"Age adds 4.2 priority an hour for 8 d 0 h 0 min more (age factor 0.2000 now)."
# Fair-share outlook (Fair Tree): phys/dave used 300 of phys's 400.
# D = 1 - 0.693 / 86400 (half-life 1 day, as Slurm decays), so after a
# day f = D^86400 = exp(86400 * ln D) = exp(-0.6930028) = 0.5000722:
# usage 300 f = 150.02 -> 150; the others in phys keep their 100, so
# effective usage 150.02 / 250.02 = 0.6000 and LevelFS 0.5 / 0.6000 =
# 0.8333 (sshare's 0.666667 scaled by the same ratio).  After a week
# f = D^604800 = 0.0078204: usage 2.35 -> 2, effective 2.35 / 102.35 =
# 0.02292, LevelFS 0.5 / 0.02292 = 21.81 (21.8118 with sshare's
# 0.666667 for 0.5 / 0.75).
has "priority: fair-share now and outlook" 0 \
	"Usage 300 (effective usage 0.7500), normalized shares 0.5000, LevelFS 0.6667, factor 0.0600." \
	"Its running jobs will still charge 1 CPU-minute, not counted below." \
	"In 1 day, running nothing more: usage 150, LevelFS 0.8333" \
	"In 1 week, running nothing more: usage 2, LevelFS 21.8118" \
	"In 1 half-life, running nothing more: usage 150, LevelFS 0.8333"
# Under chem dave's factor is 0.6 against 0.06: (0.6 - 0.06) * 10000
# (PriorityWeightFairShare) = 5400 more.
has "priority: another account ranks higher" 0 \
	"Under your account chem the fair-share factor is 0.6000 (here 0.0600): about 5400 more priority"
lacks "priority: nothing hidden" "What it could not see"

# --- another QOS (why-assoc, why-qos; PriorityWeightQOS 2000).  dave's
# association phys allows normal and high, chem's normal and top; the
# job is under normal (Priority 0).  QOS priorities 0, 50, 100, 0: the
# norm is the highest, 100.  high: 2000 * (50 - 0) / 100 = 1000 more,
# 1800 + 1000 = 2800 in batch, below 101 (5400) and 102 (3000) only: 2
# ahead instead of 4.  top (chem's) is not phys's: not offered.
case_dir qos Priority
cp "$W/why-assoc" "$W/why-qos" "$T/qos/"
sed -i 's/^PriorityWeightQOS .*/PriorityWeightQOS       = 2000/' "$T/qos/config"
why qos
has "qos: the higher QOS of the association, its term" 0 \
	"Under QOS high, which your association allows, the QOS term is 1000 more (its Priority 50 against 0 of normal, the highest 100, weight 2000), 2 jobs ahead in batch instead of 4 (scontrol update job=123 QOS=high)."
lacks "qos: not another association's QOS" "QOS top" "not visible"
why qos --json
has "qos: --json" 0 \
	'{"qos":"high","priority":50,"job_qos":"normal","job_qos_priority":0,"highest_priority":100,"gain":1000,"ahead":2}'
# the association of the job not among the user's visible ones: said so,
# null in JSON, no QOS offered
sed -i '/^phys/d' "$T/qos/why-assoc"
why qos
has "qos: association not visible" 0 \
	"The QOS your association allows, or their priorities, are not visible to you (sacctmgr)."
lacks "qos: none offered when not visible" "Under QOS"
why qos --json
has "qos: not visible, null" 0 '"better_qos": null'
why prio --json
has "priority --json: the same figures" 0 \
	'{"partition":"batch","priority":1800,"ahead":4,"pending":7,"head_job":101,"head_priority":5400,"next_job":118,"next_priority":2000,"next_minus_yours":{"age":400,"assoc":0,"fairshare":-200,"jobsize":0,"partition":0,"qos":0,"nice":0,"site":0}' \
	'"age_per_hour": 4.166666666666667' '{"account":"chem","factor":0.6,"gain":5400}' \
	'"hidden": { "jobs": false,'
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out"; then
	ok "priority --json parses"
else
	bad "priority --json parses"
fi
# every line within 80 columns
why prio
if awk 'length > 80 { bad = 1 } END { exit bad }' "$out"; then
	ok "text within 80 columns"
else
	bad "text within 80 columns"
fi

# --- classic (NO_FAIR_TREE): the factor follows the effective usage,
# relative to the root's 1000.  After a day, f = 0.5000722: the share of
# the total falls by g = f 1000 / (1000 - 300 (1 - f)) = 500.07 / 850.02
# = 0.58830, effective usage 0.75 g = 0.44123, factor 2^(-0.44123 / 0.5)
# = 2^(-0.88246) = 0.5424.  After a week (f = 0.0078204): g = 7.8204 /
# 702.35 = 0.011135, effective 0.0083510, factor 2^(-0.016702) = 0.9885.
case_dir classic Priority
sed -i 's/^PriorityFlags .*/PriorityFlags           = NO_FAIR_TREE/' "$T/classic/config"
why classic
has "classic: factor outlook" 0 \
	"In 1 day, running nothing more: usage 150, effective 0.4412, factor 0.5424." \
	"In 1 week, running nothing more: usage 2, effective 0.0084, factor 0.9885."

# --- association usage limit.  phys: GrpTRESMins cpu=5, GrpTRESRaw cpu=6
# whole minutes, RawUsage 400 cpu-seconds = 6.667 minutes (its whole
# minutes are 6: the fraction is taken).  Held while the minutes used
# are at or over 5: 6.667 D^t < 5, t = ln(5 / 6.667) / ln D = -0.287682 /
# -8.0208655e-6 = 35866.7 s -> 35867 s = 9 h 57 min 47 s, shown as 9 h 58
# min (minutes rounded up), at 1700035867 = 2023-11-15T08:11:07.  (The
# half-life alone: 86400 log2(400 / 300) = 35859 s; Slurm's 0.693 makes
# the 8 s.)
case_dir limit AssocGrpCPUMinutesLimit
why limit
has "limit: the limit, the usage, the lift time" 0 \
	"The account phys has a limit of 5 cpu-minutes (GrpTRESMins); it has used 6.67 (decayed usage), and its running jobs will still use 1." \
	"decay brings the usage back under in 9 h 58 min (2023-11-15T08:11:07)"
why limit --json
has "limit --json" 0 '"lift_seconds": 35866.7' '"lift_time": 1700035867'
# safe limits: the job (1 CPU x 1 minute) must fit beside the running 1:
# 6.667 D^t <= 5 - 1 - 1 = 3, t = ln(3 / 6.667) / ln D = -0.798508 /
# -8.0208655e-6 = 99553.8 s -> 99554 s = 1 d 3 h 39 min 14 s, shown 1 d
# 3 h 40 min, at 1700099554 = 2023-11-16T01:52:34.
case_dir safe AssocGrpCPUMinutesLimit
sed -i 's/^AccountingStorageEnforce .*/AccountingStorageEnforce = associations,limits,qos,safe/' "$T/safe/config"
why safe
has "limit under safe limits" 0 "its own 1 must stay within the limit" \
	"back under in 1 d 3 h 40 min (2023-11-16T01:52:34)"
case_dir runmin AssocGrpCPURunMinutesLimit
why runmin
has "run-minutes limit" 0 "(Slurm's code AssocGrpCPURunMinutesLimit)" \
	"It lifts as running jobs of the association end"

# --- the other reasons
case_dir dep Dependency PENDING 1800 'afterok:118(unfulfilled)'
why dep
has "dependency" 0 "It waits for other jobs: Dependency=afterok:118(unfulfilled)."
case_dir never DependencyNeverSatisfied PENDING 1800 'afterok:118(failed)'
why never
has "dependency never satisfied" 0 "That dependency can never be met"
case_dir begin BeginTime PENDING 1800 '(null)' 2023-11-15T06:00:00
why begin
has "begin time" 0 "It was submitted to start no earlier than 2023-11-15T06:00:00."
case_dir held JobHeldUser PENDING 0
why held
has "held" 0 "It is held (priority 0): \`scontrol release 123\`"
case_dir part PartitionTimeLimit
why part
has "partition limit" 0 "It asks for more than its partition allows" \
	"(Slurm's code PartitionTimeLimit)"
case_dir qos QOSMaxCpuPerUserLimit
why qos
has "QOS limit" 0 "A limit of its QOS normal holds it (Slurm's code QOSMaxCpuPerUserLimit)."
case_dir resv Reservation PENDING 1800 '(null)' 2023-11-12T22:13:20 maint
why resv
has "reservation" 0 "It waits for a reservation: maint."
case_dir res Resources
why res
has "resources" 0 "It is next in line; it waits for nodes to free up."
case_dir none None
why none
has "none yet" 0 "The scheduler has not looked at it yet."
case_dir nodes 'ReqNodeNotAvail,_UnavailableNodes:n1'
why nodes
has "nodes unavailable" 0 "The nodes it may run on are down, drained or reserved (Slurm's code ReqNodeNotAvail,_UnavailableNodes:n1)."
case_dir odd FrontEndDown
why odd
has "unknown reason shown as Slurm's code" 0 \
	"Job 123 (user dave, account phys) is pending: FrontEndDown." \
	"mfprio does not know this reason; Slurm's code is FrontEndDown."

# --- PrivateData=jobs,usage: sprio shows dave his own rows only (110 and
# 123 in batch, 123 in long): one of his own jobs (110, 2100) is ahead in
# batch; nobody else's priority or count may appear.
case_dir private Priority
sed -i 's/^PrivateData .*/PrivateData             = jobs,usage/' "$T/private/config"
grep '|dave|' "$W/sprio" >"$T/private/sprio"
why private
has "private: what it could not see" 0 \
	"Partition batch: its priority is 1800; 1 of your own jobs is ahead of it. The other users' jobs are hidden (PrivateData=jobs): its position is unknown." \
	"What it could not see (PrivateData=jobs,usage):"
lacks "private: no number it could not know" "of 7 pending" "job 101" \
	"has 5400" "job 118" "job 140" "first of"
why private --json
has "private --json: position null" 0 '"ahead":null,"own_jobs_ahead":1' \
	'"jobs": true'
# a usage limit whose account sshare does not show the user: said so,
# no figure of it
case_dir privlimit AssocGrpCPUMinutesLimit
sed -i 's/^PrivateData .*/PrivateData             = usage/' "$T/privlimit/config"
grep '|dave|' "$W/sshare" >"$T/privlimit/sshare"
why privlimit
has "private limit: said hidden" 0 \
	"The limit and the usage against it are not shown to you (PrivateData=usage)."
lacks "private limit: no figure" "cpu-minutes" "decay brings"

# --- another partition (why-partitions, why-groups; PriorityWeightPartition
# 2000).  The job in batch only (its long row taken out), 4 ahead there.
# PriorityJobFactor: batch 2, long 3, short 4, gpu 4 (AllowAccounts=chem),
# debug 4 (DOWN), private 4 (AllowGroups=staff; dave is in dave, users):
# the highest 4.  The job's priority elsewhere: 1800 - batch's 1000 + 2000
# x factor / 4: long 1500 -> 2300, only 140 (2000) there: 0 of 1 ahead;
# short 2000 -> 2800, its rows 150 (3500) and 151 (2500): 1 of 2 ahead.
# gpu, debug, private: not offered.
case_dir part Priority
cp "$W/why-partitions" "$W/why-groups" "$T/part/"
sed -i 's/Partition=batch,long /Partition=batch /' "$T/part/jobs"
sed -i '/^123|long|/d' "$T/part/sprio"
printf '150|short|hank|3500|0.1000000|100|0|1400|0|2000|0|0|0\n151|short|ivy|2500|0.1000000|100|0|400|0|2000|0|0|0\n' >>"$T/part/sprio"
sed -i 's/^PriorityWeightPartition .*/PriorityWeightPartition = 2000/' "$T/part/config"
why part
has "partition: fewer ahead in long and short" 0 \
	"In partition long, which you may use, 0 of its 1 pending job would be ahead (here 4 at the fewest): its partition term is 1500, the job's priority there 2300 (scontrol update job=123 Partition=long" \
	"In partition short, which you may use, 1 of its 2 pending jobs would be ahead (here 4 at the fewest): its partition term is 2000, the job's priority there 2800"
lacks "partition: not another account's, not down, not another group's" \
	"partition gpu" "partition debug" "partition private" "nothing you change"
why part --json
has "partition: --json" 0 \
	'{"partition":"long","partition_term":1500,"priority":2300,"ahead":0,"pending":1}' \
	'{"partition":"short","partition_term":2000,"priority":2800,"ahead":1,"pending":2}'
# in group staff: private too (no rows there: 0 of 0)
echo "dave staff" >"$T/part/why-groups"
why part
has "partition: a group's partition" 0 \
	"In partition private, which you may use, 0 of its 0 pending jobs would be ahead"

# --- GrpTRESRunMins (AssocGrpCPURunMinutesLimit): phys/dave's limit
# cpu=100 (why-assoc), sshare's TRESRunMins cpu=110; dave's running jobs
# (why-running): 201 phys 4 CPUs 20 min left (80), 202 phys 2 CPUs 15
# min left (30), 203 chem (another account: not counted): 80 + 30 = 110,
# as sshare.  The job asks 1 CPU x 1 min = 1, so it fits once the
# remaining minutes are at most 100 - 1 = 99: they fall by 4 + 2 = 6 a
# minute, 11 to lose: 11 / 6 min = 110 s, at 1700000110 =
# 2023-11-14T22:15:10 (the span printed to the minute, rounded up: 2 min).
case_dir runmins AssocGrpCPURunMinutesLimit
cp "$W/why-assoc" "$W/why-qos" "$W/why-running" "$T/runmins/"
sed -i 's/^phys|dave||normal,high|$/phys|dave||normal,high|cpu=100/' "$T/runmins/why-assoc"
sed -i '3s/|cpu=1,mem=0,energy=0,node=0,billing=1$/|cpu=110,mem=0,energy=0,node=0,billing=1/' "$T/runmins/sshare"
why runmins
has "run minutes: the limit, the running minutes, the lift" 0 \
	"Your association phys/dave has a limit of 100 cpu-minutes (GrpTRESRunMins) on its running jobs; they have 110 still to run (sshare), and this job asks 1 (CPUs x time limit)." \
	"As your running jobs (110 CPU-minutes left by squeue) run on, their remaining minutes fall to 99 in 2 min (2023-11-14T22:15:10)"
why runmins --json
has "run minutes: --json" 0 '"kind": "GrpTRESRunMins"' '"limit": 100' \
	'"running": 110' '"visible_running": 110' '"lift_seconds": 110'
# limit cpu=16: target 15.  Until 202 ends (900 s) they fall 6 a minute:
# 110 - 90 = 20 at 900 s, still above 15; then 201's 4 CPUs alone: 5 /
# 4 min = 75 s more, 975 s = 16 min 15 s (printed 17 min), at
# 2023-11-14T22:29:35.
sed -i 's/|cpu=100$/|cpu=16/' "$T/runmins/why-assoc"
why runmins
has "run minutes: a job ends on the way" 0 \
	"their remaining minutes fall to 15 in 17 min (2023-11-14T22:29:35)"
# sshare counts 150, the user's jobs 110 (above 110 x 1.02 + 2): jobs the
# user cannot see; no lift time
sed -i '3s/|cpu=110,/|cpu=150,/' "$T/runmins/sshare"
why runmins
has "run minutes: others' jobs hidden" 0 \
	"Your own running jobs have 110 of them: the rest are other users' jobs you cannot see, so when it lifts is not known."
lacks "run minutes: no lift time when hidden" "remaining minutes fall to"
# the user's association without the limit: on an account above
sed -i 's/|cpu=16$/|/' "$T/runmins/why-assoc"
why runmins
has "run minutes: the limit above the association" 0 \
	"Your association has no such GrpTRESRunMins: it is on an account above it, which sacctmgr does not show you here."

# --- errors
case_dir running None RUNNING
why running
has "not pending: exit 1" 1
if grep -qF "job 123 is not pending: it is RUNNING" "$err"; then
	ok "not pending: says so"
else
	bad "not pending: says so"
fi
"$MFPRIO" why 999 --snapshot "$T/prio" >"$out" 2>"$err"
if [ $? = 1 ] && grep -qF "job 999 is not in $T/prio/jobs" "$err"; then
	ok "no such job: exit 1, named"
else
	bad "no such job: exit 1, named"
fi
case_dir badsprio Priority
sed -i '3s/|2100|/|21x0|/' "$T/badsprio/sprio"
why badsprio
if [ "$rc" = 1 ] && grep -qF "$T/badsprio/sprio:3: priority '21x0' is not a number" "$err"; then
	ok "bad sprio row: file and line named"
else
	bad "bad sprio row: file and line named"
fi
"$MFPRIO" why 123 --conf "$W/config" >"$out" 2>"$err"
if [ $? = 2 ]; then ok "one id with --conf: usage error"; else bad "one id with --conf: usage error"; fi
finish
