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
#      (OUTDIR/build-VERSION) and installed (MFPRIO_INSTALL_ROOT), one
#      release after the other by a builder in the background (niced);
#   2. the checks below run as tasks over MFPRIO_MATRIX_LANES lanes (default
#      14), the longest first; lane N drives cluster instance N (tests/cluster/instance.sh: its
#      own ports, ClusterName, StateSaveLocation, slurmdbd and database;
#      one MariaDB and one munged serve all), one task at a time, each
#      within a time limit (below); a release's tasks join the queue as
#      soon as it is built, so the lanes start at once with Debian's
#      release while the others build;
#   3. every task scheduled ends with a result: past its time limit a task
#      is killed, FAIL "timed out after N s", its cluster instance is
#      stopped and the lane goes on with its next task; a task a lane took
#      and never finished (the lane died), or that no lane took, is FAIL
#      "no result (...)" once the lanes are done;
#   4. what was not run at all is a skip, named with its reason: a release
#      whose source is not found (with its build and every check), the
#      checks of a release whose build failed, a release of
#      release/releases.tsv left out by MFPRIO_MATRIX_RELEASES, and
#      sprio-vs-mfprio under MFPRIO_SKIP_SPRIO=1;
#   5. the failures and skips, each with its reason, then a table: release
#      x check, PASS / FAIL / SKIP / - (not a check of that release; PASS*
#      or FAIL*: a part of it left out, a skip of its own), then
#      "matrix: N passed, M failed, K skipped".
#
# Checks (each a script of this directory, with that release's binaries,
# its upstream plugin, and our plugin built against its source):
#   build          Slurm's build (cached) and our plugin's against it;
#                  then tests/build/plugin-symbols.sh: the plugin has no
#                  strong reference that the release's libslurmfull (or a
#                  library it needs) does not define, and dlopens with
#                  RTLD_LAZY and RTLD_NOW after libslurmfull (a failure
#                  fails the build check; the other checks still run)
#   loads          test-plugin-loads.sh: ours is loaded, not upstream's;
#                  state file compatible both ways; restarts on bad ones
#   slurm-prog     test-slurm-prog.sh: Slurm's own test programs of the
#                  plugin (test24.1.prog.c, prio_multifactor.c in 26.11;
#                  Fair Tree's test24.4.prog.c)
#                  against that release, with upstream's plugin and with
#                  ours, every row its test file expects (no cluster)
#   slurm-suite    test-slurm-suite.sh: the priority tests of Slurm's own
#                  testsuite (python: test_113_2, 113_5, 113_6, 130_3,
#                  131_1; expect: test24.2, 24.5, 24.6, 24.7), those the
#                  release carries, run by pytest and expect against a
#                  cluster of that release with ours, then with
#                  upstream's plugin (the control); only on the releases
#                  whose source carries the testsuite (has_suite: 22.05
#                  to 25.05 and 26.11; the tarballs of 25.11 and 26.05
#                  carry none)
#   usage          test-plugin-usage.sh: short jobs charged, usage as
#                  upstream accrues it; a job of two partitions (and,
#                  from 24.11, two QOS) requeued, its run booked to the
#                  partition QOS and QOS it ran under (case 6: every live
#                  release); a running job requeued (cases 4 and 5: on
#                  the oldest and the newest live release; on the others
#                  a skip "usage: cases 4-5 ...", the table's PASS*)
#   diff           test-plugin-differential.sh for each algorithm (Fair
#                  Tree, classic, DEPTH_OBLIVIOUS) on one cluster: sshare
#                  -a -l -P and sprio -l through upstream's plugin and ours
#                  on the same state; from 24.11 with a job that asks for
#                  several QOS
#   stats          test-plugin-stats.sh: the plugin's own figures per cycle
#                  (mfprio_stats, the DebugFlags=Priority line)
#   flags          the differential over weights and flags (22.05 only)
#   metrics        test-metrics.sh: the plugin's metrics file through
#                  node_exporter and Prometheus against sshare and sprio,
#                  and mfprio metrics --live under upstream's plugin (the
#                  bad settings of the file on Debian's release only)
#   crash-usage    test-crash-usage.sh: SIGKILL while jobs run loses at most
#                  a PriorityCalcPeriod (the newest live release; 22.05
#                  runs it with the other test-*.sh)
#   fault-statesave  test-fault-statesave.sh: StateSaveLocation full, then
#                  read-only, while jobs run and end (the newest live
#                  release; 22.05 runs it with the other test-*.sh)
#   fault-dbd-down test-fault-dbd-down.sh: slurmdbd stopped ten minutes
#                  while jobs run, start and end: usage within 10% of
#                  sacct's (the newest live release; 22.05 runs it with
#                  the other test-*.sh)
#   fault-backup   test-fault-backup.sh: a backup controller takes over
#                  from a killed primary and hands back (the newest live
#                  release; 22.05 runs it with the other test-*.sh)
#   fault-clock    test-fault-clock.sh: slurmctld's clock stepped back and
#                  forward an hour while jobs run (the newest live release;
#                  22.05 runs it with the other test-*.sh)
#   fault-reload   test-fault-reload.sh: the plugin's second read of
#                  slurmctld's saved usage finds no file (gdb): the usage
#                  is kept (the newest live release; 22.05 with the rest)
#   busy-lock      test-busy-lock.sh: gdb holds slurmctld's job write lock
#                  30 s across a decay pass: every job charged in full, no
#                  false step (the newest live release; 22.05 with the rest)
#   soak           test-soak.sh: a production day side by side, two
#                  clusters of four nodes (the lane's instance N, ours, and
#                  N + 60, upstream's) fed the same seeded stream (arrays,
#                  het jobs, GPUs under billing weights, preemption,
#                  suspend, a node down, reconfigure, a restart) for
#                  MFPRIO_MATRIX_SOAK_MINUTES; every association's usage
#                  held to its sacct and to upstream's (Debian's release
#                  and the newest live one).  It covers test-het-submit.sh
#                  (26.11's het-job submit charge), which the matrix no
#                  longer runs (by hand: it still runs alone)
#   fault-clock-nl test-fault-clock.sh MFPRIO_ACCT_ENFORCE=associations:
#                  the same without limits enforcement (the plugin finds
#                  ended jobs itself, by passes and sweeps): a job ended
#                  before the step back charged once, one ending after the
#                  step forward not billed the step (the newest live
#                  release and 22.05)
#   replay         test-replay.sh: mfprio replay of the cluster's own
#                  history gives its sshare (the newest live release; 22.05
#                  runs it with the other test-*.sh; about 5 minutes)
#   why-start      test-why-start.sh: mfprio why JOBID run live by a user
#                  gives backfill's start time, as squeue --start (the
#                  newest live release; 22.05 with the rest; 2 minutes)
#   (22.05 only)   the other test-*.sh (among them test-snapshot.sh: mfprio
#                  snapshot, then --snapshot against live sshare and sprio)
#                  and sprio-vs-mfprio.sh
# The releases, and which run all their checks ("live") and which only
# build, load and the differential, are release/releases.tsv's.
#
# Files in OUTDIR:
#   tasks      the tasks scheduled, one a line, as each release was built
#              (queue: those not yet taken, longest first):
#              RELEASE CHECK SCRIPT [VAR=VALUE...]
#   built/     a file a release built: "PREFIX SO" (PREFIX "-" for Debian's);
#              builds-done once the builder has ended
#   results    a line for each build tried and for each task of tasks:
#                RELEASE|CHECK|PASS|LOG|
#                RELEASE|CHECK|FAIL|LOG|REASON
#              CHECK is "build" or a task's CHECK; LOG the log (empty for a
#              task that never started); REASON one of "exit status N",
#              "ran no check" (exit status 0, but the log's last "N passed,
#              M failed" has N + M = 0, or there is none),
#              "timed out after N s", "no result (lane N ended while
#              running it)", "no result (never started: all lanes ended
#              first)", "Slurm's build failed", "the plugin's build failed",
#              "PATH missing" (Debian's plugin), or why slurm-release.sh
#              refused the source it found or fetched.  PASS and FAIL only: anything
#              not PASS is a failure.
#   skipped    a line for each build or check not run at all (never a
#              failure, but counted and named):
#                RELEASE|CHECK|SKIP||REASON
#              REASON: "no source found: ..." (slurm-release.sh find's last
#              words), "not run: the build failed", "not in
#              MFPRIO_MATRIX_RELEASES", "MFPRIO_SKIP_SPRIO=1"; a part of a
#              check that its script left out and named (a line
#              "NAME: SKIPPED: WHAT: WHY" of its log, check-lib.sh's
#              skip_part; the check's PASS or FAIL is that of the rest):
#                RELEASE|CHECK: WHAT|SKIP||WHY
#              and, when
#              the newest live release is not run, one line
#                SchedMD|usage cases 4-5 (requeue), crash-usage, fault-statesave, fault-dbd-down, fault-backup, fault-clock, fault-clock-nl, fault-reload, busy-lock, soak, replay|SKIP||...
#              for the checks that then run on no SchedMD release.
#              Neither file's REASON contains '|'.
#   taken      LANE|RELEASE|CHECK, as each lane took each task
#   build-RELEASE.log, RELEASE-CHECK.log (":" as "-"), lane-N-stop.log
#   suite-table.md  Slurm's own tests, test x release x plugin, made from
#              the slurm-prog and slurm-suite logs (suite-table.py)
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
#   MFPRIO_MATRIX_RELEASES  releases to run (default: all, 22.05.8 first);
#                           the table's others are skipped
#   MFPRIO_MATRIX_LANES     concurrent clusters (default 14; instances
#                           FIRST.. up to 29).  20 lanes made the warm
#                           run 28 minutes instead of 39 (the 2 cores sat
#                           80-90% idle with 14), but one of two such runs
#                           failed test-fault-backup on 26.11 (the primary
#                           did not read again the usage the backup saved:
#                           b/u1 61 of 90), which passes with 14: not the
#                           default until that is understood
#   MFPRIO_MATRIX_FIRST     the first lane's cluster instance (default 1)
#   MFPRIO_MATRIX_TASK_TIMEOUT  seconds each task may run, for every task
#                           (default: per check, task_limit below; 0: none)
#   MFPRIO_SLURM_TARBALLS   where release sources are (slurm-release.sh)
#   MFPRIO_SKIP_SPRIO=1     skip sprio-vs-mfprio.sh (22.05)
#   MFPRIO_MATRIX_SOAK_MINUTES  the soak's day, in minutes (default 10: two
#                           days of 30 minutes do not fit the test
#                           command's 40 warm minutes on 2 cores; 30 is the
#                           form doc/robustness.md reports)
# A task that fails while the machine's wall clock steps against
# CLOCK_BOOTTIME by more than 3 s (a paused virtual machine whose clock is
# then set right; NTP) is run once more: its checks against sacct's
# wall-clock times cannot hold across the step.  Its result says so (the
# first run's log kept as LOG.step), the summary lists it, and a second
# failure is the task's failure.
# Exit status: 0 when no build or task failed (skips alone do not fail the
# matrix: a clone without ../shared/slurm runs Debian's release only, and
# says so) and at least one check passed; else 1.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=${MFPRIO_TOP:-$(cd "$here/../.." && pwd)}
out=${1:?usage: matrix.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
lanes=${MFPRIO_MATRIX_LANES:-14}
first=${MFPRIO_MATRIX_FIRST:-1}
# the lanes' instances are FIRST to FIRST + LANES - 1, below 30 and 31
# (the package tests' clusters, which run beside the matrix); a soak's
# second cluster is its lane's instance + 60
if [[ ! $lanes =~ ^[0-9]+$ || ! $first =~ ^[0-9]+$ ]] || ((lanes < 1 || first < 1 || first + lanes - 1 > 29)); then
	echo "matrix: error: lanes $lanes from instance $first: the lanes' instances must lie in 1-29 (30 and 31 are the package tests')" >&2
	exit 2
fi
if [[ -n ${MFPRIO_MATRIX_TASK_TIMEOUT:-} && ! ${MFPRIO_MATRIX_TASK_TIMEOUT} =~ ^[0-9]+$ ]]; then
	echo "matrix: error: MFPRIO_MATRIX_TASK_TIMEOUT='$MFPRIO_MATRIX_TASK_TIMEOUT' is not a number of seconds" >&2
	exit 2
fi
SOAK_MINUTES=${MFPRIO_MATRIX_SOAK_MINUTES:-10}
if [[ ! $SOAK_MINUTES =~ ^[0-9]+$ ]] || ((SOAK_MINUTES < 3)); then
	echo "matrix: error: MFPRIO_MATRIX_SOAK_MINUTES='$SOAK_MINUTES' is not a number of minutes, 3 or more" >&2
	exit 2
fi
# the releases and what each runs: release/releases.tsv
rtable=$top/release/releases.sh
LIVE=" $("$rtable" tested checks=live | tr '\n' ' ') "
# Debian's own Slurm (the installed package, built by run-all as the main
# build), which also runs every other cluster test of this directory
DEBIAN=$("$rtable" tested source=debian | head -n 1)
# the newest live release, which runs, besides the live checks, those the
# issues ask of the oldest and the newest (Debian's release runs every
# test-*.sh of this directory)
NEWEST=$("$rtable" tested checks=live | tail -n 1)
OLDEST=$("$rtable" tested checks=live | head -n 1)
read -ra tested <<<"$("$rtable" tested | tr '\n' ' ')"
read -ra releases <<<"${MFPRIO_MATRIX_RELEASES:-${tested[*]}}"
# the table's releases that MFPRIO_MATRIX_RELEASES leaves out: skipped,
# and named, not silently absent
unselected=()
for v in "${tested[@]}"; do
	[[ " ${releases[*]} " == *" $v "* ]] || unselected+=("$v")
done
results=$out/results        # RELEASE|CHECK|PASS or FAIL|LOG|REASON
skipped=$out/skipped        # RELEASE|CHECK|SKIP||REASON
taken=$out/taken            # LANE|RELEASE|CHECK
: >"$results"
: >"$skipped"
: >"$taken"
rm -f "$out"/lane-*.running

say() { printf 'matrix: [%4ds] %s\n' "$SECONDS" "$*"; }
# result RELEASE CHECK PASS|FAIL [LOG [REASON]]
result() {
	local why=${5:-}
	why=${why//|//}
	echo "$1|$2|$3|${4:-}|${why//$'\n'/ }" >>"$results"
}
# ran_checks LOG: LOG's last "N passed, M failed" line has N + M > 0
ran_checks() {
	local l
	l=$(grep -aE '(^|[^0-9])[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -n 1)
	[[ $l =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] &&
		((BASH_REMATCH[1] + BASH_REMATCH[2] > 0))
}
# skip RELEASE CHECK REASON
skip() {
	local why=${3//|//}
	echo "$1|$2|SKIP||${why//$'\n'/ }" >>"$skipped"
}

# task_skips RELEASE CHECK LOG: each part of a check that its script left
# out, named on a line "NAME: SKIPPED: WHAT: WHY" of LOG (check-lib.sh's
# skip_part), a skip "CHECK: WHAT" of RELEASE: the check's PASS is then
# that of what it ran (a * in the table), and the part is counted
task_skips() {
	local what
	while IFS= read -r what; do
		skip "$1" "$2: ${what%%: *}" "${what#*: }"
	done < <(sed -n 's/^[A-Za-z0-9_.-]*: SKIPPED: //p' "$3" 2>/dev/null)
}

# has_suite VERSION: VERSION's source carries Slurm's python and expect
# testsuite (test-slurm-suite.sh runs it): Debian's configured source, or
# the source tree of the release as built (a release not built: yes, its
# checks are skipped anyway)
has_suite() {
	local p t
	if [[ $1 == "$DEBIAN" ]]; then
		t=$("$here/slurm-source.sh" 2>/dev/null | tail -n 1)
	else
		[[ -f $built/$1 ]] || return 0
		read -r p _ <"$built/$1"
		t=$p/src
	fi
	[[ -n $t && -f $t/testsuite/python/lib/atf.py && -f $t/testsuite/expect/globals ]]
}

# checks_of VERSION: the checks VERSION runs, one a line: CHECK SCRIPT
# [VAR=VALUE...] (whether it is built or not: a release not run is
# skipped check by check, as its row of the table would have been)
checks_of() {
	local v=$1 a t n
	# Slurm's own test program, every release (no cluster)
	echo "slurm-prog test-slurm-prog.sh"
	# Slurm's own testsuite, where the release's source has it (all but
	# 25.11 and 26.05: doc/slurm-testsuite.md)
	if has_suite "$v"; then echo "slurm-suite test-slurm-suite.sh"; fi
	# the three algorithms on one cluster: its setup (usage from real
	# jobs, the pending jobs) is most of a single algorithm's time
	echo "diff test-plugin-differential.sh"
	if [[ $LIVE == *" $v "* ]]; then
		echo "loads test-plugin-loads.sh"
		# a running job requeued: on the oldest and the newest live
		# release (seven minutes of the check's fifteen)
		if [[ $v == "$OLDEST" || $v == "$NEWEST" ]]; then
			echo "usage test-plugin-usage.sh"
		else
			echo "usage test-plugin-usage.sh MFPRIO_USAGE_NO_REQUEUE=1"
		fi
		echo "stats test-plugin-stats.sh"
		# Debian's release runs it with the other test-*.sh
		if [[ $v != "$DEBIAN" ]]; then echo "metrics test-metrics.sh MFPRIO_METRICS_NO_ERRORS=1"; fi
		if [[ $v == "$NEWEST" && $v != "$DEBIAN" ]]; then
			echo "crash-usage test-crash-usage.sh"
			echo "fault-statesave test-fault-statesave.sh"
			echo "fault-dbd-down test-fault-dbd-down.sh"
			echo "fault-backup test-fault-backup.sh"
			echo "fault-clock test-fault-clock.sh"
			echo "fault-reload test-fault-reload.sh"
			echo "busy-lock test-busy-lock.sh"
			echo "fault-clock-nl test-fault-clock.sh MFPRIO_ACCT_ENFORCE=associations"
			echo "replay test-replay.sh"
			echo "why test-why.sh"
			echo "why-start test-why-start.sh"
		fi
	else
		echo "loads test-plugin-loads.sh"
	fi
	# a decay pass that overran three periods on slurmctld's job lock
	# (issue 35): on Debian's release and the newest, a task of its own
	# (test-busy-lock.sh's default run stays at its 5 minutes)
	if [[ $v == "$DEBIAN" || $v == "$NEWEST" ]]; then
		echo "busy-overrun test-busy-lock.sh MFPRIO_BUSY_OVERRUN=1"
		# a production day side by side (issue 35), on two instances:
		# the lane's and its peer (@PEER, below); it covers the
		# heterogeneous jobs' submit charge that test-het-submit.sh
		# alone checked (on 26.11 each het job's association is held to
		# sacct within MFPRIO_SOAK_TOL), so that one is not run here
		echo "soak test-soak.sh MFPRIO_SOAK_MINUTES=$SOAK_MINUTES MFPRIO_SOAK_PEER=@PEER"
	fi
	if [[ $v == "$DEBIAN" ]]; then
		echo "flags test-plugin-differential-flags.sh"
		# test-soak.sh is a task of its own (above); test-het-submit.sh
		# is covered by it
		for t in "$here"/test-*.sh; do
			n=$(basename "$t" .sh)
			case $n in
			test-plugin-differential* | test-plugin-loads | test-plugin-usage | test-plugin-stats | test-slurm-prog | test-slurm-suite | test-soak | test-het-submit) continue ;;
			esac
			echo "${n#test-} $n.sh"
		done
		# the loop runs each with its default environment: the clock
		# steps without limits enforcement are a task of their own
		echo "fault-clock-nl test-fault-clock.sh MFPRIO_ACCT_ENFORCE=associations"
		echo "sprio-vs-mfprio sprio-vs-mfprio.sh"
	fi
}

# task_limit CHECK: the seconds a task may run before it is killed.  About
# 2.5 times the longest run seen with 8 lanes on 2 busy cores (diff 560 s
# for its three algorithms, loads 480, usage 600, stats 195, flags 680, fs-kept 480, fairshare-sshare
# 400, faults 390, new-assoc 330, busy-overrun 640 by hand on a loaded
# machine (mostly its own waits), the others under 300) and never under
# 900 s: a slow machine must not fail a sound check, but one hung test must
# not hold the whole run (usage: 1096 s seen with 14 lanes with its requeue
# cases, before case 6 added a minute or two).  MFPRIO_MATRIX_TASK_TIMEOUT
# overrides (0: none).
task_limit() {
	if [[ -n ${MFPRIO_MATRIX_TASK_TIMEOUT:-} ]]; then
		echo "$MFPRIO_MATRIX_TASK_TIMEOUT"
		return
	fi
	case $1 in
	soak) echo $((SOAK_MINUTES * 60 + 1500)) ;;
	flags | usage) echo 1800 ;;
	diff) echo 1500 ;;
	loads | fs-kept | fairshare-sshare | faults | crash-usage | limits | fault-dbd-down | slurm-suite | busy-overrun) echo 1200 ;;
	replay) echo 900 ;;
	*) echo 900 ;;
	esac
}

