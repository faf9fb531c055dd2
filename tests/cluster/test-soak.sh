#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-soak.sh: a production day, side by side.  Two clusters of the same
# release run at once, one on our plugin (instance MFPRIO_CLUSTER_INSTANCE)
# and one on upstream's (instance MFPRIO_SOAK_PEER), and get the same seeded
# stream of jobs and events for MFPRIO_SOAK_MINUTES (30); at the end every
# association's usage under ours must match upstream's and sacct's.
#
# What was decided (issue 35, item 3):
# - Nodes: MFPRIO_SOAK_NODES (4) nodes a cluster, each its own slurmd on
#   this host: cluster.sh's MFPRIO_CLUSTER_NODES (slurmd -N NAME, a Port of
#   its own, per-node pid file, log and spool).  Neither Debian's 22.05.8
#   nor SchedMD's builds are multiple-slurmd builds, and none is needed:
#   each node has its own NodeHostName (its name), so the one-slurmd-a-host
#   check does not apply, and slurmd takes its port from its node's line.
#   No namespaces.  Each node declares MFPRIO_SOAK_CPUS (32) CPUs, 128 GB
#   and 4 GPUs (SlurmdParameters=config_overrides: jobs are sleep).
# - GPUs: GresTypes=gpu, Gres=gpu:4, AccountingStorageTRES=gres/gpu.  A
#   count-only gres.conf (Count=4, no File) does not do on 22.05.8: its
#   gres/gpu plugin drops a file-less GPU ("Removing file-less GPU") and the
#   node is drained (0 < 4); so each cluster gets four character devices
#   made with mknod (1,3: /dev/null's) in its directory, named in gres.conf's
#   File=.  Nothing opens them (task/none).
# - Partitions (all nodes): batch (PreemptMode=REQUEUE, billing CPU=1,
#   Mem=1G, GRES/gpu=8), short (MaxTime=30, REQUEUE, CPU=2, Mem=1G,
#   GRES/gpu=8), scav (CANCEL, CPU=1), urgent (PriorityTier=5, preempts
#   the others: CPU=4, GRES/gpu=16), parked (State=DOWN: what is sent there
#   stays pending, for sprio).  PreemptType=preempt/partition_prio,
#   DefMemPerCPU=1024, backfill (cluster.sh's default), limits enforced
#   (cluster.sh's default): slurmctld reports every job's end to the plugin.
#   Integer weights, memory in whole GB: every billing is a whole number,
#   as sacct's AllocTRES prints it.
# - The stream: soak-gen.py (seed MFPRIO_SOAK_SEED, 1): arrays of short
#   tasks, 1-CPU jobs, 2-8 CPUs, whole nodes, two nodes, GPU jobs,
#   heterogeneous jobs, jobs naming two partitions, scavenger jobs, bursts
#   of urgent whole-node jobs (preemption by requeue and by cancel), jobs
#   suspended and resumed, requeued and cancelled by hand, a node DOWN
#   under its jobs and back, two reconfigures, one restart of slurmctld;
#   about 80% of the CPUs' seconds offered, ~2,200 job records in 30 min on
#   4 x 32 CPUs.  soak-drive.py replays it into both clusters, each event
#   to both at the same moment (one thread each).
# - The comparison (soak-compare.py), once every job but the parked ones
#   has ended and a pass has run: each association's RawUsage and each
#   TRES of GrpTRESRaw against its cluster's sacct (every run's AllocTRES x
#   its seconds from Start to End, decayed as the plugins decay), ours
#   against upstream's.  The two clusters are never the same day to the
#   second (which jobs a preemption, the DOWN node or a restart hits, and
#   how long a cancelled job had run, differ), so ours is compared with
#   upstream's where the two clusters' sacct agree within the tolerance,
#   and each plugin with its own sacct everywhere (ours asserted; a figure
#   where upstream misses its sacct is listed: upstream lost usage).
#   MFPRIO_SOAK_TOL (0.5 %).
# - sprio: the parked jobs' sprio -l and -n on our cluster under ours, then
#   its slurmctld restarted on upstream's plugin on the same state, sprio
#   again: the same within rounding (PriorityMaxAge is a third of the run
#   and they are all submitted in its first quarter, so every age has
#   saturated).  sshare on the same state under both too.  Across the
#   clusters the parked jobs (matched by job name) are compared column by
#   column: all but FAIRSHARE (and so PRIORITY) are functions of the job
#   alone and must be equal; FAIRSHARE is shown.
# - Timings: our plugin's mfprio_stats read every 15 s during the day: the
#   passes' wall and CPU times and the longest job-lock hold are printed.
#
# Environment: MFPRIO_CLUSTER_INSTANCE (ours), MFPRIO_SOAK_PEER (upstream's,
# default the next instance), MFPRIO_SLURM_PREFIX, MFPRIO_PLUGIN_SO as the
# other tests; MFPRIO_SOAK_MINUTES (30), or MFPRIO_SOAK_HOURS (a site's
# longer run before it deploys: hours, overrides the minutes),
# MFPRIO_SOAK_SEED, MFPRIO_SOAK_NODES, MFPRIO_SOAK_CPUS, MFPRIO_SOAK_LOAD
# (0.8), MFPRIO_SOAK_TOL.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

