#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Association dumps of a database serving several clusters
# (sacctmgr format=Cluster,Account,User[,Partition],ParentName,Fairshare):
# the cluster named by the conf's ClusterName or --cluster is read, the
# others left; one of several with no name is refused, naming them.
# Expectations: the same figures as the one-cluster fixtures
# (tests/data/fairshare/opts: hand-computed in fairshare-opts.sh;
# tests/data/priority/small/expected.txt, hand-computed).
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
F="$TOP_SRCDIR/tests/data/fairshare"
C="$F/clusters"
S="$TOP_SRCDIR/tests/data/priority/small"
L="$TOP_SRCDIR/tests/data/snapshot/live-22.05"
J="$TOP_SRCDIR/tests/data/jobs-json/live-22.05"
ref=$T/ref

"$MFPRIO" fairshare --assoc "$F/opts/assoc.txt" --usage "$F/opts/usage.txt" >"$ref" 2>&1

"$MFPRIO" fairshare --assoc "$C/assoc.txt" --usage "$F/opts/usage.txt" \
	--conf "$C/demo.conf" >"$out" 2>"$err"
if cmp -s "$out" "$ref" && [ ! -s "$err" ]
then ok "the conf's ClusterName picks its rows"; else bad "the conf's ClusterName picks its rows"; fi

"$MFPRIO" fairshare --assoc "$C/assoc.txt" --cluster other >"$out" 2>"$err"
if grep -q '^ C||1|0.166667|' "$out" && grep -q '^ A||5|0.833333|' "$out" &&
   ! grep -q '|y|' "$out"
then ok "--cluster other: its tree (A 5 shares, C 1: 5/6, 1/6)"
else bad "--cluster other: its tree (A 5 shares, C 1: 5/6, 1/6)"; fi

"$MFPRIO" fairshare --assoc "$C/assoc.txt" >"$out" 2>"$err"; rc=$?
if [ "$rc" -eq 1 ] && grep -qF "assoc.txt: associations of 2 clusters (demo, other): name one" "$err"
then ok "two clusters, none named: refused, naming both"
else echo "# rc=$rc"; bad "two clusters, none named: refused, naming both"; fi

"$MFPRIO" fairshare --assoc "$C/assoc.txt" --cluster nope >"$out" 2>"$err"; rc=$?
if [ "$rc" -eq 1 ] && grep -qF "no association of cluster 'nope'" "$err"
then ok "a cluster the dump lacks: named"; else echo "# rc=$rc"; bad "a cluster the dump lacks: named"; fi

# per-partition rows (as a live 22.05 keeps them: tests/cluster/
# test-part-assoc.sh): each is a leaf of its own.  A holds x (1 share) and
# x on p1 (3), B holds y on p2 (1) and z (1).  The usage dump has no
# Partition column, so A|x|100 goes to x's first association in sshare's
# order (the dump's): x without partition.  Classic, by hand (root 150;
# a child of root has EffectvUsage = NormUsage; below, UE = n + (UE_parent
# - n) * raw / siblings' raw; F = 2^(-UE/S)):
#   A  S .5   n 100/150 = .666667  UE .666667  F 2^(-4/3) = .396850
#   x  S .125 n .666667  UE .666667            F 2^(-16/3) = .024803
#   x/p1 S .375 n 0  UE .666667*3/4 = .5       F 2^(-4/3) = .396850
#   B  S .5   n .333333  UE .333333            F 2^(-2/3) = .629961
#   y/p2 S .25 n 0   UE .333333/2 = .166667    F 2^(-2/3) = .629961
#   z  S .25  n .333333  UE .333333            F 2^(-4/3) = .396850
"$MFPRIO" fairshare --assoc "$C/assoc-part.txt" --usage "$F/opts/usage.txt" \
	--flags NO_FAIR_TREE -m >"$out" 2>"$err"
cat >"$ref" <<'EOF'
Account|User|Partition|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare
root||||1.000000|150||1.000000|0.500000
 A|||1|0.500000|100|0.666667|0.666667|0.396850
  A|x||1|0.125000|100|0.666667|0.666667|0.024803
  A|x|p1|3|0.375000|0|0.000000|0.500000|0.396850
 B|||1|0.500000|50|0.333333|0.333333|0.629961
  B|y|p2|1|0.250000|0|0.000000|0.166667|0.629961
  B|z||1|0.250000|50|0.333333|0.333333|0.396850
EOF
if [ "$(cut -d'|' -f1-9 "$out")" = "$(cat "$ref")" ] && [ ! -s "$err" ]
then ok "per-partition rows: a leaf each, -m prints the Partition"; else bad "per-partition rows: a leaf each, -m prints the Partition"; fi

