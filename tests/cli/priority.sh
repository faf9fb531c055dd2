#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio priority` as an admin runs it: a hand-computed fixture (rows,
# -P, --explain), the dumps of a real cluster against the sprio -l taken
# with them, and every kind of bad input giving FILE:LINE and exit 1.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/priority"
S="$D/small"
C="$D/cluster"

BASE=(--conf "$S/slurm.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000)


# expect_line NAME LINE ARGS...: the exact line appears on stdout
expect_line() {
	name=$1 line=$2; shift 2
	if "$MFPRIO" priority "$@" >"$out" 2>"$err" && grep -qxF -- "$line" "$out"
	then ok "$name"; else echo "# wanted line: $line"; bad "$name"; fi
}

# --- the small fixture, hand-computed (tests/data/priority/small):
# 4 nodes x 4 CPUs; short: PriorityJobFactor 10, all nodes; long: 20,
# n[1-2] (8 CPUs).  Classic fair-share: alice 2^(-.875/.5) = 0.297302,
# bob 2^(-.625/.5) = 0.420448.  MaxAge 10 days.
if "$MFPRIO" priority "${BASE[@]}" --jobs "$S/jobs.txt" >"$out" 2>"$err" &&
	cmp -s "$out" "$S/expected.txt"; then ok "small fixture, sprio -l rows"
else diff "$S/expected.txt" "$out" | sed 's/^/#   /'; bad "small fixture, sprio -l rows"; fi
# job 101: age 1/10 day -> 100; fs 2973.02; size (1/4+4/16)/2 -> 250;
# part 10/20 -> 1000; QOS normal 0; TRES 4/16 CPUs * 400 = 100:
# 100 + 2973.02 + 250 + 1000 + 100 = 4423.02
expect_line "job 101 (-P)" "101|short|alice|4423|0|100|0|2973|250|1000|0|0|cpu=100" \
	"${BASE[@]}" --jobs "$S/jobs.txt" -P
# job 102 in short and long (equal tiers: as listed): age 1 h of 10 days
# 4.17; fs 4204.48; size (2/4+8/16)/2 -> 500; QOS high 100/100 -> 3000;
# nice 50.  short: part 1000, TRES 8/16*400 = 200 -> 8858.65;
# long: part 2000, TRES 8/8*400 = 400 -> 10058.65
expect_line "job 102 in short" "102|short|bob|8858|0|4|0|4204|500|1000|3000|50|cpu=200" \
	"${BASE[@]}" --jobs "$S/jobs.txt" -P
expect_line "job 102 in long" "102|long|bob|10058|0|4|0|4204|500|2000|3000|50|cpu=400" \
	"${BASE[@]}" --jobs "$S/jobs.txt" -P
# held (103), running (104), waiting on a dependency (105): not listed
if "$MFPRIO" priority "${BASE[@]}" --jobs "$S/jobs.txt" -P -n >"$out" 2>"$err" &&
	! grep -qE '^10[345]\|' "$out" && [ "$(wc -l <"$out")" -eq 4 ]; then
	ok "held, running and dependent jobs are not listed; -n"
else bad "held, running and dependent jobs are not listed; -n"; fi
# CALCULATE_RUNNING: the running job 104 is listed too: age 8000 s of 10
# days 9.26; fs 4204.48; size (1/4+1/16)/2 -> 156.25; short 1000; TRES
# 1/16*400 = 25: 5394.99
expect_line "CALCULATE_RUNNING lists running jobs" "104|short|bob|5394|0|9|0|4204|156|1000|0|0|cpu=25" \
	--conf "$D/calc-running.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 1700000000 --jobs "$S/jobs.txt" -P
# --explain: the factors with their weights, and the neighbours
expect_line "explain: priority" "  priority = 6810.73 -> 6810" \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 106
expect_line "explain: qos" "  qos             0.1000000         3000         300.00  QOS priority 10 of highest 100" \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 106
# ranked in its own partition's queue (long): 102 there, 10058 (+3248):
# qos 3000 - 300, TRES 400 - 50, size 500 - 156.25, age 4.17 - 0
expect_line "explain: neighbour" "  just above: job 102 (bob, long) priority 10058 (+3248): it is ahead by qos +2700.00, tres +350.00, jobsize +343.75, age +4.17" \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 106
expect_line "explain: rank in the partition" "Rank 2 of 2 pending jobs in partition long (tier 1; by priority, then job id)" \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 106
# INCR_ONLY: a job whose current priority (9000) is above the computed one
# (6810) keeps it
expect_line "explain: INCR_ONLY" "  INCR_ONLY: the job keeps 9000 (its current priority 9000, computed 6810)" \
	--conf "$D/incr-only.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 1700000000 --jobs "$D/jobs-incr.txt" --explain 106
expect_fail "explain a held job" 1 "job 103 is not listed by sprio" priority \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 103
expect_fail "explain an unknown job" 1 "job 999 is not in" priority \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 999

# --- --release: the Slurm release imitated (tests/data/priority/release):
# 2 nodes x 4 CPUs, PriorityFavorSmall=YES, only PriorityWeightJobSize
# (1000) set, so a job's priority is 1000 x its job size factor
#   js = ((nodes - min_nodes) / nodes + (cpus - job_cpus) / cpus) / 2.
# Job 201 asks for 3 nodes, 6 CPUs: more nodes than the cluster has.
#   22.05: 2 - 3 taken unsigned = 4294967295; (4294967295/2 + 2/8) / 2
#          = 1073741823.875, held at 1.0 -> 1000
#   23.02 on: the node term is 0; (0 + 2/8) / 2 = 0.125 -> 125
# Job 202 (1 node, 2 CPUs): (1/2 + 6/8) / 2 = 0.625 -> 625 in every release;
# job 203 (2 nodes, 4 CPUs, the whole node count): (0 + 4/8) / 2 = 0.25
# -> 250 in every release.
R="$D/release"
RBASE=(--jobs "$R/jobs.txt" --now 1700000000 -P)
row201_22="201|batch|alice|1000|0|0|0|0|1000|0|0|0|"
row201_23="201|batch|alice|125|0|0|0|0|125|0|0|0|"
expect_line "--release 22.05: job 201's node term wraps" "$row201_22" \
	--conf "$R/slurm.conf" "${RBASE[@]}" --release 22.05
expect_line "--release 23.11: job 201's node term is 0" "$row201_23" \
	--conf "$R/slurm.conf" "${RBASE[@]}" --release 23.11
expect_line "--release 26.05.3 (micro version): as 23.02 on" "$row201_23" \
	--conf "$R/slurm.conf" "${RBASE[@]}" --release 26.05.3
for rel in 22.05 23.11; do
	expect_line "--release $rel: job 202 the same" "202|batch|bob|625|0|0|0|0|625|0|0|0|" \
		--conf "$R/slurm.conf" "${RBASE[@]}" --release $rel
	expect_line "--release $rel: job 203 (all nodes) the same" "203|batch|bob|250|0|0|0|0|250|0|0|0|" \
		--conf "$R/slurm.conf" "${RBASE[@]}" --release $rel
done
# the default: the input's release, else 22.05
expect_line "no release in the input: 22.05" "$row201_22" --conf "$R/slurm.conf" "${RBASE[@]}"
expect_line "default: the conf's SLURM_VERSION=23.11.11" "$row201_23" \
	--conf "$R/slurm-23.11.conf" "${RBASE[@]}"
expect_line "default: slurm-version beside the conf (slurm 24.11.1)" "$row201_23" \
	--conf "$R/snapshot/slurm.conf" "${RBASE[@]}"
expect_line "--release wins over the input's" "$row201_22" \
	--conf "$R/snapshot/slurm.conf" "${RBASE[@]}" --release 22.05
# an unknown release in the input: warned about, 22.05 used
if "$MFPRIO" priority --conf "$R/bad-version.conf" "${RBASE[@]}" >"$out" 2>"$err" &&
	grep -qxF "$row201_22" "$out" &&
	grep -qF "bad-version.conf:2: SLURM_VERSION=21.08.8: Slurm release '21.08.8' is not one mfprio knows" "$err"
then ok "an unknown SLURM_VERSION is warned about; 22.05 used"
else bad "an unknown SLURM_VERSION is warned about; 22.05 used"; fi
# --explain names the release and where it comes from
expect_line "explain: release from --release" "  as Slurm 23.11 computes it (from --release)" \
	--conf "$R/slurm.conf" --jobs "$R/jobs.txt" --now 1700000000 --release 23.11 --explain 201
expect_line "explain: release from SLURM_VERSION" "  as Slurm 23.11 computes it (from SLURM_VERSION=23.11.11 at $R/slurm-23.11.conf:3)" \
	--conf "$R/slurm-23.11.conf" --jobs "$R/jobs.txt" --now 1700000000 --explain 201
expect_line "explain: release from slurm-version" "  as Slurm 24.11 computes it (from $R/snapshot/slurm-version:1)" \
	--conf "$R/snapshot/slurm.conf" --jobs "$R/jobs.txt" --now 1700000000 --explain 201
expect_line "explain: the default release" "  as Slurm 22.05 computes it (the default: the input does not say which release)" \
	--conf "$R/slurm.conf" --jobs "$R/jobs.txt" --now 1700000000 --explain 201
expect_line "explain: 22.05 job size of an oversized job" "  jobsize         1.0000000         1000        1000.00  3 node(s), 6 CPU(s) of 2 node(s), 8 CPUs; PriorityFavorSmall; more nodes than the cluster: node term wraps, held at 1 (Slurm 22.05)" \
	--conf "$R/slurm.conf" --jobs "$R/jobs.txt" --now 1700000000 --explain 201
expect_line "explain: 23.11 job size of an oversized job" "  jobsize         0.1250000         1000         125.00  3 node(s), 6 CPU(s) of 2 node(s), 8 CPUs; PriorityFavorSmall; more nodes than the cluster: node term 0 (from Slurm 23.02)" \
	--conf "$R/slurm.conf" --jobs "$R/jobs.txt" --now 1700000000 --release 23.11 --explain 201
expect_fail "--release latest" 2 "mfprio: --release: 'latest' is not a Slurm release" priority \
	--conf "$R/slurm.conf" "${RBASE[@]}" --release latest
expect_fail "--release 21.08" 2 "mfprio: --release: Slurm release '21.08' is not one mfprio knows" priority \
	--conf "$R/slurm.conf" "${RBASE[@]}" --release 21.08
# a bad --release is a usage error even before the inputs are read
expect_fail "--release checked first" 2 "--release: 'x'" priority \
	--conf "$D/no-such.conf" --jobs "$S/jobs.txt" --release x

# --- a real cluster's dumps against its sprio, one directory per variant
# of settings (tests/cluster/sprio-vs-mfprio.sh --save): sprio -l, and
# every column in full ('|'-separated) against -P
for C in "$D"/cluster/*/; do
	[ -r "$C/now" ] || continue
	v=$(basename "$C")
	for mode in "" -P; do
		want="$C/sprio"
		[ -z "$mode" ] || want="$C/sprio-P"
		[ -r "$want" ] || continue
		if "$MFPRIO" priority --conf "$C/slurm.conf" --jobs "$C/jobs" \
			--qos "$C/qos" --assoc "$C/assoc" --usage "$C/usage" \
			--assoc-prio "$C/assoc-prio" --now "$(cat "$C/now")" \
			$mode >"$out" 2>"$err" &&
			"$TOP_SRCDIR/tests/cli/compare-sprio.sh" "$want" "$out" >"$err" 2>&1
		then ok "cluster $v: mfprio priority${mode:+ $mode} reproduces sprio ($(cat "$err"))"
		else bad "cluster $v: mfprio priority${mode:+ $mode} reproduces sprio"; fi
	done
done

# --- bad input: FILE:LINE and exit 1
expect_fail "no JobId" 1 "jobs-nojobid.txt:1: no JobId" priority "${BASE[@]}" --jobs "$D/jobs-nojobid.txt"
expect_fail "bad Priority" 1 "jobs-badprio.txt:3: job 101: Priority=abc is not a number" priority \
	"${BASE[@]}" --jobs "$D/jobs-badprio.txt"
# dumps taken apart: a partition or QOS the other dumps lack is a warning
# naming the job, and the rest is computed (exit 0)
expect_fail "unknown partition: a warning" 0 "jobs-badpart.txt:2: job 107: partition 'nowhere' is not in the configuration: the job is left out" priority \
	"${BASE[@]}" --jobs "$D/jobs-badpart.txt"
if grep -q '^ *101 short  *alice  *4423 ' "$out" && ! grep -q '^ *107 ' "$out"
then ok "unknown partition: the other jobs computed"; else bad "unknown partition: the other jobs computed"; fi
expect_fail "unknown QOS: a warning" 0 "jobs-badqos.txt:1: job 101: QOS 'gold' is not in the QOS file: QOS factor 0" priority \
	"${BASE[@]}" --jobs "$D/jobs-badqos.txt"
if grep -q '^ *101 short  *alice  *4423 ' "$out"
then ok "unknown QOS: factor 0 (as QOS normal, priority 0)"; else bad "unknown QOS: factor 0 (as QOS normal, priority 0)"; fi
expect_fail "job twice" 1 "jobs-dup.txt:2: job 101 is listed twice (first at line 1)" priority \
	"${BASE[@]}" --jobs "$D/jobs-dup.txt"
expect_fail "bad time" 1 "jobs-badtime.txt:1: job 101: SubmitTime=yesterday is not a time" priority \
	"${BASE[@]}" --jobs "$D/jobs-badtime.txt"
expect_fail "bad TRES" 1 "jobs-badtres.txt:1: job 101: TRES 'cpu=x': 'x' is not a count" priority \
	"${BASE[@]}" --jobs "$D/jobs-badtres.txt"
expect_fail "bad NumCPUs" 1 "jobs-badcpus.txt:1: job 101: NumCPUs=4- is not N or N-M" priority \
	"${BASE[@]}" --jobs "$D/jobs-badcpus.txt"
expect_fail "bad TimeLimit" 1 "jobs-badlimit.txt:1: job 101: TimeLimit=soon is not a time limit" priority \
	"${BASE[@]}" --jobs "$D/jobs-badlimit.txt"
expect_fail "bad QOS priority" 1 "qos-bad.txt:2: QOS high: priority 'lots' is not a whole number" priority \
	--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --qos "$D/qos-bad.txt"
expect_fail "QOS twice" 1 "qos-dup.txt:2: QOS normal is listed twice" priority \
	--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --qos "$D/qos-dup.txt"
expect_fail "QOS line without priority" 1 "qos-short.txt:1: expected NAME|PRIORITY" priority \
	--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --qos "$D/qos-short.txt"
expect_fail "missing jobs file" 1 "no-such-file" priority \
	--conf "$S/slurm.conf" --jobs "$D/no-such-file"
expect_fail "missing conf file" 1 "no-such.conf" priority \
	--conf "$D/no-such.conf" --jobs "$S/jobs.txt"
expect_fail "bad assoc file" 1 "jobs.txt:1" priority \
	--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --assoc "$S/jobs.txt"

X=$T/x
mkdir "$X"
: >"$X/empty"
L="$TOP_SRCDIR/tests/data/snapshot/live-22.05"
CUT="the file ends in the middle of this line: a dump cut short?"
Q="sacctmgr -P -n show qos format=Name,Priority"
AP="sacctmgr -P -n show assoc format=Account,User,Priority"
refused "--jobs empty" 1 "mfprio: $X/empty: no job in it, nor scontrol's \"No jobs in the system\" (an empty dump: scontrol -o show job prints that line on an idle cluster)" priority \
	"${BASE[@]}" --jobs "$X/empty"
refused "--jobs: the usage dump" 1 "mfprio: $S/usage.txt:1: no JobId= field (expected a line of \`scontrol -o show job\`)" priority \
	"${BASE[@]}" --jobs "$S/usage.txt"
refused "--jobs: scontrol show assoc_mgr" 1 \
	"mfprio: $L/assoc-mgr:1: a line of \`scontrol show assoc_mgr\`, not a line of \`scontrol -o show job\`" priority \
	"${BASE[@]}" --jobs "$L/assoc-mgr"
{ echo "Name|Priority"; cat "$S/qos.txt"; } >"$X/qos-header"
refused "--jobs: the QOS dump with its header" 1 \
	"mfprio: $X/qos-header:1: the header of the QOS dump, not a line of \`scontrol -o show job\`" priority \
	"${BASE[@]}" --jobs "$X/qos-header"
# job 106's line cut after its NumNodes (no newline): its TRES and the
# rest are missing; DelayBoot=, which scontrol prints on every job line
# after every field read, tells a whole line
{ head -n 5 "$S/jobs.txt"; sed -n '6s/ NumCPUs=.*//p' "$S/jobs.txt" | tr -d '\n'; } >"$X/jobs-cut"
refused "--jobs cut short in a job line" 1 \
	"mfprio: $X/jobs-cut:6: no DelayBoot= field, which scontrol prints on every job line; $CUT" priority \
	"${BASE[@]}" --jobs "$X/jobs-cut"
{ head -n 5 "$S/jobs.txt"; printf 'JobId=106 JobName=x UserId=bob(1002)'; } >"$X/jobs-cut"
refused "--jobs cut short early in a job line" 1 \
	"mfprio: $X/jobs-cut:6: no GroupId= field, which scontrol prints on every job line; $CUT" priority \
	"${BASE[@]}" --jobs "$X/jobs-cut"
# a whole last line without its newline is read
head -c -1 "$S/jobs.txt" >"$X/jobs-nonl"
if "$MFPRIO" priority "${BASE[@]}" --jobs "$X/jobs-nonl" >"$out" 2>"$err" && cmp -s "$out" "$S/expected.txt"
then ok "--jobs: a whole last line without newline is read"; else bad "--jobs: a whole last line without newline is read"; fi

J=(--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt")
refused "--qos empty" 1 "mfprio: $X/empty: no QOS in it (an empty dump: sacctmgr show qos lists normal at least)" priority \
	"${J[@]}" --qos "$X/empty"
refused "--qos: the job dump" 1 "mfprio: $S/jobs.txt:1: a line of \`scontrol -o show job\`, not a line of \`$Q\`" priority \
	"${J[@]}" --qos "$S/jobs.txt"
refused "--qos: the usage dump" 1 "mfprio: $S/usage.txt:1: QOS a: priority 'alice' is not a whole number" priority \
	"${J[@]}" --qos "$S/usage.txt"
refused "--qos: slurm.conf" 1 "mfprio: $S/slurm.conf:2: a slurm.conf line, not a line of \`$Q\`" priority \
	"${J[@]}" --qos "$S/slurm.conf"
printf 'normal|0\nhigh|100\nlo' >"$X/qos-cut"
refused "--qos cut short" 1 "mfprio: $X/qos-cut:3: expected NAME|PRIORITY ($Q); $CUT" priority "${J[@]}" --qos "$X/qos-cut"

J+=(--qos "$S/qos.txt")
refused "--assoc-prio empty" 1 "mfprio: $X/empty: no association in it (an empty dump: sacctmgr show assoc lists root's at least)" priority \
	"${J[@]}" --assoc-prio "$X/empty"
# sshare's rows have the same three columns, but sshare indents accounts
# by their depth (a usage dump of sshare's own, unindented by hand, cannot
# be told apart)
refused "--assoc-prio: sshare's usage dump" 1 \
	"mfprio: $L/usage:2: account ' root' indented, as sshare prints its tree: not a line of \`$AP\` (is this sshare's usage dump?)" priority \
	"${J[@]}" --assoc-prio "$L/usage"
refused "--assoc-prio: the association dump" 1 "mfprio: $S/assoc.txt:2: a/: priority 'root' is not a whole number" priority \
	"${J[@]}" --assoc-prio "$S/assoc.txt"
refused "--assoc-prio: the QOS dump" 1 "mfprio: $S/qos.txt:1: expected ACCOUNT|USER|PRIORITY ($AP)" priority \
	"${J[@]}" --assoc-prio "$S/qos.txt"
printf 'root||\na||\na|al' >"$X/ap-cut"
refused "--assoc-prio cut short" 1 "mfprio: $X/ap-cut:3: expected ACCOUNT|USER|PRIORITY ($AP); $CUT" priority \
	"${J[@]}" --assoc-prio "$X/ap-cut"

# slurm.conf: an empty one has no partition; another dump is no
# Key=Value file; a line cut before its '=' is no setting.  (A file edited
# by hand often ends without a newline: that alone says nothing here.)
refused "--conf empty" 1 "mfprio: $X/empty: no setting in it (an empty slurm.conf: jobs have nowhere to run)" priority \
	--conf "$X/empty" --jobs "$S/jobs.txt"
refused "--conf: the association dump" 1 "mfprio: $S/assoc.txt:1: 'root|||1' is not of the form Key=Value" priority \
	--conf "$S/assoc.txt" --jobs "$S/jobs.txt"
{ cat "$S/slurm.conf"; printf 'PriorityWeig'; } >"$X/conf-cut"
refused "--conf cut short before a '='" 1 \
	"mfprio: $X/conf-cut:$(($(wc -l <"$S/slurm.conf") + 1)): 'PriorityWeig' is not of the form Key=Value" \
	priority --conf "$X/conf-cut" --jobs "$S/jobs.txt"

# --- usage errors: exit 2
expect_fail "no --jobs" 2 "--conf FILE and --jobs FILE are required" priority --conf "$S/slurm.conf"
expect_fail "bad --now" 2 "--now 'yesterday'" priority "${BASE[@]}" --jobs "$S/jobs.txt" --now yesterday
expect_fail "bad --explain" 2 "--explain 'x'" priority "${BASE[@]}" --jobs "$S/jobs.txt" --explain x
expect_fail "--usage without --assoc" 2 "--usage needs --assoc" priority \
	--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --usage "$S/usage.txt"

# --- job dumps as scontrol writes them (issue 12)
# Free text never leaks into fields: job 111 is job 101 (4423, computed
# above) named "x QOS=high Priority=0 Partition=long", with a command, a
# work dir, a comment and an output path that hold QOS=high, Account=b,
# Nice=-5000, TRES=cpu=64, Nice=7.  Had QOS=high leaked it would gain
# 3000 (4423 -> 7423); Priority=0 would hide it; long would add 1000.
expect_line "free text: a job named 'x QOS=high' keeps its own QOS" \
	"111|short|alice|4423|0|100|0|2973|250|1000|0|0|cpu=100" \
	"${BASE[@]}" --jobs "$D/jobs-freetext.txt" -P
expect_line "free text: --explain shows the job's own QOS" \
	"Job 111: user alice, account a, QOS normal, partition short, state PENDING, at 1700000000" \
	"${BASE[@]}" --jobs "$D/jobs-freetext.txt" --explain 111
# a name holding "UserId=bob(1002)": the UserId that GroupId follows is
# the job's (alice; bob's fair-share would give 4204 instead of 2973)
expect_line "free text: a job named 'a UserId=bob(1002) c' stays alice's" \
	"113|short|alice|4423|0|100|0|2973|250|1000|0|0|cpu=100" \
	"${BASE[@]}" --jobs "$D/jobs-freetext.txt" -P
# a line as 23.02 and later print it: ReqTRES (AllocTRES is (null) while
# pending) gives job 101's TRES (cpu=100; without it 4423 - 100 = 4323)
expect_line "a 23.02-26.05 line: ReqTRES, SubmitLine, Extra" \
	"140|short|alice|4423|0|100|0|2973|250|1000|0|0|cpu=100" \
	"${BASE[@]}" --jobs "$D/jobs-23.02.txt" -P
# a SiteFactor added by hand at the end of a line is read: 4423.02 + 500
expect_line "SiteFactor at the end of a line" \
	"112|short|alice|4923|500|100|0|2973|250|1000|0|0|cpu=100" \
	"${BASE[@]}" --jobs "$D/jobs-freetext.txt" -P
# "No jobs in the system" (scontrol on an idle cluster): zero rows
if "$MFPRIO" priority "${BASE[@]}" --jobs "$D/jobs-none.txt" -P >"$out" 2>"$err" &&
	[ "$(cat "$out")" = "JOBID|PARTITION|USER|PRIORITY|SITE|AGE|ASSOC|FAIRSHARE|JOBSIZE|PARTITION|QOS|NICE|TRES" ] &&
	[ ! -s "$err" ]
then ok "No jobs in the system: the header, zero rows"
else bad "No jobs in the system: the header, zero rows"; fi
# Array jobs as squeue names them: 120 is task 3 of array 100, 100 the
# record of its pending tasks 4-9 (both job 101's figures)
expect_line "array: --explain 100_3" \
	"Job 100_3 (JobId 120): user alice, account a, QOS normal, partition short, state PENDING, at 1700000000" \
	"${BASE[@]}" --jobs "$D/jobs-array.txt" --explain 100_3
expect_line "array: --explain 100_[4-9%2]" \
	"Job 100_[4-9%2] (JobId 100): user alice, account a, QOS normal, partition short, state PENDING, at 1700000000" \
	"${BASE[@]}" --jobs "$D/jobs-array.txt" --explain '100_[4-9%2]'
# a pending task (7 is in 4-9) is explained by its record
expect_line "array: --explain 100_7, a pending task of 100_[4-9%2]" \
	"Job 100_[4-9%2] (JobId 100): user alice, account a, QOS normal, partition short, state PENDING, at 1700000000" \
	"${BASE[@]}" --jobs "$D/jobs-array.txt" --explain 100_7
expect_fail "array: a task not in the dump" 1 "job 100_77 is not in" priority \
	"${BASE[@]}" --jobs "$D/jobs-array.txt" --explain 100_77
# AccrueTime=Unknown, submitted a day before now: no age without
# ACCRUE_ALWAYS (4423.02 - 100 = 4323); under it the controller ages it
# from its submit time: 1 day of 10 -> 100, 4423
expect_line "AccrueTime=Unknown without ACCRUE_ALWAYS: age 0" \
	"130|short|alice|4323|0|0|0|2973|250|1000|0|0|cpu=100" \
	"${BASE[@]}" --jobs "$D/jobs-accrue-unknown.txt" -P
expect_line "AccrueTime=Unknown under ACCRUE_ALWAYS: ages from SubmitTime" \
	"130|short|alice|4423|0|100|0|2973|250|1000|0|0|cpu=100" \
	--conf "$D/accrue-always.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 1700000000 --jobs "$D/jobs-accrue-unknown.txt" -P
# --now as scontrol prints it (TZ=UTC: 1700000000 is 2023-11-14T22:13:20)
# and as sbatch --begin takes it (now-1hour from the same instant)
if "$MFPRIO" priority --conf "$S/slurm.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 2023-11-14T22:13:20 --jobs "$S/jobs.txt" >"$out" 2>"$err" &&
	cmp -s "$out" "$S/expected.txt"; then ok "--now YYYY-MM-DDTHH:MM:SS"
else bad "--now YYYY-MM-DDTHH:MM:SS"; fi
# job 101 an hour earlier: accrue 22:13:20 the day before, so 23 h of 10
# days -> 95.83; 4423.02 - 4.17 = 4418.85
expect_line "--now 2023-11-14T21:13:20" "101|short|alice|4418|0|96|0|2973|250|1000|0|0|cpu=100" \
	--conf "$S/slurm.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 2023-11-14T21:13:20 --jobs "$S/jobs.txt" -P
expect_fail "--now that is not a time" 2 "--now 'bogus' is not a time" priority \
	--conf "$S/slurm.conf" --jobs "$S/jobs.txt" --now bogus
# Ranks as the scheduler queues: within each partition, and tier first.
# Small: 102 long 10058, 102 short 8858, 106 long 6810, 101 short 4423:
# 106 is third; with long on tier 2 (tiers.conf) 102 long and 106 come
# before every short row: 106 is second.
expect_line "explain: the queue, equal tiers" \
	"In the scheduler's queue (partition PriorityTier first, then priority): 3 of 4 rows; a job queued in several partitions is tried in each, in tier order" \
	"${BASE[@]}" --jobs "$S/jobs.txt" --explain 106
expect_line "explain: the queue, long on tier 2" \
	"In the scheduler's queue (partition PriorityTier first, then priority): 2 of 4 rows; a job queued in several partitions is tried in each, in tier order" \
	--conf "$D/tiers.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 1700000000 --jobs "$S/jobs.txt" --explain 106
# job 102 is ranked in both its partitions, each named with its tier
expect_line "explain: ranked in its second partition" \
	"Rank 1 of 2 pending jobs in partition short (tier 1; by priority, then job id)" \
	--conf "$D/tiers.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" --now 1700000000 --jobs "$S/jobs.txt" --explain 102

# --- bad settings: warned with FILE:LINE and what is used instead; runs
if "$MFPRIO" priority --conf "$D/bad-values.conf" --jobs "$S/jobs.txt" \
	--qos "$S/qos.txt" --now 1700000000 >"$out" 2>"$err" &&
	grep -qF "bad-values.conf:6: PriorityMaxAge=forever: 'forever' is not a time" "$err" &&
	grep -qF "using the default, 604800 seconds" "$err" &&
	grep -qF "bad-values.conf:12: PriorityWeightTRES=CPU=400,GRES/tpu=5:" "$err" &&
	grep -qF "no TRES weights used" "$err" &&
	grep -qF "PriorityWeightFairshare is 10000 but no --assoc file" "$err"
then ok "bad settings are warned about, with file:line"
else bad "bad settings are warned about, with file:line"; fi

finish
