#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-slurm-suite.sh: the priority tests of Slurm's own testsuite, run as
# that testsuite runs them against a cluster it finds running, with our
# plugin first on PluginDir, then with upstream's plugin alone (the
# control), on one cluster of the release of MFPRIO_SLURM_PREFIX (empty:
# Debian's packaged 22.05.8).
#
# The tests are the release's own, from its source tree (PREFIX/src, or
# Debian's from slurm-source.sh), never copied here:
#   python (pytest, with the release's testsuite/python: its conftest.py
#   and atf module, in atf's "local-config" mode, which configures nothing
#   and skips what the running cluster cannot give):
#     test_113_2  sprio's --noheader, --jobs, --long, --norm, --format,
#                 --user, --verbose columns of a queued job
#     test_113_5  sprio --weights
#     test_113_6  sprio -j by SLUID (26.05 on)
#     test_130_3  two equal jobs get one priority; a held job gets 0
#     test_131_1  sshare --json (26.11)
#     (22.05 has the first three under older names:
#     tests/commands/sprio/test_job_options.py, test_--weights.py,
#     tests/parameters/slurm/PriorityType/multifactor/test_priority.py)
#   expect (Debian's expect, with the release's testsuite/expect/globals):
#     test24.2  sshare's options       test24.5  SiteFactor through scontrol
#     test24.6  the factors of submitted jobs, not normalised (23.02 on)
#     test24.7  the same, normalised
# A test the release does not carry is not run (its row says "-").
#
# How the testsuite finds the cluster: SLURM_TESTSUITE_CONF names a
# testsuite.conf written here (SlurmSourceDir, SlurmBuildDir: the release's
# source tree; SlurmInstallDir: its prefix; SlurmConfigDir: the cluster's
# etc/), SLURM_CONF the cluster's slurm.conf, PATH the release's clients.
# atf runs commands as SlurmUser through "sudo -u": on a machine without
# sudo, atf-bin/sudo (first on PATH) stands in for it (root only).  Jobs
# are root's, in the root account sacctmgr gives every cluster.
#
# Checks:
#   1. the cluster runs our .so (slurmctld's maps), before and after the
#      suite (the expect tests reconfigure it);
#   2. under upstream's plugin (restart-ctld, the same cluster and
#      accounting) the controller runs upstream's .so, before and after;
#   3. every test the release carries passes under upstream's plugin,
#      unless named in known_limit below with why (a limit of this harness,
#      not of either plugin): the control shows the harness runs the tests;
#   4. every test that passes under upstream's plugin passes under ours
#      (per test file; a python file passes when each of its cases does).
# The table of results: OUT/table, "TEST|UPSTREAM|OURS" (PASS, FAIL, SKIP).
#
# Environment: MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX,
# MFPRIO_PLUGIN_SO (plugin-lib.sh); MFPRIO_SLURM_SOURCE (Debian's configured
# source, default slurm-source.sh's); MFPRIO_SUITE_TESTS (a subset of the
# test names above, blank separated); MFPRIO_SUITE_SOURCE (another
# release's source tree whose testsuite to run, for 25.11 and 26.05; the
# matrix does not: it runs each release's own).  About 4 minutes (cluster start, the
# suite twice: python ~10 s, expect ~60 s each time).
# Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

py=/usr/bin/python3
python_tests="test_113_2 test_113_5 test_113_6 test_130_3 test_131_1"
expect_tests="test24.2 test24.5 test24.6 test24.7"
read -ra wanted <<<"${MFPRIO_SUITE_TESTS:-$python_tests $expect_tests}"

