#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio compare`: two settings over the same inputs, hand-computed on
# two jobs whose order a weight swaps, the per-user figures, a no-change
# case, the half-life what-if, --flags/--damp as shorthands, --json, and
# usage errors.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
C="$TOP_SRCDIR/tests/data/compare"
S="$TOP_SRCDIR/tests/data/priority/small"
out2=$T/out2

# same NAME EXPECTED-FILE-TEXT: stdout ($out) is exactly the text
same() {
	if printf '%s\n' "$2" | cmp -s - "$out"; then ok "$1"
	else printf '%s\n' "$2" | diff - "$out" | sed 's/^/#   /'; bad "$1"; fi
}

TWO=(--conf "$C/slurm.conf" --qos "$C/qos" --jobs "$C/jobs" --now 1700000000)

# --- tests/data/compare: PriorityMaxAge 10 days, only age and QOS weigh.
# Job 1 (alice, QOS normal 0 of 100) has waited 5 days: age 0.5; job 2
# (bob, QOS high 100 of 100) 1 day: age 0.1.
# before (PriorityWeightAge=1000, PriorityWeightQOS=2000):
#   job 1: 1000 * 0.5 + 2000 * 0   =  500
#   job 2: 1000 * 0.1 + 2000 * 1   = 2100   -> job 2 first
# after --set PriorityWeightAge=10000:
#   job 1: 10000 * 0.5             = 5000
#   job 2: 10000 * 0.1 + 2000      = 3000   -> job 1 first
# job 1 moves up one place (+1), job 2 down (-1); no fair-share data: 0.
"$MFPRIO" compare "${TWO[@]}" --set PriorityWeightAge=10000 -P >"$out" 2>"$err"
same "raising PriorityWeightAge swaps the two jobs" \
"JOBID|USER|ACCOUNT|PARTITION|RANK_BEFORE|RANK_AFTER|MOVE|PRIO_BEFORE|PRIO_AFTER|CHANGE
1|alice|a|p|2|1|+1|500|5000|+4500
2|bob|a|p|1|2|-1|2100|3000|+900

USER|ACCOUNT|JOBS|BEST_BEFORE|BEST_AFTER|MOVE|MEAN_BEFORE|MEAN_AFTER|FS_BEFORE|FS_AFTER
alice|a|1|2|1|+1|2.00|1.00|0.000000|0.000000
bob|a|1|1|2|-1|1.00|2.00|0.000000|0.000000"
# the same directory read as a `mfprio snapshot` one (its time file says
# 1700000000): the same rows
"$MFPRIO" compare --snapshot "$C" --set PriorityWeightAge=10000 -P -n >"$out" 2>"$err"
same "--snapshot DIR: the same inputs, at the snapshot's time" \
"1|alice|a|p|2|1|+1|500|5000|+4500
2|bob|a|p|1|2|-1|2100|3000|+900

alice|a|1|2|1|+1|2.00|1.00|0.000000|0.000000
bob|a|1|1|2|-1|1.00|2.00|0.000000|0.000000"
# --now still wins over the snapshot's time: one day later, job 1 has
# waited 6 days (0.6) and job 2 two (0.2): before 600 and 200 + 2000 =
# 2200, after 6000 and 2000 + 2000 = 4000
"$MFPRIO" compare --snapshot "$C" --now 1700086400 --set PriorityWeightAge=10000 -P -n >"$out" 2>"$err"
if grep -qxF "1|alice|a|p|2|1|+1|600|6000|+5400" "$out" &&
	grep -qxF "2|bob|a|p|1|2|-1|2200|4000|+1800" "$out"
then ok "--snapshot DIR --now: --now wins"; else bad "--snapshot DIR --now: --now wins"; fi
# --now as sbatch --begin takes it, "now" being the snapshot's time: the
# same day later (1700000000 + 86400)
"$MFPRIO" compare --snapshot "$C" --now now+1day --set PriorityWeightAge=10000 -P -n >"$out" 2>"$err"
if grep -qxF "1|alice|a|p|2|1|+1|600|6000|+5400" "$out" &&
	grep -qxF "2|bob|a|p|1|2|-1|2200|4000|+1800" "$out"
then ok "--snapshot DIR --now now+1day"; else bad "--snapshot DIR --now now+1day"; fi

