#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# conf-garbage.sh: every Priority* key, FairShareDampeningFactor,
# PriorityWeightTRES and TRESBillingWeights with garbage in slurm.conf.
# mfprio never stops on one: it names FILE:LINE, the key, the value and
# what it uses instead (the table of doc/config-errors.md, whose mfprio
# column these rows check), and the figures are those of the value used:
# a bad setting gives the same sprio rows as the fallback written out.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
S="$TOP_SRCDIR/tests/data/priority/small"
t=$T
IN=(--jobs "$S/jobs.txt" --qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000)

# conf NAME SETTING: the small cluster's slurm.conf with SETTING (KEY=VALUE)
# on its last line, in place of the key's own line; prints that line's number
conf() {
	grep -v "^${2%%=*}=" "$S/slurm.conf" >"$t/$1.conf"
	printf '%s\n' "$2" >>"$t/$1.conf"
	wc -l <"$t/$1.conf" | tr -d ' '
}

# run NAME: mfprio priority on $t/NAME.conf (stdout NAME.out, stderr err;
# its exit status), and the settings it computed with in NAME.set (the
# "settings" of --json, less the line naming the input files)
run() {
	"$MFPRIO" priority --conf "$t/$1.conf" "${IN[@]}" --json 2>/dev/null |
		sed -n '/^  "settings"/,/^  },/p' | grep -v '"inputs"' >"$t/$1.set"
	"$MFPRIO" priority --conf "$t/$1.conf" "${IN[@]}" >"$t/$1.out" 2>"$t/err"
}

# same: NAME.out and NAME.set of bad and good are alike, and not empty
same() {
	[ -s "$t/bad.out" ] && [ -s "$t/bad.set" ] && ! grep -qi nan "$t/bad.out" &&
		cmp -s "$t/bad.out" "$t/good.out" && cmp -s "$t/bad.set" "$t/good.set"
}

# case SETTING FALLBACK MESSAGE: SETTING gives exactly one warning,
# "mfprio: warning: FILE:LINE: SETTING: MESSAGE", exit 0, no NaN, and the
# rows and settings of FALLBACK (KEY=VALUE, or "-" for the key left out).
# PriorityDecayHalfLife acts on no row (the usage dumps hold what decay
# left): the half-life in the settings tells its value.  PriorityCalcPeriod
# and PriorityUsageResetPeriod pace and reset a live controller's decay;
# nothing `mfprio priority` computes or prints depends on them, so no
# comparison of its output could fail: only the warning is checked here,
# and the values used instead in tests/test_priority_conf.c.
case_() {
	n=$(conf bad "$1")
	if [ "$2" = - ]; then grep -v "^${1%%=*}=" "$S/slurm.conf" >"$t/good.conf"
	else conf good "$2" >/dev/null; fi
	run good
	run bad
	rc=$?
	want="mfprio: warning: $t/bad.conf:$n: $1: $3"
	if [ "$rc" -eq 0 ] && [ "$(grep -c . "$t/err")" -eq 1 ] &&
	   grep -qxF -- "$want" "$t/err"; then ok "$1: one line naming file:line, key, value, what is used"
	else echo "# wanted: $want"; bad "$1: one line naming file:line, key, value, what is used"; fi
	case $1 in PriorityCalcPeriod=*|PriorityUsageResetPeriod=*) return ;; esac
	if same; then ok "$1: the rows and settings of $2"
	else diff "$t/good.set" "$t/bad.set" | sed 's/^/#   /'; bad "$1: the rows and settings of $2"; fi
}

NOTNUM="is not a number"
TIMEFMT="is not a time (MIN, MIN:SEC, HR:MIN:SEC, DAYS-HR[:MIN[:SEC]] or UNLIMITED)"
for k in Age Assoc Fairshare JobSize Partition QOS; do
	case_ "PriorityWeight$k=-1" "PriorityWeight$k=0" "'-1' is less than zero; using 0"
	case_ "PriorityWeight$k=4294967296" "PriorityWeight$k=0" "'4294967296' is greater than 4294967295; using 0"
	case_ "PriorityWeight$k=" "PriorityWeight$k=0" "'' $NOTNUM; using 0"
	case_ "PriorityWeight$k=12x" "PriorityWeight$k=0" "'12x' $NOTNUM; using 0"
done
for k in PriorityMaxAge PriorityDecayHalfLife; do
	case_ "$k=-5" "$k=7-0" "'-5' $TIMEFMT; using the default, 604800 seconds"
	case_ "$k=abc" "$k=7-0" "'abc' $TIMEFMT; using the default, 604800 seconds"
	case_ "$k=" "$k=7-0" "empty time string; using the default, 604800 seconds"
