#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio replay` on tests/data/replay, whose figures are worked out by hand
# below, and on bad histories: each must be refused naming its file and
# line, with exit status 1 (2 for a usage error).
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/replay"
IN=(--conf "$D/slurm.conf" --assoc "$D/assoc" --qos "$D/qos")
P=(--from 2026-01-01T00:00:00 --to 2026-01-01T00:03:00)

# run ARGS...: mfprio replay ARGS into out and err; the status in rc
run() {
	mf replay "$@"
}



# The history (no decay: usage is billing x seconds; ticks each minute from
# 00:00, the first charging nothing):
#   job 1 alice/a billing 2, runs 00:00-00:02          2 x 120 = 240
#   job 2 bob/b   billing 4, eligible 00:00, runs 00:01:30-00:02:30
#                                                       4 x 60  = 240
#   job 3 alice/a billing 1, eligible 00:00:30, runs from 00:02:10 on,
#         charged up to the last tick 00:03            1 x 50  =  50
#   job 4 carol/c: not in the tree, its 60 counted to root
# Final: alice 290, bob 240, root 290 + 240 + 60 = 590.  Fair Tree, equal
# shares: b used less, bob ranks first (1.0), alice second (0.5).
# After, with a's shares 3 (b 1): a's level figure (3/4) / (290/590) =
# 1.53 beats b's (1/4) / (240/590) = 0.61: alice 1.0, bob 0.5.
run "${IN[@]}" "${P[@]}" --share a=3 --table final "$D/sacct"
has -x "final: usage and fair-share of every association" 0 \
	"root,,590.00,,590.00," "a,alice,290.00,0.500000,290.00,1.000000" \
	"b,bob,240.00,1.000000,240.00,0.500000" "a,,290.00,,290.00,"
if grep -qF "sacct:4: user carol in account c is not in the snapshot's association tree: its jobs' usage is counted to account root" "$err" &&
   [ "$(grep -c carol "$err")" = 1 ]; then
	ok "a missing association: warned once, with its file and line"
else
	bad "a missing association: warned once, with its file and line"
fi
if grep -qF "sacct:3: 1 record(s) ran past the period's last tick" "$err"; then
	ok "a record past the period's end: said so"
else
	bad "a record past the period's end: said so"
fi
if head -1 "$out" | grep -qF "no re-simulation"; then
	ok "the output says what it does not simulate"
else
	bad "the output says what it does not simulate"
fi

# Series: at 00:01 alice has 2 x 60 = 120, bob 0 (bob 1.0, alice 0.5 on
# both sides: b has no usage); at 00:02 alice 240 (job 1 ended at the
# tick), bob 4 x 30 = 120; after: a's (3/4)/(240/420) = 1.31 beats b's
# (1/4)/(120/420) = 0.875: alice 1.0.
run "${IN[@]}" "${P[@]}" --share a=3 "$D/sacct"
has -x "series: each user's factor and usage per tick" 0 \
	"time,account,user,fs_before,fs_after,usage_before,usage_after" \
	"2026-01-01T00:00:00,a,alice,1.000000,1.000000,0,0" \
	"2026-01-01T00:01:00,a,alice,0.500000,0.500000,120,120" \
	"2026-01-01T00:01:00,b,bob,1.000000,1.000000,0,0" \
	"2026-01-01T00:02:00,a,alice,0.500000,1.000000,240,240" \
	"2026-01-01T00:02:00,b,bob,1.000000,0.500000,120,120" \
	"2026-01-01T00:03:00,a,alice,0.500000,1.000000,290,290"
if [ "$(grep -c '^2026' "$out")" = 8 ]; then
	ok "series: 4 ticks x 2 users"
else
	bad "series: 4 ticks x 2 users"
fi

# Jobs: job 2 starts at 00:01:30, priced at the 00:01 tick beside job 3:
# job 2 (bob, fs 1) 10000 + age 60/86400 x 1000 = 10000.69 -> 10000, first;
# job 3 (alice, fs 0.5) 5000.35 -> 5000.  Job 3 starts at 00:02:10, priced
# at 00:02 alone: 5000 + 90/86400 x 1000 = 5001.04 -> 5001 before; after,
# alice's fs 1: 10001.
run "${IN[@]}" "${P[@]}" --share a=3 --table jobs "$D/sacct"
has -x "jobs: priority and rank when each started" 0 \
	"2,b,bob,debug,2026-01-01T00:01:30,2,10000,1,10000,1" \
	"3,a,alice,debug,2026-01-01T00:02:10,1,5001,1,10001,1"
