#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-part-assoc.sh: per-partition associations on a real 22.05 cluster
# (upstream's plugin), read back by mfprio under classic (NO_FAIR_TREE),
# then Fair Tree and DEPTH_OBLIVIOUS (slurmctld restarted on the same
# state and jobs).
#
# Layout: layout-basic.txt, then with sacctmgr: u1 in b keeps its
# association without partition (1 share) and gains one on debug (3); u2
# in c has one on debug (5) and one on big (2), and none without.  Jobs
# of u1 and u2 run in both partitions (run-jobs.sh), then pending jobs are
# submitted on the drained node.  u2's two associations get usage in
# another ratio than their shares (15 s for 5 shares, 9 s for 2): equal
# ratios would tie their LevelFS under Fair Tree, and their ranks would
# hinge on usage off in the last decimals.  About 4.5 minutes (three
# algorithms, a priority calculation each).
#
# What Slurm does, checked here on the live daemons:
#   - slurmctld refuses a job of several partitions from a user who has a
#     per-partition association in the account (even one without too);
#   - a job on a partition charges the user's association on it, else the
#     one without partition (u1's job on big charges u1's plain one);
#   - sshare -m lists each association as its own row (Partition column);
#     each is a leaf with its own shares among its siblings.
# Then `mfprio snapshot`, and
#   - `mfprio fairshare --snapshot DIR -m` against the live
#     `sshare -a -l -P -m` (the same columns): the same rows, in the same
#     order, every figure within the two-decimal bounds test-snapshot.sh
#     derives (assoc_mgr prints UsageRaw to two decimals; see phase());
#   - `mfprio priority --snapshot DIR` against `sprio -l`, the same bounds;
#     u1's jobs on debug and on big get different FAIRSHARE (two
#     associations), and so do u2's.
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance of MFPRIO_CLUSTER_INSTANCE; 22.05 is what it was written against.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-part-assoc
cols=Account,User,Partition,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS
W_FS=10000 W_AGE=1000 MAX_AGE=604800

classic_conf

start_live "$out/priority.conf"
C=$CLUSTER_NAME
for spec in u1:b:debug:3 u2:c:debug:5 u2:c:big:2; do
	IFS=: read -r u a p s <<<"$spec"
	sacctmgr -i add user "$u" account="$a" partition="$p" fairshare="$s" \
		cluster="$C" >>"$out/sacctmgr.log" 2>&1 ||
		{ tail "$out/sacctmgr.log"; bad "sacctmgr add $spec"; finish; }
done
sacctmgr -i delete user u2 account=c partition= cluster="$C" \
	>>"$out/sacctmgr.log" 2>&1 ||
	{ tail "$out/sacctmgr.log"; bad "sacctmgr delete u2's plain association"; finish; }
n=$(sacctmgr -P -n show assoc where cluster="$C" users=u1,u2 \
	format=User,Partition | sort | tr '\n' ' ')
if [[ $n == "u1| u1|debug u2|big u2|debug " ]]; then
	ok "associations: u1 plain and on debug, u2 on debug and big"
else
	bad "associations of u1, u2: $n"; finish
fi

"$here/run-jobs.sh" u1:b:20::debug u1:b:10::big u2:c:15::debug u2:c:9::big \
	u3:c:8 u4:e:12 2>"$out/run-jobs.log" ||
	{ tail "$out/run-jobs.log"; bad "run-jobs.sh"; finish; }

# usage went to the association of the job's partition, else the plain one
sshare -a -P -n -m -o Account,User,Partition,RawUsage >"$out/usage0"
if awk -F'|' '$2 == "u1" && $3 == "debug" && $4 >= 15 { a = 1 }
	$2 == "u1" && $3 == "" && $4 >= 7 { b = 1 }
	$2 == "u2" && $3 == "debug" && $4 >= 11 { c = 1 }
	$2 == "u2" && $3 == "big" && $4 >= 4 { d = 1 }
	END { exit !(a && b && c && d) }' "$out/usage0"; then
	ok "slurmctld charged the partition's association, else the plain one (u1 on big)"
