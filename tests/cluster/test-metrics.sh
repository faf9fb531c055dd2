#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-metrics.sh: the plugin's metrics file, read by the real programs.
#
# A live cluster on our plugin with PriorityParameters=mfprio_metrics_file=
# pointing into a textfile directory, associations of layout-metrics.txt
# (a sub-account g three levels down, its user u8 at depth 4), some usage
# and pending jobs (one in two partitions).  Debian's node_exporter
# (textfile collector only) and Prometheus, started by this test as
# separate processes on 127.0.0.1 with their own ports and data directory,
# scrape the file every 2 s.  Then:
#   - `promtool check metrics` on the file: no finding;
#   - every association family, as Prometheus's HTTP API returns it, equals
#     `sshare -a -l -P` taken in the same cycle (metrics-compare.py), with
#     depth and parent labels; g and u8 are there with their depth;
#   - the pending families equal `sprio -l` of the same cycle;
#   - the cycle families equal StateSaveLocation/mfprio_stats;
#   - each query of contrib/grafana/mfprio-fairshare.json returns data;
#   - `mfprio metrics --live` (the exporter for upstream's plugin) gives the
#     same association figures, through promtool clean;
#   - a malformed value (a relative path) is one error line naming the key,
#     the controller stays up and other PriorityParameters items are left
#     alone; a file that cannot be written is logged once, not per cycle;
#   - slurmctld restarted on upstream's plugin: `mfprio metrics --live
#     --output` writes the file instead, and what Prometheus scrapes from
#     it equals sshare and sprio again.
#
# Ports: node_exporter 19100+N, Prometheus 19200+N (N the cluster
# instance).  Everything lives in /var/tmp/mfprio-metrics-N; what an earlier
# run left running there (found by its pid files and command line) is
# stopped first, and what this run starts is stopped at its end.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

for p in prometheus promtool prometheus-node-exporter python3; do
	command -v "$p" >/dev/null || {
		say "no $p (tests/install-deps installs prometheus and prometheus-node-exporter)"
		echo "0 passed, 1 failed"
		exit 1
	}
done
mfprio_bin=${MFPRIO:-${MFPRIO_BUILD:-$top}/mfprio}

N=$CLUSTER_INSTANCE
NE_PORT=$((19100 + N))
PROM_PORT=$((19200 + N))
PROM=http://127.0.0.1:$PROM_PORT
work=/var/tmp/mfprio-metrics-$N
textdir=$work/textfile
prom_file=$textdir/mfprio.prom
dashboard=$top/contrib/grafana/mfprio-fairshare.json