# known_limit TEST: why TEST cannot pass here under either plugin, for a
# reason that is not the plugin's (nothing: it must pass under upstream's).
# Such a test is still run under both, and ours must fail no part of it
# that upstream's passes (an expect test's subtests, a python file's cases)
# and skip it where upstream's skips it.
known_limit() {
	case $1 in
	test24.2)
		# Debian builds Slurm as package "slurm-wlm" (its patch to
		# configure.ac): the clients' -V prints "slurm-wlm 22.05.8",
		# where subtests 11 and 12 want "slurm 22.05.8"
		[[ -z $SLURM_PREFIX ]] &&
			echo "Debian's clients print their version as 'slurm-wlm N.N.N' (subtests 11-12, sshare -V and --version, want 'slurm N.N.N')"
		;;
	test24.6)
		# the test's own version gate
		slurm_at_least 23.02 ||
			echo "the test disables itself before 23.02 (its own version check)"
		;;
	esac
}

# the release's source tree
if [[ -n $SLURM_PREFIX ]]; then
	src=$SLURM_PREFIX/src
else
	src=${MFPRIO_SLURM_SOURCE:-$("$here/slurm-source.sh" 2>"$out/slurm-source.log" | tail -n 1)}
fi
# the testsuite: the release's own, or MFPRIO_SUITE_SOURCE's (another
# release's source tree, for a release whose tarball carries none)
suite=${MFPRIO_SUITE_SOURCE:-$src}/testsuite
if [[ ! -f $suite/python/lib/atf.py || ! -f $suite/expect/globals ]]; then
	not_ok "no testsuite in ${MFPRIO_SUITE_SOURCE:-$src} (the tarballs of 25.11 and 26.05 carry none: MFPRIO_SUITE_SOURCE may name another release's tree)"
	finish
fi
[[ -z ${MFPRIO_SUITE_SOURCE:-} ]] || say "the testsuite of $MFPRIO_SUITE_SOURCE (MFPRIO_SUITE_SOURCE), not the release's own"

for m in pytest requests; do
	"$py" -c "import $m" 2>/dev/null ||
		{ not_ok "$py cannot import $m (tests/install-deps: python3-pytest, python3-requests...)"; finish; }
done
command -v expect >/dev/null || { not_ok "no expect (tests/install-deps)"; finish; }

# python_file TEST: the release's file of TEST, relative to
# testsuite/python (nothing: the release has none)
python_file() {
	local f
	case $1 in
	test_113_2) set -- tests/test_113_2.py tests/commands/sprio/test_job_options.py ;;
	test_113_5) set -- tests/test_113_5.py tests/commands/sprio/test_--weights.py ;;
	test_130_3) set -- tests/test_130_3.py tests/parameters/slurm/PriorityType/multifactor/test_priority.py ;;
	*) set -- "tests/$1.py" ;;
	esac
	for f in "$@"; do
		[[ -f $suite/python/$f ]] && { echo "$f"; return; }
	done
}

# the tests this release carries: "TEST KIND FILE" in OUT/tests
: >"$out/tests"
for t in "${wanted[@]}"; do
	if [[ " $python_tests " == *" $t "* ]]; then
		f=$(python_file "$t")
		[[ -n $f ]] && echo "$t python $f" >>"$out/tests"
	elif [[ " $expect_tests " == *" $t "* ]]; then
		[[ -f $suite/expect/$t ]] && echo "$t expect $t" >>"$out/tests"
	else
		not_ok "MFPRIO_SUITE_TESTS: no test '$t'"
	fi
done
say "the release's tests: $(cut -d' ' -f1 "$out/tests" | paste -sd' ')"
missing=$(for t in "${wanted[@]}"; do grep -q "^$t " "$out/tests" || echo "$t"; done | paste -sd' ')
say "not in this release: ${missing:-none}"

cat >"$out/testsuite.conf" <<EOF
SlurmSourceDir=$src
SlurmBuildDir=$src
SlurmInstallDir=${SLURM_PREFIX:-/usr}
SlurmConfigDir=$DIR/etc
EOF
chmod 644 "$out/testsuite.conf"
chmod 755 "$out"

