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
# After our capture, `mfprio fairshare` on a snapshot must print the live
# `sshare -a -l -P`'s header and empty cells (sshare_shape).
# Compared: every sshare figure to 1e-6 (RawUsage and each TRES of
# GrpTRESRaw to 1e-3 relative: they decay between the two captures),
# sprio's weighted columns to 1, its
# normalized factors to 1e-6.  Age grows between the captures, so it is
# checked in each capture on its own, and taken out of the comparison: every
# case runs with PriorityMaxAge=2 (minutes): the pending jobs are part-way in
# a first case's first captures and saturated in our capture after a tick,
# and a job submitted just before our plugin's restart (left out of the
# comparison with upstream's tables) is part-way in our captures; each row's
# AGE, weighted and normalized, must be
# PriorityWeightAge * min(1, (T - AccrueTime) / PriorityMaxAge), T the time
# of the priority pass the figures are from (priority_last_decay_ran, read
# before and after the capture, which is taken again if a pass fell in
# between), to one second's worth (8 weighted) and 1 of rounding; a plugin
# with age 0, or 7 days for PriorityMaxAge, or not saturating at 1.0 is
# hundreds of points off.  PRIORITY is compared less its AGE (to 2: two
# roundings).  Columns are matched by header, so the
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
MFPRIO=${MFPRIO:-${MFPRIO_BUILD:-$top}/mfprio}

# GrpTRESRaw (each TRES's decayed usage) and TRESRunMins (each TRES's
# reserved run time) are what GrpTRESMins and GrpTRESRunMins limits hold
# jobs on; GrpTRESMins (the limits themselves) comes with them
cols=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins,GrpTRESRaw,TRESRunMins

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

# capture LABEL: the three tables, the jobs (LABEL.jobs, scontrol -o show
# job, for their AccrueTime), and the time of the priority pass the tables
# are from (LABEL.pass: last_ran before and after the reads; all taken again,
# up to three times, if a pass fell in between); then the age check of the
# capture.
capture() {
	local before after
	for _ in 1 2 3; do
		before=$(last_ran)
		sshare -a -l -P -o "$cols" >"$out/$1.sshare"
		sprio -l | sort -k1,1n -k2,2 >"$out/$1.sprio"
		sprio -l -n | sort -k1,1n -k2,2 >"$out/$1.sprio-n"
		scontrol -o show job >"$out/$1.jobs"
		after=$(last_ran)
		[[ $before == "$after" ]] && break
		say "$1: a priority pass ran during the capture ($before, $after): again"
	done
	echo "$before $after" >"$out/$1.pass"
	# the headers first again (sort moved them)
	for f in "$out/$1.sprio" "$out/$1.sprio-n"; do
		{ grep JOBID "$f"; grep -v JOBID "$f"; } >"$f.tmp" && mv "$f.tmp" "$f"
	done
	check_table "$1: AGE of every sprio row as its AccrueTime and PriorityMaxAge give" \
		check_age "$1"
}

