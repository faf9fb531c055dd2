#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-tsan.sh: our plugin built with ThreadSanitizer, inside Debian's
# slurmctld 22.05 (issue 9, "Tools that find what tests miss"), on cluster
# MFPRIO_CLUSTER_INSTANCE.
#
#   - builds the plugin alone with -fsanitize=thread in its own build tree
#     (/var/tmp/mfprio-tsan/INSTANCE: the daemons run as slurm, which must
#     read it) from the source tree's configure;
#   - starts the cluster with that plugin and slurmctld preloading gcc's
#     libtsan (cluster.sh's MFPRIO_CTLD_ENV).  slurmctld itself is not
#     instrumented: TSan sees the memory accesses of our code, and the
#     locks, thread starts and heap calls of every thread through its
#     interceptors; so what it can report is a race that involves our code;
#   - a job holding every CPU, jobs pending behind it, then the storm of
#     storm-lib.sh (sprio, sshare, scontrol reconfigure, sbatch) across
#     MFPRIO_TSAN_STORM seconds of decay passes (default 150: at least two
#     passes), and a clean shutdown (the plugin's fini joins its threads);
#     the metrics file is on, so that its writer thread runs too;
#   - no TSan report names a frame of our code (src/plugin, src/core) or of
#     our .so.  Reports wholly inside Slurm or glibc are suppressed by
#     tsan.supp (each entry says why) and counted in the outputs.
# A control first: a small racy program built the same way, its source under
# a src/plugin directory, must be caught by the same report reader, so the
# reader can fail.  Budget: about 4 minutes (the build takes 20 s).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
instance=${MFPRIO_CLUSTER_INSTANCE:-0}
libtsan=${MFPRIO_LIBTSAN:-/usr/lib/x86_64-linux-gnu/libtsan.so.2}
work=/var/tmp/mfprio-tsan/$instance
say() { printf 'test-tsan: %s\n' "$*"; }
give_up() {
	say "$*"
	echo "0 passed, 1 failed"
	exit 1
}

[[ -z ${MFPRIO_SLURM_PREFIX:-} ]] || give_up "Debian's 22.05 only (MFPRIO_SLURM_PREFIX is set)"
[[ -r $libtsan ]] || give_up "no $libtsan (gcc's libtsan2, installed by tests/install-deps)"
[[ -x $top/configure ]] || give_up "no $top/configure: run autoreconf -fi first"
src=""
[[ -n ${MFPRIO_BUILD:-} && -r $MFPRIO_BUILD/Makefile ]] &&
	src=$(sed -n 's/^SLURM_SRC = //p' "$MFPRIO_BUILD/Makefile")
[[ -n $src && -d $src ]] || src=$("$here/slurm-source.sh" 2>/dev/null | tail -n 1)
[[ -n $src && -d $src ]] || give_up "no configured Slurm source (tests/cluster/slurm-source.sh)"

# ---- the TSan build of the plugin
# a build tree left by a run from another source tree is started afresh
[[ -e $work/build/.srcdir && $(cat "$work/build/.srcdir") != "$top" ]] && rm -rf "$work/build"
mkdir -p "$work/build" "$work/plugin"
echo "$top" >"$work/build/.srcdir"
chmod 755 /var/tmp/mfprio-tsan "$work" "$work/plugin"
t0=$SECONDS
(
	cd "$work/build" &&
		"$top/configure" CFLAGS='-fsanitize=thread -O1 -g' LDFLAGS=-fsanitize=thread \
			CPPFLAGS=-DMFPRIO_NO_CLOCKWAIT \
			--with-slurm-source="$src" >configure.log 2>&1 &&
		make -j2 src/plugin/priority_multifactor.la >make.log 2>&1
) || give_up "the TSan build failed: see $work/build/configure.log and make.log"
install -m 644 "$work/build/src/plugin/.libs/priority_multifactor.so" "$work/plugin/" ||
	give_up "cannot install the TSan plugin into $work/plugin"
install -m 644 "$here/tsan.supp" "$work/tsan.supp"
say "TSan plugin built in $((SECONDS - t0)) s"

export MFPRIO_PLUGIN_SO=$work/plugin/priority_multifactor.so
. "$here/plugin-lib.sh"
. "$here/storm-lib.sh"