run "${IN[@]}" "${P[@]}" --share a=3 --table users "$D/sacct"
has -x "users: the jobs' ranks summarized" 0 \
	"a,alice,1,1.00,1.00,0,0,5001.0,10001.0" \
	"b,bob,1,1.00,1.00,0,0,10000.0,10000.0"

# --show and --top pick the series' users
run "${IN[@]}" "${P[@]}" --share a=3 --show b/bob "$D/sacct"
if [ "$rc" = 0 ] && [ "$(grep -c '^2026.*,b,bob,' "$out")" = 4 ] &&
   ! grep -q alice "$out"; then
	ok "--show ACCOUNT/USER"
else
	bad "--show ACCOUNT/USER"
fi
run "${IN[@]}" "${P[@]}" --top 1 --set PriorityWeightAge=0 "$D/sacct"
if [ "$rc" = 0 ] && [ "$(grep -c '^2026' "$out")" = 4 ]; then
	ok "--top 1"
else
	bad "--top 1"
fi

# A half-life for "after" (1 minute): less usage than without decay.
run "${IN[@]}" "${P[@]}" --set PriorityDecayHalfLife=1 --table final "$D/sacct"
if [ "$rc" = 0 ] && awk -F, '$2 == "alice" || $2 == "bob" { n++;
	if (!($5 < $3 && $5 > 0)) bad = 1 } END { exit !(n == 2 && !bad) }' \
	"$out"; then
	ok "--set PriorityDecayHalfLife: after decays"
else
	bad "--set PriorityDecayHalfLife: after decays"
fi

