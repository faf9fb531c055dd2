#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio snapshot DIR` and `--snapshot DIR`: the snapshot taken through
# stand-in scontrol, sacctmgr and sshare commands (which check the
# arguments they are given), read back by fairshare and priority with
# hand-computed results; the header lines sacctmgr and sshare print
# without -n; `scontrol show assoc_mgr` dumps (both layouts) and every kind
# of bad input giving FILE:LINE.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/snapshot"
EX="$D/example"
S="$TOP_SRCDIR/tests/data/priority/small"
tmp=$T


# expect_line NAME LINE COMMAND ARGS...: the exact line is on stdout
expect_line() {
	name=$1 line=$2; shift 2
	if "$MFPRIO" "$@" >"$out" 2>"$err" && grep -qxF -- "$line" "$out"
	then ok "$name"; else echo "# wanted line: $line"; bad "$name"; fi
}

# --- fairshare --snapshot on tests/data/snapshot/example: the tree of
# examples/snapshot (classic, from the Included file), whose sshare usage
# file (whole numbers, with sshare's header) has alice at 200, and whose
# assoc-mgr has her at 200.40 (root 1000.40), the others as in the usage
# file.  By hand, with assoc-mgr's figures, R = 1000.4:
#   alice: NormUsage 200.4/1000.4 = 0.200320; physics 450.4/1000.4 =
#   0.450220 is its EffectvUsage (a child of root); theory: 0.200320 +
#   (0.450220 - 0.200320) * 30/40 = 0.387745, alice's too (alone, 1 of 1
#   share); F = 2^(-0.387745/0.3) = 0.408248; RawUsage 200 (whole part).
#   bob: 250/1000.4 = 0.249900; lab: 0.249900 + (0.450220 - 0.249900) *
#   10/40 = 0.299980; bob: 0.249900 + (0.299980 - 0.249900) / 2 =
#   0.274940; F = 2^(-0.274940/0.05) = 0.022115.
expect_line "fairshare --snapshot: alice from assoc-mgr" \
	"   theory|alice|1|0.300000|200|0.200320|0.387745|0.408248|0.000000" \
	fairshare -o "$FS9" --snapshot "$EX"
expect_line "fairshare --snapshot: bob from assoc-mgr" \
	"   lab|bob|1|0.050000|250|0.249900|0.274940|0.022115|0.000000" \
	fairshare -o "$FS9" --snapshot "$EX"
# the same with the one-line layout (scontrol -o show assoc_mgr)
expect_line "fairshare: assoc_mgr dump, one line a record" \
	"   theory|alice|1|0.300000|200|0.200320|0.387745|0.408248|0.000000" \
	fairshare -o "$FS9" --snapshot "$EX" --usage "$D/assoc-mgr-oneline"
# --usage overrides: sshare's whole numbers (header line skipped) give
# the example's figures (tests/cli/fairshare.sh): 0.200000, 0.387500,
# 2^(-.3875/.3) = 0.408479
expect_line "fairshare --snapshot --usage: sshare's figures" \
	"   theory|alice|1|0.300000|200|0.200000|0.387500|0.408479|0.000000" \
	fairshare -o "$FS9" --snapshot "$EX" --usage "$EX/usage"
# --conf overrides the snapshot's: an empty one is Fair Tree.  Alice's
# NormShares is 1 of 1 at her level, EffectvUsage her share of theory's
# usage, 1, LevelFS 1/1.  Ranks: root's children chem .6/(250/1000.4) =
# 2.40 before physics .4/.450220 = .888 before the root user (0 shares);
# in chem inorganic (no usage: inf) before organic; in physics theory
# .75/(200.4/450.4) = 1.69 before lab .25/(250/450.4) = .45; in lab carol
# (no usage) before bob.  So erin and frank (tied) 7, dave 5, alice 4,
# carol 3, bob 2, root 1: alice 4/7 = 0.571429.
expect_line "fairshare --snapshot --conf: the given conf" \
	"   theory|alice|1|1.000000|200|0.200320|1.000000|0.571429|1.000000" \
	fairshare -o "$FS9" --snapshot "$EX" --conf /dev/null
