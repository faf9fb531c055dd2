#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-why.sh: `mfprio why`, `mfprio check` and `mfprio tree` on the
# snapshot of a real cluster (upstream's plugin, Fair Tree, the weights of
# priority-default.conf, the layout of layout-basic.txt, the usage of
# run-jobs.sh), against what the live cluster says:
#   why    for the first and the last job of partition debug in the live
#          `sprio -l` (the largest gap): the job it says runs first is
#          sprio's first, and the deciding factor it names is the sprio
#          column (AGE, FAIRSHARE, ...) with the largest difference in that
#          job's favour.
#   check  every pending job is submitted with QOS normal and 1 CPU on 1
#          node: the QOS and job size factors are the same for all, so it
#          must report both as `constant` (exit 3), and nothing about
#          overflow or the fair-share weight (10000, above the 8 user
#          associations).
#   tree   one line per association of `sshare -a -P` (same count, every
#          user named), and --svg parses as XML.
#   why JOBID  run by the Unix user who owns the job (runuser, no
#          privilege; the users of layout-basic.txt, created by cluster.sh
#          for the tests, submit their own jobs): sprio's last job of debug
#          waits behind jobs of accounts that used less: its position (jobs
#          ahead of how many) is the one sprio's rows give, and the term
#          it names first in the next job's favour is sprio's; a job held by
#          account a's GrpTRESMins=cpu=1 (a's users used about 90 CPU-s in
#          run-jobs.sh): the limit, the usage (sshare's RawUsage / 60) and
#          the lift time ln(60 / RawUsage) / ln(1 - 0.693 / half-life),
#          within 0.5% of the half-life's own H log2(RawUsage / 60); a job
#          waiting on a dependency; then under PrivateData=jobs,usage
#          (scontrol reconfigure): what it could not see, no position and
#          no other user's job, and another user's job is refused; a QOS
#          whyhi of a higher Priority that u3's association allows: the
#          answer for u3's job under normal names it, its term (by hand)
#          and the jobs still ahead (sprio's rows); and partition big,
#          where nothing is pending, with its PriorityJobFactor's term.
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance of MFPRIO_CLUSTER_INSTANCE (instance.sh).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-why

# the users run a copy of their own: MFPRIO may be in a build tree under a
# private home directory (bookworm's /root is 0700) that they cannot enter
chmod 711 "$out"
mkdir -p "$out/bin" && install -m 755 "$MFPRIO" "$out/bin/mfprio" ||
	{ bad "a copy of $MFPRIO the users can run"; finish; }
umf=$out/bin/mfprio

start_live
"$here/run-jobs.sh" 2>"$out/run-jobs.log" ||
	{ tail "$out/run-jobs.log"; bad "run-jobs.sh"; finish; }

scontrol update nodename="$NODE" state=drain reason=test-why
for spec in u1:b u2:c u3:c u4:e u5:f u7:z; do
	IFS=: read -r u a <<<"$spec"
	id=$(cd /tmp && runuser -u "$u" -- sbatch --parsable -A "$a" \
		-p debug --qos=normal -n 1 -D /tmp -o /dev/null -J why \
		--wrap 'sleep 30') || { bad "sbatch as $u"; finish; }
	ids+=("${id%%;*}")
done
# a priority calculation after the submissions (PriorityCalcPeriod: the
# next one after the last that ran, which may have run among them)
wait_calc "$(last_ran)" || { bad "no priority calculation in 150 s"; finish; }
"$MFPRIO" snapshot "$out/snap" 2>"$out/snapshot.err" ||
	{ cat "$out/snapshot.err"; bad "mfprio snapshot"; finish; }
sprio -p debug -o '%i|%Y|%A|%F|%J|%P|%Q' -h >"$out/live.sprio"
sshare -a -P -n -o Account,User >"$out/live.sshare"

