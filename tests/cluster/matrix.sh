#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix.sh: the plugin on every Slurm release, each checked against that
# release's own priority_multifactor.so, in isolated clusters side by side.
#
# Usage: matrix.sh OUTDIR
#
#   1. each release of the matrix is found and built (slurm-release.sh,
#      cached; 22.05.8 is Debian's package and its source from
#      slurm-source.sh), and mfprio's plugin is built against it
#      (OUTDIR/build-VERSION) and installed (MFPRIO_INSTALL_ROOT);
#   2. the checks below run as tasks over MFPRIO_MATRIX_LANES lanes (default
#      8); lane N drives cluster instance N (tests/cluster/instance.sh: its
#      own ports, ClusterName, StateSaveLocation, slurmdbd and database;
#      one MariaDB and one munged serve all), one task at a time;
#   3. a table: release x check, PASS / FAIL / - (not run), and why a
#      release was left out (no source found).
#
# Checks (each a script of this directory, with that release's binaries,
# its upstream plugin, and our plugin built against its source):
#   loads          test-plugin-loads.sh: ours is loaded, not upstream's;
#                  state file compatible both ways; restarts on bad ones
#   usage          test-plugin-usage.sh: short jobs charged, usage as
#                  upstream accrues it
#   diff:ALGO      test-plugin-differential.sh for one algorithm (fair_tree,
#                  classic, depth_oblivious): sshare -a -l -P and sprio -l
#                  through upstream's plugin and ours on the same state;
#                  from 24.11 with a job that asks for several QOS
#   stats          test-plugin-stats.sh: the plugin's own figures per cycle
#                  (mfprio_stats, the DebugFlags=Priority line)
#   flags          the differential over weights and flags (22.05 only)
#   (22.05 only)   the other test-*.sh (among them test-snapshot.sh: mfprio
#                  snapshot, then --snapshot against live sshare and sprio)
#                  and sprio-vs-mfprio.sh
# The releases, and which run all their checks ("live") and which only
# build, load and one differential (fair_tree), are release/releases.tsv's.
#
# Environment:
#   MFPRIO_TOP              the source tree (default: this script's ../..)
#   MFPRIO_BUILD            the main build tree (its plugin is the 22.05 one)
#   MFPRIO_PLUGIN_SO        the 22.05 plugin as installed from it (default:
#                           the build tree's .libs copy)
#   MFPRIO_INSTALL_ROOT     where the plugin built for each release is
#                           installed, PREFIX=ROOT/VERSION (default
#                           /var/tmp/mfprio-install: the slurm user must
#                           read it)
#   MFPRIO_MATRIX_RELEASES  releases to run (default: all, 22.05.8 first)
#   MFPRIO_MATRIX_LANES     concurrent clusters (default 8)
#   MFPRIO_MATRIX_FIRST     the first lane's cluster instance (default 1)
#   MFPRIO_SLURM_TARBALLS   where release sources are (slurm-release.sh)
#   MFPRIO_SKIP_SPRIO=1     leave out sprio-vs-mfprio.sh (22.05)
# Exit status: 0 when every check that ran passed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=${MFPRIO_TOP:-$(cd "$here/../.." && pwd)}
out=${1:?usage: matrix.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
lanes=${MFPRIO_MATRIX_LANES:-8}
first=${MFPRIO_MATRIX_FIRST:-1}
# the releases and what each runs: release/releases.tsv
rtable=$top/release/releases.sh
LIVE=" $("$rtable" tested checks=live | tr '\n' ' ') "
# Debian's own Slurm (the installed package, built by run-all as the main
# build), which also runs every other cluster test of this directory
DEBIAN=$("$rtable" tested source=debian | head -n 1)
read -ra releases <<<"${MFPRIO_MATRIX_RELEASES:-$("$rtable" tested | tr '\n' ' ')}"
results=$out/results        # lines: RELEASE|CHECK|PASS or FAIL|log
: >"$results"
: >"$out/missing"

say() { printf 'matrix: [%4ds] %s\n' "$SECONDS" "$*"; }
result() { echo "$1|$2|$3|${4:-}" >>"$results"; }

# ---------------------------------------------------------------- builds
install_root=${MFPRIO_INSTALL_ROOT:-/var/tmp/mfprio-install}
mkdir -p "$install_root" && chmod 755 "$install_root"
# prefix_of VERSION: the install prefix ("" for Debian's 22.05.8).
declare -A prefix so
for v in "${releases[@]}"; do
	log=$out/build-$v.log
	if [[ $v == "$DEBIAN" ]]; then
		prefix[$v]=""
		so[$v]=${MFPRIO_PLUGIN_SO:-${MFPRIO_BUILD:-$top/_build/main}/src/plugin/.libs/priority_multifactor.so}
		if [[ -f ${so[$v]} ]]; then result "$v" build PASS; else
			result "$v" build FAIL "${so[$v]} missing"; fi
		continue
	fi
	if ! src=$("$here/slurm-release.sh" find "$v" 2>"$log"); then
		echo "$v: $(tail -n 1 "$log")" >>"$out/missing"
		say "$v: no source found; left out"
		continue
	fi
	say "$v: Slurm from $src (cached build, or about 3 min)"
	p=$("$here/slurm-release.sh" build "$v" 2>>"$log" | tail -n 1)
	if [[ -z $p || ! -x $p/sbin/slurmctld ]]; then
		result "$v" build FAIL "$log"
		continue
	fi
	prefix[$v]=$p
	b=$out/build-$v
	mkdir -p "$b"
	say "$v: building mfprio's plugin against $p/src"
	# installed as an admin would, where the daemons (user slurm) can
	# read it: the build tree may be in a private home directory
	inst=$install_root/$v
	if (cd "$b" && SLURMCTLD=$p/sbin/slurmctld "$top/configure" --enable-werror \
		--prefix="$inst" --with-slurm-source="$p/src" &&
		make -j2 install-pluginLTLIBRARIES) \
		>>"$log" 2>&1 && [[ -f $inst/lib/mfprio/slurm/priority_multifactor.so ]]; then
		so[$v]=$inst/lib/mfprio/slurm/priority_multifactor.so
		result "$v" build PASS "$log"
	else
		result "$v" build FAIL "$log"
		tail -n 20 "$log"
	fi
done

# ---------------------------------------------------------------- tasks
# One line per task: RELEASE CHECK SCRIPT [VAR=VALUE...]; longest first so
# that the lanes finish together.
tasks=$out/tasks
: >"$tasks"
for v in "${releases[@]}"; do
	[[ -n ${so[$v]:-} ]] || continue
	if [[ $LIVE == *" $v "* ]]; then
		for a in fair_tree classic depth_oblivious; do
			echo "$v diff:$a test-plugin-differential.sh MFPRIO_DIFF_ONLY=$a" >>"$tasks"
		done
		echo "$v loads test-plugin-loads.sh" >>"$tasks"
		echo "$v usage test-plugin-usage.sh" >>"$tasks"
		echo "$v stats test-plugin-stats.sh" >>"$tasks"
	else
		echo "$v diff:fair_tree test-plugin-differential.sh MFPRIO_DIFF_ONLY=fair_tree" >>"$tasks"
		echo "$v loads test-plugin-loads.sh" >>"$tasks"
	fi
	if [[ $v == "$DEBIAN" ]]; then
		echo "$v flags test-plugin-differential-flags.sh" >>"$tasks"
		for t in "$here"/test-*.sh; do
			n=$(basename "$t" .sh)
			case $n in
			test-plugin-differential* | test-plugin-loads | test-plugin-usage | test-plugin-stats) continue ;;
			esac
			echo "$v ${n#test-} $n.sh" >>"$tasks"
		done
		[[ ${MFPRIO_SKIP_SPRIO:-} == 1 ]] || echo "$v sprio-vs-mfprio sprio-vs-mfprio.sh" >>"$tasks"
	fi
