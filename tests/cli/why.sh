#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio why`, `mfprio check` and `mfprio tree`, on fixtures whose
# figures are worked out by hand below, and on the example snapshot.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
W="$TOP_SRCDIR/tests/data/why"
K="$TOP_SRCDIR/tests/data/check"
EX="$TOP_SRCDIR/examples/snapshot"
unset NO_COLOR
tmp=$T


WHY=(--conf "$W/slurm.conf" --jobs "$W/jobs" --qos "$W/qos" --now 1700000000)

# --- why.  tests/data/why: PriorityMaxAge 10 days (864000 s),
# PriorityWeightAge 1000, PriorityWeightQOS 300 (high 100 of 100: factor 1).
# Job 1 (high) waited 2 days: 1000 * 0.2 + 300 = 500.
# Job 2 (normal) waited 8 days: 1000 * 0.8 = 800: ahead by 300, age
# gives it 600 more, QOS gives job 1 300 more: age decides.
# Both gain 1000/864000 a second until job 2 reaches age 1 after 2 days
# (the gap stays 300); then only job 1 gains: from age 0.4 it needs 0.3
# more (300 / 1000), 3 days.  5 days in all, 432000 s: at 1700000000 +
# 432000 = 1700432000 = 2023-11-19T22:13:20 UTC.  (Check: job 1 then has
# 0.7 * 1000 + 300 = 1000, job 2 1000.)
"$MFPRIO" why 1 2 "${WHY[@]}" >"$out" 2>"$err"
rc=$?; has "why: age decides, QOS the other way" 0 \
	"Job 2 runs before job 1 in partition lo: priority 800 against 500" \
	"The deciding factor is age: it gives job 2 600.0 more." \
	"+300.0 for job 1" \
	"after 5 d 0 h 0 min more of waiting (at 2023-11-19T22:13:20)"
# the same pair the other way round says the same
"$MFPRIO" why 2 1 "${WHY[@]}" >"$out" 2>"$err"
rc=$?; has "why: either order of the ids" 0 "Job 2 runs before job 1" \
	"(at 2023-11-19T22:13:20)"

# --json: the crossing in seconds and as a time
"$MFPRIO" why 1 2 "${WHY[@]}" --json >"$out" 2>"$err"
rc=$?
if [ $rc = 0 ] && python3 - "$out" >"$err" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["first"] == "2" and d["later"] == "1", d
assert d["decided_by"] == "priority", d
assert abs(d["gap"] - 300) < 1e-6, d
assert abs(d["age_crossing_seconds"] - 432000) < 1e-3, d
assert d["age_crossing_time"] == 1700432000, d
assert [t["name"] for t in d["terms"]] == ["age", "qos"], d
PY
then ok "why --json: crossing 432000 s"; else bad "why --json: crossing 432000 s"; fi

# Job 5 (normal, nice 50) waited 1 day: 100 - 50 = 50; job 2 800: gap 750.
# Age can give job 5 at most 1000 * (0.8 - 0.1) = 700 < 750: never.
"$MFPRIO" why 5 2 "${WHY[@]}" >"$out" 2>"$err"
rc=$?; has "why: age cannot close the gap" 0 \
	"The deciding factor is age: it gives job 2 700.0 more." \
	"job 5 will have gained at most 700.0 on job 2, less than 750.0" \
	"nice         job 2 0.0, job 5 -50.0: +50.0 for job 2"

# Fair-share under classic: tests/data/check (see below) with
# NO_FAIR_TREE and PriorityWeightFairshare=1000.  Shares: u1 and u2 0.25
# each (half of a's half), u3 0.5.  Usage 150: a 100 (u1 100), b 50 (u3).
# Effective usage: u1 2/3 (a's 2/3, u1 all of it), u3 1/3.  Factors:
# u1 2^(-(2/3)/0.25) = 0.157490, u3 2^(-(1/3)/0.5) = 0.629961.
# Job 1 (u1, 1 day of 10): 100 + 157.490 = 257.490; job 3 (u3, 3 days):
# 300 + 629.961 = 929.961: ahead by 672.470, fair-share the larger part
# (472.470).  Age gains job 1 at most 200.  Fair-share: job 1 needs
# 0.157490 + 0.672470 = 0.829961, i.e. an effective usage of
# -log2(0.829961) * 0.25 = 0.067221 instead of 0.666667 (90% less).
{ cat "$K/slurm.conf"; echo PriorityFlags=NO_FAIR_TREE
  echo PriorityWeightFairshare=1000; } >"$tmp/classic.conf"
