#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-loads.sh: mfprio's priority_multifactor.so inside the real
# slurmctld and the sshare client, of Debian's 22.05 or of the release of
# MFPRIO_SLURM_PREFIX (instance.sh), on cluster MFPRIO_CLUSTER_INSTANCE.
#
#   - slurmctld loads ours, not upstream's (log line, mapped files), and
#     runs the decay thread under the name mfprio_decay;
#   - sshare loads ours too and starts no thread there;
#   - the state file priority_last_decay_ran is upstream's 16 bytes
#     (two big-endian times) and upstream's plugin starts on it;
#   - slurmctld restarts with the state file missing, and with it truncated
#     (upstream refuses to start on a truncated one: a deliberate
#     difference), logs which file, and writes a good one at its next pass;
#   - jobs still run.
# With upstream's own .so as MFPRIO_PLUGIN_SO (a check of the harness) the
# checks of our log lines, of our thread and of a truncated state file fail,
# by design; upstream takes an empty state file for a missing one, so it
# does start then (seen on 26.05).  Nothing here depends on the release but
# through instance.sh (binaries, PATH, upstream's .so).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin ours
m=$(log_mark)
"$here/cluster.sh" start >"$out/start.log" 2>&1 || {
	tail -n 30 "$out/start.log"
	echo "0 passed, 1 failed"
	exit 1
}
wait_tick 0 >/dev/null

check "slurmctld is up with our plugin" ctld_alive
check "slurmctld logs our plugin's load line" \
	log_has "$m" 'mfprio: priority/multifactor loaded' 
check "slurmctld mapped our .so ($(loaded_so)), not upstream's" \
	loaded_is "$plugin_dir/priority_multifactor.so"