# a smaller raise that does not swap them: age 2000: job 1 1000, job 2
# 200 + 2000 = 2200: no move, both priorities change (+500, +100); the
# larger change is listed first
"$MFPRIO" compare "${TWO[@]}" --set PriorityWeightAge=2000 -P -n >"$out" 2>"$err"
same "a raise that does not swap: priorities change, ranks do not" \
"1|alice|a|p|2|2|0|500|1000|+500
2|bob|a|p|1|1|0|2100|2200|+100

alice|a|1|2|2|0|2.00|2.00|0.000000|0.000000
bob|a|1|1|1|0|1.00|1.00|0.000000|0.000000"

# the text form says what it compared and how much moved
if "$MFPRIO" compare "${TWO[@]}" --set PriorityWeightAge=10000 >"$out" 2>"$err" &&
	grep -qxF "after:  $C/slurm.conf with PriorityWeightAge=10000" "$out" &&
	grep -qxF "2 job(s) ranked: 2 moved, 2 changed priority" "$out"
then ok "text: the settings and the summary"; else bad "text: the settings and the summary"; fi

# --- no change: no --set, or --set to the value the conf has
for set in "" "--set PriorityWeightAge=1000" "--set PriorityWeightQOS=2000 --flags ''"; do
	extra=()
	eval "extra=($set)"
	"$MFPRIO" compare "${TWO[@]}" "${extra[@]}" -P -n >"$out" 2>"$err"
	# equal moves (none): by job id; users by name
	same "nothing moved (${set:-no --set})" \
"1|alice|a|p|2|2|0|500|500|0
2|bob|a|p|1|1|0|2100|2100|0

alice|a|1|2|2|0|2.00|2.00|0.000000|0.000000
bob|a|1|1|1|0|1.00|1.00|0.000000|0.000000"
done

# --- the half-life changes how usage decays from now on; the snapshot's
# usage is what decay left: nothing moves, and a note says why
BASE=(--conf "$S/slurm.conf" --qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000 --jobs "$S/jobs.txt")
if "$MFPRIO" compare "${BASE[@]}" --set PriorityDecayHalfLife=1-0 -P -n >"$out" 2>"$err" &&
	[ "$(sed '/^$/,$d' "$out" | cut -d'|' -f7,10 | sort -u)" = "0|0" ] &&
	grep -q "note: --set PriorityDecayHalfLife: .*no figure here changes" "$err"
then ok "PriorityDecayHalfLife: nothing changes, and a note says so"
else bad "PriorityDecayHalfLife: nothing changes, and a note says so"; fi

# --- fair-share: --damp 2 on the small fixture (classic): the factor is
# 2^(-(effective usage / normalised shares) / damp): alice .875/.5 ->
# 2^(-.875) = 0.545254 (from 2^(-1.75) = 0.297302), bob .625/.5 ->
# 2^(-.625) = 0.648420 (from 0.420448)
"$MFPRIO" compare "${BASE[@]}" --damp 2 -P -n >"$out" 2>"$err"
if grep -qxF "alice|a|1|3|3|0|3.00|3.00|0.297302|0.545254" "$out" &&
	grep -qxF "bob|a|2|1|1|0|1.50|1.50|0.420448|0.648420" "$out"
then ok "--damp 2: each user's fair-share factor before and after"
else bad "--damp 2: each user's fair-share factor before and after"; fi
# --damp N and --flags F are --set FairShareDampeningFactor=N and
# --set PriorityFlags=F
"$MFPRIO" compare "${BASE[@]}" --set FairShareDampeningFactor=2 -P -n >"$out2" 2>"$err"
if cmp -s "$out" "$out2"; then ok "--damp is --set FairShareDampeningFactor"
else bad "--damp is --set FairShareDampeningFactor"; fi
"$MFPRIO" compare "${BASE[@]}" --flags DEPTH_OBLIVIOUS -P -n >"$out" 2>"$err"
"$MFPRIO" compare "${BASE[@]}" --set PriorityFlags=DEPTH_OBLIVIOUS -P -n >"$out2" 2>"$err"
if cmp -s "$out" "$out2" && grep -q '^alice|a|' "$out" && ! grep -q '|0.297302$' "$out"
then ok "--flags is --set PriorityFlags (and changes alice's factor)"
else bad "--flags is --set PriorityFlags"; fi