# task_estimate CHECK RELEASE: about how many seconds the task takes (10-14
# lanes on 2 cores, warm caches), for the queue's order only: the longest
# start first.  A check not named here is taken for a 4-minute one.
task_estimate() {
	case $1 in
	soak) echo $((SOAK_MINUTES * 60 + 500)) ;;
	usage)
		# the requeue cases (oldest and newest live release) run longer
		if [[ $2 == "$OLDEST" || $2 == "$NEWEST" ]]; then echo 1070; else echo 680; fi ;;
	fault-dbd-down) echo 760 ;;
	slurm-suite) echo 400 ;;
	flags) echo 700 ;;
	diff) echo 560 ;;
	fs-kept) echo 480 ;;
	busy-overrun) echo 600 ;;
	crash-usage) echo 430 ;;
	fault-clock) echo 270 ;;
	busy-lock) echo 300 ;;
	fault-reload) echo 200 ;;
	fault-clock-nl) echo 300 ;;
	fault-backup) echo 230 ;;
	fairshare-sshare) echo 420 ;;
	faults) echo 390 ;;
	loads | limits) echo 360 ;;
	new-assoc) echo 330 ;;
	metrics) echo 280 ;;
	part-assoc | load | sprio-vs-mfprio) echo 270 ;;
	replay | plugin-robust) echo 255 ;;
	fault-statesave) echo 230 ;;
	plugin-decay | why | snapshot | stats | tsan) echo 200 ;;
	no-state-charge) echo 145 ;;
	no-dbd) echo 110 ;;
	conf-garbage) echo 75 ;;
	plugin-mismatch | jobs-json | plugin-sprio) echo 30 ;;
	slurm-prog) echo 15 ;;
	*) echo 240 ;;
	esac
}

