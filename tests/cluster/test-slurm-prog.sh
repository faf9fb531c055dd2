#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-slurm-prog.sh: Slurm's own test program of the multifactor plugin,
# built against the release of MFPRIO_SLURM_PREFIX (instance.sh; empty:
# Debian's packaged 22.05.8) and run with our plugin, then with upstream's.
#
# The program stands in for slurmctld as Slurm's testsuite has it: it
# defines cluster_cpus and job_list, links slurmctld's locks.o and sshare's
# process.o, fills assoc_mgr with an association tree, loads
# priority/multifactor through priority_g_init() from PluginDir and prints
# sshare's long rows.  Which program, and its expected rows:
#   - testsuite/python/scripts/prio_multifactor.c, rows of
#     testsuite/python/tests/test_130_2.py (26.11);
#   - else testsuite/expect/test24.1.prog.c, rows of testsuite/expect/test24.1
#     (22.05 to 25.05);
#   - a release with neither (25.11, 26.05: their tarballs carry no
#     testsuite) takes the program of the nearest release of
#     release/releases.tsv that has one, builds against it, and whose rows
#     upstream's plugin of this release prints (tarball found by
#     slurm-release.sh).
# The rows are read from the release's test file at run time
# (slurm-prog-rows.py), never written here.  Checks:
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

# the program and test file of a source tree TREE: "PROG TESTFILE", or
# nothing
prog_of() {
	local t=$1/testsuite
	if [[ -f $t/python/scripts/prio_multifactor.c && -f $t/python/tests/test_130_2.py ]]; then
		echo "$t/python/scripts/prio_multifactor.c $t/python/tests/test_130_2.py"
	elif [[ -f $t/expect/test24.1.prog.c && -f $t/expect/test24.1 ]]; then
		echo "$t/expect/test24.1.prog.c $t/expect/test24.1"
	fi
}

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

# run NAME PLUGINDIR [PROGRAM]: run the program (OUT/prog) with
# PluginDir=PLUGINDIR; its rows in OUT/NAME.out, the loader's trace and its
# log in OUT/NAME.err
run() {
	cat >"$out/$1.conf" <<EOF
ClusterName=slurmprog
SlurmctldHost=localhost
PluginDir=$2
PriorityType=priority/multifactor
FairShareDampeningFactor=1
StateSaveLocation=$out/state
NodeName=localhost CPUs=1
PartitionName=debug Nodes=localhost
EOF
	(cd "$out" && SLURM_CONF=$out/$1.conf LD_DEBUG=files timeout 120 "${3:-$out/prog}" \
		>"$out/$1.out" 2>"$out/$1.err")
}

# init_of NAME: the priority_multifactor.so whose init the loader called
init_of() {
	sed -n 's/.*calling init: \(.*priority_multifactor\.so\)$/\1/p' "$out/$1.err" | sort -u
}

# rows NAME: the expected rows found in NAME's output (its report in
# OUT/NAME.rows)
rows() {
	"$here/slurm-prog-rows.py" "$testfile" "$out/$1.out" >"$out/$1.rows" 2>&1
	local rc=$?
	sed -n 's/^/    /; /MISSING/p; $p' "$out/$1.rows"
	return $rc
}

# The program: the release's own, else the nearest release's that builds
# and whose rows upstream's plugin prints here.
mkdir -p "$out/state"
read -r prog testfile <<<"$(prog_of "$src")"
from="its own"
if [[ -n ${prog:-} ]]; then
	build "$prog" "$out/prog" || give_up "the release's own $(basename "$prog") does not build (see $out/build.log)"