check "a thread named mfprio_decay runs in slurmctld" \
	grep -qx mfprio_decay /proc/"$(ctld_pid)"/task/*/comm

# sshare dlopens the plugin (up to 25.05 for the classic fair-share column,
# from 25.11 on it only loads it): a client configuration that says
# NO_FAIR_TREE (the controller's is not changed)
{ grep -v '^Include' "$SLURM_CONF"; cat "$DIR/etc/priority.conf"; echo "PriorityFlags=NO_FAIR_TREE"; } >"$out/client.conf"
chmod 644 "$out/client.conf"
SLURM_CONF=$out/client.conf LD_DEBUG=files sshare -a -l -P >"$out/sshare.out" 2>"$out/sshare.ld"
rc=$?
check "sshare runs with our plugin (rc $rc)" test "$rc" -eq 0
# the loader's "calling init:" line comes only after a load that
# succeeded ("file=" is printed for a load that fails too)
check "sshare loaded our .so (the loader ran its init)" \
	grep -q "calling init: $plugin_dir/priority_multifactor.so" "$out/sshare.ld"
check "sshare printed no plugin load error" \
	bash -c "! grep -v '^ *[0-9]*:' '$out/sshare.ld' | grep -E 'plugin_load_from_file|dlopen'"
check "sshare printed the associations" grep -q '^root|' "$out/sshare.out"

# the state file, byte for byte
f=$STATE/priority_last_decay_ran
size=$(stat -c %s "$f" 2>/dev/null || echo 0)
check "state file is 16 bytes (is $size)" test "$size" -eq 16
last=$(od -An -t x1 -N 8 "$f" | tr -d ' \n')
now=$(date +%s)
check "state file's first time is big-endian and recent ($((16#$last)) vs $now)" \
	test $((now - 16#$last)) -ge 0 -a $((now - 16#$last)) -lt 180

# upstream's plugin reads our file
use_plugin upstream
m=$(log_mark)
restart_ctld upstream-reads-ours
check "upstream's plugin starts on our state file" ctld_alive
check "upstream's plugin is the one loaded ($(loaded_so))" loaded_is "$UPSTREAM_SO"
check "upstream found no fault in our state file" \
	log_lacks "$m" 'Incomplete priority last decay file'
use_plugin ours

# start_on LABEL WHAT: slurmctld started again on the state the caller left
# after stop_ctld (t: the time just before, m: the log's mark), and checked
# up: "slurmctld starts WHAT".
start_on() {
	t=$(date +%s)
	m=$(log_mark)
	start_ctld "$1"
	check "slurmctld starts $2" ctld_alive
}

# missing state file
check "slurmctld stops (missing)" stop_ctld
rm -f "$f" "$f.old" "$f.new"
start_on missing "without a state file"
check "a missing state file is logged as a first start" \
	log_soon "$m" "mfprio: no state file $f"
wait_tick "$t" >/dev/null
check "the next pass writes a 16-byte state file" test "$(stat -c %s "$f" 2>/dev/null)" = 16

# truncated state file (no .old to fall back on)
check "slurmctld stops (truncated)" stop_ctld
head -c 5 "$f" >"$f.cut" && mv "$f.cut" "$f"
rm -f "$f.old"
chown slurm: "$f" 2>/dev/null
start_on truncated "with a truncated state file"
check "the truncated file is reported by name" \
	log_soon "$m" "mfprio: state file $f is truncated \\(5 of 16 bytes\\)"
wait_tick "$t" >/dev/null
check "the next pass rewrites a 16-byte state file" test "$(stat -c %s "$f" 2>/dev/null)" = 16

# truncated, with a good .old: that one is used
sleep 61
t=$(date +%s)
wait_tick "$t" >/dev/null     # a pass that leaves a good .old behind
check "slurmctld stops (old)" stop_ctld
: >"$f"
start_on old "with an empty state file and a good .old"
check "the .old copy is used" log_soon "$m" "mfprio: using the previous state file $f.old"

# times in the future (a clock set back, or garbage): taken as now, said so,
# and the next pass runs and writes sane times
sleep 61
t=$(date +%s)
wait_tick "$t" >/dev/null
check "slurmctld stops (future)" stop_ctld
rm -f "$f.old"
future=$(($(date +%s) + 10 * 365 * 86400))
# be64 N: N as 8 bytes, big-endian (pack_time's format)
be64() {
	local i s=""
	for ((i = 56; i >= 0; i -= 8)); do s+=$(printf '\\x%02x' $((($1 >> i) & 255))); done
	printf '%b' "$s"
}
{ be64 "$future"; be64 "$future"; } >"$f"
chown slurm: "$f"
start_on future "with times in the future"
check "a last decay time in the future is reported and taken as now" \
	log_soon "$m" "mfprio: state file $f: last decay time $future is [0-9]+ s in the future; taken as now"
check "a last reset time in the future is reported and taken as now" \
	log_has "$m" "mfprio: state file $f: last usage reset time $future is [0-9]+ s in the future"
wait_tick "$t" >/dev/null
read -r ran reset < <(od -An -t x1 "$f" | tr -d ' \n' | sed -E 's/^(.{16})(.{16}).*/\1 \2/')
# a missing or short file: times that fail both checks below (an empty
# $ran would make the arithmetic fail before check runs, and no line print)
[[ $ran =~ ^[0-9a-f]{16}$ && $reset =~ ^[0-9a-f]{16}$ ]] || ran=0 reset=7fffffffffffffff
now=$(date +%s)
check "the next pass writes a recent last decay time ($((16#$ran)) vs $now)" \
	test $((now - 16#$ran)) -ge 0 -a $((now - 16#$ran)) -lt 180
check "and no reset time in the future ($((16#$reset)) vs $now)" test $((16#$reset)) -le "$now"

# garbage: 16 bytes that are no plausible times
check "slurmctld stops (garbage)" stop_ctld
printf '\xff\xff\xff\xff\xff\xff\xff\xf0\x00\x00\x00\x00\x00\x00\x00\x07' >"$f"
chown slurm: "$f"
start_on garbage "with a garbage state file"
check "a garbage last decay time is reported and taken as now" \
	log_soon "$m" "mfprio: state file $f: last decay time -?[0-9]+ is not a plausible time; taken as now"

# mfprio_charged_jobs with a bad line in the middle: the lines after it
# are kept (two jobs), the bad one named by file and line
check "slurmctld stops (charged)" stop_ctld
cj=$STATE/mfprio_charged_jobs
now=$(date +%s)
printf '%s %s\nnot a job line\n%s %s\n' 900001 "$now" 900002 "$now" >"$cj"
chown slurm: "$cj"
start_on charged "with a malformed $cj"
check "the bad line is named" log_soon "$m" "mfprio: $cj:2: not \"JOBID ENDTIME\": line skipped"
check "the lines around it are kept" \
	log_has "$m" "mfprio: $cj: 2 jobs that ended since the last decay pass were charged already"

# it still schedules
id=$(sbatch --parsable -n 1 -D /tmp -o /dev/null --wrap 'sleep 1' 2>"$out/sbatch.err")
end=$((SECONDS + 60))
state=""
while ((SECONDS < end)); do
	state=$(scontrol show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z]*' | cut -d= -f2)
	[[ $state == COMPLETED ]] && break
	sleep 1
done
check "a job runs to completion under our plugin ($state)" test "$state" = COMPLETED
check "slurmctld is still up" ctld_alive
finish
