#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio priority --jobs FILE.json`: the JSON job dumps of real clusters
# give the same rows as the one-line dump taken with them, and bad JSON
# gives an error naming the file and line, never a crash.
#
# tests/data/jobs-json/live-RELEASE: `mfprio snapshot` of a one-node
# cluster of that release (upstream's plugin), then at once
#   22.05: squeue --json            (22.05's scontrol has no --json)
#   25.11: scontrol show job --json (data_parser v0.0.44: numbers as
#          {"set", "infinite", "number"}, job_state an array)
#   23.02: scontrol show job --json (data_parser v0.0.39), if present
# The jobs, submitted on a drained node (so all pending):
#   1 plain, then `scontrol update nice=-50`    -> NICE -50
#   2 -p debug,big -n 2                         -> a row in each partition
#   3 --array=1-5%2                             -> 3_[1-5%2]
#   4 -J 'x QOS=high' --nice=100                -> NICE 100, QOS normal
#   5 -H (held)                                 -> no row
#   6 -t 10, then `scontrol update priority=5000` (admin-set)
#   7 --qos=high (priority 100, the only QOS above 0) -p debug,big
#                                               -> QOS 1000 (weight) twice
#   8 --dependency=afterok:1                    -> no row (dependent)
#   9 --array=7,9                               -> 9_[7,9]
# On 22.05 job 7 failed at submission (it asked for 3 CPUs) and the QOS
# job is 10.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
J="$TOP_SRCDIR/tests/data/jobs-json"
tmp=$T

# same NAME DIR JSON ARGS...: priority over DIR's one-line jobs and over
# DIR/JSON print the same, and something
same() {
	name=$1 dir=$2 json=$3
	shift 3
	"$MFPRIO" priority --snapshot "$dir" "$@" >"$tmp/line" 2>"$err"
	rc1=$?
	"$MFPRIO" priority --snapshot "$dir" --jobs "$dir/$json" "$@" \
		>"$out" 2>>"$err"
	rc2=$?
	if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ -s "$out" ] &&
		cmp -s "$tmp/line" "$out"; then
		ok "$name"
	else
		echo "# exit $rc1 and $rc2"; diff "$tmp/line" "$out" | head
		bad "$name"
	fi
}

# field ROW-JOBID PARTITION COLUMN: a column of the last output's row
field() {
	awk -v j="$1" -v p="$2" -v c="$3" '$1 == j && $2 == p { print $c }' "$out"
}

# rows NAME WANT: the job ids of the last output's rows, in order
rows() {
	got=$(awk 'NR > 1 { printf "%s ", $1 }' "$out")
	if [ "$got" = "$2" ]; then ok "$1"
	else echo "# rows: '$got', wanted '$2'"; bad "$1"; fi
}