else
	bad "usage per association:"; cat "$out/usage0"
fi

scontrol update nodename="$NODE" state=drain reason=test-part-assoc
if sbatch --uid=u1 --gid="$(id -gn u1)" -A b -p debug,big -D /tmp \
	-o /dev/null --wrap 'sleep 1' >"$out/multi.out" 2>&1; then
	ids+=("$(grep -o '[0-9]*' "$out/multi.out" | tail -n 1)")
	bad "a job of two partitions from u1 (per-partition association) was taken"
else
	ok "slurmctld refuses u1's job of two partitions: $(tail -n 1 "$out/multi.out")"
fi
for spec in u1:b:debug u1:b:big u2:c:debug u2:c:big u3:c:debug,big u4:e:big; do
	IFS=: read -r u a p <<<"$spec"
	id=$(sbatch --parsable --uid="$u" --gid="$(id -gn "$u")" -A "$a" -p "$p" \
		-D /tmp -o /dev/null -J part --wrap 'sleep 30') ||
		{ bad "sbatch as $u on $p"; finish; }
	ids+=("${id%%;*}")
done
njobs_rows=7    # u3's job is listed once per partition


# phase ALG: one quiet snapshot and the live tables under the algorithm
# slurmctld runs now (classic, fair_tree or depth_oblivious), compared.
phase() {
	local alg=$1 snap=$out/$1/snap try before after rows taken dt
	local n_users r_live p_min e e_acct b_fs t_fs t_age t_prio rc u fd fb md mb
	mkdir -p "$out/$alg"
	# classic and DEPTH_OBLIVIOUS compute users' figures from siblings'
	# as last computed: one sshare, one more calculation (as
	# test-snapshot.sh); Fair Tree needs only the calculation
	sshare -a -l -P >/dev/null
	wait_calc "$(date +%s)" || { bad "$alg: no priority calculation"; return; }
	for try in 1 2 3 4; do
		before=$(last_ran)
		rm -rf "$snap"
		"$MFPRIO" snapshot "$snap" 2>"$out/$alg/snapshot.err" ||
			{ cat "$out/$alg/snapshot.err"; bad "$alg: mfprio snapshot"; return; }
		sshare -a -l -P -m -o "$cols" >"$out/$alg/live.sshare"
		sprio -l >"$out/$alg/live.sprio"
		after=$(last_ran)
		rows=$(($(wc -l <"$out/$alg/live.sprio") - 1))
		if [[ $before == "$after" && $rows -ge $njobs_rows ]]; then
			break
		fi
		say "$alg: try $try: calculation $before -> $after, $rows sprio rows; again"
		[[ $try == 4 ]] && { bad "$alg: no quiet window for the snapshot"; return; }
		wait_calc "$after" || { bad "$alg: no priority calculation"; return; }
	done
	taken=$(cat "$snap/time")
	dt=$((taken - before))

	# ------------------------------------------------------------ fairshare
	"$MFPRIO" fairshare -o "$cols" --snapshot "$snap" -m >"$out/$alg/mfprio.sshare" \
		2>"$out/$alg/fs.err" ||
		{ cat "$out/$alg/fs.err"; bad "$alg: mfprio fairshare --snapshot -m"; return; }
	if [[ -s $out/$alg/fs.err ]]; then bad "$alg: fairshare warned:"; cat "$out/$alg/fs.err"; fi
	if cmp -s <(cut -d'|' -f1-5 "$out/$alg/live.sshare") \
		<(cut -d'|' -f1-5 "$out/$alg/mfprio.sshare"); then
		ok "$alg: fairshare -m: the rows of sshare -m (Account, User, Partition, RawShares, NormShares)"
	else
		bad "$alg: fairshare -m: rows differ"
		diff <(cut -d'|' -f1-5 "$out/$alg/live.sshare") \
			<(cut -d'|' -f1-5 "$out/$alg/mfprio.sshare")
	fi
	# The bounds of test-snapshot.sh (N user associations, usage to d =
	# 0.005, root usage R): e = 2*N*d/(R - N*d) for NormUsage and classic
	# EffectvUsage; FairShare ln2 * e / S * F.  Fair Tree's and
	# DEPTH_OBLIVIOUS's EffectvUsage divide by an account's usage instead
	# of the root's: e_acct, the same with the smallest account usage P.
	# Fair Tree's FairShare is a rank: equal; its LevelFS = S/E: relative
	# e_acct/E.
	n_users=$(grep -c '^ClusterName=.* UserName=[^ (]' "$snap/assoc-mgr")
	r_live=$(awk -F'|' 'NR == 2 { print $6 }' "$out/$alg/live.sshare")
	p_min=$(awk -F'|' 'NR > 2 && $2 == "" && $6 > 0 && (m == "" || $6 < m) { m = $6 }
		END { print m }' "$out/$alg/live.sshare")
	read -r e e_acct < <(awk -v n="$n_users" -v r="$r_live" -v p="$p_min" 'BEGIN {
		printf "%.9g %.9g\n", 2 * n * 0.005 / (r - n * 0.005), 2 * n * 0.005 / (p - n * 0.005) }')
	say "$alg: N=$n_users user associations, root RawUsage $r_live, smallest account's $p_min: e = $e, e_acct = $e_acct"
	if awk -F'|' -v e="$e" -v ea="$e_acct" -v n="$n_users" -v alg="$alg" '
		function abs(x) { return x < 0 ? -x : x }
		function max(x, y) { return x > y ? x : y }
		NR == FNR { live[FNR] = $0; next }
		FNR > 1 {
			split(live[FNR], a, "|"); split($0, b, "|")
			user = (b[2] != "")
			ee = (alg == "classic") ? e : ea
			for (i = 6; i <= 10; i++) {
				if (i == 6) tol = 1 + (user ? 0.005 : n * 0.005)
				else if (i == 7) tol = e + 1e-6
				else if (i == 8) tol = ee + 1e-6
				else if (i == 9 && alg == "fair_tree") tol = 1.01e-6
				else if (i == 9) tol = (a[5] > 0 ? log(2) * ee / a[5] * \
					max(a[9], b[9]) : 0) + 2e-6
				else if (alg == "fair_tree" && a[8] > 0)
					tol = max(a[10], b[10]) * ee / a[8] + 1e-6
				else tol = 1.01e-6
				if (a[i] == b[i]) continue
				if (a[i] != "" && b[i] != "" && abs(a[i] - b[i]) <= tol) continue
				printf "line %d field %d: sshare %s, mfprio %s, bound %g\n",
					FNR, i, a[i], b[i], tol
				bad++
			}
		}
		END { exit bad > 0 }' "$out/$alg/live.sshare" "$out/$alg/mfprio.sshare"; then
		ok "$alg: fairshare -m: RawUsage, NormUsage, EffectvUsage, FairShare, LevelFS within the bounds"
	else
		bad "$alg: fairshare -m: figures out of bounds"
		say "live:"; cat "$out/$alg/live.sshare"; say "mfprio:"; cat "$out/$alg/mfprio.sshare"
	fi

	# ------------------------------------------------------------- priority
	"$MFPRIO" priority --snapshot "$snap" >"$out/$alg/mfprio.sprio" 2>"$out/$alg/prio.err" ||
		{ cat "$out/$alg/prio.err"; bad "$alg: mfprio priority --snapshot"; return; }
	# B: the largest FairShare bound of a user row (Fair Tree: a rank, 0)
	b_fs=$(awk -F'|' -v e="$e" -v ea="$e_acct" -v alg="$alg" 'NR == FNR { f[FNR] = $9; next }
		FNR > 1 && $2 != "" && $5 > 0 && alg != "fair_tree" {
			m = ($9 > f[FNR] ? $9 : f[FNR]) + 1e-6
			b = log(2) * (alg == "classic" ? e : ea) / $5 * m
			if (b > max) max = b
		}
		END { printf "%.6g\n", max + 0 }' "$out/$alg/mfprio.sshare" "$out/$alg/live.sshare")
	read -r t_fs t_age < <(awk -v w="$W_FS" -v b="$b_fs" -v wa="$W_AGE" \
		-v dt="$dt" -v ma="$MAX_AGE" \
		'BEGIN { printf "%.6g %.6g\n", w * b + 1, wa * dt / ma + 1 }')
	t_prio=$(awk -v a="$t_fs" -v b="$t_age" 'BEGIN { printf "%.6g\n", a + b - 1 }')
	say "$alg: sprio bounds: FAIRSHARE $t_fs, AGE $t_age (dt ${dt}s), PRIORITY $t_prio"
	python3 "$here/compare-tables.py" "$alg: priority --snapshot" "$out/$alg/live.sprio" \
		"$out/$alg/mfprio.sprio" "FAIRSHARE=$t_fs" "AGE=$t_age" "PRIORITY=$t_prio" \
		>"$out/$alg/prio.cmp"
	rc=$?
	cat "$out/$alg/prio.cmp"
	if [[ $rc == 0 ]]; then
		ok "$alg: priority --snapshot: every sprio row within the bounds ($rows rows)"
	else
		bad "$alg: priority --snapshot: see above"
		say "live:"; cat "$out/$alg/live.sprio"; say "mfprio:"; cat "$out/$alg/mfprio.sprio"
	fi
	# one user, two partitions, two associations: two FAIRSHARE figures
	for u in u1 u2; do
		read -r fd fb < <(awk -v u="$u" '$3 == u && $2 == "debug" { d = $8 }
			$3 == u && $2 == "big" { b = $8 } END { print d + 0, b + 0 }' "$out/$alg/live.sprio")
		read -r md mb < <(awk -v u="$u" '$3 == u && $2 == "debug" { d = $8 }
			$3 == u && $2 == "big" { b = $8 } END { print d + 0, b + 0 }' "$out/$alg/mfprio.sprio")
		if [[ $fd != "$fb" && $((md - fd)) -le 1 && $((fd - md)) -le 1 &&
			$((mb - fb)) -le 1 && $((fb - mb)) -le 1 ]]; then
			ok "$alg: $u: FAIRSHARE on debug $md, on big $mb (sprio: $fd, $fb)"
		else
			bad "$alg: $u: FAIRSHARE on debug/big: mfprio $md/$mb, sprio $fd/$fb"
		fi
	done
}

phase classic
for alg in fair_tree depth_oblivious; do
	{
		cat "$here/priority-default.conf"
		[[ $alg == depth_oblivious ]] && echo "PriorityFlags=DEPTH_OBLIVIOUS"
	} >"$out/priority.conf"
	# shares are normalised when slurmctld loads associations: restart
	MFPRIO_PRIORITY_CONF=$out/priority.conf "$here/cluster.sh" restart-ctld \
		>"$out/restart-$alg.log" 2>&1 ||
		{ tail "$out/restart-$alg.log"; bad "$alg: restart-ctld"; continue; }
	flags=$(scontrol show config | awk -F'= *' '/^PriorityFlags/ { print $2 }')
	if [[ ($alg == fair_tree && $flags != *NO_FAIR_TREE* && $flags != *DEPTH_OBLIVIOUS*) ||
		($alg == depth_oblivious && $flags == *DEPTH_OBLIVIOUS*) ]]; then
		phase "$alg"
	else
		bad "$alg: slurmctld runs PriorityFlags='$flags'"
	fi
done

finish
