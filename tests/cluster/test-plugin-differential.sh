#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-differential.sh: the same cluster state read through upstream's
# priority_multifactor.so and through mfprio's.
#
# Setup (upstream's plugin): the associations of layout-basic.txt, usage from
# real jobs (run-jobs.sh, under a QOS with UsageFactor=1000000 so that
# usage is large), then the node drained and pending jobs submitted in both
# partitions, in both at once, with nice, with a QOS of higher priority and
# more CPUs; from 24.11 also jobs asking for several QOS.
#
# For Fair Tree, classic (NO_FAIR_TREE) and DEPTH_OBLIVIOUS, on the same
# StateSaveLocation:
#   upstream: restart slurmctld, one sshare and one more full decay pass
#             (upstream computes classic users on demand from siblings as last
#             computed: the first figures after its restart are not settled);
#             then capture sshare -a -l -P, sprio -l and sprio -l -n;
#   ours:     restart with mfprio's plugin first on PluginDir; capture right
#             after its first pass ("restart"), and after one more full pass
#             ("tick").
# With MFPRIO_DIFF_CASES=flags (test-plugin-differential-flags.sh), the
# same for classic with FairShareDampeningFactor=2, NO_NORMAL_ALL with
# PriorityFavorSmall, DEPTH_OBLIVIOUS with SMALL_RELATIVE_TO_TIME, MAX_TRES
# and more TRES weights, and CALCULATE_RUNNING with ACCRUE_ALWAYS.
# MFPRIO_DIFF_ONLY="fair_tree classic ...": only the cases named (space
# separated; of either set); an unknown name fails the test.
# Compared: every sshare figure to 1e-6 (RawUsage to 1e-3 relative: it
# decays between the two captures), sprio's weighted columns and priority to
# 1, its normalized factors to 1e-6 (age, which grows with time between the two
# captures, to 3e-3 and 2 weighted).  Columns are matched by header, so the
# release's own column set is compared (sprio -l has ACCOUNT and QOSNAME
# from 23.02 on; sshare leaves an account's FairShare empty under every
# algorithm from 25.11 on, where before it printed the classic factor).
#
# The cluster and Slurm release: MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh).  On a SchedMD release, "upstream" is that release's own
# plugin; MFPRIO_PLUGIN_SO=$UPSTREAM_SO compares upstream with itself (a
# check of the harness: see README.md for what then differs).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

cols=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS

use_plugin upstream
start_cluster "$here/priority-default.conf"
users=$(awk '$1 == "user" { print $3 }' "$here/layout-basic.txt" | sort -u | paste -sd,)
sacctmgr -i add qos fsbig UsageFactor=1000000 Priority=10 >/dev/null 2>&1 ||
	sacctmgr -i modify qos fsbig set UsageFactor=1000000 Priority=10 >/dev/null
sacctmgr -i add qos urgent Priority=100 >/dev/null 2>&1 || true
sacctmgr -i modify user where name="$users" set qos+=fsbig,urgent >/dev/null
say "running jobs for usage"
SBATCH_QOS=fsbig "$here/run-jobs.sh" >"$out/run-jobs.log" 2>&1 || {
	tail -n 30 "$out/run-jobs.log"
	echo "0 passed, 1 failed"
	exit 1
}

# pending jobs: the node drained, so that they wait with a priority
scontrol update nodename="$NODE" state=drain reason=mfprio-differential
submit() {
	sbatch --parsable -D /tmp -o /dev/null --wrap 'sleep 60' "$@" >>"$out/pending.ids" 2>>"$out/pending.err"
}
submit --uid=u1 -A b -p debug -n 1
submit --uid=u1 -A b -p big -n 2
submit --uid=u2 -A c -p debug,big -n 1
submit --uid=u3 -A c -p debug -n 1 --nice=500
submit --uid=u4 -A e -p big -n 1 --qos=urgent
submit --uid=u5 -A f -p debug,big -n 2 --qos=fsbig
submit --uid=u6 -A b -p debug -n 1
submit --uid=u7 -A z -p big -n 1
submit --uid=u2 -A c -p debug -n 1 --hold
npending=9
# From 24.11 a job may ask for several QOS: one priority (and one sprio
# row) per partition and QOS, each QOS's priority in place of the job's
if slurm_at_least 24.11; then
	submit --uid=u5 -A f -p debug,big -n 1 --qos=fsbig,urgent
	submit --uid=u6 -A b -p debug -n 1 --qos=urgent,fsbig
	npending=11
fi
check "pending jobs submitted ($(wc -l <"$out/pending.ids"))" test "$(wc -l <"$out/pending.ids")" -eq "$npending"

# capture LABEL: the three tables
capture() {
	sshare -a -l -P -o "$cols" >"$out/$1.sshare"
	sprio -l | sort -k1,1n -k2,2 >"$out/$1.sprio"
	sprio -l -n | sort -k1,1n -k2,2 >"$out/$1.sprio-n"
	# the headers first again (sort moved them)
	for f in "$out/$1.sprio" "$out/$1.sprio-n"; do
		{ grep JOBID "$f"; grep -v JOBID "$f"; } >"$f.tmp" && mv "$f.tmp" "$f"
	done
}

# "Ours" the very file of upstream's plugin (MFPRIO_PLUGIN_SO=$UPSTREAM_SO):
# a check of the harness itself.  Upstream's figures right after its restart
# are not settled (see above; mfprio's are, which the "after restart"
# comparisons assert), so those may differ then: reported, not counted.
self_check=0
if cmp -s "$plugin_so" "$UPSTREAM_SO"; then
	self_check=1
	say "our plugin is upstream's own $UPSTREAM_SO: comparisons right after a restart are informational"