for rel in 22.05:10 25.11:7 23.02:7; do
	r=${rel%%:*} q=${rel#*:} json=jobs.json
	dir="$J/live-$r"
	[ -d "$dir" ] || continue
	same "$r: the JSON dump gives the one-line rows" "$dir" "$json"
	# pending jobs but the held (5) and the dependent (8); 2 and the QOS
	# job in both partitions
	if [ "$q" = 7 ]; then want="1 2 2 3 4 6 7 7 9 "
	else want="1 2 2 3 4 6 9 10 10 "; fi
	rows "$r: held, dependent and failed jobs have no row" "$want"
	n1=$(field 1 debug 12) n4=$(field 4 big 12)
	qd=$(field "$q" debug 11) qb=$(field "$q" big 11)
	if [ "$n1" = -50 ] && [ "$n4" = 100 ] && [ "$qd" = 1000 ] &&
		[ "$qb" = 1000 ]; then
		ok "$r: nice -50 and 100, QOS high's 1000 from JSON"
	else
		echo "# nice $n1 $n4, qos $qd $qb"; bad "$r: nice and QOS"
	fi
	# three days later: every job has an age
	same "$r: the same rows three days on" "$dir" "$json" \
		--now "$(($(cat "$dir/time") + 259200))"
	same "$r: -l" "$dir" "$json" -l
	same "$r: --explain of an array task" "$dir" "$json" --explain 3_2
	same "$r: ACCRUE_ALWAYS" "$dir" "$json" --flags ACCRUE_ALWAYS \
		--now "$(($(cat "$dir/time") + 3600))"
	"$MFPRIO" priority --snapshot "$dir" --jobs "$dir/$json" \
		--explain 9_9 >"$out" 2>"$err"
	if grep -qF '9_[7,9]' "$out"; then ok "$r: an array record 9_[7,9]"
	else bad "$r: an array record 9_[7,9]"; fi
done

# --- bad input: exit 1, FILE and line named
C="$J/live-22.05/slurm.conf"
# bad_json NAME EXPECTED-STDERR TEXT
bad_json() {
	printf '%s\n' "$3" >"$tmp/bad.json"
	"$MFPRIO" priority --conf "$C" --jobs "$tmp/bad.json" >"$out" 2>"$err"
	rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$2" "$err"; then ok "$1"
	else echo "# exit $rc, wanted 1 and '$2'"; bad "$1"; fi
}
bad_json "not JSON after '{'" "$tmp/bad.json:2:" '{"jobs": [
	{"job_id": 1, "user_name": "a",}'
bad_json "truncated" "$tmp/bad.json:" '{"jobs": [{"job_id": 1'
bad_json "trailing text" "$tmp/bad.json:1:" '{"jobs": []} x'
bad_json "no jobs array" "$tmp/bad.json: no \"jobs\" array" '{"meta": {}}'
bad_json "jobs not an array" "no \"jobs\" array" '{"jobs": {"job_id": 1}}'
bad_json "a job not an object" "\"jobs\" holds something not an object after job 1 of the file" \
	'{"jobs": [{"job_id": 1, "user_name": "a"}, 7]}'
bad_json "a job without job_id" "\"jobs\" holds an object without job_id after job 0" \
	'{"jobs": [{"user_name": "a"}]}'
bad_json "job_id a string" "$tmp/bad.json:1: job_id is not a job id" \
	'{"jobs": [{"job_id": "12", "user_name": "a"}]}'
bad_json "job_id 0" "job_id is not a job id" \
	'{"jobs": [{"job_id": 0, "user_name": "a"}]}'
bad_json "no user" "$tmp/bad.json:3: job 5: no user_name" '{"jobs": [
{"job_id": 5,
 "account": "a"}]}'
bad_json "priority a string" "job 5: priority is not a number" \
	'{"jobs": [{"job_id": 5, "user_name": "a", "priority": "high"}]}'
bad_json "negative time" "job 5: submit_time is not a time" \
	'{"jobs": [{"job_id": 5, "user_name": "a", "submit_time": {"set": true, "number": -1}}]}'
bad_json "time limit a float" "job 5: time_limit is not a number of minutes" \
	'{"jobs": [{"job_id": 5, "user_name": "a", "time_limit": 1.5}]}'
bad_json "partition a number" "job 5: partition is not a string" \
	'{"jobs": [{"job_id": 5, "user_name": "a", "partition": 3}]}'
bad_json "a job twice" "$tmp/bad.json:3: job 5 is listed twice (first ending at line 2)" '{"jobs": [
{"job_id": 5, "user_name": "a"},
{"job_id": 5, "user_name": "a"}]}'
printf '{"jobs": [\0]}' >"$tmp/nul.json"
printf '{"jobs": [{"job_id": 1, "user_name": "\377"}]}' >"$tmp/latin.json"
for f in nul latin; do
	"$MFPRIO" priority --conf "$C" --jobs "$tmp/$f.json" >"$out" 2>"$err"
	rc=$?
	if [ "$rc" = 1 ] && grep -qF "$tmp/$f.json: " "$err"; then ok "not UTF-8: $f"
	else echo "# exit $rc"; bad "not UTF-8: $f"; fi
done

# an empty "jobs" array (an idle cluster) is no job, no error
printf '  \n{"meta": {}, "errors": [], "jobs": []}\n' >"$tmp/none.json"
"$MFPRIO" priority --conf "$C" --jobs "$tmp/none.json" >"$out" 2>"$err"
rc=$?
if [ "$rc" = 0 ] && [ "$(wc -l <"$out")" = 1 ]; then ok "no jobs: header only"
else echo "# exit $rc"; bad "no jobs: header only"; fi

finish
