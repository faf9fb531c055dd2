# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# ctld-lib.sh: what controller.sh and sprio_cost.sh share: one test cluster
# (tests/cluster/cluster.sh), ~1,100 associations, N pending jobs, and a
# switch between upstream's installed plugin and ours.  Sourced with `here`
# set to this directory and OUT to the output directory.
#
#   ctld_pid                 slurmctld's pid
#   ctld_layout              writes OUT/layout.txt (100 accounts under root)
#                            and creates the users mfpb001..mfpb100
#   add_associations         the accounts, and each user in the 10 accounts
#                            of its group (1,000 user associations)
#   submit FROM N            N pending jobs numbered FROM.. over those
#                            associations, 8 sbatch at a time; prints the
#                            number refused
#   submit_running FROM N    N one-CPU jobs numbered FROM.. over the same
#                            associations, each `sleep`ing two days
#                            (RUN_SLEEP s): they run as long as the bench
#   running_count            the cluster's RUNNING jobs
#   cancel_all               every job cancelled, until none runs (5 min),
#                            then any job process of ours left is killed
#   mem_avail_mb             the machine's MemAvailable, in MiB
#   restart_with ours|upstream   slurmctld restarted with that plugin
#   stamp                    the decay state file's mtime (a new value: a
#                            cycle has ended)
#   wait_cycle AFTER         until a cycle ends after AFTER; echoes its stamp
#
# Environment: MFPRIO_PLUGIN_SO (our installed plugin, required),
# MFPRIO_CLUSTER_INSTANCE (default 50), MFPRIO_SLURM_PREFIX.
: "${here:?set here to the bench directory}" "${OUT:?set OUT}"
cl=$(cd "$here/../tests/cluster" && pwd)
export MFPRIO_CLUSTER_INSTANCE=${MFPRIO_CLUSTER_INSTANCE:-50}
# shellcheck source=../tests/cluster/instance.sh disable=SC1091
. "$cl/instance.sh"
DIR=$CLUSTER_DIR
export SLURM_CONF=$DIR/etc/slurm.conf
STATE=$DIR/state
NODE=$(hostname -s)
mkdir -p "$OUT"

say() { printf '%s: [%4ds] %s\n' "${name:-bench}" "$SECONDS" "$*" >&2; }
die() { say "error: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root"
so=${MFPRIO_PLUGIN_SO:-}
[[ -f $so ]] || die "MFPRIO_PLUGIN_SO must name our installed priority_multifactor.so"
why=$(slurm_cannot r "$so") && die "$why"
ours_dir=$(cd "$(dirname "$so")" && pwd)

ctld_pid() { head -n 1 "$DIR/run/slurmctld.pid" 2>/dev/null | tr -dc '0-9'; }

ctld_layout() {
	local g k u
	if [[ ! -s $OUT/layout.txt ]]; then
		for g in $(seq 0 9); do
			for k in $(seq 1 10); do
				printf 'account root ba%03d 10\n' $((g * 10 + k))
			done
		done >"$OUT/layout.txt"
	fi
	for u in $(seq -f 'mfpb%03g' 1 100); do
		id "$u" >/dev/null 2>&1 ||
			useradd --system --no-create-home --shell /usr/sbin/nologin "$u"
	done
}

add_associations() {
	local accts g users list
	accts=$(awk '{ print $3 }' "$OUT/layout.txt" | paste -sd,)
	sacctmgr -i add account "$accts" parent=root fairshare=10 >/dev/null 2>&1
	for g in $(seq 0 9); do
		users=$(seq -f 'mfpb%03g' $((g * 10 + 1)) $((g * 10 + 10)) | paste -sd,)
		list=$(seq -f 'ba%03g' $((g * 10 + 1)) $((g * 10 + 10)) | paste -sd,)
		sacctmgr -i add user "$users" account="$list" fairshare=1 >/dev/null 2>&1
	done
}

submit() {
	seq "$1" $(($1 + $2 - 1)) | xargs -P 8 -n 200 sh -c '
		for i; do
			u=$((i % 100 + 1)); g=$(( (u - 1) / 10 ))
			a=$((g * 10 + i / 100 % 10 + 1))
			sbatch --uid=$(printf "mfpb%03d" $u) -A $(printf "ba%03d" $a) \
				-p $([ $((i % 3)) -eq 0 ] && echo big || echo debug) \
				-n $((i % 4 + 1)) -t $((i % 60 + 1)) -D /tmp -o /dev/null \
				--wrap true >/dev/null 2>&1 || echo x
		done' sh | wc -l
}

# a sleep no job of anyone else's has: cancel_all looks for it
RUN_SLEEP=172717

submit_running() {
	seq "$1" $(($1 + $2 - 1)) | xargs -P 8 -n 50 sh -c '
		s=$1; shift
		for i; do
			u=$((i % 100 + 1)); g=$(( (u - 1) / 10 ))
			a=$((g * 10 + i / 100 % 10 + 1))
			sbatch --uid=$(printf "mfpb%03d" $u) -A $(printf "ba%03d" $a) \
				-p debug -n 1 -t 3-0 -D /tmp -o /dev/null \
				--wrap "exec sleep $s" >/dev/null 2>&1 || echo x
		done' sh "$RUN_SLEEP" | wc -l
}

running_count() { squeue -h -t RUNNING -o %i 2>/dev/null | wc -l; }

mem_avail_mb() { awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo; }

# job_sleeps: pids of the job processes submit_running started (our users,
# our sleep), which a slurmstepd killed before its job would leave behind
job_sleeps() {
	ps -e -o pid=,user=,args= | awk -v a="sleep $RUN_SLEEP" '
		$2 ~ /^mfpb[0-9][0-9][0-9]$/ && substr($0, index($0, $3)) == a { print $1 }'
}

cancel_all() {
	local end=$((SECONDS + 300)) left
	scancel --quiet --state=PENDING 2>/dev/null
	squeue -h -o %i 2>/dev/null | xargs -r -n 500 scancel --quiet 2>/dev/null
	while (($(squeue -h -t RUNNING,COMPLETING -o %i 2>/dev/null | wc -l) > 0)); do
		((SECONDS < end)) || break
		sleep 2
	done
	left=$(job_sleeps)
	if [[ -n $left ]]; then
		say "killing $(wc -w <<<"$left") job processes left behind"
		# shellcheck disable=SC2086  # the pid list is split on purpose
		kill -KILL $left 2>/dev/null
	fi
	return 0
}

restart_with() {
	if [[ $1 == ours ]]; then export MFPRIO_PLUGIN_DIR=$ours_dir; else unset MFPRIO_PLUGIN_DIR; fi
	"$cl/cluster.sh" restart-ctld >"$OUT/restart-$1.log" 2>&1 ||
		die "restart with $1 (see $OUT/restart-$1.log)"
}

# stamp: mtime of the decay state file (a new value = a cycle has ended)
stamp() { stat -c %Y "$STATE/priority_last_decay_ran" 2>/dev/null || echo 0; }

# wait_cycle AFTER: until a cycle ends after AFTER; echoes its stamp
wait_cycle() {
	local end=$((SECONDS + 300)) s
	while :; do
		s=$(stamp)
		((s > $1)) && { echo "$s"; return 0; }
		((SECONDS < end)) || return 1
		sleep 0.2
	done
}