# stop_ours: the node_exporter and Prometheus of this directory (pid files,
# checked against the command line, so a reused pid is left alone)
stop_ours() {
	local f pid end
	for f in "$work"/*.pid; do
		[[ -e $f ]] || continue
		pid=$(tr -dc '0-9' <"$f")
		if [[ -n $pid ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$work"; then
			kill -TERM "$pid" 2>/dev/null
			end=$((SECONDS + 20))
			while kill -0 "$pid" 2>/dev/null && ((SECONDS < end)); do sleep 0.2; done
			kill -KILL "$pid" 2>/dev/null
		fi
		rm -f "$f"
	done
}
trap 'stop_ours; cleanup' EXIT
stop_ours
for port in $NE_PORT $PROM_PORT; do
	if ss -Hltn "sport = :$port" | grep -q .; then
		say "port $port is taken by a process not of this test"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
rm -rf "$work"
mkdir -p "$textdir" "$work/prom-data"
chown slurm "$textdir"

# node_exporter: the textfile collector alone
prometheus-node-exporter --web.listen-address=127.0.0.1:$NE_PORT \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$textdir" >"$work/node-exporter.log" 2>&1 &
echo $! >"$work/node-exporter.pid"
cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 2s
  evaluation_interval: 2s
scrape_configs:
  - job_name: mfprio
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
EOF
prometheus --config.file="$work/prometheus.yml" \
	--storage.tsdb.path="$work/prom-data" \
	--web.listen-address=127.0.0.1:$PROM_PORT >"$work/prometheus.log" 2>&1 &
echo $! >"$work/prometheus.pid"

conf=$out/priority.conf
{ cat "$here/priority-default.conf"
  echo "PriorityParameters=site_knob=1,mfprio_metrics_file=$prom_file"; } >"$conf"
use_plugin ours
start_cluster "$conf"
"$here/cluster.sh" accounts "$here/layout-metrics.txt" >"$out/accounts2.log" 2>&1 ||
	{ tail -n 20 "$out/accounts2.log"; echo "0 passed, 1 failed"; exit 1; }

# usage: short jobs of u8 (g), u1 (b), u4 (e)
sub() { sbatch --parsable -D /tmp -o /dev/null "$@" | cut -d';' -f1; }
ids=()
for ua in u8:g u1:b u4:e; do
	ids+=("$(sub --uid=${ua%%:*} -A ${ua#*:} -n 1 --wrap 'sleep 4')")
done
end=$((SECONDS + 90))
while ((SECONDS < end)) && squeue -h -j "$(IFS=,; echo "${ids[*]}")" 2>/dev/null | grep -q .; do
	sleep 1
done
# pending jobs: the node drained
scontrol update nodename="$NODE" state=drain reason=mfprio-metrics
sub --uid=u8 -A g -p debug --wrap 'sleep 1' >/dev/null
sub --uid=u1 -A b -p debug,big --wrap 'sleep 1' >/dev/null
sub --uid=u2 -A c -p debug --wrap 'sleep 1' >/dev/null
sub --uid=u2 -A c -p debug --wrap 'sleep 1' >/dev/null
sub --uid=u4 -A e -p big --wrap 'sleep 1' >/dev/null
wait_tick "$(date +%s)"
wait_tick "$(date +%s)"

check "the plugin wrote $prom_file" test -s "$prom_file"
check "promtool check metrics: no finding" \
	sh -c "promtool check metrics <'$prom_file' >'$out/promtool.out' 2>&1"
check "the file is readable by others (mode 0644: node_exporter)" \
	test "$(stat -c %a "$prom_file")" = 644

# the same cycle: sshare and sprio just after a tick, the file's cycle
# unchanged before and after, and Prometheus holding that cycle's sample
file_stamp() { awk '/^mfprio_metrics_timestamp_seconds/ { print $2 }' "$prom_file" 2>/dev/null; }
prom_stamp() {
	curl -sf "$PROM/api/v1/query" --data-urlencode 'query=mfprio_metrics_timestamp_seconds' |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null
}
same=0
for _ in 1 2 3; do
	wait_tick "$(date +%s)"
	t=$(file_stamp)
	sshare -a -l -P >"$out/sshare" 2>&1
	sprio -l >"$out/sprio" 2>&1
	cp "$STATE/mfprio_stats" "$out/mfprio_stats" 2>/dev/null
	cp "$prom_file" "$out/mfprio.prom"
	end=$((SECONDS + 30))
	until [[ $(prom_stamp) == "$t" ]] || ((SECONDS > end)); do sleep 1; done
	if [[ -n $t && $(file_stamp) == "$t" && $(prom_stamp) == "$t" ]]; then
		same=1
		break
	fi
done
check "Prometheus scraped the cycle of sshare's and sprio's capture" test "$same" = 1

for fam in mfprio_assoc_shares mfprio_assoc_shares_norm_ratio \
	mfprio_assoc_usage_raw_seconds mfprio_assoc_usage_effective_ratio \
	mfprio_assoc_fairshare_ratio mfprio_assoc_level_fairshare; do
	check "$fam from Prometheus equals sshare -a -l -P" \
		sh -c "python3 '$here/metrics-compare.py' --prom '$PROM' --family $fam --sshare '$out/sshare' >'$out/cmp.$fam' 2>&1"
done
for fam in mfprio_pending_jobs mfprio_pending_priority_summed mfprio_pending_priority_highest \
	mfprio_pending_oldest_priority; do
	check "$fam from Prometheus equals sprio -l" \
		sh -c "python3 '$here/metrics-compare.py' --prom '$PROM' --family $fam --sprio '$out/sprio' >'$out/cmp.$fam' 2>&1"
done

# pquery EXPR: the value of its first series, or nothing
pquery() {
	curl -sf "$PROM/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null
}
check "sub-account g: depth 3, parent b, a level fair-share" \
	test -n "$(pquery 'mfprio_assoc_level_fairshare{account="g",user="",depth="3",parent="b"}')"
check "its user u8: depth 4, a fair-share factor, usage > 0" \
	test "$(pquery 'mfprio_assoc_usage_raw_seconds{account="g",user="u8",depth="4"} > 0' | cut -c1)" != ""
check "u8's pending job counted" \
	test "$(pquery 'mfprio_pending_jobs{account="g",user="u8",partition="debug"}')" = 1
check "u1's two-partition job counted in each partition" \
	test "$(pquery 'count(mfprio_pending_jobs{user="u1"})')" = 2
check "u2's oldest job has waited since its submission" \
	python3 -c "import sys; w = float('$(pquery 'mfprio_pending_oldest_wait_seconds{user="u2",partition="debug"}')' or -1); sys.exit(not 60 <= w < 3600)"

# cycle figures, from the file of the captured cycle ($out/mfprio.prom),
# against what does not come from the plugin's counters: the tick slurmctld
# records (priority_last_decay_ran), the five jobs submitted pending above
# (no other job is pending or held: recomputed = 5), slurmctld's age in
# minutes (PriorityCalcPeriod=1: one cycle a minute since it started), and
# the bounds time sets (a thread uses no more CPU than wall time, a cycle
# is shorter than the 60 s between two, a part of the cycle no longer than
# the whole, a total no less than the last cycle's part of it)
# fig NAME [LABEL]: the value of NAME's sample (with LABEL, e.g.
# state="recomputed") in the captured file
fig() {
	awk -v n="$1" -v l="${2:-}" '($1 == n || index($1, n "{") == 1) && index($1, l) { print $2; exit }' \
		"$out/mfprio.prom"
}
# holds AWK-CONDITION: true when the condition on the figures holds
holds() { awk "BEGIN { exit !($1) }"; }
wall=$(fig mfprio_cycle_wall_seconds) cpu=$(fig mfprio_cycle_cpu_seconds)
lock=$(awk '/^mfprio_cycle_job_lock_seconds\{/ { s += $2 } END { print s + 0 }' "$out/mfprio.prom")
cycles=$(fig mfprio_cycles_total)
ctld_age=$(ps -o etimes= -p "$(ctld_pid)" 2>/dev/null | tr -d ' ')
check "cycle time = slurmctld's last tick within 1 s ($(fig mfprio_cycle_timestamp_seconds), $(last_ran))" \
	holds "$(fig mfprio_cycle_timestamp_seconds) - $(last_ran) <= 1 && $(last_ran) - $(fig mfprio_cycle_timestamp_seconds) <= 1"
check "jobs recomputed = the 5 pending jobs ($(fig mfprio_cycle_jobs 'state="recomputed"'); squeue: $(squeue -h -t PD | wc -l))" \
	test "$(fig mfprio_cycle_jobs 'state="recomputed"')" = 5
check "cycles_total: one a minute of slurmctld's ${ctld_age:-?} s, +-2 ($cycles)" \
	holds "${ctld_age:-0} > 0 && $cycles >= ${ctld_age:-0} / 60 - 2 && $cycles <= ${ctld_age:-0} / 60 + 2"
check "wall seconds: above 0, under the 60 s period ($wall)" holds "$wall > 0 && $wall < 60"
check "lock holds, priorities phase: at least one ($(fig mfprio_cycle_job_lock_holds 'phase="priorities"'))" \
	holds "$(fig mfprio_cycle_job_lock_holds 'phase="priorities"') >= 1"
# the eleven families: each in Prometheus, and its value in the captured
# cycle within its bound (F stands for the value)
# fam_ok FAMILY BOUND
fam_ok() {
	local v
	v=$(fig "$1")
	[[ -n $(pquery "$1") && $v =~ ^[0-9.e+-]+$ ]] && holds "${2//F/$v}"
}
while read -r fam bound; do
	check "$fam in Prometheus, and in the captured cycle $bound ($(fig "$fam"))" fam_ok "$fam" "$bound"
done <<EOF2
mfprio_cycle_cpu_seconds F >= 0 && F <= $wall + 0.01
mfprio_cycle_job_lock_seconds F >= 0 && $lock <= $wall + 0.01
mfprio_cycle_job_lock_longest_seconds F >= 0 && F <= $lock + 1e-6
mfprio_cycle_assoc_lock_seconds F >= 0 && F <= $wall + 0.01
mfprio_metrics_collect_lock_seconds F >= 0 && F < 60
mfprio_metrics_write_seconds F >= 0 && F < 60
mfprio_metrics_handoff_seconds F >= 0 && F < 60
mfprio_metrics_skipped_total F == 0
mfprio_job_lock_seconds_total F >= $lock - 1e-6
mfprio_thread_cpu_seconds_total F > 0 && F >= $cpu - 1e-6
mfprio_fairshare_tree_builds_total F >= 1 && F <= $cycles + 5
EOF2

# the dashboard's queries (a few scrapes more for its rates)
sleep 10
check "every query of $(basename "$dashboard") returns data" \
	sh -c "python3 '$here/metrics-compare.py' --prom '$PROM' --dashboard '$dashboard' >'$out/dashboard' 2>&1"

# mfprio metrics --live: sshare's own figures, the same ones
if "$mfprio_bin" metrics --live >"$out/live.prom" 2>"$out/live.err"; then
	check "mfprio metrics --live: promtool clean" \
		sh -c "promtool check metrics <'$out/live.prom' >/dev/null 2>&1"
	sshare -a -l -P >"$out/sshare.live" 2>&1
	for fam in mfprio_assoc_shares_norm_ratio mfprio_assoc_usage_effective_ratio \
		mfprio_assoc_fairshare_ratio mfprio_assoc_level_fairshare; do
		check "mfprio metrics --live: $fam equals sshare" \
			sh -c "python3 '$here/metrics-compare.py' --file '$out/live.prom' --family $fam --sshare '$out/sshare.live' >'$out/live.$fam' 2>&1"
	done
	check "mfprio metrics --live: pending jobs equal sprio" \
		sh -c "python3 '$here/metrics-compare.py' --file '$out/live.prom' --family mfprio_pending_jobs --sprio '$out/sprio' >'$out/live.pending' 2>&1"
else
	not_ok "mfprio metrics --live failed: $(head -c 300 "$out/live.err")"
fi

# a malformed value: one error naming the key, the controller up (the
# plugin's own handling of its setting, the same on every release: the
# matrix runs it on Debian's only, MFPRIO_METRICS_NO_ERRORS=1 elsewhere)
if [[ ${MFPRIO_METRICS_NO_ERRORS:-} != 1 ]]; then
	m=$(log_mark)
	sed -i "s|^PriorityParameters=.*|PriorityParameters=site_knob=1,mfprio_metrics_file=relative.prom|" "$DIR/etc/priority.conf"
	scontrol reconfigure >/dev/null 2>&1
	sleep 3
	check "a relative path: an error naming mfprio_metrics_file" \
		log_has "$m" 'error: mfprio: PriorityParameters: mfprio_metrics_file=relative.prom: not an absolute path'
	check "slurmctld is up after it" ctld_alive
	# the other item, site_knob=1, left alone: slurmctld still has it as
	# written, and the plugin says nothing of it
	check "other PriorityParameters left alone: slurmctld shows site_knob=1 as written" \
		bash -c "scontrol show config | grep -Eqx 'PriorityParameters *= site_knob=1,mfprio_metrics_file=relative.prom'"
	check "... and the log names no site_knob" log_lacks "$m" site_knob
	# a file that cannot be written: logged once over two cycles
	m=$(log_mark)
	sed -i "s|^PriorityParameters=.*|PriorityParameters=mfprio_metrics_file=$work/no-such-dir/x.prom|" "$DIR/etc/priority.conf"
	scontrol reconfigure >/dev/null 2>&1
	wait_tick "$(date +%s)"
	wait_tick "$(date +%s)"
	n=$(tail -n +"$((${m#*:} + 1))" "$LOG" | grep -c "mfprio: metrics file (PriorityParameters mfprio_metrics_file): $work/no-such-dir/x.prom.tmp: cannot create it")
	check "an unwritable file: logged once over two cycles ($n)" test "$n" = 1
	check "slurmctld is up after it" ctld_alive
	cp "$conf" "$DIR/etc/priority.conf"
else
	say "the bad settings are left out (MFPRIO_METRICS_NO_ERRORS=1)"
fi

# upstream's plugin: `mfprio metrics --live` writes the file (as a timer
# would), Prometheus scrapes it, its figures are sshare's and sprio's
use_plugin upstream
if restart_ctld upstream && ! loaded_is "$plugin_so"; then
	ok "slurmctld runs upstream's plugin ($(loaded_so))"
	wait_tick "$(date +%s)"
	rm -f "$prom_file"
	"$mfprio_bin" metrics --live --output "$prom_file" 2>"$out/live-upstream.err"
	sshare -a -l -P >"$out/sshare.upstream" 2>&1
	sprio -l >"$out/sprio.upstream" 2>&1
	cp "$prom_file" "$out/live-upstream.prom" 2>/dev/null
	check "mfprio metrics --live --output on upstream's plugin: promtool clean" \
		sh -c "promtool check metrics <'$prom_file' >/dev/null 2>&1"
	end=$((SECONDS + 30))
	until [[ -n $(pquery 'mfprio_metrics_info{source="live"}') ]] || ((SECONDS > end)); do sleep 1; done
	check "Prometheus scraped mfprio metrics --live" test -n "$(pquery 'mfprio_metrics_info{source="live"}')"
	for fam in mfprio_assoc_shares mfprio_assoc_shares_norm_ratio \
		mfprio_assoc_usage_raw_seconds mfprio_assoc_usage_effective_ratio \
		mfprio_assoc_fairshare_ratio mfprio_assoc_level_fairshare; do
		check "upstream: $fam from Prometheus equals sshare -a -l -P" \
			sh -c "python3 '$here/metrics-compare.py' --prom '$PROM' --family $fam --sshare '$out/sshare.upstream' >'$out/up.$fam' 2>&1"
	done
	for fam in mfprio_pending_jobs mfprio_pending_priority_summed mfprio_pending_priority_highest \
		mfprio_pending_oldest_priority; do
		check "upstream: $fam from Prometheus equals sprio -l" \
			sh -c "python3 '$here/metrics-compare.py' --prom '$PROM' --family $fam --sprio '$out/sprio.upstream' >'$out/up.$fam' 2>&1"
	done
else
	not_ok "slurmctld did not come back on upstream's plugin"
fi
scontrol update nodename="$NODE" state=resume >/dev/null 2>&1
scancel -u u8,u1,u2,u4 2>/dev/null
finish
