#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio fairshare` as an admin runs it: the example snapshot under each
# algorithm, and every kind of bad input giving FILE:LINE and exit 1.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/fairshare"
EX="$TOP_SRCDIR/examples/snapshot"


# expect_row NAME ROW ARGS...: the exact sshare row appears in the output
# of the columns FS9 (lib.sh)
expect_row() {
	name=$1 row=$2; shift 2
	expect_out "$name" "$row" -o "$FS9" "$@"
}

# expect_out NAME LINE ARGS...: the exact line appears in the output
expect_out() {
	name=$1 row=$2; shift 2
	if "$MFPRIO" fairshare "$@" >"$out" 2>"$err" && grep -qxF -- "$row" "$out"
	then ok "$name"; else echo "# wanted line: $row"; cat "$out" "$err" | sed 's/^/#   /'; bad "$name"; fi
}

# The example is the spec's Figure 3 (see examples/snapshot): alice is
# user 1, bob user 2, carol user 3, dave user 4, erin user 5.
H="Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS"
expect_row "header of -o" "$H" --assoc "$EX/assoc.txt" --usage "$EX/usage.txt"
# classic: user 1 F = 2^(-.3875/.3) = 0.408479
expect_row "classic user1" "   theory|alice|1|0.300000|200|0.200000|0.387500|0.408479|0.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --flags NO_FAIR_TREE
# classic user 2: 2^(-.275/.05) = 0.022097
expect_row "classic user2" "   lab|bob|1|0.050000|250|0.250000|0.275000|0.022097|0.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --conf "$EX/slurm.conf"
# classic FairShare=parent user takes inorganic's values: UE .145833,
# S .35, F .749154, LevelFS empty
expect_row "classic parent user" "   inorganic|frank|parent|0.350000|0|0.000000|0.145833|0.749154|" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --flags NO_FAIR_TREE
# root row: no RawShares, NormUsage empty, UE 1 (Slurm sets it), F 2^-1
expect_row "classic root" "root|||1.000000|1000||1.000000|0.500000|0.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --flags NO_FAIR_TREE
# damp 2: user 2 2^(-5.5/2) = 0.148651
expect_row "damp 2" "   lab|bob|1|0.050000|250|0.250000|0.275000|0.148651|0.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --flags NO_FAIR_TREE --damp 2
# depth-oblivious user 2: R = 5, F = 2^-5 = 0.031250
expect_row "depth oblivious user2" "   lab|bob|1|0.050000|250|0.250000|0.250000|0.031250|0.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --flags DEPTH_OBLIVIOUS
# Fair Tree: 7 users (root, alice, bob, carol, dave, erin, frank).
# root's children: chem (.6/.25 = 2.4), physics (.4/.45 = .888889), user
# root (0 shares: 0): chem first.  chem: inorganic (35/60 / 0 = inf)
# before organic; erin (inf) rank 7, frank (parent, inf, tied) 7 -> 1.0;
# dave (organic, untied) rank 5 -> 5/7 = 0.714286
expect_row "fair tree parent user" "   inorganic|frank|parent|0.583333|0|0.000000|0.000000|1.000000|" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt"
expect_row "fair tree account" " chem||60|0.600000|250|0.250000|0.250000||2.400000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt"
expect_row "fair tree dave" "   organic|dave|1|1.000000|250|0.250000|1.000000|0.714286|1.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt"
# root's row under Fair Tree: NormShares 0, no FairShare, no LevelFS
expect_row "fair tree root" "root|||0.000000|1000||1.000000||" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt"

# sshare -a -l -P's own columns, as every release's src/sshare/process.c
# lists them for -l (22.05 to 26.11 alike): Fair Tree adds LevelFS, the
# others (NO_FAIR_TREE, DEPTH_OBLIVIOUS) have none; GrpTRESMins and
# TRESRunMins last; -m puts Partition after User
FT="Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins"
CL="Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins"
CLM="Account|User|Partition|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins"
A=(--assoc "$EX/assoc.txt" --usage "$EX/usage.txt")
for rel in 22.05 23.02 23.11 24.05 24.11 25.05 25.11 26.05 26.11; do
	expect_out "header $rel fair tree" "$FT" "${A[@]}" --release "$rel"
	expect_out "header $rel classic" "$CL" "${A[@]}" --release "$rel" --flags NO_FAIR_TREE
	expect_out "header $rel depth oblivious" "$CL" "${A[@]}" --release "$rel" --flags DEPTH_OBLIVIOUS