done
case_ "PriorityCalcPeriod=0" "PriorityCalcPeriod=5" "must be at least 1 minute; using the default, 300 seconds"
case_ "PriorityCalcPeriod=-3" "PriorityCalcPeriod=5" "'-3' $TIMEFMT; using the default, 300 seconds"
case_ "PriorityCalcPeriod=zz" "PriorityCalcPeriod=5" "'zz' $TIMEFMT; using the default, 300 seconds"
case_ "PriorityCalcPeriod=99999999999" "PriorityCalcPeriod=5" "time '99999999999' is too long (more than 68 years); using the default, 300 seconds"
case_ "PriorityUsageResetPeriod=FORTNIGHTLY" "PriorityUsageResetPeriod=NONE" "PriorityUsageResetPeriod 'FORTNIGHTLY' is not one of NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY; using NONE"
case_ "PriorityUsageResetPeriod=" "PriorityUsageResetPeriod=NONE" "PriorityUsageResetPeriod '' is not one of NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY; using NONE"
case_ "PriorityFavorSmall=maybe" "PriorityFavorSmall=NO" "not YES or NO; using NO"
case_ "PriorityFavorSmall=" "PriorityFavorSmall=NO" "not YES or NO; using NO"
case_ "PriorityFlags=NO_FAIR_TREE,BOGUS" "PriorityFlags=NO_FAIR_TREE" "unknown PriorityFlags flag 'BOGUS'; the other flags are used"
case_ "FairShareDampeningFactor=0" "FairShareDampeningFactor=1" "0 would divide by zero; using 1"
case_ "FairShareDampeningFactor=-1" "FairShareDampeningFactor=1" "'-1' is less than zero; using 1"
case_ "FairShareDampeningFactor=70000" "FairShareDampeningFactor=1" "'70000' is greater than 65535; using 1"
case_ "FairShareDampeningFactor=abc" "FairShareDampeningFactor=1" "'abc' $NOTNUM; using 1"
case_ "PriorityWeightTRES=CPU=abc" - "TRES weight 'CPU=abc': 'abc' is not a number; no TRES weights used"
case_ "PriorityWeightTRES=CPU=1,GRES/nosuch=100" - "TRES weight 'GRES/nosuch=100': 'gres/nosuch' is not a configured TRES; no TRES weights used"
case_ "PriorityWeightTRES=CPU" - "TRES weight entry 'CPU' is not TYPE=VALUE; no TRES weights used"
case_ "PriorityWeightTRES=CPU=-5" - "the weight of cpu is negative; no TRES weights used"

# quiet SETTING SAME: values slurmctld converts without a word: mfprio
# says nothing either and gives the rows of SAME (what slurmctld makes of it)
quiet() {
	conf bad "$1" >/dev/null
	if [ "$2" = - ]; then grep -v "^${1%%=*}=" "$S/slurm.conf" >"$t/good.conf"
	else conf good "$2" >/dev/null; fi
	run good
	run bad
	if [ $? -eq 0 ] && [ ! -s "$t/err" ] && same
	then ok "$1: no warning, as $2"; else bad "$1: no warning, as $2"; fi
}
# -1 is UNLIMITED to slurmctld's time reader
quiet "PriorityDecayHalfLife=-1" "PriorityDecayHalfLife=UNLIMITED"
quiet "PriorityMaxAge=-1" "PriorityMaxAge=UNLIMITED"
# 1 day + 99 h + 99 min + 99 s = 124 h 40 min 39 s, rounded up to whole
# minutes: 124 h 41 min = 5 days 4 h 41 min
quiet "PriorityMaxAge=1-99:99:99" "PriorityMaxAge=5-04:41:00"
# an empty list: no flags, no TRES weights
quiet "PriorityFlags=" -
quiet "PriorityWeightTRES=" -

# PriorityDecayHalfLife=0 with no reset: accepted, said once
n=$(conf bad "PriorityDecayHalfLife=0")
run bad
if [ "$(grep -c . "$t/err")" -eq 1 ] && grep -qxF "mfprio: warning: $t/bad.conf:$n: PriorityDecayHalfLife=0: with no decay and no PriorityUsageResetPeriod usage only grows; going on" "$t/err"
then ok "PriorityDecayHalfLife=0 without a reset period: said, going on"
else bad "PriorityDecayHalfLife=0 without a reset period: said, going on"; fi

# weights adding up past 2^32: Age 4294967295 + Fairshare 10000 + JobSize
# 1000 + Partition 2000 + QOS 3000 = 4294983295; the sum is said, and no
# row shows a wrapped figure
conf bad "PriorityWeightAge=4294967295" >/dev/null
run bad
if grep -qxF "mfprio: warning: the PriorityWeight* settings add up to 4294983295, more than 4294967295: high priorities will be clamped" "$t/err"
then ok "weights over 2^32: the sum is named"; else bad "weights over 2^32: the sum is named"; fi
# every priority within 1..4294967295 (the second column of sprio -l rows)
if awk 'NR > 1 && ($4 < 1 || $4 > 4294967295 || $4 ~ /[^0-9]/) { b = 1 } END { exit b }' "$t/bad.out" && [ -s "$t/bad.out" ]
then ok "weights over 2^32: no wrapped priority"; else bad "weights over 2^32: no wrapped priority"; head -3 "$t/bad.out"; fi

# TRESBillingWeights of a partition: the partition bills by CPU
sed 's/^PartitionName=long .*/& TRESBillingWeights=CPU=1,Mem=abc/' "$S/slurm.conf" >"$t/bad.conf"
run bad
n=$(grep -n '^PartitionName=long' "$t/bad.conf" | cut -d: -f1)
if grep -qxF "mfprio: warning: $t/bad.conf:$n: TRESBillingWeights=CPU=1,Mem=abc: TRES weight 'Mem=abc': 'abc' is not a number; billing by CPUs" "$t/err"
then ok "TRESBillingWeights garbage: named, billing by CPUs"; else bad "TRESBillingWeights garbage: named, billing by CPUs"; fi

finish