done
# differentials and the long 22.05 ones first
sort -s -k2,2 -t' ' "$tasks" | awk '{ long = ($2 ~ /^diff|flags|sprio|fairshare|usage|snapshot|load|tsan|part-assoc|new-assoc|fs-kept/) ; print (long ? 0 : 1) "\t" $0 }' |
	sort -s -n -k1,1 | cut -f2- >"$tasks.sorted"
mv "$tasks.sorted" "$tasks"
ntasks=$(wc -l <"$tasks")
say "$ntasks tasks over $lanes lanes"

# take_task: print the next task and remove it from the queue (under a lock).
take_task() {
	(
		flock 7
		head -n 1 "$tasks"
		sed -i 1d "$tasks"
	) 7>>"$tasks.lock"
}

run_lane() {   # run_lane N
	local n=$1 line v check script rest log t0 rc
	while line=$(take_task) && [[ -n $line ]]; do
		read -r v check script rest <<<"$line"
		log=$out/$v-${check//:/-}.log
		t0=$SECONDS
		# shellcheck disable=SC2086
		env MFPRIO_CLUSTER_INSTANCE="$n" MFPRIO_SLURM_PREFIX="${prefix[$v]}" \
			MFPRIO_PLUGIN_SO="${so[$v]}" MFPRIO_CLUSTER_LOCK_WAIT=3600 $rest \
			"$here/$script" >"$log" 2>&1 </dev/null
		rc=$?
		if [[ $rc -eq 0 ]]; then result "$v" "$check" PASS "$log"; else
			result "$v" "$check" FAIL "$log"; fi
		say "lane $n: $v $check: $([[ $rc -eq 0 ]] && echo PASS || echo FAIL) ($((SECONDS - t0)) s) $(tail -n 1 "$log")"
	done
	# this lane's cluster is left stopped
	MFPRIO_CLUSTER_INSTANCE=$n "$here/cluster.sh" stop >/dev/null 2>&1 || true
}

pids=()
for ((n = first; n < first + lanes; n++)); do
	run_lane "$n" &
	pids+=($!)
done
wait "${pids[@]}"

# ---------------------------------------------------------------- table
python3 - "$results" "${releases[@]}" <<'EOF'
import sys
res, rels = sys.argv[1], sys.argv[2:]
table, checks = {}, []
for line in open(res):
    v, c, r = line.rstrip('\n').split('|')[:3]
    table[(v, c)] = r
    if c not in checks:
        checks.append(c)
order = ['build', 'loads', 'usage', 'diff:fair_tree', 'diff:classic',
         'diff:depth_oblivious', 'flags']
checks = [c for c in order if c in checks] + sorted(c for c in checks if c not in order)
w = max([len('release')] + [len(v) for v in rels])
print('release'.ljust(w) + ''.join('  ' + c for c in checks))
for v in rels:
    print(v.ljust(w) + ''.join('  ' + table.get((v, c), '-').ljust(len(c)) for c in checks))
EOF
if [[ -s $out/missing ]]; then
	echo "left out (no source): set MFPRIO_SLURM_TARBALLS to a directory of slurm-VERSION.tar.gz"
	sed 's/^/  /' "$out/missing"
fi
fails=$(grep -c '|FAIL|' "$results")
echo "matrix: $(grep -c '|PASS|' "$results") passed, $fails failed (logs in $out)"
[[ $fails -eq 0 ]]