else
	mapfile -t series < <("$top/release/releases.sh" tested)
	me=-1
	for i in "${!series[@]}"; do
		[[ ${series[$i]%.*} == "${SLURM_VERSION%.*}" ]] && me=$i
	done
	((me >= 0)) || give_up "Slurm $SLURM_VERSION is not in release/releases.tsv"
	# nearest first; of two as near, the older
	order=()
	for ((d = 1; d < ${#series[@]}; d++)); do
		for i in $((me - d)) $((me + d)); do
			((i >= 0 && i < ${#series[@]})) && order+=("${series[$i]}")
		done
	done
	prog=""
	for v in "${order[@]}"; do
		t=$("$here/slurm-release.sh" find "$v" 2>/dev/null) || continue
		d=$out/from-$v
		mkdir -p "$d"
		if [[ -d $t ]]; then
			cp -r "$t/testsuite" "$d/" 2>/dev/null
		else
			tar -xf "$t" -C "$d" --strip-components=1 --wildcards \
				'*/testsuite/expect/test24.1' '*/testsuite/expect/test24.1.prog.c' \
				'*/testsuite/python/scripts/prio_multifactor.c' \
				'*/testsuite/python/tests/test_130_2.py' 2>/dev/null
		fi
		read -r p f <<<"$(prog_of "$d")"
		[[ -n ${p:-} ]] || continue
		if ! build "$p" "$out/prog"; then
			say "$v's $(basename "$p") does not build against $SLURM_VERSION"
			continue
		fi
		testfile=$f
		if ! run "probe-$v" "$SLURM_PLUGIN_DIR" || ! rows "probe-$v" >/dev/null; then
			say "$v's $(basename "$p"): upstream's plugin of $SLURM_VERSION does not print its rows"
			continue
		fi
		prog=$p
		from="Slurm $v's"
		break
	done
	[[ -n $prog ]] || give_up "no release's test program builds against $SLURM_VERSION and gives upstream's rows"
fi
ok "$(basename "$prog") ($from, rows of $(basename "$testfile")) builds against $libdir/libslurmfull.so"

# 2. upstream's plugin alone
run upstream "$SLURM_PLUGIN_DIR"
rc=$?
check "with upstream's plugin the program ends well (status $rc)" test "$rc" -eq 0
check "the loader ran upstream's $UPSTREAM_SO ($(init_of upstream | tr '\n' ' '))" \
	test "$(init_of upstream)" == "$SLURM_PLUGIN_DIR/priority_multifactor.so"
check "upstream's plugin prints the rows of $(basename "$testfile")" rows upstream

# 3. ours first
run ours "$plugin_dir:$SLURM_PLUGIN_DIR"
rc=$?
check "with our plugin first the program ends well (status $rc)" test "$rc" -eq 0
check "the loader ran our $plugin_dir/priority_multifactor.so and no other ($(init_of ours | tr '\n' ' '))" \
	test "$(init_of ours)" == "$plugin_dir/priority_multifactor.so"
check "no dlopen error from the plugin loader" \
	bash -c "! grep -E 'plugin_load_from_file|dlopen' '$out/ours.err' | grep -v '^ *[0-9]*:'"
check "our plugin prints the rows of $(basename "$testfile")" rows ours
# every row, the ones the test file does not ask for too
check "our plugin prints upstream's output, every row of it ($(wc -l <"$out/upstream.out") lines)" \
	cmp -s "$out/upstream.out" "$out/ours.out"

# 4. ours in a program without slurmctld's locks (the same program linked
# without locks.o: our plugin takes no lock where there are none, and
# reads nothing the program does not define)
if build "$prog" "$out/prog-nolocks" "${objs[1]}"; then
	run ours-nolocks "$plugin_dir:$SLURM_PLUGIN_DIR" "$out/prog-nolocks"
	rc=$?
	check "without slurmctld's locks our plugin runs (status $rc)" test "$rc" -eq 0
	check "without slurmctld's locks the loader ran our .so ($(init_of ours-nolocks | tr '\n' ' '))" \
		test "$(init_of ours-nolocks)" == "$plugin_dir/priority_multifactor.so"
	check "without slurmctld's locks our plugin prints the rows of $(basename "$testfile")" rows ours-nolocks
else
	not_ok "$(basename "$prog") does not link without locks.o (see $out/build.log)"
fi
finish