# stop_instance N PREFIX: stop cluster instance N's daemons (PREFIX: the
# release the last task there ran, for its squeue and scancel), as the test
# scripts' own clean-up does, under the instance's lock (cluster-lock.sh):
# daemons of a killed task that inherited the lock do not stop us, but a
# holder outside this matrix (the instance is not ours then) is waited for
# 60 s and its cluster left alone.
stop_instance() {
	(
		export MFPRIO_CLUSTER_INSTANCE=$1 MFPRIO_SLURM_PREFIX=$2 MFPRIO_CLUSTER_LOCK_WAIT=60
		# shellcheck source=cluster-lock.sh source-path=SCRIPTDIR disable=SC1091
		. "$here/cluster-lock.sh"
		cluster_lock "matrix lane $1"
		"$here/cluster.sh" stop
	) >>"$out/lane-$1-stop.log" 2>&1 </dev/null
}

# ---------------------------------------------------------------- builds
# The releases are built one after the other by a builder in the
# background (niced: the clusters' daemons come first), and each release's
# checks join the queue as soon as its plugin is built, so that the lanes
# run Debian's release (nothing to build) and each built release while the
# next ones build: on a machine with nothing cached the builds (2 to 5
# minutes each) no longer hold every cluster back.
# symbols_result VERSION SO PREFIX LOG: the build's result, by
# tests/build/plugin-symbols.sh against the libslurmfull of the release
# installed at PREFIX ("" for Debian's packages) (appended to LOG): PASS, or
# FAIL with its first failure as the reason
symbols_result() {
	local v=$1 so=$2 p=$3 log=$4 why
	if MFPRIO_SLURM_PREFIX=$p "$top/tests/build/plugin-symbols.sh" "$so" >>"$log" 2>&1; then
		result "$v" build PASS "$log"
	else
		why=$(grep -m 1 '^FAILED: ' "$log" | cut -c 9-200)
		result "$v" build FAIL "$log" "plugin-symbols.sh: ${why:-failed}"
		say "$v: the plugin fails plugin-symbols.sh: ${why:-see $log}"
	fi
}
install_root=${MFPRIO_INSTALL_ROOT:-/var/tmp/mfprio-install}
mkdir -p "$install_root" && chmod 755 "$install_root"
# OUTDIR/built/VERSION: "PREFIX SO" of a release built (PREFIX "-" for
# Debian's 22.05.8); OUTDIR/builds-done once the builder has ended
built=$out/built
rm -rf "$built" "$out/builds-done"
mkdir -p "$built"
# the lanes take from queue; tasks stays the list of what must have a result
queue=$out/queue
tasks=$out/tasks
: >"$tasks"
: >"$queue"