# check_age LABEL: each row's AGE (sprio -l and -l -n) against
# PriorityWeightAge * min(1, (T - AccrueTime) / PriorityMaxAge), T between
# the pass times of LABEL.pass (one second either side: the pass stamp and
# the plugin's clock), both settings as slurmctld reports them.  Prints each
# row out of band, and how many rows were saturated and part-way (also into
# LABEL.agerows: SATURATED PART-WAY); fails on a row out of its band, or on
# a band wider than a tenth of the weight (the reads not pinned to a pass).
# That the captures had age to see is the case's check (after our tick).
# shellcheck disable=SC2317  # called through check_table
check_age() {
	scontrol show config >"$out/$1.config"
	python3 - "$out/$1" <<'PY'
import re, sys, time
base = sys.argv[1]
conf = open(base + ".config").read()
def setting(name):
    m = re.search(r"^%s\s*=\s*(\S+)" % name, conf, re.M)
    if not m:
        sys.exit("age: no %s in scontrol show config" % name)
    return m.group(1)
w = float(setting("PriorityWeightAge"))
m = re.match(r"^(?:(\d+)-)?(\d+):(\d+):(\d+)$", setting("PriorityMaxAge"))
if not m:
    sys.exit("age: PriorityMaxAge %r not understood" % setting("PriorityMaxAge"))
d, h, mi, se = (int(x or 0) for x in m.groups())
max_age = ((d * 24 + h) * 60 + mi) * 60 + se
t_lo, t_hi = (int(x) for x in open(base + ".pass").read().split())
t_lo, t_hi = min(t_lo, t_hi) - 1, max(t_lo, t_hi) + 1
accrue = {}
for line in open(base + ".jobs"):
    j = re.search(r"\bJobId=(\d+)", line)
    a = re.search(r"\bAccrueTime=(\S+)", line)
    if not j:
        continue
    t = 0
    if a and a.group(1) not in ("Unknown", "None", "N/A"):
        t = int(time.mktime(time.strptime(a.group(1), "%Y-%m-%dT%H:%M:%S")))
    accrue[j.group(1)] = t
def f(t, a):
    if not a or t <= a:
        return 0.0
    return min(1.0, (t - a) / max_age)
bad = rows = sat = part = 0
top = 0.0
for suffix, scale, slack in ((".sprio", w, 1.0), (".sprio-n", 1.0, 1e-6)):
    lines = [l.split() for l in open(base + suffix) if l.strip()]
    if len(lines) < 2:
        print("age%s: no rows" % suffix); bad += 1; continue
    hdr = lines[0]
    if "AGE" not in hdr:
        print("age%s: no AGE column: %s" % (suffix, hdr)); bad += 1; continue
    ja, ia = hdr.index("JOBID"), hdr.index("AGE")
    for r in lines[1:]:
        rows += 1
        job = r[ja]
        if job not in accrue:
            print("age%s: job %s not in scontrol show job" % (suffix, job)); bad += 1; continue
        lo, hi = f(t_lo, accrue[job]), f(t_hi, accrue[job])
        got = float(r[ia])
        if suffix == ".sprio":
            top = max(top, lo * w)
            sat += lo == 1.0
            part += 0.0 < lo and hi < 1.0
        if (hi - lo) * w > w / 10:
            print("age%s: job %s: band %.0f-%.0f wider than a tenth of the weight" % (suffix, job, lo * w, hi * w)); bad += 1
        if not (lo * scale - slack <= got <= hi * scale + slack):
            print("age%s: job %s: AGE %s, expected %.6g to %.6g (accrue %d, pass %d-%d, max age %ds)"
                  % (suffix, job, r[ia], lo * scale, hi * scale, accrue[job], t_lo + 1, t_hi - 1, max_age))
            bad += 1
if top < w / 5:
    # not a failure here: right after a restart slurmctld itself may have
    # cleared every AccrueTime (22.05 with ACCRUE_ALWAYS and limits
    # enforced), and age 0 is then what both plugins must show; the case's
    # own check below requires rows that show age
    print("age: no row with an expected age of a fifth of the weight (largest %.0f of %.0f)" % (top, w))
print("age: %d rows (sprio -l and -n), %d saturated, %d part-way, max age %ds, weight %.0f, %d out of band"
      % (rows, sat, part, max_age, w, bad))
open(base + ".agerows", "w").write("%d %d\n" % (sat, part))
sys.exit(1 if bad else 0)
PY
}

