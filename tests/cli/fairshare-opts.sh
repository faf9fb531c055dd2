#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio fairshare` with the options people type to sshare (-a, -l, -P,
# -n, -A, -u, -m) and the what-ifs --set and --damp, on
# tests/data/fairshare/opts: root > A (1 share) > x, B (1 share) > y, z;
# usage x 100, y 0, z 50.  Classic fair-share, by hand:
#   x: NormShares 0.5, EffectvUsage 100/150 = 2/3: F = 2^(-(2/3)/0.5/damp)
#      damp 1: 2^(-4/3) = 0.396850; damp 2: 2^(-2/3) = 0.629961
#   y: NormShares 0.25, EffectvUsage 0 + (1/3 - 0) * 1/2 = 1/6:
#      damp 1: 2^(-2/3) = 0.629961; damp 2: 2^(-1/3) = 0.793701
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/fairshare/opts"
out2=$T/out2

IN=(--assoc "$D/assoc.txt" --usage "$D/usage.txt")
fs() {
	"$MFPRIO" fairshare "${IN[@]}" "$@" >"$out" 2>"$err"
}
# matches NAME PATTERN: a line of stdout matches the basic regex
matches() { if grep -q -- "$2" "$out"; then ok "$1"; else echo "# wanted: $2"; bad "$1"; fi; }
matches_not() { if grep -q -- "$2" "$out"; then echo "# unwanted: $2"; bad "$1"; else ok "$1"; fi; }

fs --flags NO_FAIR_TREE
matches "classic, damp 1: x" '^  A|x|1|0.500000|100|.*|0.396850|'
matches "classic, damp 1: y" '^  B|y|1|0.250000|0|.*|0.629961|'

fs --set PriorityFlags=NO_FAIR_TREE --set FairShareDampeningFactor=2
matches "--set FairShareDampeningFactor=2: x" '^  A|x|.*|0.629961|'
matches "--set FairShareDampeningFactor=2: y" '^  B|y|.*|0.793701|'
if [ -s "$err" ]; then bad "--set under classic: no warning"
else ok "--set under classic: no warning"; fi

fs --flags NO_FAIR_TREE --damp 2 -a -l -P
cp "$out" "$out2"
fs --set PriorityFlags=NO_FAIR_TREE --set FairShareDampeningFactor=2
if [ -s "$out" ] && cmp -s "$out" "$out2" && grep -q '^  B|y|.*|0.793701|' "$out"
then ok "--damp and --flags are --set's keys; -a -l -P taken"
else bad "--damp and --flags are --set's keys; -a -l -P taken"; fi

fs -n -A B
if [ "$(wc -l <"$out")" -eq 3 ] && grep -q '^ B||1|' "$out" &&
   grep -q '^  B|y|' "$out" && grep -q '^  B|z|' "$out"
then ok "-A B: B's row and its users' rows"; else bad "-A B: B's row and its users' rows"; fi

fs -u y,z
matches "-u y,z: y's row" '^  B|y|'
matches "-u y,z: the account rows" '^ A||'
matches_not "-u y,z: not x's row" '|x|'

fs -m
matches "-m: a Partition column in the header" '^Account|User|Partition|RawShares|NormShares|'
matches "-m: empty Partition in a user's row" '^  B|y||1|0.500000|0|'

fs --damp 3
if grep -qF "FairShareDampeningFactor 3 has no effect: Fair Tree has no dampening" "$err"
then ok "--damp under Fair Tree warns"; else bad "--damp under Fair Tree warns"; fi
fs --damp 3 --flags NO_FAIR_TREE
if [ -s "$err" ]; then bad "--damp under classic: no warning"
else ok "--damp under classic: no warning"; fi

fs --set Foo=1; rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "--set 'Foo=1': only the Priority* keys" "$err"
then ok "--set of a key that is not a priority key: refused"
else echo "# rc=$rc"; bad "--set of a key that is not a priority key: refused"; fi
fs --set PriorityFlags; rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "not KEY=VALUE" "$err"
then ok "--set without '=': refused"; else echo "# rc=$rc"; bad "--set without '=': refused"; fi

# mfprio tree takes the what-ifs and --cluster as fairshare does: the same
# classic factors under --damp 2, and one cluster of a several-cluster dump
mf tree "${IN[@]}" --flags NO_FAIR_TREE --damp 2 --color never
has "tree --flags NO_FAIR_TREE --damp 2: x's and y's factors" 0 \
	"0.666667  0.629961" "0.166667  0.793701"
mf tree "${IN[@]}" --set PriorityFlags=NO_FAIR_TREE \
	--set FairShareDampeningFactor=2 --color never
has "tree --set: the same" 0 "0.666667  0.629961" "0.166667  0.793701"
mf tree --assoc "$TOP_SRCDIR/tests/data/fairshare/clusters/assoc.txt" \
	--cluster other --color never
has "tree --cluster other: other's shares (A 5 of 6)" 0 "83.3%"

finish
