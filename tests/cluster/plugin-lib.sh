# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# plugin-lib.sh: what the test-plugin-*.sh scripts share.  Sourced, not run.
#
# Environment:
#   MFPRIO_PLUGIN_SO    our installed plugin, priority_multifactor.so in a
#                       directory the slurm user can read, holding no other
#                       Slurm plugin (default: the build tree's
#                       src/plugin/.libs/priority_multifactor.so, the build
#                       tree being MFPRIO_BUILD or the source tree; usable
#                       only when slurm can read the build tree)
#   MFPRIO_CLUSTER_INSTANCE, MFPRIO_CLUSTER_DIR, MFPRIO_SLURM_PREFIX
#                       which cluster, and which Slurm release (instance.sh)
# Sets: here top DIR SLURM_CONF LOG STATE NODE out pass fail, and what
# instance.sh sets (UPSTREAM_SO: the release's own priority_multifactor.so,
# SLURM_VERSION, slurm_at_least, PATH with the release's clients first);
# functions: ctld_alive, use_plugin, wait_tick, start_cluster, log_has,
# raw_usage, cpu_secs, within ...

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=check-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/check-lib.sh"
DIR=$CLUSTER_DIR
export SLURM_CONF=$DIR/etc/slurm.conf
LOG=$DIR/log/slurmctld.log
# the instance's logs (slurmctld, a backup's, slurmd, slurmdbd) go with a
# failed test's outputs (check-lib.sh finish)
KEEP_ON_FAILURE=("$DIR/log")
STATE=$DIR/state
NODE=$(hostname -s)

# Our plugin, as installed (make install): its directory is put first on
# PluginDir.  slurmctld runs as user slurm, which must be able to read it:
# a build tree in a private home directory (/root on Debian) is not.
plugin_so=${MFPRIO_PLUGIN_SO:-${MFPRIO_BUILD:-$top}/src/plugin/.libs/priority_multifactor.so}
if [[ ! -f $plugin_so ]]; then
	say "no plugin at $plugin_so (build with --with-slurm-source and make install, then set MFPRIO_PLUGIN_SO to the installed priority_multifactor.so)"
	echo "0 passed, 1 failed"
	exit 1
fi
if [[ $(basename "$plugin_so") != priority_multifactor.so ]]; then
	say "MFPRIO_PLUGIN_SO=$plugin_so: slurmctld loads a file named priority_multifactor.so"
	echo "0 passed, 1 failed"
	exit 1
fi
plugin_dir=$(cd "$(dirname "$plugin_so")" && pwd)
if why=$(slurm_cannot r "$plugin_so"); then
	say "error: $why"
	say "the daemons run as user slurm: install the plugin where slurm can read it (make install into a plugin directory such as /usr/local/lib/mfprio/slurm) and set MFPRIO_PLUGIN_SO to it"
	echo "0 passed, 1 failed"
	exit 1
fi

say "instance $CLUSTER_INSTANCE ($CLUSTER_DIR), $SLURM_RELEASE"

# Only one test drives a cluster instance at a time.
exec 9>"$CLUSTER_LOCK"
flock 9 || { say "could not lock $CLUSTER_LOCK"; echo "0 passed, 1 failed"; exit 1; }