MINUTES=${MFPRIO_SOAK_MINUTES:-30}
if [[ -n ${MFPRIO_SOAK_HOURS:-} ]]; then
	MINUTES=$(awk -v h="$MFPRIO_SOAK_HOURS" 'BEGIN { printf "%d", h * 60 }')
fi
SEED=${MFPRIO_SOAK_SEED:-1}
NODES=${MFPRIO_SOAK_NODES:-4}
CPUS=${MFPRIO_SOAK_CPUS:-32}
LOAD=${MFPRIO_SOAK_LOAD:-0.8}
TOL=${MFPRIO_SOAK_TOL:-0.5}
PEER=${MFPRIO_SOAK_PEER:-$((CLUSTER_INSTANCE + 1))}
GPUS=4
HALFLIFE=604800 # PriorityDecayHalfLife=7-0, as priority-default.conf
t_start=$SECONDS

[[ $MINUTES =~ ^[0-9]+$ && $MINUTES -ge 3 ]] || {
	say "MFPRIO_SOAK_MINUTES=$MINUTES: expected 3 or more"
	echo "0 passed, 1 failed"
	exit 1
}
[[ $PEER != "$CLUSTER_INSTANCE" ]] || {
	say "MFPRIO_SOAK_PEER must differ from MFPRIO_CLUSTER_INSTANCE"
	echo "0 passed, 1 failed"
	exit 1
}

# the peer: its directory, configuration and lock
peer_dir=$(MFPRIO_CLUSTER_INSTANCE=$PEER MFPRIO_CLUSTER_DIR='' bash -c ". '$here/instance.sh' && echo \$CLUSTER_DIR")
peer_lock=$(MFPRIO_CLUSTER_INSTANCE=$PEER MFPRIO_CLUSTER_DIR='' bash -c ". '$here/instance.sh' && echo \$CLUSTER_LOCK")
PEER_CONF=$peer_dir/etc/slurm.conf
exec 7>"$peer_lock"
flock 7 || { say "could not lock $peer_lock"; echo "0 passed, 1 failed"; exit 1; }
say "ours: instance $CLUSTER_INSTANCE ($DIR); upstream's: instance $PEER ($peer_dir); $MINUTES min, seed $SEED, $NODES nodes x $CPUS CPUs"

peer_cluster() {
	(
		unset MFPRIO_PLUGIN_DIR MFPRIO_CLUSTER_DIR
		MFPRIO_CLUSTER_INSTANCE=$PEER MFPRIO_GRES_CONF=$out/gres-$PEER.conf \
			"$here/cluster.sh" "$@"
	)
}
our_cluster() { "$here/cluster.sh" "$@"; }
# on_peer COMMAND...: a client command against upstream's cluster
on_peer() { SLURM_CONF=$PEER_CONF "$@"; }

# shellcheck disable=SC2317  # the EXIT trap
soak_cleanup() {
	peer_cluster stop >/dev/null 2>&1 || true
	cleanup
}
trap soak_cleanup EXIT