# ---- why: sprio's first and last job of debug
sort -t'|' -k2,2nr -k1,1n "$out/live.sprio" >"$out/sorted"
first=$(head -n1 "$out/sorted" | cut -d'|' -f1 | tr -d ' ')
last=$(tail -n1 "$out/sorted" | cut -d'|' -f1 | tr -d ' ')
# the column with the largest difference in the first job's favour
want=$(awk -F'|' 'NR == 1 { for (i = 3; i <= 7; i++) f[i] = $i }
	END { split("x x age fairshare jobsize partition qos", n, " ");
	      best = 0; for (i = 3; i <= 7; i++) if (f[i] - $i > best) {
	      best = f[i] - $i; name = n[i] } print name }' "$out/sorted")
say "sprio: job $first first, job $last last; largest term: $want"
"$MFPRIO" why "$last" "$first" --snapshot "$out/snap" >"$out/why.out" 2>"$out/why.err"
rc=$?
if [[ $rc == 0 ]] && grep -q "^Job $first runs before job $last in partition debug" "$out/why.out"; then
	ok "why: job $first before job $last, as sprio"
else
	cat "$out/why.out" "$out/why.err"; bad "why: the order"
fi
if [[ -n $want ]] && grep -q "^The deciding factor is $want:" "$out/why.out"; then
	ok "why: deciding factor $want"
else
	cat "$out/why.out"; bad "why: deciding factor, wanted '$want'"
fi

# ---- check
"$MFPRIO" check --snapshot "$out/snap" >"$out/check.out" 2>"$out/check.err"
rc=$?
if [[ $rc == 3 ]] && grep -q "^constant: .* QOS factor" "$out/check.out" &&
	grep -q "^constant: .* job size factor" "$out/check.out" &&
	! grep -q "^overflow:\|^fs-weight:" "$out/check.out"; then
	ok "check: QOS and job size constant, exit 3"
else
	echo "exit $rc"; cat "$out/check.out" "$out/check.err"; bad "check"
fi

# ---- tree
"$MFPRIO" tree --snapshot "$out/snap" >"$out/tree.out" 2>"$out/tree.err"
rc=$?
n_live=$(wc -l <"$out/live.sshare")
n_tree=$(($(wc -l <"$out/tree.out") - 2))
missing=$(cut -d'|' -f2 "$out/live.sshare" | sort -u | grep . |
	while read -r u; do grep -q "^ *$u " "$out/tree.out" || echo "$u"; done)
if [[ $rc == 0 && $n_live == "$n_tree" && -z $missing ]]; then
	ok "tree: $n_tree associations, as sshare"
else
	echo "exit $rc, sshare $n_live, tree $n_tree, missing: $missing"; bad "tree"
fi
if "$MFPRIO" tree --snapshot "$out/snap" --svg "$out/tree.svg" 2>"$out/svg.err" &&
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$out/tree.svg"; then
	ok "tree --svg parses as XML"
else
	cat "$out/svg.err"; bad "tree --svg"
fi

# ---- why JOBID, as the job's owner: sprio's last job of debug
owner=$(squeue -h -j "$last" -o %u)
runuser -u "$owner" -- "$umf" why "$last" >"$out/wait.out" 2>"$out/wait.err"
rc=$?
sprio -p debug -o '%i|%Y|%A|%F|%J|%P|%Q' -h >"$out/wait.sprio"
tr -s '\n ' '  ' <"$out/wait.out" >"$out/wait.flat"
# ahead: a higher priority, or the same and a lower job id; the next one
# ahead is the lowest of those; its terms minus the job's, largest first
read -r ahead rows term by < <(awk -F'|' -v j="$last" '
	{ id[NR] = $1 + 0; p[NR] = $2 + 0; for (i = 3; i <= 7; i++) f[NR, i] = $i + 0
	  if ($1 + 0 == j) me = NR }
	END { n = 0; nx = 0
	  for (r = 1; r <= NR; r++) if (p[r] > p[me] || (p[r] == p[me] && id[r] < id[me])) {
		n++; if (!nx || p[r] < p[nx] || (p[r] == p[nx] && id[r] > id[nx])) nx = r }
	  split("x x age fairshare jobsize partition qos", name, " "); best = 0; t = "-"
	  for (i = 3; i <= 7; i++) if (nx && f[nx, i] - f[me, i] > best) { best = f[nx, i] - f[me, i]; t = name[i] }
	  print n, NR, t, best }' "$out/wait.sprio")
say "sprio: job $last ($owner) has $ahead of $rows ahead; next's largest term $term +$by"
# one ahead: "is", the job named in the same sentence
if [[ $ahead == 1 ]]; then verb="1 of $rows pending jobs is ahead of it,"; else verb="$ahead of $rows pending jobs are ahead of it."; fi
if [[ $rc == 0 ]] && grep -qF "Partition debug: $verb" "$out/wait.flat"; then
	ok "why JOBID as $owner: $ahead of $rows ahead, as sprio's rows"
else
	cat "$out/wait.out" "$out/wait.err"; bad "why JOBID: the position"
fi
if [[ $term != - ]] && grep -qF "their $term gives $by more" "$out/wait.flat"; then
	ok "why JOBID: the next job's $term gives $by more, as sprio"
else
	bad "why JOBID: wanted 'their $term gives $by more'"
fi

# ---- another QOS: whyhi (Priority 100) beside normal (0), u3's
# association c/u3 allowed both, its job under normal.  QOS terms are
# PriorityWeightQOS (1000) x Priority / the highest (100): whyhi gives
# 1000 x (100 - 0) / 100 = 1000 more; the jobs still ahead are sprio's
# rows of debug above the job's priority + 1000.
sacctmgr -i add qos whyhi Priority=100 >/dev/null &&
	sacctmgr -i modify user where name=u3 account=c cluster="$CLUSTER_NAME" \
		set QOS=normal,whyhi >/dev/null || { bad "sacctmgr: QOS whyhi"; finish; }
qjob=${ids[2]}
runuser -u u3 -- "$umf" why "$qjob" >"$out/qos.out" 2>"$out/qos.err"
runuser -u u3 -- "$umf" why "$qjob" --json >"$out/qos.json" 2>>"$out/qos.err"
sprio -p debug -o '%i|%Y' -h >"$out/qos.sprio"
tr -s '\n ' '  ' <"$out/qos.out" >"$out/qos.flat"
qahead=$(awk -F'|' -v j="$qjob" '{ id[NR] = $1 + 0; p[NR] = $2 + 0; if ($1 + 0 == j) me = NR }
	END { n = 0; for (r = 1; r <= NR; r++) if (r != me && (p[r] > p[me] + 1000 ||
	      (p[r] == p[me] + 1000 && id[r] < id[me]))) n++; print n }' "$out/qos.sprio")
say "job $qjob (u3, QOS normal): under whyhi $qahead ahead by sprio's rows"
if grep -qF "Under QOS whyhi, which your association allows, the QOS term is 1000 more (its Priority 100 against 0 of normal, the highest 100, weight 1000)," "$out/qos.flat" &&
	grep -qE "(still $qahead jobs ahead in debug|, $qahead jobs ahead in debug instead of)" "$out/qos.flat" &&
	python3 -c 'import json, sys; q = json.load(open(sys.argv[1]))["better_qos"]
sys.exit(not (len(q) == 1 and q[0]["qos"] == "whyhi" and q[0]["gain"] == 1000 and q[0]["ahead"] == int(sys.argv[2])))' "$out/qos.json" "$qahead"; then
	ok "why JOBID as u3: QOS whyhi named, +1000, $qahead ahead as sprio's rows"
else
	cat "$out/qos.out" "$out/qos.err" "$out/qos.json"; bad "why JOBID: another QOS"
fi
# another partition: big (PriorityJobFactor 20, the highest; debug's 10,
# PriorityWeightPartition 2000: cluster.sh, priority-default.conf), UP,
# open to all: its term 2000 x 20 / 20 = 2000 for debug's 2000 x 10 / 20
# = 1000, so the job's priority there is debug's + 1000; nothing pending
# in big (sprio -p big): 0 of 0 ahead, fewer than debug's.
qprio=$(awk -F'|' -v j="$qjob" '$1 + 0 == j { print $2 + 0 }' "$out/qos.sprio")
nbig=$(sprio -h -p big -o %i | grep -c .)
if [[ $nbig == 1 ]]; then njobs="job"; else njobs="jobs"; fi
if grep -qF "In partition big, which you may use, 0 of its $nbig pending $njobs would be ahead" "$out/qos.flat" &&
	python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["better_partitions"]
sys.exit(not (len(p) == 1 and p[0]["partition"] == "big" and p[0]["partition_term"] == 2000 and p[0]["priority"] == float(sys.argv[2]) + 1000))' "$out/qos.json" "$qprio"; then
	ok "why JOBID as u3: partition big, term 2000, priority $qprio + 1000 there, 0 ahead"
else
	echo "priority in debug $qprio, $nbig pending in big"; bad "why JOBID: another partition"
fi

# ---- a GrpTRESMins limit, a dependency
scancel "${ids[@]}"
ids=()
sacctmgr -i modify account where name=a cluster="$CLUSTER_NAME" set GrpTRESMins=cpu=1 >/dev/null ||
	{ bad "sacctmgr GrpTRESMins"; finish; }
scontrol update nodename="$NODE" state=resume
lim=$(cd /tmp && runuser -u u2 -- sbatch --parsable -A c -p debug -n 1 -t 1 \
	-D /tmp -o /dev/null -J lim --wrap 'sleep 5')
dep=$(cd /tmp && runuser -u u4 -- sbatch --parsable -A e -p debug -n 1 -t 1 \
	-D /tmp -o /dev/null -J dep --dependency=afterok:"$lim" --wrap 'sleep 5')
ids+=("$lim" "$dep")
for _ in $(seq 30); do
	[[ $(squeue -h -j "$lim" -o %r) == AssocGrpCPUMinutesLimit ]] && break
	sleep 1
done
runuser -u u2 -- "$umf" why "$lim" --json >"$out/lim.json" 2>"$out/lim.err"
runuser -u u2 -- "$umf" why "$lim" >"$out/lim.out" 2>&1
raw=$(sshare -P -n -A a -o Account,User,RawUsage | awk -F'|' '$1 ~ /^ *a$/ && $2 == "" { print $3 }')
hl=$(scontrol show config | awk '$1 == "PriorityDecayHalfLife" { print $3 }')
say "job $lim: $(squeue -h -j "$lim" -o %r); account a RawUsage $raw; half-life $hl"
# 7-00:00:00 is 604800 s; Slurm decays by D = 1 - 0.693 / 604800 a second
if python3 - "$out/lim.json" "$raw" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1])); raw = float(sys.argv[2]); H = 604800
lim = j["limit"]
want = math.log(60 / raw) / math.log(1 - 0.693 / H)
half = H * math.log2(raw / 60)
print("limit", lim["limit"], "used", lim["used"], "lift", lim["lift_seconds"],
      "hand", round(want), "half-life", round(half))
