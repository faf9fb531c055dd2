#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-slurm-prog.sh: Slurm's own test programs of the multifactor plugin,
# built against the release of MFPRIO_SLURM_PREFIX (instance.sh; empty:
# Debian's packaged 22.05.8) and run with our plugin, then with upstream's.
#
# Each program stands in for slurmctld as Slurm's testsuite has it: it
# defines cluster_cpus and job_list, links slurmctld's locks.o and sshare's
# process.o, fills assoc_mgr with an association tree, loads
# priority/multifactor through priority_g_init() from PluginDir and prints
# sshare's long rows.  Two programs, each with its expected rows:
#   fair-share: classic fair-share of a small tree
#     - testsuite/python/scripts/prio_multifactor.c, rows of
#       testsuite/python/tests/test_130_2.py (26.11);
#     - else testsuite/expect/test24.1.prog.c, rows of
#       testsuite/expect/test24.1 (22.05 to 25.05);
#   fair-tree: Fair Tree over a tree of 21 accounts and users, USE_PARENT
#     and ties among them: testsuite/expect/test24.4.prog.c, rows of
#     testsuite/expect/test24.4 (22.05 to 25.05, 26.11);
#   a release without one (25.11, 26.05: their tarballs carry no
#   testsuite) takes the program of the nearest release of
#   release/releases.tsv that has one, builds against it, and whose rows
#   upstream's plugin of this release prints (tarball found by
#   slurm-release.sh).
# The rows are read from the release's test file at run time
# (slurm-prog-rows.py), never written here.  Checks, for each program:
#   1. the program builds against the release's libslurmfull, with
#      locks.o and process.o of the release's build tree (compiled here
#      from its sources when the tree has none, as Debian's has not);
#   2. with upstream's plugin alone on PluginDir it prints every expected
#      row and the loader ran upstream's .so (a check of the rows and of the
#      harness: upstream's figures are these);
#   3. with our plugin's directory first on PluginDir (slurm.conf of
#      SLURM_CONF, FairShareDampeningFactor=1) the loader ran the init of
#      our .so (LD_DEBUG=files "calling init: PATH": printed only for a
#      load that succeeded) and of no other priority_multifactor.so, and
#      the program prints every expected row, and the whole output is
#      upstream's;
#   4. the same with the program linked without slurmctld's locks.o (a
#      stand-in with no lock functions: ours takes no lock there).
# No daemon is started and no cluster instance is used.
#
# Environment: MFPRIO_SLURM_PREFIX, MFPRIO_PLUGIN_SO (our plugin, default
# the build tree's), MFPRIO_SLURM_SOURCE (the configured source of Debian's
# release; default: tests/cluster/slurm-source.sh's).
# Ends with "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=check-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/check-lib.sh"
give_up() {
	not_ok "$*"
	finish
}

plugin_so=${MFPRIO_PLUGIN_SO:-${MFPRIO_BUILD:-$top}/src/plugin/.libs/priority_multifactor.so}
[[ -f $plugin_so ]] || give_up "no plugin at $plugin_so (set MFPRIO_PLUGIN_SO)"
plugin_dir=$(cd "$(dirname "$plugin_so")" && pwd)
say "$SLURM_RELEASE; our plugin: $plugin_dir/priority_multifactor.so"

# the release's configured source tree and its libslurmfull
if [[ -n $SLURM_PREFIX ]]; then
	src=$SLURM_PREFIX/src
	libdir=$SLURM_PREFIX/lib/slurm
else
	src=${MFPRIO_SLURM_SOURCE:-$("$here/slurm-source.sh" 2>"$out/slurm-source.log" | tail -n 1)}
	libdir=$SLURM_PLUGIN_DIR
fi
[[ -f $src/config.h && -f $src/src/sshare/process.c ]] ||
	give_up "no configured Slurm source at '$src'"
[[ -f $libdir/libslurmfull.so ]] || give_up "no libslurmfull.so in $libdir"

# prog_of KIND TREE: the program and test file of KIND (fair-share,
# fair-tree) in source tree TREE: "PROG TESTFILE", or nothing
prog_of() {
	local t=$2/testsuite
	case $1 in
	fair-share)
		if [[ -f $t/python/scripts/prio_multifactor.c && -f $t/python/tests/test_130_2.py ]]; then
			echo "$t/python/scripts/prio_multifactor.c $t/python/tests/test_130_2.py"
		elif [[ -f $t/expect/test24.1.prog.c && -f $t/expect/test24.1 ]]; then
			echo "$t/expect/test24.1.prog.c $t/expect/test24.1"
		fi
		;;
	fair-tree)
		if [[ -f $t/expect/test24.4.prog.c && -f $t/expect/test24.4 ]]; then
			echo "$t/expect/test24.4.prog.c $t/expect/test24.4"
		fi
		;;
	esac
}