# --- the clusters' configuration
export MFPRIO_CLUSTER_NODES=$NODES
export MFPRIO_NODE_CONF="CPUs=$CPUS RealMemory=128000 Gres=gpu:$GPUS"
export MFPRIO_CONF_EXTRA=$out/soak.conf
export MFPRIO_GRES_CONF=$out/gres-$CLUSTER_INSTANCE.conf
cat >"$MFPRIO_CONF_EXTRA" <<EOF
SlurmdParameters=config_overrides
GresTypes=gpu
AccountingStorageTRES=gres/gpu
DefMemPerCPU=1024
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
PartitionName=batch Nodes=ALL PriorityTier=1 PriorityJobFactor=10 PreemptMode=REQUEUE TRESBillingWeights=CPU=1.0,Mem=1.0G,GRES/gpu=8.0 MaxTime=INFINITE State=UP
PartitionName=short Nodes=ALL PriorityTier=1 PriorityJobFactor=30 PreemptMode=REQUEUE TRESBillingWeights=CPU=2.0,Mem=1.0G,GRES/gpu=8.0 MaxTime=30 State=UP
PartitionName=scav Nodes=ALL PriorityTier=1 PriorityJobFactor=1 PreemptMode=CANCEL TRESBillingWeights=CPU=1.0 MaxTime=INFINITE State=UP
PartitionName=urgent Nodes=ALL PriorityTier=5 PriorityJobFactor=50 PreemptMode=OFF TRESBillingWeights=CPU=4.0,GRES/gpu=16.0 MaxTime=INFINITE State=UP
PartitionName=parked Nodes=ALL PriorityTier=1 PriorityJobFactor=20 PreemptMode=OFF TRESBillingWeights=CPU=1.0 MaxTime=INFINITE State=DOWN
EOF
# MFPRIO_SOAK_DEBUG=1: both controllers log every charge (DebugFlags=
# Priority at SlurmctldDebug=verbose: ours logs each "owes" line)
if [[ ${MFPRIO_SOAK_DEBUG:-0} == 1 ]]; then
	printf 'DebugFlags=NO_CONF_HASH,Priority\nSlurmctldDebug=verbose\n' >>"$MFPRIO_CONF_EXTRA"
fi
max_age=$((MINUTES / 3))
{
	grep -v '^PriorityMaxAge=\|^PriorityWeightTRES=' "$here/priority-default.conf"
	echo "PriorityMaxAge=$max_age"
	echo "PriorityWeightTRES=CPU=500,GRES/gpu=300"
} >"$out/priority.conf"
for inst in "$CLUSTER_INSTANCE" "$PEER"; do
	d=$DIR
	[[ $inst == "$PEER" ]] && d=$peer_dir
	mkdir -p "$d/fakegpu"
	for i in $(seq 0 $((GPUS - 1))); do
		[[ -c $d/fakegpu/gpu$i ]] || mknod "$d/fakegpu/gpu$i" c 1 3
	done
	echo "Name=gpu File=$d/fakegpu/gpu[0-$((GPUS - 1))]" >"$out/gres-$inst.conf"
done

# --- both clusters, fresh
use_plugin ours
say "starting both clusters"
MFPRIO_PRIORITY_CONF=$out/priority.conf MFPRIO_CLUSTER_FRESH=1 our_cluster start >"$out/start-ours.log" 2>&1 &
p1=$!
MFPRIO_PRIORITY_CONF=$out/priority.conf MFPRIO_CLUSTER_FRESH=1 peer_cluster start >"$out/start-upstream.log" 2>&1 &
p2=$!
wait "$p1"
r1=$?
wait "$p2"
r2=$?
if ((r1 || r2)); then
	tail -n 20 "$out/start-ours.log" "$out/start-upstream.log"
	echo "0 passed, 1 failed"
	exit 1
fi
if ! our_cluster accounts "$here/layout-basic.txt" >"$out/accounts-ours.log" 2>&1 ||
	! peer_cluster accounts "$here/layout-basic.txt" >"$out/accounts-upstream.log" 2>&1; then
	tail -n 20 "$out/accounts-ours.log" "$out/accounts-upstream.log"
	echo "0 passed, 1 failed"
	exit 1
fi
check "ours is loaded in instance $CLUSTER_INSTANCE" loaded_is "$plugin_so"
peer_pid=$(head -n 1 "$peer_dir/run/slurmctld.pid" 2>/dev/null | tr -dc '0-9')
check "upstream's is loaded in instance $PEER" \
	grep -q "$(readlink -f "$UPSTREAM_SO")" "/proc/$peer_pid/maps"
nodes=$(sinfo -h -N -p batch -o %N | sort -u | paste -sd' ')
# shellcheck disable=SC2016  # expanded by eval
check "$NODES nodes in each, with $GPUS GPUs each ($nodes)" eval \
	'[[ $(sinfo -h -N -p batch -o "%N %G %t" | sort -u | grep -c "gpu:$GPUS .*idle") == "$NODES" &&
	    $(on_peer sinfo -h -N -p batch -o "%N %G %t" | sort -u | grep -c "gpu:$GPUS .*idle") == "$NODES" ]]'
t_day=$(date +%s)

