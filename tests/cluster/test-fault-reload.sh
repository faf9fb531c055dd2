#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-fault-reload.sh: the plugin's second read of slurmctld's saved usage
# finds no file, and the usage slurmctld held is kept (issue 35).
#
# At start the plugin reads StateSaveLocation/assoc_usage again when the
# file is newer than the slurmctld process (a backup controller that
# handed back saved it; from 24.05 slurmctld's own save before it loads the
# plugin does too).  That read starts every association from zero
# (load_assoc_usage() adds to what is there), so a read that found nothing
# (slurmctld's save unlinks the old file before it links the new one) once
# left every association at zero, unless the plugin's own usage record was
# newer.
#
#   1. a job of 2 CPUs runs 20 s under b/u1 (charged at its end: limits);
#      after a pass, b/u1 holds PRE > 0;
#   2. slurmctld stopped (it saves assoc_usage); the plugin's own record
#      (mfprio_usage) removed, so that nothing else rescues the usage; the
#      saved file's time put ahead of the coming start, so that the plugin
#      reads it again on every release;
#   3. slurmctld started under gdb: when load_assoc_usage() is called from
#      the plugin (a frame of ours, mfp_*, on the stack), the file is moved
#      aside first, so that the plugin's read finds none; slurmctld's own
#      read at its start found it;
#   4. then: the plugin said the read failed and kept the usage; b/u1 holds
#      PRE (within 1%), not 0; the controller runs; the file is put back.
#
# Environment as the other tests (plugin-lib.sh).  Needs gdb.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

if ! command -v gdb >/dev/null; then
	say "no gdb (tests/install-deps installs it)"
	echo "0 passed, 1 failed"
	exit 1
fi
# shellcheck disable=SC2317 # (run by the EXIT trap)
reload_cleanup() {
	# the file the plugin's read did not find, back if nothing replaced it
	[[ -e $STATE/assoc_usage.aside && ! -e $STATE/assoc_usage ]] &&
		mv -f "$STATE/assoc_usage.aside" "$STATE/assoc_usage"
	rm -f "$STATE/assoc_usage.aside"
	cleanup
}
trap reload_cleanup EXIT

use_plugin ours
start_cluster "$here/priority-default.conf"
check "our plugin is loaded" loaded_is "$plugin_so"

# 1. usage
job=$(sbatch --parsable --uid=u1 --gid=u1 -A b -n 2 -t 10 -D /tmp -o /dev/null --wrap 'sleep 20')
end=$((SECONDS + 120))
until [[ -n $job && -z $(squeue -h -j "$job" 2>/dev/null) ]] || ((SECONDS > end)); do sleep 2; done
check "1: the job ($job) ran and ended" test "$(cpu_secs "$job")" -gt 0
wait_tick "$(date +%s)"
pre=$(raw_usage b u1)
check "1: b/u1 holds the job's usage ($pre for $(cpu_secs "$job") CPU-seconds)" within "$pre" "$(cpu_secs "$job")" 10

# 2. stopped; nothing but slurmctld's saved usage to read
check "2: slurmctld stops" stop_ctld
check "2: it saved its usage" test -s "$STATE/assoc_usage"
rm -f "$STATE/mfprio_usage" "$STATE/mfprio_usage.new"
touch -d '+5 minutes' "$STATE/assoc_usage"

# 3. under gdb: the plugin's read of the file finds none
cat >"$out/gdb.cmd" <<EOF
set pagination off
set confirm off
set print thread-events off
set breakpoint pending on
handle all nostop noprint pass
break load_assoc_usage if \$_any_caller_matches("^mfp_", 12)
commands
silent
printf "mfprio-test: load_assoc_usage called from the plugin: the file is moved aside\n"
shell mv -f '$STATE/assoc_usage' '$STATE/assoc_usage.aside'
continue
end
run
EOF
m=$(log_mark)
MFPRIO_CTLD_WRAP="gdb -q -nx -batch -x $out/gdb.cmd --args" start_ctld reload
cp "$DIR/log/slurmctld.stderr" "$out/gdb.log" 2>/dev/null
check "3: slurmctld runs again (under gdb)" ctld_alive
check "3: the plugin's read of assoc_usage was made to find no file (gdb)" \
	grep -q 'mfprio-test: load_assoc_usage called from the plugin' "$DIR/log/slurmctld.stderr"

# 4. kept
check "4: the plugin said the read failed and kept the usage" \
	log_has "$m" "mfprio: .*assoc_usage could not be read again .*: the usage slurmctld held is kept"
post=$(raw_usage b u1)
say "reload: release=$SLURM_VERSION b/u1 before the restart $pre, after $post"
check "4: b/u1 holds what it held ($post, $pre before)" within "$post" "$pre" 1
check "4: the controller runs" ctld_alive
finish