expect_fail "fairshare --snapshot --assoc: the given file is read" 1 \
	"$tmp/none.txt" fairshare -o "$FS9" --snapshot "$EX" --assoc "$tmp/none.txt"

# --- header lines (sacctmgr/sshare without -n) are skipped, anywhere
# the dumps are read: the example's assoc and usage files have them
# (above); here each of the example's files with its header added.
EXS="$TOP_SRCDIR/examples/snapshot"
{ echo "Account|User|Par Name|Share|"; cat "$EXS/assoc.txt"; } >"$tmp/assoc-h"
{ echo "Account|User|RawUsage"; cat "$EXS/usage.txt"; } >"$tmp/usage-h"
expect_line "fairshare: assoc and usage with headers" \
	"   lab|bob|1|0.050000|250|0.250000|0.275000|0.022097|0.000000" \
	fairshare -o "$FS9" --assoc "$tmp/assoc-h" --usage "$tmp/usage-h" --flags NO_FAIR_TREE
# a header anywhere else is a bad row, named by its line
{ cat "$EXS/assoc.txt"; echo "Account|User|ParentName|Share"; } >"$tmp/assoc-h2"
expect_fail "fairshare: a header line not first" 1 "$tmp/assoc-h2:15:" \
	fairshare -o "$FS9" --assoc "$tmp/assoc-h2"

# --- priority --snapshot: the small fixture of tests/cli/priority.sh
# (hand-computed there at 1700000000) as a snapshot directory taken at
# that time, each '|' dump with its header; its usage file has alice and
# bob swapped, its assoc-mgr the right figures: the rows are the expected
# ones only if assoc-mgr is read first and --now is the snapshot's time.
mk_small() {   # mk_small DIR
	mkdir -p "$1"
	cp "$S/slurm.conf" "$1/slurm.conf"
	cp "$S/jobs.txt" "$1/jobs"
	{ echo "Name|Priority"; cat "$S/qos.txt"; } >"$1/qos"
	{ echo "Account|User|ParentName|Share"; cat "$S/assoc.txt"; } >"$1/assoc"
	{ echo "Account|User|RawUsage"; echo "a|alice|100"; echo "a|bob|300"; } >"$1/usage"
	cat >"$1/assoc-mgr" <<-EOF
	Current Association Manager state

	Association Records

	ClusterName=demo Account=root UserName= Partition= Priority=0 ID=1
	    SharesRaw/Norm/Level/Factor=1/0.00/1/0.00
	    UsageRaw/Norm/Efctv=400.00/1.00/1.00
	ClusterName=demo Account=a UserName= Partition= Priority=0 ID=2
	    UsageRaw/Norm/Efctv=400.00/1.00/1.00
	ClusterName=demo Account=a UserName=alice(1001) Partition= Priority=0 ID=3
	    UsageRaw/Norm/Efctv=300.00/0.75/0.75
	ClusterName=demo Account=a UserName=bob(1002) Partition= Priority=0 ID=4
	    UsageRaw/Norm/Efctv=100.00/0.25/0.25
	EOF
	echo 1700000000 >"$1/time"
}
mk_small "$tmp/small"
if "$MFPRIO" priority --snapshot "$tmp/small" >"$out" 2>"$err" &&
	cmp -s "$out" "$S/expected.txt"; then ok "priority --snapshot: the hand-computed rows"
else diff "$S/expected.txt" "$out" | sed 's/^/#   /'; bad "priority --snapshot: the hand-computed rows"; fi
# --now overrides the snapshot's time: a day later job 101 (accruing
# since 1699913600) has waited 2 days of 10: age 200; 4423.02 + 100 =
# 4523
expect_line "priority --snapshot --now" \
	"101|short|alice|4523|0|200|0|2973|250|1000|0|0|cpu=100" \
	priority --snapshot "$tmp/small" --now 1700086400 -P