"$MFPRIO" why 1 3 --conf "$tmp/classic.conf" --jobs "$K/jobs" --qos "$K/qos" \
	--assoc "$K/assoc" --usage "$K/usage" --now 1700000000 >"$out" 2>"$err"
rc=$?; has "why: the fair-share factor and usage that would swap them" 0 \
	"Job 3 runs before job 1 in partition p: priority 929 against 257" \
	"The deciding factor is fairshare: it gives job 3 472.5 more." \
	"job 1 will have gained at most 200.0 on job 3, less than 672.5" \
	"job 1's factor would have to rise from 0.157490 to 0.829961" \
	"from 0.666667 to 0.067221 (90% less"

# Job 3 (normal, 1 day, partition hi: PriorityTier 2) has 100; job 4
# (high, 9 days, lo: tier 1) 900 + 300 = 1200: the tier decides.
"$MFPRIO" why 4 3 "${WHY[@]}" >"$out" 2>"$err"
rc=$?; has "why: the partition tier decides" 0 \
	"Job 3 runs before job 4: its partition hi has PriorityTier 2, above the 1 of lo" \
	"(100 and 1200)"

# Jobs 6 and 7 alike (3 days, normal): 300 each; the lower id first.
"$MFPRIO" why 7 6 "${WHY[@]}" >"$out" 2>"$err"
rc=$?; has "why: a tie goes to the lower job id" 0 \
	"Job 6 runs before job 7 in partition lo: both have priority 300"
"$MFPRIO" why 1 99 "${WHY[@]}" >"$out" 2>"$err"
rc=$?
if [ $rc != 0 ] && grep -q 99 "$err"; then ok "why: an unknown job is named"
else bad "why: an unknown job is named"; fi
"$MFPRIO" why 1 x "${WHY[@]}" >"$out" 2>"$err"
if [ $? = 2 ] && grep -qF "why: 'x' is not a job id" "$err"; then ok "why: not a job id"
else bad "why: not a job id"; fi
"$MFPRIO" why 1 "${WHY[@]}" >"$out" 2>"$err"
if [ $? = 2 ]; then ok "why: one id is a usage error"
else bad "why: one id is a usage error"; fi

# On the example snapshot (classic fair-share; by hand from its files:
# PriorityMaxAge 7 days = 604800 s, weights age 10000, fair-share 2000,
# QOS 1000): job 105 (bob, 5 days): 10000 * 5/7 + 2000 * 0.022097 =
# 7187.1; job 104 (erin, 3.5 days): 5000 + 2000 * 0.749154 = 6498.3; gap
# 688.7 < 10000 * (5/7 - 3.5/7) = 2142.9: job 104 overtakes after
# 2 days (job 105 saturates) + 688.74 / 10000 * 604800 = 41655 s, 214455 s
# in all = 2 d 11 h 34 min 15 s: shown rounded up to 2 d 11 h 35 min.
"$MFPRIO" why 104 105 --snapshot "$EX" >"$out" 2>"$err"
rc=$?; has "why: the example snapshot" 0 \
	"Job 105 runs before job 104 in partition batch: priority 7187 against 6498" \
	"The deciding factor is age" "after 2 d 11 h 35 min more of waiting"

# --- check.  tests/data/check is clean: ages 1, 2, 3 days of 10, Fair
# Tree factors 1/3, 2/3, 1 (u1 used most), one job in QOS high; 3 users
# under PriorityWeightFairshare 100; weights sum 1400.
CHK=(--jobs "$K/jobs" --qos "$K/qos" --assoc "$K/assoc" --usage "$K/usage" --now 1700000000)
"$MFPRIO" check --conf "$K/slurm.conf" "${CHK[@]}" >"$out" 2>"$err"
rc=$?; has "check: clean configuration, exit 0" 0 "No finding: 3 pending jobs, 3 user associations checked."

# lint NAME KIND TEXT SETTING...: the clean conf with the SETTING lines
# appended gives exactly one finding, of KIND, holding TEXT, exit 3
lint() {
	name=$1 kind=$2 text=$3
	shift 3
	{ cat "$K/slurm.conf"; printf '%s\n' "$@"; } >"$tmp/slurm.conf"
	"$MFPRIO" check --conf "$tmp/slurm.conf" "${CHK[@]}" >"$out" 2>"$err"
	rc=$?; has "check: $name" 3 "$kind: $text" "1 finding."
}
# 4294967295 + 100 + 300 = 4294967695 > 4294967295; / 2 fits
lint "weights overflow" overflow "the weights add up to 4294967695" \
	PriorityWeightAge=4294967295
