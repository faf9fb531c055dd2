#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Association dumps of a database serving several clusters
# (sacctmgr format=Cluster,Account,User[,Partition],ParentName,Fairshare):
# the cluster named by the conf's ClusterName or --cluster is read, the
# others left; one of several with no name is refused, naming them.
# Expectations: the same figures as the one-cluster fixtures
# (tests/data/fairshare/opts: hand-computed in fairshare-opts.sh;
# tests/data/priority/small/expected.txt, hand-computed).
set -u
: "${MFPRIO:?set MFPRIO to the mfprio binary}"
: "${TOP_SRCDIR:?set TOP_SRCDIR}"
F="$TOP_SRCDIR/tests/data/fairshare"
C="$F/clusters"
S="$TOP_SRCDIR/tests/data/priority/small"
TZ=UTC
export TZ
pass=0 fail=0
out=$(mktemp) err=$(mktemp) ref=$(mktemp)
trap 'rm -f "$out" "$err" "$ref"' EXIT

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; sed 's/^/#   /' "$err" "$out" | head -20; }

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

# per-partition rows: x has one without partition too (the partition row is
# left out), y only one on p2 (taken): the tree is that of opts again
"$MFPRIO" fairshare --assoc "$C/assoc-part.txt" --usage "$F/opts/usage.txt" >"$out" 2>"$err"
if cmp -s "$out" "$ref" &&
   grep -qF "assoc-part.txt:4: the association of user 'x' in account 'A' on partition 'p1' is not modelled apart" "$err" &&
   grep -qF "assoc-part.txt:6: user 'y' in account 'B' has an association on partition 'p2' only" "$err"
then ok "per-partition rows: warned about, read"; else bad "per-partition rows: warned about, read"; fi

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

echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