done
expect_out "header classic -m" "$CLM" "${A[@]}" --flags NO_FAIR_TREE -m
# the cells: chem under classic before 25.11 has 2^(-.25/.6) = 0.749154
# as FairShare (sshare computes the classic factor for an account row);
# from 25.11 the cell is empty; no LevelFS; the TRES cells empty without
# an assoc_mgr dump
expect_out "classic 25.05: account FairShare" " chem||60|0.600000|250|0.250000|0.250000|0.749154||" \
	"${A[@]}" --release 25.05 --flags NO_FAIR_TREE
expect_out "classic 25.11: account FairShare empty" " chem||60|0.600000|250|0.250000|0.250000|||" \
	"${A[@]}" --release 25.11 --flags NO_FAIR_TREE
# root too (before: 2^(-1/1) = 0.5)
expect_out "depth oblivious 26.05: root FairShare empty" "root|||1.000000|1000||1.000000|||" \
	"${A[@]}" --release 26.05 --flags DEPTH_OBLIVIOUS
# a user's is kept: alice 2^(-.3875/.3) = 0.408479
expect_out "classic 26.11: user FairShare" "   theory|alice|1|0.300000|200|0.200000|0.387500|0.408479||" \
	"${A[@]}" --release 26.11 --flags NO_FAIR_TREE
# Fair Tree: accounts empty in every release, chem's LevelFS .6/.25
expect_out "fair tree 25.11: account" " chem||60|0.600000|250|0.250000|0.250000||2.400000||" \
	"${A[@]}" --release 25.11
# -o picks and orders columns, any case, a name's start when only one
# column starts so
expect_out "-o" "Partition|User|FairShare|LevelFS" "${A[@]}" -o p,USER,fairshare,Lev
expect_out "-o rows" "|alice|0.408479|0.000000" "${A[@]}" -o p,USER,fairshare,Lev --flags NO_FAIR_TREE
for o in Raw ID ,, ''; do
	"$MFPRIO" fairshare "${A[@]}" -o "$o" >"$out" 2>"$err"; rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "-o:" "$err"; then ok "-o '$o' refused"
	else echo "# rc=$rc"; cat "$err"; bad "-o '$o' refused"; fi
done
# GrpTRESMins and TRESRunMins from an assoc_mgr dump (a snapshot's): bob's
# record given a cpu limit of 600 minutes (12 used) and 30 cpu-minutes
# held by running jobs; sshare prints the limits set, and every TRES's
# running minutes
T2=$(mktemp -d)
cp -r "$TOP_SRCDIR/tests/data/snapshot/example/." "$T2/"
awk '/UserName=bob/ { b = 1 } /^ClusterName/ && !/UserName=bob/ { b = 0 }
	b && /GrpTRESMins=/ { sub(/cpu=N\(0\)/, "cpu=600(12)") }
	b && /GrpTRESRunMins=/ { sub(/cpu=N\(0\)/, "cpu=N(30)") } { print }' \
	"$TOP_SRCDIR/tests/data/snapshot/example/assoc-mgr" >"$T2/assoc-mgr"
expect_out "TRES cells of an assoc_mgr dump" \
	"   lab|bob|cpu=600|cpu=30,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0" \
	--snapshot "$T2" -o Account,User,GrpTRESMins,TRESRunMins
expect_out "TRES cells of a record without limit" \
	"   lab|carol||cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0" \
	--snapshot "$T2" -o Account,User,GrpTRESMins,TRESRunMins
rm -rf "$T2"