# no_age LABEL [JOBID]: LABEL.sprio and LABEL.sprio-n without age, for
# comparing captures taken at different times: AGE made "-", PRIORITY less the
# AGE (weighted; normalized: AGE * PriorityWeightAge / 0xffffffff), and
# without JOBID's rows, into LABEL.sprio.noage and LABEL.sprio-n.noage.
no_age() {
	# PriorityWeightAge from the config check_age saved for the capture
	python3 - "$out/$1" "$(awk '$1 == "PriorityWeightAge" { print $3 }' "$out/$1.config")" "${2:-}" <<'PY'
import sys
base, w, skip = sys.argv[1], float(sys.argv[2]), sys.argv[3]
for suffix, norm in ((".sprio", False), (".sprio-n", True)):
    lines = [l.split() for l in open(base + suffix) if l.strip()]
    hdr = lines[0]
    ip, ia = hdr.index("PRIORITY"), hdr.index("AGE")
    with open(base + suffix + ".noage", "w") as o:
        o.write(" ".join(hdr) + "\n")
        for r in lines[1:]:
            if r[hdr.index("JOBID")] == skip:
                continue
            p, a = float(r[ip]), float(r[ia])
            r[ip] = "%.10f" % (p - a * w / 4294967295.0) if norm else "%d" % round(p - a)
            r[ia] = "-"
            o.write(" ".join(r) + "\n")
PY
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

# compare EXPECTED ACTUAL NAME (sprio less its age: see check_age and no_age)
compare() {
	local e=$1 a=$2 n=$3
	check_table "$n: sshare" "$here/compare-tables.py" "$n/sshare" "$out/$e.sshare" \
		"$out/$a.sshare" --sep='|' RawUsage=1e-3r GrpTRESRaw=1e-3r
	check_table "$n: sprio -l (age apart)" "$here/compare-tables.py" "$n/sprio" \
		"$out/$e.sprio.noage" "$out/$a.sprio.noage" PRIORITY=2 FAIRSHARE=1 \
		JOBSIZE=1 PARTITION#2=1 QOS=1 TRES=1 SITE=1 ASSOC=1 NICE=1
	# sprio -n prints PRIORITY / 2^32 with 8 decimals: the 2 that sprio -l
	# allows (two roundings) rounds to one unit of the last decimal, 1e-8,
	# which in floating point is a hair above 1e-8
	check_table "$n: sprio -l -n (age apart)" "$here/compare-tables.py" "$n/sprio-n" \
		"$out/$e.sprio-n.noage" "$out/$a.sprio-n.noage" PRIORITY=1.5e-8
}

# sshare_shape NAME: `mfprio fairshare` on a snapshot of this cluster
# (`mfprio snapshot`: the case's PriorityFlags, the assoc_mgr dump) as this
# release prints `sshare -a -l -P`: the same header (so the same columns in
# the same order), and in each row the same account and user and the same
# cells empty (the figures are compared above, plugin against plugin, and
# in test-fairshare-sshare.sh).  Into NAME.sshare-l, NAME.mfprio-l.
# shellcheck disable=SC2317  # called through check
sshare_shape() {
	local snap=$out/$1.snap shape
	# shellcheck disable=SC2016  # awk's own fields
	shape='{ s = $1 "|" $2; for (i = 3; i <= NF; i++) s = s "|" ($i == "" ? "-" : "x"); print NR == 1 ? $0 : s }'
	rm -rf "$snap"
	"$MFPRIO" snapshot "$snap" >"$out/$1.snap.log" 2>&1 || { cat "$out/$1.snap.log"; return 1; }
	sshare -a -l -P >"$out/$1.sshare-l"
	"$MFPRIO" fairshare --snapshot "$snap" --release "$(cut -d. -f1,2 <<<"$SLURM_VERSION")" \
		>"$out/$1.mfprio-l" 2>"$out/$1.mfprio-l.err" || { cat "$out/$1.mfprio-l.err"; return 1; }
	diff <(awk -F'|' "$shape" "$out/$1.sshare-l") <(awk -F'|' "$shape" "$out/$1.mfprio-l")
}

# accrues JOBID: the job has an AccrueTime (its age counts from it)
accrues() {
	scontrol -o show job "$1" 2>/dev/null | grep -q 'AccrueTime=[0-9]'
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
# PriorityMaxAge of every case, in minutes (written here: priority-default.conf,
# which other tests use, has 7 days, under which minutes-old jobs show no age)
max_age_minutes=2
for c in "${cases[@]}"; do
	name=${c%%|*}
	extra=${c#*|}
	{
		grep -v '^PriorityMaxAge=' "$here/priority-default.conf"
		echo "PriorityMaxAge=$max_age_minutes"
		printf '%s\n' "$extra"
	} >"$DIR/etc/priority.conf"
	use_plugin upstream
	restart_ctld "$name-upstream" || { not_ok "$name: upstream restart"; continue; }
	check "$name: upstream's plugin loaded ($(loaded_so))" loaded_is "$UPSTREAM_SO"
	sshare -a -l -P >/dev/null
	t=$(date +%s)
	wait_tick "$t" || { not_ok "$name: upstream tick"; continue; }
	capture "$name-upstream"
	no_age "$name-upstream"
	if slurm_at_least 24.11; then
		# the several-QOS jobs: a row per partition and QOS (2 x 2, 1 x 2)
		multi=$(sed -n 10p "$out/pending.ids" | cut -d';' -f1)
		single=$(sed -n 11p "$out/pending.ids" | cut -d';' -f1)
		check "$name: upstream lists job $multi per partition and QOS" \
			test "$(awk -v j="$multi" '$1 == j' "$out/$name-upstream.sprio" | wc -l)" -eq 4
		check "$name: upstream lists job $single per QOS" \
			test "$(awk -v j="$single" '$1 == j' "$out/$name-upstream.sprio" | wc -l)" -eq 2
	fi

	# a job young in our captures (part-way: accrued just before our
	# restart), and in later cases' as the others
	young=$(sbatch --parsable -D /tmp -o /dev/null --wrap 'sleep 60' --uid=u7 -A z -p debug -n 1 \
		2>>"$out/pending.err" | cut -d';' -f1)
	echo "$young" >>"$out/young.ids"
	for _ in $(seq 30); do
		accrues "$young" && break
		sleep 1
	done
	check "$name: job $young for our captures accrues" accrues "$young"

	use_plugin ours
	restart_ctld "$name-ours" || { not_ok "$name: our restart"; continue; }
	check "$name: our plugin loaded ($(loaded_so))" loaded_is "$plugin_dir/priority_multifactor.so"
	capture "$name-ours-restart"
	no_age "$name-ours-restart" "$young"
	sshare -a -l -P >/dev/null
	t=$(date +%s)
	wait_tick "$t" || { not_ok "$name: our tick"; continue; }
	capture "$name-ours-tick"
	no_age "$name-ours-tick" "$young"
	# the age check saw something: rows part-way in our captures (the
	# young job; after the restart, or after the tick where slurmctld
	# cleared AccrueTime at its restart) and saturated after our tick
	# shellcheck disable=SC2016  # awk's own fields
	check "$name: our ages part-way and saturated (after a tick) were checked" \
		awk '{ p += $2 } FILENAME ~ /tick/ { s += $1 }
			END { exit !(p > 0 && s > 0) }' \
		"$out/$name-ours-restart.agerows" "$out/$name-ours-tick.agerows"

	check "$name: mfprio fairshare prints sshare -a -l -P's header and empty cells" \
		sshare_shape "$name"
	compare "$name-upstream" "$name-ours-restart" "$name after restart"
	compare "$name-upstream" "$name-ours-tick" "$name after a tick"
	check "$name: slurmctld still up" ctld_alive
done

# leave the cluster as found: jobs gone, node back
scancel $(cat "$out/pending.ids" "$out/young.ids" 2>/dev/null | cut -d';' -f1) 2>/dev/null
scontrol update nodename="$NODE" state=resume 2>/dev/null
finish