sys.exit(not (j["reason"] == "AssocGrpCPUMinutesLimit" and lim["account"] == "a"
	      and lim["limit"] == 1 and abs(lim["used"] - raw / 60) < 1e-9
	      and abs(lim["lift_seconds"] - want) < 1
	      and abs(lim["lift_seconds"] - half) < 0.005 * half))
PY
then
	ok "why JOBID: GrpTRESMins limit, usage and lift time by hand"
else
	cat "$out/lim.json" "$out/lim.err"; bad "why JOBID: the GrpTRESMins limit"
fi
runuser -u u4 -- "$umf" why "$dep" >"$out/dep.out" 2>&1
if grep -qF "Dependency=afterok:$lim(unfulfilled)" "$out/dep.out"; then
	ok "why JOBID: the dependency on job $lim"
else
	cat "$out/dep.out"; bad "why JOBID: the dependency"
fi

# ---- PrivateData=jobs,usage
echo "PrivateData=jobs,usage" >>"$DIR/etc/priority.conf"
scontrol reconfigure
runuser -u u2 -- "$umf" why "$lim" >"$out/private.out" 2>&1
tr -s '\n ' '  ' <"$out/private.out" >"$out/private.flat"
if grep -qF "What it could not see (PrivateData=jobs,usage):" "$out/private.flat" &&
	grep -qF "its position is unknown" "$out/private.flat" &&
	! grep -qE "pending jobs (is|are) ahead|first of|only pending job|\(job [0-9]+\)" "$out/private.flat"; then
	ok "why JOBID under PrivateData: says what was hidden, no position"
else
	cat "$out/private.out"; bad "why JOBID under PrivateData"
fi
if runuser -u u2 -- "$umf" why "$dep" >"$out/other.out" 2>&1; then
	cat "$out/other.out"; bad "why JOBID: another user's job under PrivateData"
elif grep -qF "not yours" "$out/other.out"; then
	ok "why JOBID: another user's job refused under PrivateData"
else
	cat "$out/other.out"; bad "why JOBID: another user's job, the message"
fi
finish