cleanup() {
	unset MFPRIO_PLUGIN_DIR
	[[ -e $DIR/etc/priority.conf ]] &&
		cp "$here/priority-default.conf" "$DIR/etc/priority.conf" 2>/dev/null
	"$here/cluster.sh" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

# ctld_pid: this cluster's slurmctld (the pid file's pid, if that process
# carries our SLURM_CONF: a stale file's pid may be reused by another's)
ctld_pid() {
	local pid
	pid=$(head -n 1 "$DIR/run/slurmctld.pid" 2>/dev/null | tr -dc '0-9')
	[[ -n $pid ]] || return 0
	tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$SLURM_CONF" &&
		echo "$pid"
	return 0
}

ctld_alive() {
	local pid
	pid=$(ctld_pid)
	[[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && scontrol ping 2>/dev/null | grep -q 'is UP'
}

# use_plugin ours|upstream: the plugin the next (re)start loads.
use_plugin() {
	case $1 in
	ours) export MFPRIO_PLUGIN_DIR=$plugin_dir ;;
	upstream) unset MFPRIO_PLUGIN_DIR ;;
	esac
}

# loaded_so: the priority_multifactor.so mapped into slurmctld (the kernel
# shows the file's real path: compare with loaded_is).
loaded_so() {
	grep -o '/[^ ]*priority_multifactor\.so' "/proc/$(ctld_pid)/maps" 2>/dev/null | sort -u
}

# loaded_is FILE: slurmctld has FILE mapped, and no other
# priority_multifactor.so (FILE through any symbolic link, e.g. a release
# prefix reached through one).
loaded_is() {
	[[ -n $1 && $(loaded_so) == "$(readlink -f "$1")" ]]
}

# wait_tick T: wait until a decay pass has written the state file after T.
wait_tick() {
	local stamp=$STATE/priority_last_decay_ran end=$((SECONDS + 150))
	until [[ -e $stamp ]] && (($(stat -c %Y "$stamp") > $1)); do
		((SECONDS < end)) || { say "no decay tick after $1"; return 1; }
		sleep 1
	done
	sleep 2
}

# start_cluster CONF [FRESH]: start the cluster with priority settings CONF
# (FRESH=1, the default, wipes state and accounting first; 0 reuses them) and
# load the test layout's associations.  Ends the test on failure.
start_cluster() {
	MFPRIO_PRIORITY_CONF=$1 MFPRIO_CLUSTER_FRESH=${2:-1} \
		"$here/cluster.sh" start >"$out/start.log" 2>&1 || {
		tail -n 30 "$out/start.log"
		echo "0 passed, 1 failed"
		exit 1
	}
	unset MFPRIO_PRIORITY_CONF
	"$here/cluster.sh" accounts "$here/layout-basic.txt" >"$out/accounts.log" 2>&1 || {
		tail -n 30 "$out/accounts.log"
		echo "0 passed, 1 failed"
		exit 1
	}
}

# restart_ctld LABEL: restart slurmctld (plugin per use_plugin), wait for its
# first pass.
restart_ctld() {
	local t
	t=$(date +%s)
	"$here/cluster.sh" restart-ctld >"$out/$1.restart" 2>&1 || {
		say "$1: slurmctld did not come back"
		tail -n 20 "$out/$1.restart"
		return 1
	}
	wait_tick "$t"
}

# stop_ctld: stop slurmctld only (it saves its state), and wait for it.
# Fails when the primary slurmctld still answers for this cluster: one whose
# pid this instance's pid file does not give would write its state over
# what the caller prepares next.
stop_ctld() {
	local pid end=$((SECONDS + 60))
	pid=$(ctld_pid)
	if [[ -n $pid ]] && kill -TERM "$pid" 2>/dev/null; then
		while kill -0 "$pid" 2>/dev/null; do
			((SECONDS < end)) || { say "slurmctld $pid does not stop"; return 1; }
			sleep 1
		done
	fi
	if scontrol ping 2>/dev/null | grep -q '(primary) .* is UP'; then
		say "a slurmctld still answers (pid file: '$(head -c 40 "$DIR/run/slurmctld.pid" 2>/dev/null)', pid ${pid:-none of ours})"
		return 1
	fi
}

# start_ctld LABEL: start slurmctld again after stop_ctld.
start_ctld() {
	"$here/cluster.sh" restart-ctld >"$out/$1.restart" 2>&1 ||
		{ say "$1: slurmctld did not start"; tail -n 20 "$out/$1.restart"; }
}

# log_mark: where the slurmctld log is now (its inode and line count), for
# log_has.
log_mark() {
	local ino n
	ino=$(stat -c %i "$LOG" 2>/dev/null || echo 0)
	n=$(wc -l 2>/dev/null <"$LOG" || echo 0)
	echo "$ino:$n"
}

# log_after MARK: the lines logged after MARK; fails (and says so on
# stderr) when the log cannot be read.  A log file made anew since the mark
# (a start that wiped the cluster: another release had used this instance),
# or shorter than it was, is read from its start.
log_after() {
	local ino=${1%%:*} n=${1#*:}
	if [[ ! -f $LOG || ! -r $LOG ]]; then
		say "cannot read the log $LOG" >&2
		return 1
	fi
	[[ $(stat -c %i "$LOG" 2>/dev/null || echo 0) == "$ino" ]] || n=0
	(($(wc -l <"$LOG") >= n)) || n=0
	tail -n +"$((n + 1))" "$LOG" || { say "cannot read the log $LOG" >&2; return 1; }
}

# log_has MARK PATTERN: PATTERN (grep -E) logged after MARK.  The lines
# are read whole before grep looks: `log_after | grep -q` under pipefail
# failed when grep matched before tail had written the rest (tail's
# SIGPIPE is the pipeline's status), as it did under load in the matrix
# (test-plugin-stats: the cycle line logged, and "not found").
log_has() {
	local text
	text=$(log_after "$1" 2>/dev/null) || return 1
	grep -qE -- "$2" <<<"$text"
}

# sub SBATCH_ARGS...: a one-second job submitted, its id
sub() { sbatch --parsable -D /tmp -o /dev/null --wrap 'sleep 1' "$@" | cut -d';' -f1; }

# drain REASON: this node drained, so that what is submitted stays pending
drain() { scontrol update nodename="$NODE" state=drain reason="$1"; }

# wait_until SECS COMMAND...: COMMAND succeeds within SECS s (tried every
# second).
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		((SECONDS < end)) || return 1
		sleep 1
	done
}

# log_soon MARK PATTERN: PATTERN logged after MARK, now or within 30 s: for
# a line of the plugin's init, read after cluster.sh restart-ctld returns
# (24.11's and 26.11's slurmctld open their RPC ports before they call
# priority_g_init).
log_soon() {
	wait_until 30 log_has "$@"
}

# log_lacks MARK PATTERN: the log is read, and PATTERN was not logged after
# MARK (a log missing or unreadable fails: it shows nothing).
log_lacks() {
	local text
	text=$(log_after "$1") || return 1
	! grep -qE -- "$2" <<<"$text"
}

# raw_usage ACCOUNT USER: sshare's RawUsage of that association (0 if none)
raw_usage() {
	sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' |
		awk -F'|' -v a="$1" -v u="$2" '$1 == a && $2 == u { print $3; f = 1 } END { if (!f) print 0 }'
}

# cpu_secs ID: sacct's CPU-seconds of job ID
cpu_secs() {
	sacct -n -P -X -j "$1" -o CPUTimeRAW 2>/dev/null | awk '/^[0-9]/ { s += $1 } END { print s + 0 }'
}

# within VALUE EXPECTED PERCENT: VALUE is EXPECTED (> 0) within PERCENT %
within() {
	awk -v v="$1" -v e="$2" -v p="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(e > 0 && d <= e * p / 100) }'
}