if grep -qF "divide every weight by 2 or more" "$out"; then ok "check: overflow fix"
else bad "check: overflow fix"; fi
# 3 user associations: the weight should be 3 to 6
lint "fair-share weight too small" fs-weight \
	"PriorityWeightFairshare is 2 but there are 3 user associations" \
	PriorityWeightFairshare=2
if grep -qF "PriorityWeightFairshare=3 at least" "$out"; then ok "check: fs-weight fix"
else bad "check: fs-weight fix"; fi
# an hour of PriorityMaxAge: every job (1 to 3 days) at age 1
lint "age saturated" saturated \
	"every one of the 3 pending jobs has waited PriorityMaxAge (0-01:00:00)" \
	PriorityMaxAge=1:00:00
lint "TRES weight nobody asks for" tres-unused \
	"PriorityWeightTRES weighs gres/gpu at 500 but none of the 3 pending jobs" \
	AccountingStorageTRES=gres/gpu PriorityWeightTRES=CPU=10,GRES/gpu=500
lint "weights under priority/basic" off "PriorityType is priority/basic" \
	PriorityType=priority/basic
lint "dampening under Fair Tree" off "FairShareDampeningFactor is 5" \
	FairShareDampeningFactor=5
# no slurmdbd: slurmctld zeroes the age (1000) and fair-share (100) weights
grep -v '^AccountingStorageType=' "$K/slurm.conf" >"$tmp/slurm.conf"
"$MFPRIO" check --conf "$tmp/slurm.conf" "${CHK[@]}" >"$out" 2>"$err"
rc=$?; has "check: age and fair-share weights without slurmdbd" 3 \
	"off: AccountingStorageType is not set: slurmctld takes PriorityWeightAge (1000) and PriorityWeightFairshare (100) as 0" \
	"1 finding."
# the same with both weights set to 0 by --set: nothing left to say
"$MFPRIO" check --conf "$tmp/slurm.conf" "${CHK[@]}" --set PriorityWeightAge=0 \
	--set PriorityWeightFairshare=0 >"$out" 2>"$err"
rc=$?; has "check: --set taken into account" 0 "No finding: 3 pending jobs"
# every job in QOS normal: QOS factor 0 for all
sed 's/QOS=high/QOS=normal/' "$K/jobs" >"$tmp/jobs"
"$MFPRIO" check --conf "$K/slurm.conf" "${CHK[@]}" --jobs "$tmp/jobs" >"$out" 2>"$err"
rc=$?; has "check: a factor the same for every job" 3 \
	"constant: every one of the 3 pending jobs has QOS factor 0: PriorityWeightQOS=300" \
	"1 finding."