# --- the day
python3 "$here/soak-gen.py" --seed "$SEED" --minutes "$MINUTES" --nodes "$NODES" \
	--cpus "$CPUS" --gpus "$GPUS" --load "$LOAD" >"$out/schedule" 2>"$out/schedule.stats"
cat "$out/schedule.stats"
# shellcheck disable=SC2016  # the script's own $1
printf '#!/bin/sh\nexec sleep "$1"\n' >"$out/job.sh"
chmod 755 "$out/job.sh"
envfile() {
	echo "SLURM_CONF=$1"
	echo "PATH=$PATH"
	echo "MFPRIO_CLUSTER_INSTANCE=$2"
	echo "MFPRIO_GRES_CONF=$out/gres-$2.conf"
	echo "-MFPRIO_CLUSTER_DIR"
	if [[ $3 == ours ]]; then echo "MFPRIO_PLUGIN_DIR=$plugin_dir"; else echo "-MFPRIO_PLUGIN_DIR"; fi
}
envfile "$SLURM_CONF" "$CLUSTER_INSTANCE" ours >"$out/ours.env"
envfile "$PEER_CONF" "$PEER" upstream >"$out/upstream.env"
say "the day: $(wc -l <"$out/schedule") events over $MINUTES min"
python3 "$here/soak-drive.py" --schedule "$out/schedule" --script "$out/job.sh" \
	--out "$out" --nodes "$nodes" --restart "$here/cluster.sh restart-ctld" \
	--cluster "ours=$out/ours.env" --cluster "upstream=$out/upstream.env" \
	--sample "ours=$STATE/mfprio_stats" >"$out/drive.log" 2>&1
cat "$out/drive.log"
for s in ours upstream; do
	say "$s: $(grep -c $'\tsubmit ' "$out/$s.actions") submissions, $(grep -c FAILED "$out/$s.actions") failed;" \
		"events: $(grep -v $'\tsubmit ' "$out/$s.actions" | awk -F'\t' '{ printf "%s: %s; ", $3, $4 }')"
done

# --- the end: every job but the parked ones ended, in both
busy() {
	local n
	n=$("$@" squeue -h -o '%P %T' 2>/dev/null | grep -vc '^parked ')
	[[ $n -gt 0 ]]
}
end_wait=$((SECONDS + 900 + MINUTES * 10))
# held by slurmctld (a suspended job requeued off a DOWN node is held):
# the admin releases it
release_held() {
	local ids
	ids=$("$@" squeue -h -t PD -o '%i %P %r' 2>/dev/null | awk '$2 != "parked" && $3 ~ /^JobHeld/ { print $1 }')
	[[ -n $ids ]] || return 0
	echo "$* released: $ids" >>"$out/released"
	# shellcheck disable=SC2086  # the ids, one word each
	"$@" scontrol release $ids 2>/dev/null
}
# stalled CLUSTER: jobs wait outside parked while none has run for
# STALL_SECS (the scheduler plans them and starts none: seen once on 22.05.8
# with upstream's plugin, 101 jobs pending, all four nodes "planned" with
# 128 CPUs idle, though sdiag showed main and backfill cycles running;
# cause not found); its stamp of the last run seen in $out/CLUSTER.ran
STALL_SECS=180
stalled() {
	local stamp=$out/$1.ran
	if "$1" squeue -h -t R,S,CG -o '%P' 2>/dev/null | grep -qv '^parked$' || [[ ! -e $stamp ]]; then
		echo "$SECONDS" >"$stamp"
		return 1
	fi
	(($(cat "$stamp") + STALL_SECS < SECONDS))
}
# cancel_left CLUSTER WHY: what is left in CLUSTER's queue but the parked
# jobs is named, cancelled (a job that never ran has no usage to compare)
# and waited for (60 s at most)
cancel_left() {
	local left n
	left=$("$1" squeue -h -o '%i %P %T %r' | grep -v ' parked ')
	[[ -n $left ]] || return 0
	say "$1: $(wc -l <<<"$left") jobs still in the queue $2 (cancelled):"
	echo "$left" | head -n 20
	echo "$1 $2: $(awk '{ print $1 }' <<<"$left" | paste -sd' ')" >>"$out/cancelled"
	# shellcheck disable=SC2046  # the ids, one word each
	"$1" scancel $(awk '{ print $1 }' <<<"$left") 2>/dev/null
	for ((n = 0; n < 30; n++)); do busy "$1" || break; sleep 2; done
}
while { busy env || busy on_peer; } && ((SECONDS < end_wait)); do
	release_held env
	release_held on_peer
	for c in env on_peer; do
		if busy "$c" && stalled "$c"; then
			cancel_left "$c" "after $STALL_SECS s with none running (a stalled scheduler)"
		fi
	done
	sleep 10