# bad input: file and line named, exit 1
expect_fail "duplicate user" 1 "dup-user.txt:4: duplicate association of user 'u'" fairshare --assoc "$D/dup-user.txt"
expect_fail "duplicate account" 1 "dup-acct.txt:3: duplicate account 'A'" fairshare --assoc "$D/dup-acct.txt"
expect_fail "unknown parent" 1 "unknown-parent.txt:2: account 'A' has parent 'nosuch'" fairshare --assoc "$D/unknown-parent.txt"
expect_fail "cycle" 1 "cycle.txt:" fairshare --assoc "$D/cycle.txt"
expect_fail "negative shares" 1 "negative-shares.txt:2: Fairshare '-3'" fairshare --assoc "$D/negative-shares.txt"
expect_fail "text shares" 1 "text-shares.txt:2: Fairshare 'lots'" fairshare --assoc "$D/text-shares.txt"
expect_fail "short line" 1 "short-line.txt:2: 3 fields where 4" fairshare --assoc "$D/short-line.txt"
expect_fail "negative usage" 1 "negative-usage.txt:2: RawUsage '-1'" fairshare --assoc "$D/ok-assoc.txt" --usage "$D/negative-usage.txt"
expect_fail "text usage" 1 "text-usage.txt:1: RawUsage 'abc'" fairshare --assoc "$D/ok-assoc.txt" --usage "$D/text-usage.txt"
# dumps taken apart: a usage row for a user the assoc dump lacks is a
# warning naming it, and the rest is computed (u's usage stays 0)
if "$MFPRIO" fairshare --assoc "$D/ok-assoc.txt" --usage "$D/unknown-user.txt" >"$out" 2>"$err" &&
   grep -qF "unknown-user.txt:1: user 'ghost' in account 'A' is not in the association file" "$err" &&
   grep -q '^ *A|u|1|1.000000|0|' "$out"
then ok "unknown user: a warning, and results"; else bad "unknown user: a warning, and results"; fi
expect_fail "NUL byte" 1 "nul-usage.txt:1: a NUL byte" fairshare --assoc "$D/ok-assoc.txt" --usage "$D/nul-usage.txt"
expect_fail "missing file" 1 "no-such-file" fairshare --assoc "$D/no-such-file"
expect_fail "malformed conf" 1 "malformed.conf:1:" fairshare --assoc "$D/ok-assoc.txt" --conf "$D/malformed.conf"

# bad conf values: warned with file:line, defaults used, exit 0
if "$MFPRIO" fairshare -o "$FS9" --assoc "$D/ok-assoc.txt" --conf "$D/bad-values.conf" >"$out" 2>"$err" &&
   grep -qF "bad-values.conf:1: PriorityFlags=NO_FAIR_TREE,BOGUS: unknown PriorityFlags flag 'BOGUS'; the other flags are used" "$err" &&
   grep -qF "bad-values.conf:2: FairShareDampeningFactor=zero: 'zero' is not a number; using 1" "$err" &&
   grep -qxF "  A|u|1|1.000000|0|0.000000|0.000000|1.000000|0.000000" "$out"
then ok "bad conf values warn and keep going"; else bad "bad conf values warn and keep going"; fi

# usage errors: exit 2
"$MFPRIO" fairshare >"$out" 2>"$err"; [ $? -eq 2 ] && ok "no --assoc" || bad "no --assoc"
"$MFPRIO" fairshare --assoc "$D/ok-assoc.txt" --flags NOPE >"$out" 2>"$err"; [ $? -eq 2 ] && ok "bad --flags" || bad "bad --flags"
"$MFPRIO" fairshare --assoc "$D/ok-assoc.txt" --damp 0 >"$out" 2>"$err"; [ $? -eq 2 ] && ok "bad --damp" || bad "bad --damp"
"$MFPRIO" fairshare --help >"$out" 2>"$err" && grep -q -- "--assoc FILE" "$out" && ok "--help" || bad "--help"
"$MFPRIO" fairshare --assoc "$D/ok-assoc.txt" --release latest >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "mfprio: --release: 'latest' is not a Slurm release" "$err" &&
	ok "bad --release" || bad "bad --release"
"$MFPRIO" fairshare --assoc "$D/ok-assoc.txt" --release 21.08 >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "Slurm release '21.08' is not one mfprio knows" "$err" &&
	ok "unknown --release" || bad "unknown --release"
# no fair-share figure differs between releases: classic user 1 as above
expect_row "--release 26.05.3: the same figures" "   theory|alice|1|0.300000|200|0.200000|0.387500|0.408479|0.000000" \
	--assoc "$EX/assoc.txt" --usage "$EX/usage.txt" --flags NO_FAIR_TREE --release 26.05.3

finish