# build_release VERSION: find and build VERSION, build our plugin against
# it; its build result (or skip) recorded; on success OUTDIR/built/VERSION
build_release() {
	local v=$1 log=$out/build-$1.log src p b inst so frc
	if [[ $v == "$DEBIAN" ]]; then
		so=${MFPRIO_PLUGIN_SO:-${MFPRIO_BUILD:-$top/_build/main}/src/plugin/.libs/priority_multifactor.so}
		if [[ -f $so ]]; then
			symbols_result "$v" "$so" "" "$log"
			echo "- $so" >"$built/$v"
		else
			result "$v" build FAIL "" "$so missing"
		fi
		return
	fi
	# exit 2: no source anywhere (skipped, with where it looked and how
	# to provide one); 1: one found or fetched but refused (a failure)
	src=$("$here/slurm-release.sh" find "$v" 2>"$log")
	frc=$?
	if [[ $frc -eq 2 ]]; then
		echo "no source found: $(tail -n 1 "$log" | sed 's/^slurm-release: //')" >"$built/$v.notrun"
		skip "$v" build "$(cat "$built/$v.notrun")"
		say "$v: no source found; skipped"
		return
	elif [[ $frc -ne 0 ]]; then
		result "$v" build FAIL "$log" "$(tail -n 1 "$log" | sed 's/^slurm-release: //')"
		say "$v: its source was refused; see $log"
		return
	fi
	say "$v: Slurm from $src (cached build, or about 3 min)"
	p=$(nice -n 10 "$here/slurm-release.sh" build "$v" 2>>"$log" | tail -n 1)
	if [[ -z $p || ! -x $p/sbin/slurmctld ]]; then
		result "$v" build FAIL "$log" "Slurm's build failed"
		return
	fi
	b=$out/build-$v
	mkdir -p "$b"
	say "$v: building mfprio's plugin against $p/src"
	# installed as an admin would, where the daemons (user slurm) can
	# read it: the build tree may be in a private home directory
	inst=$install_root/$v
	if (cd "$b" && SLURMCTLD=$p/sbin/slurmctld nice -n 10 "$top/configure" --enable-werror \
		--prefix="$inst" --with-slurm-source="$p/src" &&
		nice -n 10 make -j2 install-pluginLTLIBRARIES) \
		>>"$log" 2>&1 && [[ -f $inst/lib/mfprio/slurm/priority_multifactor.so ]]; then
		so=$inst/lib/mfprio/slurm/priority_multifactor.so
		symbols_result "$v" "$so" "$p" "$log"
		echo "$p $so" >"$built/$v"
	else
		result "$v" build FAIL "$log" "the plugin's build failed"
		tail -n 20 "$log"
	fi
}