# --usage overrides assoc-mgr: alice 100, bob 300 (swapped): alice's
# NormUsage .25, EffectvUsage .25 + (1 - .25) * 1/2 = .625, F =
# 2^(-.625/.5) = 0.420448 -> 4204.48; 100 + 4204.48 + 250 + 1000 + 100 =
# 5654.48
expect_line "priority --snapshot --usage" \
	"101|short|alice|5654|0|100|0|4204|250|1000|0|0|cpu=100" \
	priority --snapshot "$tmp/small" --usage "$tmp/small/usage" -P
rm "$tmp/small/jobs"
expect_fail "priority --snapshot without jobs" 2 "(the snapshot lacks one)" \
	priority --snapshot "$tmp/small"

# --- a snapshot of a live Slurm 22.05 cluster (tests/data/snapshot/
# live-22.05, taken by tests/cluster/test-snapshot.sh: classic fair-share,
# about 150 CPU-seconds of usage), and the sshare -a -l -P and sprio -l
# read right after it, before the next priority calculation.  The bounds
# are derived in test-snapshot.sh: N = 8 users, root RawUsage 149, so
# e = 2 * 8 * 0.005 / (149 - 8 * 0.005) = 5.37e-4 for NormUsage and
# EffectvUsage (+1e-6 for printing), ln2 * e / S * max(F, F') (+2e-6) for
# FairShare, 1 + 8 * 0.005 for the whole part of RawUsage; sprio: FAIRSHARE within 10000 * 7.07e-4 + 1 = 8.07 (u4's
# bound is the largest), AGE within 1000 * 1 s / 7 days + 1 (the snapshot
# is 1 s after the calculation sprio shows), PRIORITY within their sum.
# With sshare's whole-number usage instead, some figure must be out.
L="$D/live-22.05"
# fs_out LIVE MFPRIO: how many RawUsage, NormUsage, EffectvUsage,
# FairShare figures are outside the bounds
fs_out() {
	awk -F'|' -v e=5.37057e-4 '
	NR == FNR { for (i = 1; i <= 9; i++) a[FNR, i] = $i; next }
	FNR > 1 {
		for (i = 5; i <= 8; i++) {
			x = a[FNR, i] - $i; if (x < 0) x = -x
			if (i == 5) tol = 1.04
			else if (i < 8) tol = e + 1e-6
			else tol = (a[FNR, 4] > 0 ? log(2) * e / a[FNR, 4] * \
				(a[FNR, 8] > $8 ? a[FNR, 8] : $8) : 0) + 2e-6
			if (x > tol) out++
		}
	}
	END { print out + 0 }' "$1" "$2"
}
if "$MFPRIO" fairshare -o "$FS9" --snapshot "$L" >"$out" 2>"$err" &&
	[ "$(cut -d'|' -f1-4,9 "$out")" = "$(cut -d'|' -f1-4,9 "$L/live.sshare")" ] &&
	[ "$(fs_out "$L/live.sshare" "$out")" = 0 ]; then
	ok "live 22.05 snapshot: fairshare within the two-decimal bounds of sshare"