# tsan_ours FILE...: the reports in FILEs that name a frame of our code, as
# "FILE: first line of the report"; prints nothing when there is none.
# A report runs from its "WARNING: ThreadSanitizer" line to its "=====" line.
tsan_ours() {
	awk '
		/WARNING: ThreadSanitizer/ { inrep = 1; head = $0; ours = 0; next }
		inrep && /(src\/plugin\/|src\/core\/|priority_multifactor\.so)/ { ours = 1 }
		inrep && /^==================/ {
			if (ours) print FILENAME ": " head
			inrep = 0
		}' "$@" /dev/null
}
tsan_count() {   # tsan_count FILE...: how many reports
	cat "$@" /dev/null 2>/dev/null | grep -c 'WARNING: ThreadSanitizer'
}

# ---- the control: a race in a file under src/plugin must be found
mkdir -p "$work/control/src/plugin"
cat >"$work/control/src/plugin/race.c" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-tsan.sh's control: two threads write one int without a lock. */
#include <pthread.h>
static int shared;
static void *writer(void *arg) { shared++; return arg; }
int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, writer, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
EOF
rm -f "$work/control/report".*
(cd "$work/control" && gcc -fsanitize=thread -O1 -g -pthread src/plugin/race.c -o race) &&
	TSAN_OPTIONS="log_path=$work/control/report:halt_on_error=0" "$work/control/race" >/dev/null 2>&1
check "control: the report reader finds a race in a src/plugin file" \
	test -n "$(tsan_ours "$work"/control/report.*)"

# ---- the cluster, slurmctld under TSan
tsan_log=$DIR/log/tsan
export MFPRIO_CTLD_ENV="LD_PRELOAD=$libtsan TSAN_OPTIONS=log_path=$tsan_log:suppressions=$work/tsan.supp:print_suppressions=1:halt_on_error=0:report_signal_unsafe=0:history_size=4"
use_plugin ours
# with the metrics file on, so that its writer thread runs beside the
# decay thread and the storm's reconfigures
promdir=$work/prom
rm -rf "$promdir" && mkdir -p "$promdir" && chown slurm "$promdir"
{ grep -v '^PriorityParameters=' "$here/priority-default.conf"
  echo "PriorityParameters=mfprio_metrics_file=$promdir/mfprio.prom"; } >"$out/priority.conf"
start_cluster "$out/priority.conf"
unset MFPRIO_CTLD_ENV   # later restarts of this cluster run without TSan
wait_tick 0 >/dev/null
pid=$(ctld_pid)
# stats_cycles: the plugin's passes since slurmctld started (mfprio_stats)
stats_cycles() {
	awk '$1 == "cycles_since_start" { print $2 }' "$STATE/mfprio_stats" 2>/dev/null
}
c0=$(stats_cycles) s0=$SECONDS
check "slurmctld runs with libtsan preloaded" grep -q libtsan "/proc/$pid/maps"
check "slurmctld mapped the TSan build of our plugin" loaded_is "$MFPRIO_PLUGIN_SO"
# the plugin's dynamic symbols, in $out/plugin.nm (syms=0, said, when nm is
# missing or cannot read the .so, or lists nothing)
syms=0
if nm -D "$MFPRIO_PLUGIN_SO" >"$out/plugin.nm" 2>"$out/plugin.nm.err" && [[ -s $out/plugin.nm ]]; then
	syms=1
else
	say "nm -D $MFPRIO_PLUGIN_SO listed nothing: $(head -c 300 "$out/plugin.nm.err")"
fi
has_sym() { ((syms)) && grep -qw -- "$1" "$out/plugin.nm"; }
check "the plugin is instrumented (__tsan_ symbols)" has_sym __tsan_func_entry
# gcc 12's libtsan guesses the size of each new dynamic TLS block from the
# 16 bytes before it; a wrong guess killed slurmctld mid-storm ("failed to
# allocate 0x1ff93fffff000 bytes", one CI run in 11).  Our thread-local
# scope is initial-exec, so the plugin never calls __tls_get_addr.  (The
# listing must be there and name the plugin's own init: a missing nm or .so
# lists nothing, and nothing names no __tls_get_addr either.)
check "the plugin never calls __tls_get_addr (no dynamic TLS)" \
	eval 'has_sym init && ! has_sym __tls_get_addr'