done
[[ -s $out/released ]] && say "held jobs released at the end: $(paste -sd';' "$out/released")"
# what the wait's end still finds fails the check below (a stall's queue,
# cancelled above, does not): those are cancelled too, for the comparisons
late=""
for c in env on_peer; do
	busy "$c" && late+=" $c"
	cancel_left "$c" "at the end of the wait"
done
[[ -s $out/cancelled ]] && say "cancelled before they ran: $(paste -sd';' "$out/cancelled")"
check "every job but the parked ones ended (or, stalled, was cancelled) in both clusters${late:+ (left at the end of the wait:$late)}" \
	test -z "$late"
# shellcheck disable=SC2016  # expanded by eval
check "... and the parked ones are still pending in both ($(squeue -h -p parked | wc -l), $(on_peer squeue -h -p parked | wc -l))" \
	eval '[[ $(squeue -h -p parked -t PD | wc -l) -gt 0 && $(squeue -h -p parked -t PD | wc -l) == $(on_peer squeue -h -p parked -t PD | wc -l) ]]'
# a pass after the last end, in both; sacct has every end
t_end=$(date +%s)
sleep 2
wait_tick "$t_end"
STATE=$peer_dir/state wait_tick "$t_end"
sacct_all() {
	SLURM_TIME_FORMAT=%s "$@" sacct -a -D -X -n -P -S "$(date -d "@$((t_day - 60))" +%Y-%m-%dT%H:%M:%S)" -E now \
		-o JobIDRaw,JobName,Account,User,Partition,State,Start,End,ElapsedRaw,Suspended,AllocTRES
}
sacct_settled() {
	! sacct_all "$@" | awk -F'|' '$7 ~ /^[0-9]+$/ && $8 !~ /^[0-9]+$/ { found = 1 } END { exit !found }'
}
for c in env on_peer; do
	n=0
	until sacct_settled "$c" || ((n++ > 30)); do sleep 2; done
done
capture() {
	local label=$1
	shift
	"$@" sshare -a -P -o Account,User,RawUsage,GrpTRESRaw >"$out/$label.sshare"
	"$@" sprio -l -p parked >"$out/$label.sprio" 2>&1
	"$@" sprio -l -n -p parked >"$out/$label.sprio-n" 2>&1
	"$@" squeue -h -p parked -o '%i %j' >"$out/$label.parked"
	"$@" scontrol show assoc_mgr flags=assoc >"$out/$label.assoc_mgr" 2>&1
	sacct_all "$@" >"$out/$label.sacct"
}
capture ours env
last_ran >"$out/ours.last_ran"
capture upstream on_peer
CLUSTER_DIR=$peer_dir last_ran >"$out/upstream.last_ran"
say "sacct: $(wc -l <"$out/ours.sacct") runs (ours), $(wc -l <"$out/upstream.sacct") (upstream's); states (ours): $(cut -d'|' -f6 "$out/ours.sacct" | awk '{ print $1 }' | sort | uniq -c | awk '{ printf "%s %s, ", $2, $1 }')"

# --- usage
python3 "$here/soak-compare.py" --layout "$here/layout-basic.txt" --halflife "$HALFLIFE" \
	--tol "$TOL" --summary "$out/usage.summary" \
	--cluster ours "$out/ours.sshare" "$out/ours.sacct" "$out/ours.last_ran" \
	--cluster upstream "$out/upstream.sshare" "$out/upstream.sacct" "$out/upstream.last_ran" \
	| tee "$out/usage.table"
verdict() { grep "^$1 " "$out/usage.summary" | cut -d' ' -f3-; }
check "ours: every association's RawUsage and GrpTRESRaw within $TOL% of its sacct ($(verdict ours_sacct))" \
	grep -q '^ours_sacct PASS' "$out/usage.summary"
check "ours within $TOL% of upstream's where the clusters' sacct agree and upstream has its sacct ($(verdict ours_upstream))" \
	grep -q '^ours_upstream PASS' "$out/usage.summary"
check "ours/sacct within $TOL points of upstream/sacct ($(verdict normalised))" \
	grep -q '^normalised PASS' "$out/usage.summary"
say "upstream against its sacct (not asserted): $(verdict upstream_sacct)"
say "the two clusters' sacct (how alike the days were; not asserted): $(verdict clusters)"