else bad "live 22.05 snapshot: fairshare within the two-decimal bounds of sshare"; fi
"$MFPRIO" fairshare -o "$FS9" --snapshot "$L" --usage "$L/usage" >"$out" 2>"$err"
n=$(fs_out "$L/live.sshare" "$out")
if [ "$n" -gt 0 ]; then ok "live 22.05 snapshot: sshare's whole numbers are off more ($n figures)"
else bad "live 22.05 snapshot: sshare's whole numbers are off more"; fi
# sprio_out LIVE MFPRIO: how many sprio -l fields are outside the bounds
sprio_out() {
	awk -v b4=8.07351 -v b6=1.00165 -v b8=8.07186 '
	NR == FNR { line[FNR] = $0; next }
	{
		n = split(line[FNR], a, " "); m = split($0, f, " ")
		if (n != m) { out++; next }
		for (i = 1; i <= n; i++) {
			if (a[i] == f[i]) continue
			x = a[i] - f[i]; if (x < 0) x = -x
			if (!((i == 4 && x <= b4) || (i == 6 && x <= b6) || (i == 8 && x <= b8)))
				out++
		}
	}
	END { if (NR - FNR != FNR) out++; print out + 0 }' "$1" "$2"
}
if "$MFPRIO" priority --snapshot "$L" >"$out" 2>"$err" &&
	[ "$(wc -l <"$out")" -eq 9 ] && [ "$(sprio_out "$L/live.sprio" "$out")" = 0 ]; then
	ok "live 22.05 snapshot: priority within the two-decimal bounds of sprio -l"
else bad "live 22.05 snapshot: priority within the two-decimal bounds of sprio -l"; fi
"$MFPRIO" priority --snapshot "$L" --usage "$L/usage" >"$out" 2>"$err"
n=$(sprio_out "$L/live.sprio" "$out")
if [ "$n" -gt 0 ]; then ok "live 22.05 snapshot: priority off more with whole numbers ($n fields)"
else bad "live 22.05 snapshot: priority off more with whole numbers"; fi

# --- snapshot directories that are not
expect_fail "--snapshot: not a directory" 1 "$EX/time: not a directory" \
	fairshare -o "$FS9" --snapshot "$EX/time"
mkdir "$tmp/empty"
expect_fail "--snapshot: no time file" 1 "$tmp/empty: no file 'time'" \
	fairshare -o "$FS9" --snapshot "$tmp/empty"
mkdir "$tmp/badtime"
printf '# taken by hand\n\n17000x\n' >"$tmp/badtime/time"
expect_fail "--snapshot: a bad time" 1 "$tmp/badtime/time:3: '17000x' is not" \
	priority --snapshot "$tmp/badtime"
# a file of the snapshot left empty (a command that failed, a disk that
# filled up): the file named, exit 1
for f in jobs:"no job in it, nor scontrol's" qos:"no QOS in it (an empty dump" \
	assoc:"no association in it (an empty dump" \
	assoc-prio:"no association in it (an empty dump" \
	assoc-mgr:"no usage row in it (an empty dump"; do
	mk_small "$tmp/empty-${f%%:*}"
	: >"$tmp/empty-${f%%:*}/${f%%:*}"
	expect_fail "--snapshot: ${f%%:*} empty" 1 "mfprio: $tmp/empty-${f%%:*}/${f%%:*}: ${f#*:}" \
		priority --snapshot "$tmp/empty-${f%%:*}"
done

# --- bad assoc_mgr dumps: FILE:LINE
A=(--assoc "$EX/assoc")
printf 'ClusterName=x Account=lab UserName=bob(1002) ID=3\n    UsageRaw/Norm/Efctv=12x/0.1/0.1\n' >"$tmp/am1"
expect_fail "assoc_mgr: a bad UsageRaw" 1 "$tmp/am1:2: UsageRaw in '12x/0.1/0.1'" \
	fairshare "${A[@]}" --usage "$tmp/am1"
printf 'Association Records\nClusterName=x UserName=bob(1002) ID=3\n    UsageRaw/Norm/Efctv=1.00/0.1/0.1\n' >"$tmp/am2"
expect_fail "assoc_mgr: a record without Account" 1 "$tmp/am2:2: association record without Account" \
	fairshare "${A[@]}" --usage "$tmp/am2"
printf 'Association Records\n\nClusterName=x Account=lab UserName=zed(9) ID=3\n    UsageRaw/Norm/Efctv=1.00/0.1/0.1\n' >"$tmp/am3"
expect_fail "assoc_mgr: a user not in the assoc file is a warning" 0 "$tmp/am3:3: user 'zed' in account 'lab' is not in the association file" \
	fairshare "${A[@]}" --usage "$tmp/am3"