# enqueue VERSION: VERSION's checks into tasks and the queue (or skipped,
# each with its reason); the queue kept longest first, so that a release
# built late still starts its differentials before the short checks left
enqueue() {
	local v=$1 check script rest new=()
	while read -r check script rest; do
		if [[ " ${unselected[*]} " == *" $v "* ]]; then
			skip "$v" "$check" "not in MFPRIO_MATRIX_RELEASES"
		elif [[ ! -f $built/$v ]]; then
			skip "$v" "$check" "$(cat "$built/$v.notrun" 2>/dev/null || echo "not run: the build failed")"
		elif [[ $check == sprio-vs-mfprio && ${MFPRIO_SKIP_SPRIO:-} == 1 ]]; then
			skip "$v" "$check" "MFPRIO_SKIP_SPRIO=1"
		else
			new+=("$v $check $script${rest:+ $rest}")
		fi
	done < <(checks_of "$v")
	[[ ${#new[@]} -gt 0 ]] || return 0
	(
		flock 7
		printf '%s\n' "${new[@]}" >>"$tasks"
		# the longest first (by task_estimate), so that the lanes end
		# together
		{ cat "$queue"; printf '%s\n' "${new[@]}"; } |
			while read -r tv tc tr; do
				printf '%s\t%s\n' "$(task_estimate "$tc" "$tv")" "$tv $tc $tr"
			done | sort -s -t$'\t' -k1,1nr | cut -f2- >"$queue.new"
		mv "$queue.new" "$queue"
	) 7>>"$queue.lock"
}

# build_order: the releases to build, in the order they are built:
# Debian's (nothing to build), then the newest live release (its checks are
# the longest: requeue cases, crash-usage, fault-dbd-down, replay), then
# the others newest first; on a first run each release's checks start once it is built, so
# the checks left to run after the last build are short ones.
build_order() {
	local v i
	for v in "${releases[@]}"; do [[ $v == "$DEBIAN" ]] && echo "$v"; done
	for v in "${releases[@]}"; do [[ $v == "$NEWEST" && $v != "$DEBIAN" ]] && echo "$v"; done
	for ((i = ${#releases[@]} - 1; i >= 0; i--)); do
		v=${releases[i]}
		[[ $v == "$DEBIAN" || $v == "$NEWEST" ]] || echo "$v"
	done
}

builder() {
	local v
	for v in $(build_order); do
		build_release "$v"
		enqueue "$v"
	done
	for v in "${unselected[@]}"; do
		skip "$v" build "not in MFPRIO_MATRIX_RELEASES"
		enqueue "$v"
	done
	# The checks that run on the oldest and newest live releases only
	# (requeue cases 4 and 5 of usage; on the newest also crash-usage,
	# the fault-* checks and replay) besides Debian's: when that release
	# is not run, they run on no SchedMD release; one line says so,
	# beside the release's own skipped checks.
	local only why
	for v in "$OLDEST" "$NEWEST"; do
		[[ $v == "$DEBIAN" || -f $built/$v ]] && continue
		[[ $v == "$NEWEST" ]] && only="usage cases 4-5 (requeue), crash-usage, fault-statesave, fault-dbd-down, fault-backup, fault-clock, fault-clock-nl, fault-reload, busy-lock, soak, replay" ||
			only="usage cases 4-5 (requeue)"
		if [[ " ${unselected[*]} " == *" $v "* ]]; then
			why="not in MFPRIO_MATRIX_RELEASES"
		else
			why=$(cat "$built/$v.notrun" 2>/dev/null || echo "its build failed")
			why=${why%%:*}
		fi
		skip "SchedMD" "$only" "run only on $v among SchedMD's releases, which is not run ($why): on no SchedMD release (Debian's $DEBIAN runs them)"
		say "$only: on no SchedMD release ($v is not run)"
	done
	say "builds done: $(wc -l <"$tasks") tasks scheduled, $(wc -l <"$skipped") skipped"
	touch "$out/builds-done"
}

# prefix_of VERSION: the install prefix of a built release ("" for Debian's);
# so_of VERSION: our plugin built for it
prefix_of() { local p _s; read -r p _s <"$built/$1" 2>/dev/null || return 0; [[ $p == - ]] || echo "$p"; }
so_of() { local _p s; read -r _p s <"$built/$1" 2>/dev/null && echo "$s"; }

if [[ -n ${MFPRIO_MATRIX_TASK_TIMEOUT:-} ]]; then
	limits="$MFPRIO_MATRIX_TASK_TIMEOUT s (MFPRIO_MATRIX_TASK_TIMEOUT)"
else
	limits="900-1800 s by check"
fi
say "${#releases[@]} releases to build and check over $lanes lanes (instances $first-$((first + lanes - 1))); time limit per task: $limits"

# take_task N: print the next task and remove it from the queue, noting
# that lane N took it (under a lock); while the queue is empty and releases
# are still building, wait for them; nothing printed once all is taken.
take_task() {
	local line tv tc
	while :; do
		line=$({
			flock 7
			l=$(head -n 1 "$queue")
			[[ -n $l ]] || exit 0
			sed -i 1d "$queue"
			read -r tv tc _ <<<"$l"
			echo "$1|$tv|$tc" >>"$taken"
			echo "$l"
		} 7>>"$queue.lock")
		if [[ -n $line ]]; then
			echo "$line"
			return 0
		fi
		# the builder is done (or gone: nothing more will come)
		[[ -e $out/builds-done ]] && return 0
		kill -0 "$bpid" 2>/dev/null || return 0
		sleep 5
	done
}

# clock_offset: this machine's wall clock less CLOCK_BOOTTIME (/proc/uptime),
# in seconds: constant while neither clock is stepped
clock_offset() {
	awk -v now="$(date +%s.%N)" '{ printf "%.1f\n", now - $1 }' /proc/uptime
}

# clock_step OFFSET: the step (e.g. +19.6) since clock_offset said OFFSET,
# if more than 3 s either way; else nothing
clock_step() {
	awk -v a="$1" -v b="$(clock_offset)" 'BEGIN { d = b - a; if (d > 3 || d < -3) printf "%+.1f\n", d }'
}

run_lane() {   # run_lane N
	local n=$1 line v check script rest log t0 rc limit tpid why last="" peer
	local attempt again off0 step t1
	# the lanes start a few seconds apart: their clusters' starts (the
	# heaviest part of a check) do not all fall on the same seconds
	sleep $((4 * (n - first)))
	while line=$(take_task "$n") && [[ -n $line ]]; do
		read -r v check script rest <<<"$line"
		# a task of two clusters (test-soak.sh) gets instance N + 60 as
		# its second (beyond the lanes' 1 to 29 and the package tests'
		# 30 and 31)
		peer=$((n + 60))
		rest=${rest//@PEER/$peer}
		log=$out/$v-${check//:/-}.log
		limit=$(task_limit "$check")
		last=$(prefix_of "$v")
		t0=$SECONDS
		again=""
		for attempt in 1 2; do
			off0=$(clock_offset)
			t1=$SECONDS
			# timeout(1) puts the script in a process group of its
			# own and, past the limit, sends SIGTERM to all of it
			# (the script's EXIT trap stops its cluster), SIGKILL
			# 30 s later.  In the background so that its pid is
			# known: a lane that dies leaves it behind, and the end
			# of the run kills it (lane-N.running).
			# shellcheck disable=SC2086
			env MFPRIO_CLUSTER_INSTANCE="$n" MFPRIO_SLURM_PREFIX="$last" \
				MFPRIO_PLUGIN_SO="$(so_of "$v")" MFPRIO_CLUSTER_LOCK_WAIT=3600 $rest \
				timeout --kill-after=30 "$limit" "$here/$script" >"$log" 2>&1 </dev/null &
			tpid=$!
			echo "$tpid $v $check" >"$out/lane-$n.running"
			wait "$tpid"
			rc=$?
			# A failure during which this machine's wall clock
			# stepped against CLOCK_BOOTTIME (a virtual machine
			# paused, then its clock set; NTP) says nothing of the
			# plugin: every check against sacct's wall-clock times
			# is off by the step.  Such a task is run once more,
			# said in its result; a second failure is a failure.
			step=$(clock_step "$off0")
			((rc != 0 && attempt == 1)) && [[ -n $step ]] || break
			mv -f "$log" "$log.step"
			again="run again: the machine's clock stepped by $step s during the first run (wall clock against CLOCK_BOOTTIME; its log: $log.step)"
			say "lane $n: $v $check: failed (status $rc) while the clock stepped by $step s; running it again"
		done
		# 124: timed out and ended by SIGTERM; 137: by SIGKILL.  The time
		# tells a limit reached from a script's own status 124 or 137.
		if ((limit > 0 && (rc == 124 || rc == 137) && SECONDS - t1 >= limit)); then
			why="timed out after $limit s"
			result "$v" "$check" FAIL "$log" "$why"
			rm -f "$out/lane-$n.running"
			say "lane $n: $v $check: FAIL ($why); stopping instance $n"
			# the script's own clean-up may have been cut short:
			# the next task on this lane must start clean
			stop_instance "$n" "$last" ||
				say "lane $n: instance $n not stopped (see $out/lane-$n-stop.log)"
			if [[ $rest == *MFPRIO_SOAK_PEER=* ]]; then
				stop_instance "$peer" "$last" ||
					say "lane $n: instance $peer not stopped (see $out/lane-$peer-stop.log)"
			fi
			continue
		fi
		# exit status 0 is a pass only if the script ran checks: its last
		# "N passed, M failed" with N + M > 0 (a script that checked
		# nothing, or printed no summary, fails)
		if [[ $rc -eq 0 ]] && ! ran_checks "$log"; then
			result "$v" "$check" FAIL "$log" "ran no check (no \"N passed, M failed\" with N + M > 0)"
			rc=1
		elif [[ $rc -eq 0 ]]; then result "$v" "$check" PASS "$log" "$again"; else
			result "$v" "$check" FAIL "$log" "exit status $rc${again:+; $again}"; fi
		task_skips "$v" "$check" "$log"
		rm -f "$out/lane-$n.running"
		say "lane $n: $v $check: $([[ $rc -eq 0 ]] && echo PASS || echo FAIL) ($((SECONDS - t0)) s) $(tail -n 1 "$log")"
	done
	# this lane's cluster is left stopped
	stop_instance "$n" "$last" || true
	return 0
}

builder &
bpid=$!
pids=()
for ((n = first; n < first + lanes; n++)); do
	run_lane "$n" &
	pids+=($!)
done
lane_rc=()
for i in "${!pids[@]}"; do
	wait "${pids[$i]}"
	lane_rc[i]=$?
done
# the lanes end only once the builder has: this returns at once
wait "$bpid"

# A lane that died (killed, or a shell error) may have left its task
# running and its cluster up: end the task's process group (timeout's pid
# is its group), stop the instance.  Its task has no result: below.
for i in "${!pids[@]}"; do
	n=$((first + i))
	f=$out/lane-$n.running
	[[ ${lane_rc[i]} -ne 0 || -e $f ]] || continue
	say "lane $n ended with status ${lane_rc[i]}$([[ -e $f ]] && echo " in the middle of a task")"
	p="" c=""
	if [[ -e $f ]]; then
		read -r tpid v c <"$f"
		p=$(prefix_of "$v")
		if [[ $(cat "/proc/$tpid/comm" 2>/dev/null) == timeout ]]; then
			kill -KILL -- "-$tpid" 2>/dev/null || true
		fi
		rm -f "$f"
	fi
	stop_instance "$n" "$p" ||
		say "lane $n: instance $n not stopped (see $out/lane-$n-stop.log)"
	# and its second instance, if the task was the soak
	if [[ $c == soak ]]; then stop_instance $((n + 60)) "$p" || true; fi
done

# Every task scheduled has a result by now, or it is a failure: a task
# that never ran must not leave a hole that reads as nothing wrong.
while read -r v check _; do
	awk -F'|' -v v="$v" -v c="$check" '$1 == v && $2 == c { f = 1 } END { exit !f }' "$results" &&
		continue
	lane=$(awk -F'|' -v v="$v" -v c="$check" '$2 == v && $3 == c { l = $1 } END { print l }' "$taken")
	if [[ -n $lane ]]; then
		why="no result (lane $lane ended while running it)"
	else
		why="no result (never started: all lanes ended first)"
	fi
	log=$out/$v-${check//:/-}.log
	[[ -e $log ]] || log=""
	result "$v" "$check" FAIL "$log" "$why"
done <"$tasks"

# ---------------------------------------------------------------- summary
# what was not run, by release and reason; then what failed, and why
awk -F'|' '{ k = $1 "|" $5; if (!(k in c)) { o[++n] = k; c[k] = $2 } else c[k] = c[k] ", " $2 }
	END { for (i = 1; i <= n; i++) { split(o[i], p, "|"); print p[1] " (" c[o[i]] "): " p[2] } }' "$skipped" |
	while IFS= read -r l; do say "SKIP $l"; done
if grep -q '|no source found' "$skipped"; then
	say "(a release with no source: set MFPRIO_SLURM_TARBALLS to a directory of slurm-VERSION.tar.gz or SchedMD's slurm-VERSION.tar.bz2, or put ../shared/slurm beside the clone, or give it network to fetch SchedMD's)"
fi
awk -F'|' '$3 == "FAIL" { print $1 " " $2 ": " $5 ($4 != "" ? " (" $4 ")" : "") }' "$results" |
	while IFS= read -r l; do say "FAIL $l"; done
awk -F'|' '$3 == "PASS" && $5 != "" { print $1 " " $2 ": " $5 }' "$results" |
	while IFS= read -r l; do say "PASS, $l"; done

python3 - "$results" "$skipped" "${releases[@]}" "${unselected[@]}" <<'PY'
import sys
res, skp, rels = sys.argv[1], sys.argv[2], sys.argv[3:]
table, checks, partial = {}, [], set()
for f in (res, skp):
    for line in open(f):
        v, c, r = line.rstrip('\n').split('|')[:3]
        if v not in rels:   # "SchedMD|...": a note, not a release's row
            continue
        if ': ' in c:       # "CHECK: PART": a part its script left out
            partial.add((v, c.split(': ')[0]))
            continue
        table[(v, c)] = r
        if c not in checks:
            checks.append(c)
order = ['build', 'loads', 'slurm-prog', 'slurm-suite', 'usage', 'diff', 'flags']
checks = [c for c in order if c in checks] + sorted(c for c in checks if c not in order)
w = max([len('release')] + [len(v) for v in rels])
print('release'.ljust(w) + ''.join('  ' + c for c in checks))
def cell(v, c):
    r = table.get((v, c), '-')
    return r + '*' if (v, c) in partial and r != '-' else r
for v in rels:
    print(v.ljust(w) + ''.join('  ' + cell(v, c).ljust(len(c)) for c in checks))
if partial:
    print('*: a part of the check left out (SKIP above)')
PY
# Slurm's own tests, test x release x plugin (doc/slurm-testsuite.md's
# table is this file of a run): printed, not judged again (each release's
# slurm-suite task is the verdict)
if ls "$out"/*-slurm-suite.log >/dev/null 2>&1; then
	"$here/suite-table.py" "$out" >"$out/suite-table.md" 2>&1
	say "Slurm's own tests under upstream's plugin and ours ($out/suite-table.md):"
	cat "$out/suite-table.md"
fi
passed=$(awk -F'|' '$3 == "PASS"' "$results" | wc -l)
fails=$(awk -F'|' '$3 != "PASS"' "$results" | wc -l)
skips=$(wc -l <"$skipped")
echo "matrix: $passed passed, $fails failed, $skips skipped (logs in $out)"
# nothing run at all is not a pass either
if [[ $fails -eq 0 && $passed -eq 0 ]]; then
	echo "matrix: no check ran"
	exit 1
fi
[[ $fails -eq 0 ]]