# built as for glibc before 2.30 (MFPRIO_NO_CLOCKWAIT): the decay thread
# waits with pthread_cond_timedwait on a CLOCK_MONOTONIC condition
check "the plugin waits as on glibc before 2.30 (timedwait, no clockwait)" \
	eval 'has_sym pthread_cond_timedwait && ! has_sym pthread_cond_clockwait'
check "a thread named mfprio_decay runs" grep -qx mfprio_decay /proc/"$pid"/task/*/comm

# a job holding every CPU, 200 pending behind it, over the layout's users
ncpu=$(nproc)
blocker=$(sbatch --parsable --uid=u1 --gid=u1 -A b -n "$ncpu" -D /tmp -o /dev/null \
	--wrap 'sleep 100000' 2>"$out/blocker.err")
who=(u2:c u3:c u4:e u5:f)
bad=0
for ((i = 0; i < 200; i++)); do
	u=${who[i % 4]%:*} a=${who[i % 4]#*:}
	sbatch --uid="$u" --gid="$u" -A "$a" -p "$([[ $((i % 2)) -eq 0 ]] && echo debug || echo big)" \
		-n 1 -t 10 -D /tmp -o /dev/null --wrap true >/dev/null 2>>"$out/submit.err" || bad=$((bad + 1))
done
check "200 jobs submitted ($bad refused)" test "$bad" -eq 0

STORM_RPC_TIMEOUT=60 storm "${MFPRIO_TSAN_STORM:-150}" sbatch --uid=u2 --gid=u2 -A c -p big \
	-n 1 -t 5 -D /tmp -o /dev/null --wrap true
storm_check 15500
# this build waits as on glibc before 2.30 (MFPRIO_NO_CLOCKWAIT: a timed
# wait on a CLOCK_MONOTONIC condition): the passes keep their 60-s period,
# neither stalled nor back to back
c1=$(stats_cycles) s1=$SECONDS
say "decay passes: ${c0:-?} -> ${c1:-?} in $((s1 - s0)) s"
check "the decay passes keep their period on the glibc < 2.30 wait (${c0:-?} -> ${c1:-?} in $((s1 - s0)) s)" \
	awk -v a="${c0:-x}" -v b="${c1:-x}" -v t="$((s1 - s0))" \
	'BEGIN { n = b - a; exit !(a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && n >= int(t / 60) - 1 && n <= int(t / 60) + 1 && n >= 1) }'
scancel "$blocker" >/dev/null 2>&1
check "a thread named mfprio_metrics runs, and has written the file" \
	eval 'grep -qx mfprio_metrics /proc/"$pid"/task/*/comm && test -s "$promdir/mfprio.prom"'

# a clean shutdown: TSan reports what it saw at exit too
t0=$SECONDS
scontrol shutdown slurmctld >"$out/shutdown.log" 2>&1
end=$((SECONDS + 60))
while kill -0 "$pid" 2>/dev/null && ((SECONDS < end)); do sleep 0.5; done
check "slurmctld under TSan shuts down cleanly ($((SECONDS - t0)) s)" eval "! kill -0 '$pid' 2>/dev/null"

cp "$tsan_log".* "$out/" 2>/dev/null
n=$(tsan_count "$tsan_log".*)
ours=$(tsan_ours "$tsan_log".*)
used=$(cat "$tsan_log".* /dev/null 2>/dev/null | grep -A 20 'Matched [0-9]* suppressions' | grep -E '^ *[0-9]+ [a-z_]+:' | tr -s ' ' | tr '\n' ';')
say "TSan: $n report(s) unsuppressed; suppressions used: ${used:-none}"
check "no TSan report names our code ($(echo "$ours" | grep -c .) of $n)" test -z "$ours"
[[ -n $ours ]] && echo "$ours"
# the others, wholly Slurm's (tsan.supp says why they are not suppressed)
((n > 0)) && grep -h '^SUMMARY: ThreadSanitizer' "$tsan_log".* | sort | uniq -c | sed 's/^/test-tsan: not ours: /'
finish