printf 'ClusterName=x Account=lab UserName=bob(1002) ID=3 Priority=0\n' >"$tmp/am4"
expect_fail "assoc_mgr: a user record without UsageRaw" 1 "$tmp/am4:1: no UsageRaw" \
	fairshare "${A[@]}" --usage "$tmp/am4"
printf 'ClusterName=x Account=lab UserName=bob(1002) ID=x3\n    UsageRaw/Norm/Efctv=1.00/0.1/0.1\n' >"$tmp/am5"
expect_fail "assoc_mgr: a bad ID" 1 "$tmp/am5:1: ID 'x3'" fairshare "${A[@]}" --usage "$tmp/am5"
printf 'ClusterName=x Account=lab UserName=bob(1002)\n    UsageRaw/Norm/Efctv=1.00/0/0\nClusterName=x Account=lab UserName=bob(1002)\n    UsageRaw/Norm/Efctv=2.00/0/0\n' >"$tmp/am6"
expect_fail "assoc_mgr: a user twice" 1 "$tmp/am6:3: second usage row" fairshare "${A[@]}" --usage "$tmp/am6"
printf 'Association Records\nClusterName=x Account=lab\000\n' >"$tmp/am7"
expect_fail "assoc_mgr: a NUL byte" 1 "$tmp/am7:2: a NUL byte" fairshare "${A[@]}" --usage "$tmp/am7"

# --- mfprio snapshot through stand-in commands.  They print the small
# fixture's dumps for exactly the arguments mfprio must give, and fail
# with status 7 on any other; FAIL=NAME makes NAME fail with status 3.
bin=$tmp/bin etc=$tmp/etc
mkdir -p "$bin" "$etc/conf.d"
grep -v '^Priority' "$S/slurm.conf" >"$etc/slurm.conf"
echo "Include conf.d/prio.conf   # relative: the including file's dir" >>"$etc/slurm.conf"
grep '^PriorityWeight' "$S/slurm.conf" >"$etc/conf.d/prio.conf"
echo "  include $etc/more.conf" >>"$etc/conf.d/prio.conf"
grep '^Priority' "$S/slurm.conf" | grep -v '^PriorityWeight' >"$etc/more.conf"
cat >"$bin/stand-in" <<EOF
#!/bin/sh
name=\$(basename "\$0")
if [ "\${FAIL:-}" = "\$name" ]; then echo "\$name: error: cannot talk to the database" >&2; exit 3; fi
case "\$name \$*" in
"scontrol show config")
	printf 'Configuration data as of 2023-11-14T22:13:20\nClusterName             = demo\nSLURM_CONF              = %s\nSLURM_VERSION           = 23.11.4\n' "$etc/slurm.conf" ;;
"scontrol --version") echo "slurm 23.11.4" ;;
"scontrol -o show job") cat "$S/jobs.txt" ;;
"scontrol show assoc_mgr flags=assoc,qos") cat "$tmp/small/assoc-mgr" ;;
"sshare -a -P -n -o Account,User,Partition,RawUsage") cat "$S/usage.txt" ;;
"sacctmgr -P -n show assoc where cluster=demo format=Cluster,Account,User,Partition,ParentName,Fairshare") cat "$S/assoc.txt" ;;
"sacctmgr -P -n show assoc where cluster=demo format=Account,User,Priority") echo "root||" ;;
"sacctmgr -P -n show qos format=Name,Priority") cat "$S/qos.txt" ;;
*) echo "\$name: unexpected arguments: \$*" >&2; exit 7 ;;
esac
EOF
chmod +x "$bin/stand-in"
for c in scontrol sacctmgr sshare; do ln -s stand-in "$bin/$c"; done
t0=$(date +%s)
if PATH="$bin:$PATH" "$MFPRIO" snapshot "$tmp/snap" >"$out" 2>"$err"; then
	ok "snapshot: taken"