# quiesce: no job left and the node idle, as the testsuite expects a
# cluster when a test starts (the expect tests skip without an idle node in
# the default partition, test_113_2 sizes its jobs by the idle nodes' CPUs):
# jobs a test left (22.05's atf cancels none of its own) are cancelled
quiesce() {
	local end=$((SECONDS + 120))
	local -a ids
	mapfile -t ids < <(squeue -h -o %i 2>/dev/null)
	((${#ids[@]} == 0)) || scancel "${ids[@]}" 2>/dev/null
	until [[ -z $(squeue -h -o %i 2>/dev/null) && $(sinfo -h -N -p debug -o %t 2>/dev/null) == idle ]]; do
		((SECONDS < end)) || { say "the cluster is not idle after 120 s: $(sinfo -h -N -o '%N %t' | paste -sd' ')"; return 1; }
		sleep 1
	done
}

# run_suite LABEL: the release's tests against the running cluster; each
# test's result in OUT/LABEL.results, "TEST|STATUS|WHY"
run_suite() {
	local label=$1 t kind f files=() ids=() x d rc st why
	: >"$out/$label.results"
	while read -r t kind f; do
		[[ $kind == python ]] && { files+=("$f"); ids+=("$t"); }
	done <"$out/tests"
	# the testsuite's environment: its conf, the cluster, the release's
	# clients, and atf-bin's sudo
	local -a env=(SLURM_TESTSUITE_CONF="$out/testsuite.conf" SLURM_CONF="$SLURM_CONF"
		PATH="$here/atf-bin:$PATH" PYTHONDONTWRITEBYTECODE=1)
	if ((${#files[@]})); then
		quiesce
		# atf wants its temporary directories under /tmp (OUT is)
		(cd "$suite/python" && env "${env[@]}" timeout 900 "$py" -m pytest -p no:cacheprovider \
			--basetemp="$out/$label-pytest" --junitxml="$out/$label.xml" -o junit_family=xunit1 \
			-rA "${files[@]}") >"$out/$label-pytest.log" 2>&1
		"$here/junit-results.py" "$out/$label.xml" >"$out/$label.cases" 2>>"$out/$label-pytest.log"
		for x in "${!files[@]}"; do
			f=${files[$x]}
			if ! grep -q "^$f::" "$out/$label.cases"; then
				echo "${ids[$x]}|FAIL|no result in the JUnit report (see $label-pytest.log)"
			elif grep -q "^$f::[^|]*|FAIL|" "$out/$label.cases"; then
				echo "${ids[$x]}|FAIL|$(grep -m 1 "^$f::[^|]*|FAIL|" "$out/$label.cases" | cut -d'|' -f1,3 | sed 's/^[^:]*:://')"
			elif grep -q "^$f::[^|]*|SKIP|" "$out/$label.cases"; then
				echo "${ids[$x]}|SKIP|$(grep -m 1 "^$f::[^|]*|SKIP|" "$out/$label.cases" | cut -d'|' -f3)"
			else
				echo "${ids[$x]}|PASS|$(grep -c "^$f::" "$out/$label.cases") cases"
			fi
		done >>"$out/$label.results"
	fi
	# the expect tests, each run from a directory of its own holding the
	# release's globals (they write their files beside them)
	d=$out/$label-expect
	mkdir -p "$d"
	cp "$suite/expect/globals" "$d/"
	[[ -f $suite/expect/globals_accounting ]] && cp "$suite/expect/globals_accounting" "$d/"
	while read -r t kind f; do
		[[ $kind == expect ]] || continue
		cp "$suite/expect/$t" "$d/"
		quiesce
		(cd "$d" && env "${env[@]}" timeout 600 expect "$t") >"$d/$t.log" 2>&1
		rc=$?
		st=$(sed -n 's/^\(SUCCESS\|FAILURE\|SKIPPED\) *: *test.*/\1/p' "$d/$t.log" | tail -n 1)
		case $st in
		SUCCESS) echo "$t|PASS|" ;;
		SKIPPED)
			why=$(grep -m 1 -E '^\[[^]]*\] Warning ' "$d/$t.log" | sed 's/^\[[^]]*\] Warning *//; s/ *(.*//')
			echo "$t|SKIP|${why//|//}"
			;;
		FAILURE)
			why=$(grep -m 1 -E '^\[[^]]*\] (Fatal |Error +Subtest)' "$d/$t.log" |
				sed 's/^\[[^]]*\] [A-Za-z]* *//; s/ *([^()]*@.*//')
			echo "$t|FAIL|${why//|//}"
			;;
		*) echo "$t|FAIL|no result (exit status $rc; see $d/$t.log)" ;;
		esac >>"$out/$label.results"
		# its failed subtests, by number
		sed -n 's/.*Subtest \([0-9]*\) failed.*/\1/p' "$d/$t.log" | sort -u >"$out/$label.$t.subfails"
	done <"$out/tests"
	sed "s/^/    $label: /" "$out/$label.results"
}

# passed_cases LABEL FILE: the cases of python FILE that passed in LABEL's
# run, sorted
passed_cases() {
	grep "^$2::[^|]*|PASS|" "$out/$1.cases" 2>/dev/null | cut -d'|' -f1 | sort
}

# status_of LABEL TEST: PASS, FAIL or SKIP of TEST in LABEL's run
status_of() {
	awk -F'|' -v t="$2" '$1 == t { print $2; exit }' "$out/$1.results"
}

# 1. ours first on PluginDir
use_plugin ours
start_cluster "$here/priority-default.conf"
check "the cluster runs our $plugin_so ($(loaded_so | paste -sd' '))" loaded_is "$plugin_so"
t0=$SECONDS
run_suite ours
say "the suite under our plugin: $((SECONDS - t0)) s"
check "after the suite the controller still runs our .so ($(loaded_so | paste -sd' '))" loaded_is "$plugin_so"

# 2. upstream's alone, on the same cluster
use_plugin upstream
restart_ctld upstream || { not_ok "slurmctld did not restart with upstream's plugin"; finish; }
check "the cluster runs upstream's $UPSTREAM_SO ($(loaded_so | paste -sd' '))" loaded_is "$UPSTREAM_SO"
t0=$SECONDS
run_suite upstream
say "the suite under upstream's plugin: $((SECONDS - t0)) s"
check "after the suite the controller still runs upstream's .so ($(loaded_so | paste -sd' '))" loaded_is "$UPSTREAM_SO"

# 3 and 4: the control, then ours against it
: >"$out/table"
while read -r t kind f; do
	u=$(status_of upstream "$t")
	o=$(status_of ours "$t")
	echo "$t|${u:-FAIL}|${o:-FAIL}" >>"$out/table"
	limit=$(known_limit "$t")
	if [[ -n $limit ]]; then
		say "$t: not asked to pass (a known limit: $limit); upstream ${u:-FAIL}, ours ${o:-FAIL}"
		# ours fails nothing of it that upstream's passes
		if [[ $kind == expect ]]; then
			check "$t: ours fails no subtest that upstream's passes (upstream fails: $(paste -sd, "$out/upstream.$t.subfails"); ours: $(paste -sd, "$out/ours.$t.subfails"))" \
				test -z "$(comm -13 "$out/upstream.$t.subfails" "$out/ours.$t.subfails")"
		else
			check "$t: ours fails no case that upstream's passes" \
				test -z "$(comm -23 <(passed_cases upstream "$f") <(passed_cases ours "$f"))"
		fi
		[[ $u == SKIP ]] && check "$t: skipped under ours as under upstream's (${o:-FAIL})" test "$o" == SKIP
	else
		check "$t passes under upstream's plugin (the control) (${u:-FAIL}$(awk -F'|' -v t="$t" '$1 == t && $2 != "PASS" { print ": " $3 }' "$out/upstream.results"))" \
			test "$u" == PASS
	fi
	if [[ $u == PASS ]]; then
		check "$t passes under our plugin as under upstream's (${o:-FAIL}$(awk -F'|' -v t="$t" '$1 == t && $2 != "PASS" { print ": " $3 }' "$out/ours.results"))" \
			test "$o" == PASS
	fi
done <"$out/tests"
say "table (test|upstream|ours), $SLURM_RELEASE:"
sed 's/^/    /' "$out/table"
finish