# JSON: parses, both sides' settings, the tables
run "${IN[@]}" "${P[@]}" --set PriorityCalcPeriod=2 --json "$D/sacct"
if [ "$rc" = 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "re-simulation" in d["note"]
assert d["before"]["ticks"] == 4 and d["after"]["ticks"] == 2
assert d["before"]["calc_period"] == 60 and d["after"]["calc_period"] == 120
assert [j["job_id"] for j in d["jobs"]] == [2, 3]
assert len(d["series"]) == 2 and len(d["series"][0]["fs_before"]) == 4
f = {(r["account"], r["user"]): r for r in d["final"]}
assert f[("a", "alice")]["usage_before"] == 290
' "$out" 2>"$err"; then
	ok "--json"
else
	bad "--json"
fi

# SVG
run "${IN[@]}" "${P[@]}" --share a=3 --svg "$T/r.svg" "$D/sacct"
if [ "$rc" = 0 ] && grep -q '^<svg ' "$T/r.svg" &&
   [ "$(grep -c '<polyline' "$T/r.svg")" = 4 ] &&
   grep -qF 'no re-simulation' "$T/r.svg"; then
	ok "--svg: two lines per user"
else
	bad "--svg: two lines per user"
fi

# the header line (sacct without -n) and epoch times are read
{ echo "JobIDRaw|User|Account|Partition|QOS|Submit|Eligible|Start|End|State|AllocTRES|ReqTRES"
  sed 's/2026-01-01T00:00:00/1767225600/g' "$D/sacct"; } >"$T/h"
run "${IN[@]}" "${P[@]}" --share a=3 --table final "$T/h"
has -x "a header line, times in seconds" 0 \
	"a,alice,290.00,0.500000,290.00,1.000000"

# PriorityUsageResetPeriod: one job of billing 1 from 23:58 to 00:02 of
# 2026-03-11, ticks each minute.  Before (YEARLY): 4 x 60 = 240.  After,
# DAILY: the 00:00 tick zeroes usage (23:58 to 23:59, 60, and 23:59 to
# 00:00 is charged after the reset: 60), then 00:01 and 00:02: 180.
echo "9|alice|a|debug|normal|2026-03-10T23:58:00|2026-03-10T23:58:00|2026-03-10T23:58:00|2026-03-11T00:02:00|COMPLETED|billing=1,cpu=1,node=1|billing=1,cpu=1,node=1" >"$T/midnight"
run "${IN[@]}" --from 2026-03-10T23:58:00 --to 2026-03-11T00:02:00 \
	--set PriorityUsageResetPeriod=DAILY --table final "$T/midnight"
has -x "PriorityUsageResetPeriod=DAILY: usage zeroed at midnight" 0 \
	"a,alice,240.00,0.500000,180.00,0.500000"

# --- bad histories ------------------------------------------------------
: >"$T/empty"
run "${IN[@]}" "$T/empty"
refused "an empty file" 1 "$T/empty: empty file: no job record"
run "${IN[@]}" "$D/assoc"
refused "another dump (the association dump)" 1 \
	"$D/assoc:1: 4 fields, expected 12"
run "${IN[@]}" "$TOP_SRCDIR/examples/snapshot/jobs"
refused "another dump (scontrol show job)" 1 \
	"examples/snapshot/jobs:1: a line of \`scontrol -o show job\`"
head -c 300 "$D/sacct" >"$T/cut"
run "${IN[@]}" "$T/cut"
refused "a line cut in the middle" 1 "$T/cut:2: 11 fields, expected 12"
if grep -qF "cut short" "$err"; then ok "cut: said so"; else bad "cut: said so"; fi
sed '2s/00:01:30|2026/00:61:30|2026/' "$D/sacct" >"$T/garbage"
run "${IN[@]}" "$T/garbage"
refused "a garbage time" 1 \
	"$T/garbage:2: job 2: Start '2026-01-01T00:61:30': not a time"
sed '3s/billing=1,cpu=1/billing=one,cpu=1/' "$D/sacct" >"$T/garbage"
run "${IN[@]}" "$T/garbage"
refused "a garbage TRES count" 1 \
	"$T/garbage:3: job 3: AllocTRES entry 'billing=one': not TYPE=COUNT"
sed '2s/billing=4,cpu=4,/billing=4,cpu=4T,/' "$D/sacct" >"$T/garbage"
run "${IN[@]}" "$T/garbage"
refused "a CPU count past 32 bits (found by fuzz_sacct)" 1 \
	"$T/garbage:2: job 2: cpu=4398046511104 in its TRES: more than a job can have"
sed '2s/billing=4,cpu=4,/billing=1e999,cpu=4,/' "$D/sacct" >"$T/garbage"
run "${IN[@]}" "$T/garbage"
refused "an infinite billing count" 1 \
	"$T/garbage:2: job 2: AllocTRES entry 'billing=1e999': not TYPE=COUNT"
sed '4s/^4|/4.batch|/' "$D/sacct" >"$T/garbage"
run "${IN[@]}" "$T/garbage"
refused "a step's record (no -X)" 1 \
	"$T/garbage:4: JobIDRaw '4.batch': not a job id"
sed '1s/2026-01-01T00:02:00|COMPLETED/2025-12-31T23:00:00|COMPLETED/' \
	"$D/sacct" >"$T/garbage"
run "${IN[@]}" "$T/garbage"
refused "an end before the start" 1 "$T/garbage:1: job 1: End"

# --- usage errors --------------------------------------------------------
run "${IN[@]}"
refused "no history" 2 "the sacct dump (SACCT_FILE) is required"
run "${IN[@]}" --table bogus "$D/sacct"
refused "--table bogus" 2 "--table 'bogus'"
run "${IN[@]}" --share nosuch=2 "$D/sacct"
refused "--share of no association" 2 "--share 'nosuch=2': no such"
run "${IN[@]}" --set Foo=1 "$D/sacct"
refused "--set of a key not settable" 2 "Foo"
run --assoc "$D/assoc" "$D/sacct"
refused "no conf" 2 "--conf FILE and --assoc FILE are required"
run "${IN[@]}" --from 2026-01-01T00:05:00 --to 2026-01-01T00:00:00 "$D/sacct"
refused "--to before --from" 2 "ends (--to) before it starts"

finish