# --- --json: the same figures as numbers, both settings
"$MFPRIO" compare "${TWO[@]}" --set PriorityWeightAge=10000 --json >"$out" 2>"$err"
if python3 - "$out" >"$err" 2>&1 <<'PY'
import json, sys
def refuse(c):
    raise ValueError("not JSON: " + c)
doc = json.load(open(sys.argv[1], encoding="utf-8"), parse_constant=refuse)
assert doc["command"] == "compare"
b, a = doc["settings"]["before"], doc["settings"]["after"]
assert b["weights"]["age"] == 1000 and a["weights"]["age"] == 10000, (b, a)
assert b["set"] == [] and a["set"] == [{"key": "PriorityWeightAge", "value": "10000"}]
assert a["now"] == 1700000000 and a["inputs"]["jobs"].endswith("/compare/jobs")
assert a["inputs"]["snapshot"] is None
assert doc["summary"] == {"jobs": 2, "moved": 2, "priority_changed": 2}, doc["summary"]
j = doc["jobs"]
assert [x["job_id"] for x in j] == [1, 2]
assert (j[0]["rank_before"], j[0]["rank_after"], j[0]["move"]) == (2, 1, 1), j[0]
assert (j[0]["priority_before"], j[0]["priority_after"], j[0]["change"]) == (500, 5000, 4500), j[0]
assert (j[1]["rank_before"], j[1]["rank_after"], j[1]["move"]) == (1, 2, -1), j[1]
assert (j[1]["priority_before"], j[1]["priority_after"], j[1]["change"]) == (2100, 3000, 900), j[1]
u = {x["user"]: x for x in doc["users"]}
assert (u["alice"]["best_rank_before"], u["alice"]["best_rank_after"]) == (2, 1)
assert u["bob"]["mean_rank_after"] == 2 and u["bob"]["fairshare_after"] == 0
for x in j + doc["users"]:
    for k, v in x.items():
        assert k in ("user", "account", "partition") or isinstance(v, (int, float)), (k, v)
PY
then ok "--json: parses; the same figures, as numbers; both settings"
else bad "--json: parses; the same figures, as numbers; both settings"; fi

# --- usage errors
"$MFPRIO" compare "${TWO[@]}" --set PartitionName=x >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "only the Priority\* keys" "$err"; then ok "--set of a key that is not a priority setting: exit 2"
else bad "--set of a key that is not a priority setting: exit 2"; fi
"$MFPRIO" compare "${TWO[@]}" --set PriorityWeightAge >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "not KEY=VALUE" "$err"; then ok "--set without '=': exit 2"
else bad "--set without '=': exit 2"; fi
# a bad value is the conf's rule: warned about with where it came from
"$MFPRIO" compare "${TWO[@]}" --set PriorityWeightAge=lots -P -n >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q "warning: --set:1: PriorityWeightAge=lots" "$err"
then ok "--set with a bad value: warned, as in slurm.conf"
else bad "--set with a bad value: warned, as in slurm.conf"; fi
# a warning about the inputs is given once, not once per side
"$MFPRIO" compare --conf "$C/slurm.conf" --jobs "$C/jobs" --now 1700000000 \
	--set PriorityWeightAge=10000 -P >"$out" 2>"$err"
if [ "$(grep -c "PriorityWeightQOS is 2000 but no --qos file" "$err")" -eq 1 ]
then ok "a warning about the inputs: once"; else bad "a warning about the inputs: once"; fi
# --flags and --damp are checked as fairshare checks them
"$MFPRIO" compare "${TWO[@]}" --flags NO_FAIR_TREE,BOGUS >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "^mfprio: --flags: .*BOGUS" "$err"; then ok "--flags with an unknown flag: exit 2"
else bad "--flags with an unknown flag: exit 2"; fi
"$MFPRIO" compare "${TWO[@]}" --damp 0 >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "^mfprio: --damp '0'" "$err"; then ok "--damp 0: exit 2"
else bad "--damp 0: exit 2"; fi
"$MFPRIO" compare --conf "$C/slurm.conf" --jobs "$C/missing" >"$out" 2>"$err"
if [ $? -eq 1 ] && grep -q "missing" "$err"; then ok "a missing input: exit 1, named"
else bad "a missing input: exit 1, named"; fi

finish