# --- sprio: the parked jobs, ours then upstream's on our cluster's state
m=$(log_mark)
use_plugin upstream
if restart_ctld sprio-upstream; then
	check "upstream's plugin is loaded on our cluster's state" loaded_is "$UPSTREAM_SO"
	# upstream settles after a pass of its own (see test-plugin-differential.sh)
	wait_tick "$(date +%s)"
	capture ours-state-upstream env
	check "sprio -l of the parked jobs: ours = upstream's on the same state" \
		"$here/compare-tables.py" sprio "$out/ours.sprio" "$out/ours-state-upstream.sprio" \
		PRIORITY=2 AGE=1 FAIRSHARE=1 JOBSIZE=1 PARTITION#2=1 QOS=1 TRES=1 SITE=1 ASSOC=1 NICE=1
	check "sprio -l -n: the same" \
		"$here/compare-tables.py" sprio-n "$out/ours.sprio-n" "$out/ours-state-upstream.sprio-n" PRIORITY=1.5e-8
	check "sshare on the same state: ours = upstream's (1e-3 relative: a pass's decay apart; GrpTRESRaw also 1 TRES-minute, its rounding)" \
		"$here/compare-tables.py" sshare "$out/ours.sshare" "$out/ours-state-upstream.sshare" \
		--sep='|' RawUsage=1e-3r GrpTRESRaw=1e-3r+1
else
	not_ok "slurmctld restarted on upstream's plugin"
fi
say "log after the switch: $(log_has "$m" 'error' && echo 'has errors' || echo 'no errors')"
# across the clusters, by job name
python3 - "$out/ours.sprio" "$out/ours.parked" "$out/upstream.sprio" "$out/upstream.parked" "$out/cross.summary" <<'PY'
import sys
def load(sprio, parked):
    name = dict(l.split()[:2] for l in open(parked) if l.strip())
    rows = [l.split() for l in open(sprio) if l.strip()]
    hdr, seen, cols = rows[0], {}, []
    for h in hdr:
        seen[h] = seen.get(h, 0) + 1
        cols.append(h if seen[h] == 1 else "%s#%d" % (h, seen[h]))
    return cols, {name.get(r[0], r[0]): dict(zip(cols, r)) for r in rows[1:] if r[0] in name}
co, o = load(sys.argv[1], sys.argv[2])
cu, u = load(sys.argv[3], sys.argv[4])
bad, fs = [], []
for j in sorted(set(o) | set(u)):
    if j not in o or j not in u:
        bad.append("%s only in one cluster" % j); continue
    for c in co:
        if c in ("JOBID", "PRIORITY"):
            continue
        a, b = o[j].get(c), u[j].get(c)
        try:
            d = abs(float(a) - float(b))
        except (TypeError, ValueError):
            if a != b: bad.append("%s %s %s/%s" % (j, c, a, b))
            continue
        if c == "FAIRSHARE":
            fs.append(d)
        elif d > 1:
            bad.append("%s %s %s/%s" % (j, c, a, b))
msg = "%d jobs; FAIRSHARE differs by up to %.0f (mean %.1f)" % (len(o), max(fs or [0]), sum(fs) / max(1, len(fs)))
open(sys.argv[5], "w").write(("FAIL " if bad else "PASS ") + msg + ("; " + "; ".join(bad[:10]) if bad else "") + "\n")
PY
check "sprio across the clusters: every column but FAIRSHARE/PRIORITY equal ($(cut -d' ' -f2- "$out/cross.summary"))" \
	grep -q '^PASS' "$out/cross.summary"

# --- our plugin's timings over the day
if [[ -s $out/ours.samples ]]; then
	python3 - "$out/ours.samples" <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
    rows.append(kv)
def col(k):
    return [float(r[k]) for r in rows if k in r]
w, c, l, j = col("wall_ms"), col("thread_cpu_ms"), col("job_lock_longest_ms"), col("jobs_total")
if w:
    print("soak: our plugin's passes (%d seen): wall max %.1f ms mean %.1f; thread CPU max %.1f ms; "
          "longest job-lock hold %.3f ms (job_lock_ms_max %.3f); jobs in a pass up to %d; cycles %s"
          % (len(w), max(w), sum(w) / len(w), max(c), max(l), max(col("job_lock_ms_max") or [0]),
             max(j), rows[-1].get("cycle", "?")))
PY
fi
check "the plugin's figures were read during the day" test -s "$out/ours.samples"
say "duration $((SECONDS - t_start)) s"
finish