# the same usage with a Partition column names each association
printf 'A|x||10\nA|x|p1|90\nB|y|p2|50\nB|z||0\n' >"$ref"
"$MFPRIO" fairshare --assoc "$C/assoc-part.txt" --usage "$ref" --flags NO_FAIR_TREE -m \
	>"$out" 2>"$err"
if grep -q '^  A|x||1|0.125000|10|' "$out" && grep -q '^  A|x|p1|3|0.375000|90|' "$out" &&
   grep -q '^  B|y|p2|1|0.250000|50|' "$out" && grep -q '^  B|z||1|0.250000|0|' "$out" &&
   [ ! -s "$err" ]
then ok "usage with a Partition column: each row its association"; else bad "usage with a Partition column: each row its association"; fi

# usage of a partition association the dump lacks: warned, naming it
printf 'A|x|p9|10\n' >"$ref"
"$MFPRIO" fairshare --assoc "$C/assoc-part.txt" --usage "$ref" >"$out" 2>"$err"
if grep -qF "user 'x' in account 'A' on partition 'p9' is not in the association file" "$err"
then ok "usage of an unknown partition association: named"; else bad "usage of an unknown partition association: named"; fi

# a second row of one association: refused, naming file and line
printf 'demo|root||||1\ndemo|A|||root|1\ndemo|A|x|p1||3\ndemo|A|x|p1||2\n' >"$ref"
"$MFPRIO" fairshare --assoc "$ref" >"$out" 2>"$err"; rc=$?
if [ "$rc" -eq 1 ] && grep -qF ":4: duplicate association of user 'x' in account 'A' on partition 'p1'" "$err"
then ok "a duplicate per-partition association: refused, naming file and line"; else echo "# rc=$rc"; bad "a duplicate per-partition association: refused, naming file and line"; fi

# mfprio tree names a per-partition association by its partition too
"$MFPRIO" tree --assoc "$C/assoc-part.txt" --color never >"$out" 2>"$err"
if grep -q '^    x \[p1\]  ' "$out" && grep -q '^    y \[p2\]  ' "$out" &&
   grep -q '^    x  ' "$out"
then ok "tree: 'x [p1]' beside 'x'"; else bad "tree: 'x [p1]' beside 'x'"; fi

# mfprio priority picks a job's association as slurmctld does: the user's
# on the job's partition, else the one without partition (the factors of
# the classic tree above): x's job on p1 -> x/p1 .396850, x's on p2 -> x
# .024803, y's on p2 -> y/p2 .629961; y has none without partition, so
# y's job on p1 has no association (fair-share 0, warned).  With
# PriorityWeightFairshare=1000000 the FAIRSHARE column is 1e6 x the factor.
printf '%s\n' ClusterName=demo PriorityType=priority/multifactor \
	AccountingStorageType=accounting_storage/slurmdbd \
	PriorityFlags=NO_FAIR_TREE PriorityWeightFairshare=1000000 \
	'NodeName=n[1-2] CPUs=4 RealMemory=8000' \
	'PartitionName=p1 Nodes=n1 Default=YES' 'PartitionName=p2 Nodes=n2' \
	>"$T/part.conf"
for j in 1:x:A:p1 2:x:A:p2 3:y:B:p2 4:y:B:p1; do
	IFS=: read -r id u a p <<EOF2
$j
EOF2
	head -n 1 "$S/jobs.txt" | sed -e "s/^JobId=101 /JobId=$id /" \
		-e "s/ UserId=alice(1001) / UserId=$u(200$id) /" \
		-e "s/ Account=a / Account=$a /" -e "s/ Partition=short / Partition=$p /"
done >"$T/part-jobs"
"$MFPRIO" priority --conf "$T/part.conf" --jobs "$T/part-jobs" --qos "$S/qos.txt" \
	--assoc "$C/assoc-part.txt" --usage "$F/opts/usage.txt" --now 1700000000 \
	-P -n >"$out" 2>"$err"