else bad "snapshot: taken"; fi
t1=$(date +%s)
taken=$(cat "$tmp/snap/time" 2>/dev/null)
if [ -n "$taken" ] && [ "$taken" -ge "$t0" ] && [ "$taken" -le "$t1" ]; then
	ok "snapshot: time"
else echo "# time '$taken' not in $t0..$t1"; bad "snapshot: time"; fi
if [ "$(cat "$tmp/snap/slurm-version")" = "slurm 23.11.4" ] &&
	cmp -s "$tmp/snap/jobs" "$S/jobs.txt" && cmp -s "$tmp/snap/usage" "$S/usage.txt" &&
	cmp -s "$tmp/snap/assoc" "$S/assoc.txt" && cmp -s "$tmp/snap/qos" "$S/qos.txt" &&
	cmp -s "$tmp/snap/assoc-mgr" "$tmp/small/assoc-mgr" &&
	[ "$(cat "$tmp/snap/assoc-prio")" = "root||" ] &&
	grep -q "^SLURM_CONF *= $etc/slurm.conf" "$tmp/snap/config"; then
	ok "snapshot: each dump in its file"
else ls -l "$tmp/snap" >"$out"; bad "snapshot: each dump in its file"; fi
# Include lines point at the copies, line numbers kept, nested too
if [ "$(wc -l <"$tmp/snap/slurm.conf")" = "$(wc -l <"$etc/slurm.conf")" ] &&
	[ "$(tail -n 1 "$tmp/snap/slurm.conf")" = "Include include-1-prio.conf # was Include conf.d/prio.conf" ] &&
	[ "$(tail -n 1 "$tmp/snap/include-1-prio.conf")" = "Include include-2-more.conf # was Include $etc/more.conf" ] &&
	cmp -s "$tmp/snap/include-2-more.conf" "$etc/more.conf"; then
	ok "snapshot: Included files copied, Include lines rewritten"
else cat "$tmp/snap/slurm.conf" "$tmp/snap/include-1-prio.conf" >"$out"; bad "snapshot: Included files copied, Include lines rewritten"; fi
# read back: the hand-computed rows at the fixture's time
if "$MFPRIO" priority --snapshot "$tmp/snap" --now 1700000000 >"$out" 2>"$err" &&
	cmp -s "$out" "$S/expected.txt"; then ok "snapshot: read back by priority --snapshot"
else bad "snapshot: read back by priority --snapshot"; fi
expect_fail "snapshot: the directory must be empty" 1 "$tmp/snap is not empty" \
	snapshot "$tmp/snap"
PATH="$bin:$PATH" FAIL=sshare "$MFPRIO" snapshot "$tmp/snap2" >"$out" 2>"$err"; rc=$?
if [ "$rc" -eq 1 ] &&
	grep -qF '`sshare -a -P -n -o Account,User,Partition,RawUsage` exited with status 3: sshare: error: cannot talk to the database' "$err" &&
	[ ! -e "$tmp/snap2/time" ]; then ok "snapshot: a failing command named, with status and stderr; no time file"
else echo "# rc=$rc"; bad "snapshot: a failing command named, with status and stderr; no time file"; fi
expect_fail "--snapshot of a failed one" 1 "no file 'time'" fairshare -o "$FS9" --snapshot "$tmp/snap2"
PATH="$tmp/nowhere" "$MFPRIO" snapshot "$tmp/snap3" >"$out" 2>"$err"; rc=$?
if [ "$rc" -eq 1 ] && grep -qF 'cannot run `scontrol show config`' "$err"; then
	ok "snapshot: no scontrol on PATH"
else echo "# rc=$rc"; bad "snapshot: no scontrol on PATH"; fi
expect_fail "snapshot: DIR required" 2 "DIR is required" snapshot

finish