fi

# check_table DESCRIPTION COMMAND...: check, except that a difference right
# after a restart in a self check is only reported.
check_table() {
	local what=$1
	shift
	if [[ $self_check == 1 && $what == *"after restart"* ]]; then
		if "$@"; then
			ok "$what"
		else
			say "note: $what differs (upstream against itself: not settled after a restart)"
		fi
	else
		check "$what" "$@"
	fi
}

# compare EXPECTED ACTUAL NAME
compare() {
	local e=$1 a=$2 n=$3
	check_table "$n: sshare" "$here/compare-tables.py" "$n/sshare" "$out/$e.sshare" \
		"$out/$a.sshare" --sep='|' RawUsage=1e-3r
	check_table "$n: sprio -l" "$here/compare-tables.py" "$n/sprio" "$out/$e.sprio" \
		"$out/$a.sprio" PRIORITY=1 AGE=2 FAIRSHARE=1 JOBSIZE=1 PARTITION#2=1 \
		QOS=1 TRES=1 SITE=1 ASSOC=1 NICE=1
	# sprio -n prints PRIORITY / 2^32 with 8 decimals: the 1 that sprio -l
	# allows (age read a second apart) can round to one unit of the last
	# decimal, 1e-8, which in floating point is a hair above 1e-8
	check_table "$n: sprio -l -n" "$here/compare-tables.py" "$n/sprio-n" "$out/$e.sprio-n" \
		"$out/$a.sprio-n" AGE=3e-3 PRIORITY=1.5e-8
}

# MFPRIO_DIFF_CASES=flags: weights and flags instead of the three algorithms
if [[ ${MFPRIO_DIFF_CASES:-algorithms} == flags ]]; then
	cases=(
		"classic_damp2|PriorityFlags=NO_FAIR_TREE
FairShareDampeningFactor=2"
		"fair_tree_no_normal|PriorityFlags=NO_NORMAL_ALL
PriorityFavorSmall=YES"
		"depth_oblivious_tres|PriorityFlags=DEPTH_OBLIVIOUS,SMALL_RELATIVE_TO_TIME,MAX_TRES
PriorityWeightTRES=CPU=500,Mem=100,Node=50"
		"classic_running|PriorityFlags=NO_FAIR_TREE,CALCULATE_RUNNING,ACCRUE_ALWAYS
PriorityWeightAssoc=100"
	)
else
	cases=(
		"fair_tree|"
		"classic|PriorityFlags=NO_FAIR_TREE"
		"depth_oblivious|PriorityFlags=DEPTH_OBLIVIOUS"
	)
fi
# MFPRIO_DIFF_ONLY: the named cases only, in the order above.
if [[ -n ${MFPRIO_DIFF_ONLY:-} ]]; then
	only=()
	for want in $MFPRIO_DIFF_ONLY; do
		found=0
		for c in "${cases[@]}"; do
			[[ ${c%%|*} == "$want" ]] && found=1
		done
		[[ $found == 1 ]] || not_ok "MFPRIO_DIFF_ONLY: no case '$want' (cases: $(printf '%s\n' "${cases[@]}" | grep -o '^[a-z_0-9]*|' | tr -d '|' | paste -sd' '))"
	done
	for c in "${cases[@]}"; do
		[[ " $MFPRIO_DIFF_ONLY " == *" ${c%%|*} "* ]] && only+=("$c")
	done
	cases=("${only[@]}")
	say "cases: ${MFPRIO_DIFF_ONLY}"
fi
for c in "${cases[@]}"; do
	name=${c%%|*}
	extra=${c#*|}
	{ cat "$here/priority-default.conf"; printf '%s\n' "$extra"; } >"$DIR/etc/priority.conf"

	use_plugin upstream
	restart_ctld "$name-upstream" || { not_ok "$name: upstream restart"; continue; }
	check "$name: upstream's plugin loaded ($(loaded_so))" loaded_is "$UPSTREAM_SO"
	sshare -a -l -P >/dev/null
	t=$(date +%s)
	wait_tick "$t" || { not_ok "$name: upstream tick"; continue; }
	capture "$name-upstream"
	if slurm_at_least 24.11; then
		# the several-QOS jobs: a row per partition and QOS (2 x 2, 1 x 2)
		multi=$(sed -n 10p "$out/pending.ids" | cut -d';' -f1)
		single=$(sed -n 11p "$out/pending.ids" | cut -d';' -f1)
		check "$name: upstream lists job $multi per partition and QOS" \
			test "$(awk -v j="$multi" '$1 == j' "$out/$name-upstream.sprio" | wc -l)" -eq 4
		check "$name: upstream lists job $single per QOS" \
			test "$(awk -v j="$single" '$1 == j' "$out/$name-upstream.sprio" | wc -l)" -eq 2
	fi

	use_plugin ours
	restart_ctld "$name-ours" || { not_ok "$name: our restart"; continue; }
	check "$name: our plugin loaded ($(loaded_so))" loaded_is "$plugin_dir/priority_multifactor.so"
	capture "$name-ours-restart"
	sshare -a -l -P >/dev/null
	t=$(date +%s)
	wait_tick "$t" || { not_ok "$name: our tick"; continue; }
	capture "$name-ours-tick"

	compare "$name-upstream" "$name-ours-restart" "$name after restart"
	compare "$name-upstream" "$name-ours-tick" "$name after a tick"
	check "$name: slurmctld still up" ctld_alive
done

# leave the cluster as found: jobs gone, node back
scancel $(cat "$out/pending.ids" | cut -d';' -f1) 2>/dev/null
scontrol update nodename="$NODE" state=resume 2>/dev/null
finish