# JOBID|PARTITION|USER|PRIORITY|SITE|AGE|ASSOC|FAIRSHARE|...
if [ "$(cut -d'|' -f1-3,8 "$out")" = "1|p1|x|396850
2|p2|x|24803
3|p2|y|629961
4|p1|y|0" ] && grep -qF "job 4: no association for user y in account B" "$err"
then ok "priority: the association of the job's partition, else the user's own"
else bad "priority: the association of the job's partition, else the user's own"; fi

# a user twice in a dump without Partition column: the error says why
printf 'root|||1\nA||root|1\nA|x||1\nA|x||3\n' >"$ref"
"$MFPRIO" fairshare --assoc "$ref" >"$out" 2>"$err"; rc=$?
if [ "$rc" -eq 1 ] && grep -qF ":4: duplicate association of user 'x' in account 'A' (associations per partition? dump them with format=Cluster,Account,User,Partition,ParentName,Fairshare)" "$err"
then ok "a user twice without Partition column: refused, pointing at the Partition column"; else echo "# rc=$rc"; bad "a user twice without Partition column: refused, pointing at the Partition column"; fi

# priority reads the conf's ClusterName (demo) from a several-cluster dump
"$MFPRIO" priority --conf "$S/slurm.conf" --jobs "$S/jobs.txt" --qos "$S/qos.txt" \
	--assoc "$C/../../priority/clusters/assoc.txt" --usage "$S/usage.txt" \
	--now 1700000000 >"$out" 2>"$err"
if cmp -s "$out" "$S/expected.txt"
then ok "priority: the conf's cluster from a several-cluster dump"
else bad "priority: the conf's cluster from a several-cluster dump"; fi

# ClusterName=Demo (tests/data/conf/spaces.conf): cluster names are kept in
# lower case by slurmctld and sacctmgr, so it names the rows of "demo"
"$MFPRIO" priority --conf "$TOP_SRCDIR/tests/data/conf/spaces.conf" --jobs "$S/jobs.txt" \
	--qos "$S/qos.txt" --assoc "$C/../../priority/clusters/assoc.txt" \
	--usage "$S/usage.txt" --now 1700000000 >"$out" 2>"$err"
if cmp -s "$out" "$S/expected.txt"
then ok "ClusterName matched without regard to case"
else bad "ClusterName matched without regard to case"; fi

X=$T/x
mkdir "$X"
: >"$X/empty"
printf '\n# nothing here\n\n' >"$X/blank"
echo "Account|User|ParentName|Share" >"$X/assoc-header"
{ echo "Account|User|RawUsage"; cat "$S/usage.txt"; } >"$X/usage-header"
A="sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare"
U="sshare -a -P -n -o Account,User,RawUsage"
NOASSOC="no association in it (an empty dump: sacctmgr show assoc lists root's at least)"
CUT="the file ends in the middle of this line: a dump cut short?"
# the issue's case: an empty file was a table of root alone, exit 0
refused "--assoc empty" 1 "mfprio: $X/empty: $NOASSOC" fairshare --assoc "$X/empty" --usage "$S/usage.txt"
refused "--assoc blank lines and comments only" 1 "mfprio: $X/blank: $NOASSOC" fairshare --assoc "$X/blank"
refused "--assoc its header only" 1 "mfprio: $X/assoc-header: $NOASSOC" fairshare --assoc "$X/assoc-header"
refused "priority --assoc empty" 1 "mfprio: $X/empty: $NOASSOC" priority --conf "$S/slurm.conf" \
	--jobs "$S/jobs.txt" --qos "$S/qos.txt" --assoc "$X/empty"
refused "--assoc: the usage dump" 1 "mfprio: $S/usage.txt:1: 3 fields where 4 were expected (\`$A\`)" \
	fairshare --assoc "$S/usage.txt"
refused "--assoc: the usage dump with its header" 1 \
	"mfprio: $X/usage-header:1: the header of sshare's usage dump, not a line of \`$A\`" \
	fairshare --assoc "$X/usage-header"
refused "--assoc: the job dump" 1 "mfprio: $S/jobs.txt:1: a line of \`scontrol -o show job\`, not a line of \`$A\`" \
	fairshare --assoc "$S/jobs.txt"
refused "--assoc: the QOS dump" 1 "mfprio: $S/qos.txt:1: 2 fields where 4 were expected (\`$A\`)" \
	fairshare --assoc "$S/qos.txt"
refused "--assoc: slurm.conf" 1 "mfprio: $S/slurm.conf:2: a slurm.conf line, not a line of \`$A\`" \
	fairshare --assoc "$S/slurm.conf"
refused "--assoc: scontrol show assoc_mgr" 1 \
	"mfprio: $L/assoc-mgr:1: a line of \`scontrol show assoc_mgr\`, not a line of \`$A\`" \
	fairshare --assoc "$L/assoc-mgr"
refused "--assoc: a JSON job dump" 1 "mfprio: $J/jobs.json:1: JSON, not a line of \`$A\`" \
	fairshare --assoc "$J/jobs.json"
# cut in the middle of bob's row (no newline at the end): 3 fields of 4,
# or the Fairshare field empty
printf 'root|||1\na||root|1\na|alice||1\na|bob|' >"$X/assoc-cut"
refused "--assoc cut short: a field missing" 1 \
	"mfprio: $X/assoc-cut:4: 3 fields where 4 were expected (\`$A\`); $CUT" fairshare --assoc "$X/assoc-cut"
printf 'root|||1\na||root|1\na|alice||1\na|bob||' >"$X/assoc-cut"
refused "--assoc cut short: Fairshare empty" 1 \
	"mfprio: $X/assoc-cut:4: Fairshare '' is not a whole number >= 0 or 'parent'; $CUT" fairshare --assoc "$X/assoc-cut"
printf 'demo|root||||1\ndemo|A|||root|1\ndemo|A|x|p1' >"$X/assoc-cut"
refused "--assoc with Cluster and Partition, cut short" 1 \
	"mfprio: $X/assoc-cut:3: 4 fields where 6 were expected (\`sacctmgr -P -n show assoc format=Cluster,Account,User,Partition,ParentName,Fairshare\`); $CUT" \
	fairshare --assoc "$X/assoc-cut"

NOUSAGE="no usage row in it (an empty dump: sshare -a and scontrol show assoc_mgr list root's at least)"
refused "--usage empty" 1 "mfprio: $X/empty: $NOUSAGE" fairshare --assoc "$S/assoc.txt" --usage "$X/empty"
echo "Account|User|RawUsage" >"$X/usage-header-only"
refused "--usage its header only" 1 "mfprio: $X/usage-header-only: $NOUSAGE" fairshare --assoc "$S/assoc.txt" --usage "$X/usage-header-only"
# the association dump has four columns as sshare's with Partition, but
# its account rows name a parent where sshare's name no partition
refused "--usage: the association dump" 1 \
	"mfprio: $S/assoc.txt:2: account 'a' with Partition 'root': sshare prints no partition on an account's row (is this the association dump, Account|User|ParentName|Fairshare?)" \
	fairshare --assoc "$S/assoc.txt" --usage "$S/assoc.txt"
refused "--usage: the QOS dump" 1 "mfprio: $S/qos.txt:1: 2 fields where 3 were expected (\`$U\`)" \
	fairshare --assoc "$S/assoc.txt" --usage "$S/qos.txt"
refused "--usage: the job dump" 1 "mfprio: $S/jobs.txt:1: a line of \`scontrol -o show job\`, not a line of \`$U\`" \
	fairshare --assoc "$S/assoc.txt" --usage "$S/jobs.txt"
refused "--usage: slurm.conf" 1 "mfprio: $S/slurm.conf:2: a slurm.conf line, not a line of \`$U\`" \
	fairshare --assoc "$S/assoc.txt" --usage "$S/slurm.conf"
printf 'a|alice|300\na|bob|' >"$X/usage-cut"
refused "--usage cut short: RawUsage empty" 1 "mfprio: $X/usage-cut:2: RawUsage '' is not a number >= 0; $CUT" \
	fairshare --assoc "$S/assoc.txt" --usage "$X/usage-cut"
printf 'a|alice|300\na|bo' >"$X/usage-cut"
refused "--usage cut short: a field missing" 1 "mfprio: $X/usage-cut:2: 2 fields where 3 were expected (\`$U\`); $CUT" \
	fairshare --assoc "$S/assoc.txt" --usage "$X/usage-cut"
# a whole last line without its newline is read (a file edited by hand)
printf 'a|alice|300\na|bob|100' >"$X/usage-nonl"
"$MFPRIO" fairshare --assoc "$S/assoc.txt" --usage "$S/usage.txt" >"$ref" 2>&1
if "$MFPRIO" fairshare --assoc "$S/assoc.txt" --usage "$X/usage-nonl" >"$out" 2>"$err" &&
   [ ! -s "$err" ] && cmp -s "$out" "$ref"
then ok "a whole last line without newline: read"; else bad "a whole last line without newline: read"; fi

# scontrol show assoc_mgr: its titles and no association record; a user's
# record cut before its UsageRaw; cut in the middle of the UsageRaw line
AM='Current Association Manager state\n\nAssociation Records\n\n'
ROOT='ClusterName=demo Account=root UserName= Partition= Priority=0 ID=1\n    UsageRaw/Norm/Efctv=400.00/1.00/1.00\n'
BOB='ClusterName=demo Account=a UserName=bob(1002) Partition= Priority=0 ID=4\n'
printf %b "$AM" >"$X/am"
refused "assoc_mgr: no association record" 1 \
	"mfprio: $X/am: no association record in it (scontrol show assoc_mgr flags=assoc lists root's at least)" \
	fairshare --assoc "$S/assoc.txt" --usage "$X/am"
printf %b "$AM$ROOT$BOB    SharesRaw/Norm/Level/Factor=1/0." >"$X/am"
refused "assoc_mgr: a record cut short" 1 \
	"mfprio: $X/am:7: no UsageRaw in the record of user 'bob' in account 'a'; the file ends in the middle of this record: a dump cut short?" \
	fairshare --assoc "$S/assoc.txt" --usage "$X/am"
printf %b "$AM$ROOT$BOB    UsageRaw/Norm/Efctv=" >"$X/am"
refused "assoc_mgr: a line cut short" 1 "mfprio: $X/am:8: UsageRaw in '' is not a number >= 0; $CUT" \
	fairshare --assoc "$S/assoc.txt" --usage "$X/am"

finish