"$MFPRIO" check --snapshot "$EX" >"$out" 2>"$err"
rc=$?; has "check: the example snapshot is clean" 0 "No finding: 5 pending jobs, 7 user associations"
{ cat "$K/slurm.conf"; echo PriorityWeightAge=4294967295; } >"$tmp/slurm.conf"
"$MFPRIO" check --conf "$tmp/slurm.conf" "${CHK[@]}" --json >"$out" 2>"$err"
rc=$?
if [ $rc = 3 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [f["kind"] for f in d["findings"]] == ["overflow"], d' "$out" 2>"$err"
then ok "check --json"; else bad "check --json"; fi

# --- tree.  The example (classic): physics has 40 of root's 100 shares
# and 450 of its 1000 usage; lab 10 of physics's 40 (25.0%) and 250 of
# its 450 (55.6%); dave's fair-share 2^(-0.25/0.25) = 0.5.
"$MFPRIO" tree --snapshot "$EX" >"$out" 2>"$err"
rc=$?; has "tree: shares against usage" 0 \
	"40.0%" "45.0%" "25.0%" "55.6%" "0.500000"
# bars of 20: physics 0.40 * 20 = 8 of shares, 0.45 * 20 = 9 of usage
# (ASCII in the C locale, blocks under UTF-8)
LC_ALL=C "$MFPRIO" tree --snapshot "$EX" >"$out" 2>"$err"
rc=$?; has "tree: the bars" 0 \
	"  physics     ########............  40.0% #########...........  45.0%"
if locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8'; then
	LC_ALL=C.UTF-8 "$MFPRIO" tree --snapshot "$EX" >"$out" 2>"$err"
	rc=$?; has "tree: the bars in UTF-8" 0 \
		"  physics     ████████············  40.0% █████████···········  45.0%"
fi
if grep -q "$(printf '\033')" "$out"; then bad "tree: no colour into a file"
else ok "tree: no colour into a file"; fi
"$MFPRIO" tree --snapshot "$EX" --color=always >"$out" 2>"$err"
if grep -q "$(printf '\033')\[" "$out"; then ok "tree: --color=always"
else bad "tree: --color=always"; fi
# the tree drawn (exit 0, physics's row there), and not one escape in it
NO_COLOR=1 "$MFPRIO" tree --snapshot "$EX" --color=always >"$out" 2>"$err"
rc=$?
if [ $rc = 0 ] && grep -q '^  physics  ' "$out" && ! grep -q "$(printf '\033')" "$out"
then ok "tree: NO_COLOR wins"; else echo "# exit status $rc"; bad "tree: NO_COLOR wins"; fi
if command -v script >/dev/null 2>&1; then
	script -qec "\"$MFPRIO\" tree --snapshot \"$EX\"" /dev/null >"$out" 2>"$err" </dev/null
	if grep -q "$(printf '\033')\[3" "$out"; then ok "tree: colour on a terminal"
	elif grep -q "pseudo-terminal" "$out" "$err"; then
		# a chroot or container without /dev/pts: no terminal to test on
		echo "# no pseudo-terminal here ($(grep -h "pseudo-terminal" "$out" "$err" | head -n 1)): colour on a terminal not checked"
	else bad "tree: colour on a terminal"; fi
else
	# script(1) gives mfprio a terminal: without it the check cannot run,
	# and a check left out must not pass (Debian's bsdutils, an Essential
	# package, and util-linux elsewhere have it)
	echo "no script(1) (bsdutils on Debian, util-linux elsewhere) on PATH: nothing to run mfprio on a terminal with" >"$err"
	: >"$out"
	bad "tree: colour on a terminal"
fi

# --svg: parses as XML; one rect per association (14) and two in the
# legend; dave (0.5) filled #d7af30 (red 215, green 175)
"$MFPRIO" tree --snapshot "$EX" --svg "$tmp/t.svg" >"$out" 2>"$err"
rc=$?
if [ $rc = 0 ] && python3 - "$tmp/t.svg" >"$err" 2>&1 <<'PY'
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert d.documentElement.tagName == "svg"
rects = d.getElementsByTagName("rect")
assert len(rects) == 1 + 14 + 2, len(rects)
titles = [t.firstChild.data for t in d.getElementsByTagName("title")]
dave = [t for t in titles if t.startswith("dave in organic")]
assert dave and "fair-share 0.500000" in dave[0], titles
g = [t.parentNode for t in d.getElementsByTagName("title") if t.firstChild.data.startswith("dave ")][0]
assert g.getElementsByTagName("rect")[0].getAttribute("fill") == "#d7af30"
PY
then ok "tree --svg: XML, a box per association"; else bad "tree --svg: XML, a box per association"; fi
"$MFPRIO" tree --snapshot "$EX" --svg /nonexistent/dir/t.svg >"$out" 2>"$err"
rc=$?
if [ $rc = 1 ] && grep -q "/nonexistent/dir/t.svg" "$err"; then ok "tree --svg: unwritable file named"
else bad "tree --svg: unwritable file named"; fi

# --now in scontrol's forms: the snapshot's time is 1700000000 =
# 2023-11-14T22:13:20 UTC; "now+1day" is then 1700086400.  Each run must
# succeed and give the figures of a day later: at the snapshot's time job
# 105 has 7187.1 and job 104 6498.3; a day adds 1428.6 of age to each
# (PriorityWeightAge 10000 over PriorityMaxAge 7 days: 10000 / 7), so
# 8615.6 against 7926.9
rcs=
for f in epoch:1700086400 date:2023-11-15T22:13:20 rel:now+1day; do
	TZ=UTC "$MFPRIO" why 104 105 --snapshot "$EX" --now "${f#*:}" >"$out.${f%%:*}" 2>"$err"
	rcs="$rcs$?"
done
if [ "$rcs" = 000 ] && grep -qF "priority 8615 against 7926 (8615.6 against 7926.9 before rounding)" "$out.epoch" &&
   cmp -s "$out.epoch" "$out.date" && cmp -s "$out.epoch" "$out.rel"
then ok "why --now: epoch, date and now+1day (from the snapshot's time) agree"
else echo "# exit statuses $rcs"; bad "why --now: epoch, date and now+1day (from the snapshot's time) agree"; fi
"$MFPRIO" check --snapshot "$EX" --now bogus >"$out" 2>"$err"
rc=$?
if [ $rc = 2 ] && grep -q "'bogus' is not a time" "$err"; then ok "check --now bogus: a usage error naming it"
else bad "check --now bogus: a usage error naming it"; fi

finish