# the files prog_of looks for, as tar patterns (a tarball of another release)
prog_files=('*/testsuite/expect/test24.1' '*/testsuite/expect/test24.1.prog.c'
	'*/testsuite/expect/test24.4' '*/testsuite/expect/test24.4.prog.c'
	'*/testsuite/python/scripts/prio_multifactor.c'
	'*/testsuite/python/tests/test_130_2.py')

# locks.o and process.o: the build tree's, else compiled from its sources
cflags=(-I"$src" -I"$src/slurm" -DNDEBUG -w)
objs=()
for o in src/slurmctld/locks src/sshare/process; do
	if [[ -f $src/$o.o ]]; then
		objs+=("$src/$o.o")
	elif cc "${cflags[@]}" -c "$src/$o.c" -o "$out/$(basename "$o").o" >>"$out/build.log" 2>&1; then
		objs+=("$out/$(basename "$o").o")
		say "$o.o: compiled from $src/$o.c (the tree has no build of it)"
	else
		give_up "cannot compile $src/$o.c (see $out/build.log)"
	fi
done

# build PROG into BIN [OBJECTS...]; the link Slurm's testsuite uses:
# libslurmfull, locks.o and process.o (or OBJECTS), the program's symbols
# exported (the plugin finds cluster_cpus and job_list there), -ldl -lm
build() {
	local p=$1 bin=$2
	shift 2
	[[ $# -gt 0 ]] || set -- "${objs[@]}"
	cc "${cflags[@]}" -o "$bin" "$p" "$@" -L"$libdir" -lslurmfull \
		-Wl,-rpath,"$libdir" -rdynamic -ldl -lm -lpthread >>"$out/build.log" 2>&1
}

# run NAME PLUGINDIR PROGRAM: run PROGRAM with PluginDir=PLUGINDIR; its rows
# in OUT/NAME.out, the loader's trace and its log in OUT/NAME.err
run() {
	cat >"$out/$1.conf" <<EOC
ClusterName=slurmprog
SlurmctldHost=localhost
PluginDir=$2
PriorityType=priority/multifactor
FairShareDampeningFactor=1
StateSaveLocation=$out/state
NodeName=localhost CPUs=1
PartitionName=debug Nodes=localhost
EOC
	(cd "$out" && SLURM_CONF=$out/$1.conf LD_DEBUG=files timeout 120 "$3" \
		>"$out/$1.out" 2>"$out/$1.err")
}

# run_rows NAME PLUGINDIR PROGRAM TESTFILE: run, then rows; the program's
# own sleep(1) is all that stands between priority_g_init() and its read of
# the shares, so on a loaded machine the plugin's thread (upstream's or
# ours) may not have ended its first pass by then, and the program prints
# the tree before it.  A run that ends well without TESTFILE's rows is run
# again, at most 3 times in all; the tries are said and kept in
# OUT/NAME.tries.  The status is the last run's; rows are checked after.
run_rows() {
	local try rc
	for try in 1 2 3; do
		run "$1" "$2" "$3"
		rc=$?
		echo "$try" >"$out/$1.tries"
		((rc == 0)) || return "$rc"
		rows "$1" "$4" >/dev/null && return 0
		((try < 3)) && say "$1: try $try printed $(grep -c MISSING "$out/$1.rows") of the rows short (the program's sleep(1) before the first pass ended); again" >&2
	done
	return 0
}

# tries NAME: ", after N tries" when NAME took more than one
tries() {
	local n
	n=$(cat "$out/$1.tries" 2>/dev/null || echo 1)
	((n > 1)) && echo ", after $n tries"
}

# init_of NAME: the priority_multifactor.so whose init the loader called
init_of() {
	sed -n 's/.*calling init: \(.*priority_multifactor\.so\)$/\1/p' "$out/$1.err" | sort -u
}

# rows NAME TESTFILE: the rows TESTFILE expects found in NAME's output (its
# report in OUT/NAME.rows)
rows() {
	"$here/slurm-prog-rows.py" "$2" "$out/$1.out" >"$out/$1.rows" 2>&1
	local rc=$?
	sed -n 's/^/    /; /MISSING/p; $p' "$out/$1.rows"
	return $rc
}

mkdir -p "$out/state"
mapfile -t series < <("$top/release/releases.sh" tested)

# find_prog KIND: "PROG TESTFILE FROM" of KIND for this release: its own,
# else the nearest release's that builds here and whose rows upstream's
# plugin prints; nothing when none does
find_prog() {
	local kind=$1 prog testfile me=-1 i d v t p f
	local -a order=()
	read -r prog testfile <<<"$(prog_of "$kind" "$src")"
	if [[ -n ${prog:-} ]]; then
		build "$prog" "$out/$kind" || {
			say "$kind: the release's own $(basename "$prog") does not build (see $out/build.log)" >&2
			return 0
		}
		echo "$prog $testfile its-own"
		return 0
	fi
	for i in "${!series[@]}"; do
		[[ ${series[$i]%.*} == "${SLURM_VERSION%.*}" ]] && me=$i
	done
	((me >= 0)) || { say "Slurm $SLURM_VERSION is not in release/releases.tsv" >&2; return 0; }
	# nearest first; of two as near, the older
	for ((d = 1; d < ${#series[@]}; d++)); do
		for i in $((me - d)) $((me + d)); do
			((i >= 0 && i < ${#series[@]})) && order+=("${series[$i]}")
		done
	done
	for v in "${order[@]}"; do
		t=$("$here/slurm-release.sh" find "$v" 2>/dev/null) || continue
		d=$out/from-$v
		if [[ ! -d $d ]]; then
			mkdir -p "$d"
			if [[ -d $t ]]; then
				cp -r "$t/testsuite" "$d/" 2>/dev/null
			else
				tar -xf "$t" -C "$d" --strip-components=1 --wildcards "${prog_files[@]}" 2>/dev/null
			fi
		fi
		read -r p f <<<"$(prog_of "$kind" "$d")"
		[[ -n ${p:-} ]] || continue
		if ! build "$p" "$out/$kind"; then
			say "$kind: $v's $(basename "$p") does not build against $SLURM_VERSION" >&2
			continue
		fi
		if ! run_rows "$kind-probe-$v" "$SLURM_PLUGIN_DIR" "$out/$kind" "$f" ||
			! rows "$kind-probe-$v" "$f" >/dev/null; then
			say "$kind: $v's $(basename "$p"): upstream's plugin of $SLURM_VERSION does not print its rows" >&2
			continue
		fi
		echo "$p $f $v"
		return 0
	done
}

# the checks of one program, KIND (fair-share, fair-tree)
for kind in fair-share fair-tree; do
	read -r prog testfile from <<<"$(find_prog "$kind")"
	if [[ -z ${prog:-} ]]; then
		not_ok "$kind: no release's test program builds against $SLURM_VERSION and gives upstream's rows"
		continue
	fi
	[[ $from == its-own ]] && from="its own" || from="Slurm $from's"
	tf=$(basename "$testfile")
	ok "$kind: $(basename "$prog") ($from, rows of $tf) builds against $libdir/libslurmfull.so"

	# 2. upstream's plugin alone
	run_rows "$kind-upstream" "$SLURM_PLUGIN_DIR" "$out/$kind" "$testfile"
	rc=$?
	check "$kind: with upstream's plugin the program ends well (status $rc)" test "$rc" -eq 0
	check "$kind: the loader ran upstream's $UPSTREAM_SO ($(init_of "$kind-upstream" | tr '\n' ' '))" \
		test "$(init_of "$kind-upstream")" == "$SLURM_PLUGIN_DIR/priority_multifactor.so"
	check "$kind: upstream's plugin prints the rows of $tf$(tries "$kind-upstream")" rows "$kind-upstream" "$testfile"

	# 3. ours first
	run_rows "$kind-ours" "$plugin_dir:$SLURM_PLUGIN_DIR" "$out/$kind" "$testfile"
	rc=$?
	check "$kind: with our plugin first the program ends well (status $rc)" test "$rc" -eq 0
	check "$kind: the loader ran our $plugin_dir/priority_multifactor.so and no other ($(init_of "$kind-ours" | tr '\n' ' '))" \
		test "$(init_of "$kind-ours")" == "$plugin_dir/priority_multifactor.so"
	check "$kind: no dlopen error from the plugin loader" \
		bash -c "! grep -E 'plugin_load_from_file|dlopen' '$out/$kind-ours.err' | grep -v '^ *[0-9]*:'"
	check "$kind: our plugin prints the rows of $tf$(tries "$kind-ours")" rows "$kind-ours" "$testfile"
	# every row, the ones the test file does not ask for too
	check "$kind: our plugin prints upstream's output, every row of it ($(wc -l <"$out/$kind-upstream.out") lines)" \
		cmp -s "$out/$kind-upstream.out" "$out/$kind-ours.out"

	# 4. ours in a program without slurmctld's locks (the same program
	# linked without locks.o: our plugin takes no lock where there are
	# none, and reads nothing the program does not define)
	if build "$prog" "$out/$kind-nolocks" "${objs[1]}"; then
		run_rows "$kind-ours-nolocks" "$plugin_dir:$SLURM_PLUGIN_DIR" "$out/$kind-nolocks" "$testfile"
		rc=$?
		check "$kind: without slurmctld's locks our plugin runs (status $rc)" test "$rc" -eq 0
		check "$kind: without slurmctld's locks the loader ran our .so ($(init_of "$kind-ours-nolocks" | tr '\n' ' '))" \
			test "$(init_of "$kind-ours-nolocks")" == "$plugin_dir/priority_multifactor.so"
		check "$kind: without slurmctld's locks our plugin prints the rows of $tf$(tries "$kind-ours-nolocks")" rows "$kind-ours-nolocks" "$testfile"
	else
		not_ok "$kind: $(basename "$prog") does not link without locks.o (see $out/build.log)"
	fi
done
finish
