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

finish
