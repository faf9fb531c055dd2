#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cluster.sh: a one-node Slurm cluster with accounting, for testing mfprio's
# priority plugin against upstream's on real daemons.  Debian's Slurm 22.05
# by default, or a SchedMD release installed under a prefix; several
# instances can run side by side (instance.sh).
#
# Usage: cluster.sh deps|start|stop|restart-ctld|stop-dbd|start-dbd|start-backup|
#        status|logs [NAME]|accounts FILE
#
# Everything of the cluster's own lives under one scratch directory,
# /var/tmp/mfprio-cluster (instance 0) or /var/tmp/mfprio-cluster-N:
#   etc/    slurm.conf, priority.conf (included by slurm.conf), slurmdbd.conf
#   run/    pid files
#   log/    daemon logs
#   state/  StateSaveLocation        spool/  SlurmdSpoolDir
#   slurm-release  the Slurm version whose daemons wrote state/ and the
#                  database (another release starts fresh: see start)
# Clients find the cluster with: export SLURM_CONF=$DIR/etc/slurm.conf
# (and, for a release under a prefix, PATH=PREFIX/bin:$PATH).
#
# Environment:
#   MFPRIO_CLUSTER_INSTANCE instance number N (default 0): directory,
#                           ClusterName, ports, database (see instance.sh)
#   MFPRIO_SLURM_PREFIX     a SchedMD release installed with --prefix
#                           (default: Debian's packaged Slurm in /usr)
#   MFPRIO_CLUSTER_DIR      scratch directory (default from the instance)
#   MFPRIO_PLUGIN_DIR       directory searched for plugins before Slurm's own
#                           (PluginDir=$MFPRIO_PLUGIN_DIR:<slurm plugin dir>);
#                           read by start and restart-ctld
#   MFPRIO_PRIORITY_CONF    file copied to etc/priority.conf (Priority* lines).
#                           start: unset means priority-default.conf next to
#                           this script; restart-ctld: unset keeps the current
#                           etc/priority.conf (tests may rewrite it in place)
#   MFPRIO_CLUSTER_FRESH=1  start: also wipe state, spool, logs and the
#                           accounting database (default: reuse them,
#                           unless slurm-release names another version)
#   MFPRIO_CLUSTER_TIMEOUT  seconds to wait for each daemon (default 60)
#   MFPRIO_MAX_JOB_COUNT    slurm.conf's MaxJobCount (default 100000; the
#                           controller benchmark raises it)
#   MFPRIO_CTLD_ENV         NAME=VALUE words put in slurmctld's environment
#                           only (start, restart-ctld), e.g. LD_PRELOAD of a
#                           sanitizer's runtime (test-tsan.sh)
#   MFPRIO_CTLD_BACKUP=1    start, restart-ctld: a second SlurmctldHost, the
#                           backup, in a network and UTS namespace of its
#                           own (ha-lib.sh); start-backup starts it; stop
#                           always stops it and removes the namespace
#   MFPRIO_CTLD_TIMEOUT     with it, SlurmctldTimeout (default 6 s)
#   MFPRIO_ACCT_ENFORCE     slurm.conf's AccountingStorageEnforce (default
#                           associations,limits,qos; e.g. associations:
#                           slurmctld then reports no job end to the plugin)
#   MFPRIO_CONF_EXTRA       a file whose lines are added at slurm.conf's end
#                           (start, restart-ctld): GresTypes, more nodes or
#                           partitions, Preempt*, TRESBillingWeights
#   MFPRIO_CTLD_WRAP        words put before slurmctld's command (start,
#                           restart-ctld), e.g. gdb's "gdb -batch -x FILE
#                           --args": slurmctld then runs in the foreground
#                           (-D) in the background of this script
#   MFPRIO_CLUSTER_NODES    N nodes (default 1, at most 8): this machine's
#                           name and N-1 more, NAME-n2 ... NAME-nN, each its
#                           own slurmd (slurmd -N NAME-nK, Port=CTLD_PORT+K+1:
#                           the instance's free ports) on this host, all at
#                           127.0.0.1; no multiple-slurmd build needed (each
#                           node has a NodeHostName of its own).  With N > 1
#                           the slurmd pid files, logs and spool directories
#                           are per node (slurmd-%n) and the partitions debug
#                           and big span all nodes
#   MFPRIO_NODE_CONF        the words describing each node (default
#                           "CPUs=<nproc> RealMemory=2000"), e.g.
#                           "CPUs=32 RealMemory=64000 Gres=gpu:4" (more than
#                           the host has: add SlurmdParameters=config_overrides
#                           through MFPRIO_CONF_EXTRA)
#   MFPRIO_GRES_CONF        a file copied to etc/gres.conf (start,
#                           restart-ctld); unset: a gres.conf an earlier
#                           start copied is removed
#   MFPRIO_NODE_CPUS        the node's CPUs in slurm.conf (start,
#                           restart-ctld; default: nproc).  More than the
#                           machine has adds SlurmdParameters=config_overrides,
#                           so that slurmd takes slurm.conf's figure and the
#                           node is not drained (the busy-controller
#                           benchmark runs 1,000 one-CPU jobs at once)
#
# Munge and MariaDB are shared with the machine and among the instances:
# start reuses a running munged / mysqld (default sockets) and only starts
# one when none answers.  Which ones a start started is recorded in
# /var/tmp/mfprio-shared (with MariaDB's pid file and logs); stop stops them
# only if a start started them and no other instance of the test cluster
# still has daemons running (the last one out stops them).  Starting and
# stopping them is serialised by an flock on /tmp/mfprio-shared-services.lock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$here/instance.sh"

DIR=$CLUSTER_DIR
ETC=$DIR/etc
RUN=$DIR/run
LOG=$DIR/log
STATE=$DIR/state
SPOOL=$DIR/spool
export SLURM_CONF=$ETC/slurm.conf

CLUSTER=$CLUSTER_NAME
DB_USER=mfprio
# A throw-away password for a local test database reachable only via localhost.
DB_PASS=mfprio-local-test
TIMEOUT=${MFPRIO_CLUSTER_TIMEOUT:-60}
NODE=$(hostname -s)
NODES=${MFPRIO_CLUSTER_NODES:-1}
[[ $NODES =~ ^[1-8]$ ]] || {
	printf 'cluster: error: MFPRIO_CLUSTER_NODES=%s: expected 1 to 8\n' "$NODES" >&2
	exit 2
}
FRESH=${MFPRIO_CLUSTER_FRESH:-0}

MYSQL_SOCKET=/run/mysqld/mysqld.sock
MUNGE_PIDFILE=/run/munge/munged.pid

# What the instances share: markers of the munged/mariadb a start started,
# MariaDB's pid file and logs; and the lock serialising their start/stop.
SHARED=/var/tmp/mfprio-shared
SHARED_LOCK=/tmp/mfprio-shared-services.lock

PACKAGES=(slurmctld slurmd slurmdbd slurm-client munge mariadb-server)

# shellcheck source=ha-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/ha-lib.sh"

say_name=cluster
# shellcheck source=say-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/say-lib.sh"

# show_log FILE...: print the tail of each existing file, for a failure report.
show_log() {
	local f
	for f in "$@"; do
		[[ -s $f ]] || continue
		printf '%s\n' "---- last lines of $f ----" >&2
		tail -n 30 "$f" >&2
	done
}

# fail MESSAGE LOGFILE...: report, show the logs, exit non-zero.
fail() {
	local msg=$1
	shift
	printf 'cluster: error: %s\n' "$msg" >&2
	show_log "$@"
	exit 1
}

# wait_for SECONDS COMMAND...: run COMMAND every second until it succeeds.
# Returns 1 on timeout.
wait_for() {
	local limit=$1
	shift
	local end=$((SECONDS + limit))
	until "$@" >/dev/null 2>&1; do
		((SECONDS < end)) || return 1
		sleep 1
	done
}

# detach [--bg] COMMAND...: run COMMAND in a new session, inheriting no file
# descriptor above 2 (a caller's lock or pipe must not live on in a daemon).
# Without --bg, COMMAND must daemonize itself and its status is returned;
# with --bg, it is left running in the background. The caller redirects 0-2.
detach() {
	local bg=()
	if [[ $1 == --bg ]]; then
		bg=(-f)
		shift
	fi
	(
		local f fd
		for f in /proc/"$BASHPID"/fd/*; do
			fd=${f##*/}
			if ((fd > 2)); then
				exec {fd}>&-
			fi
		done
		exec setsid "${bg[@]}" "$@"
	)
}

# pid_is EXE PID: true if PID is alive and runs the binary EXE.
pid_is() {
	local exe=$1 pid=$2 real
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	real=$(readlink -f "$exe") || return 1
	[[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$real" ]] && same_root "$pid"
}

# pidfile_pid FILE: the pid in FILE, or nothing.
pidfile_pid() {
	[[ -r $1 ]] || return 0
	head -n 1 "$1" | tr -dc '0-9'
}

# exe_name PID: the file name of the binary PID runs ("slurmctld"), whatever
# its directory (another release's, or a binary deleted since).
exe_name() {
	local exe
	exe=$(readlink "/proc/$1/exe" 2>/dev/null) || return 0
	exe=${exe% (deleted)}
	echo "${exe##*/}"
}

# conf_of PID: the SLURM_CONF in PID's environment, or nothing.
conf_of() {
	tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | sed -n 's/^SLURM_CONF=//p' | head -n 1
}

# same_root PID: PID sees the same root directory as we do (a daemon of a
# chroot on this machine may carry the same SLURM_CONF path: not ours).
my_root=$(stat -L -c %d:%i / 2>/dev/null)
same_root() {
	[[ $(stat -L -c %d:%i "/proc/$1/root" 2>/dev/null) == "$my_root" ]]
}

# our_daemon_pids NAME: pids running a binary called NAME (of any release:
# an earlier start may have run another one in this directory) whose
# environment carries our SLURM_CONF, i.e. daemons of this cluster even if
# their pid file is gone; only those under our root directory.
# (every process's binary is read by one find, not by a readlink per
# process: on a machine running 14 clusters' tests that loop took half the
# CPU, in cluster.sh and readlink, sampled with perf)
our_daemon_pids() {
	local name=$1 pid exe
	while read -r pid exe; do
		pid=${pid#/proc/}
		exe=${exe% (deleted)}
		[[ ${exe##*/} == "$name" ]] || continue
		same_root "$pid" || continue
		[[ $(conf_of "$pid") == "$SLURM_CONF" ]] && echo "$pid"
	done < <(find /proc -mindepth 2 -maxdepth 2 -path '/proc/[0-9]*/exe' \
		-printf '%h %l\n' 2>/dev/null)
	return 0
}

# ppid_of PID: the parent pid of PID, or nothing.
ppid_of() {
	local stat ppid
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	stat=${stat##*) }
	read -r _ ppid _ <<<"$stat"
	echo "$ppid"
}

# kill_wait NAME SECONDS PID...: SIGTERM those of the pids whose parent is
# not among them (a daemon stops its own helpers, e.g. slurmscriptd), wait
# for all of them, then SIGKILL what is left.
kill_wait() {
	local name=$1 limit=$2
	shift 2
	local pid end
	local -a roots=() left=()
	[[ $# -gt 0 ]] || return 0
	for pid in "$@"; do
		[[ " $* " == *" $(ppid_of "$pid") "* ]] || roots+=("$pid")
	done
	say "stopping $name (pid $*)"
	kill -TERM "${roots[@]}" 2>/dev/null || true
	end=$((SECONDS + limit))
	while :; do
		left=()
		for pid in "$@"; do
			if kill -0 "$pid" 2>/dev/null; then
				left+=("$pid")
			fi
		done
		[[ ${#left[@]} -gt 0 ]] || return 0
		if ((SECONDS >= end)); then
			say "$name did not stop in ${limit}s; killing pid ${left[*]}"
			kill -KILL "${left[@]}" 2>/dev/null || true
			return 0
		fi
		sleep 0.5
	done
}

# stop_slurm_daemon NAME PIDFILE: stop this cluster's NAME daemons, the one
# in PIDFILE (if it runs this release's NAME) and any other carrying our
# SLURM_CONF.
stop_slurm_daemon() {
	local name=$1 pidfile=$2 exe=$SLURM_SBIN/$1 pid
	local -a pids=()
	pid=$(pidfile_pid "$pidfile")
	# a stale pid file's pid may now be another cluster's daemon of the
	# same binary (pids wrap at 32768): ours only if it has our SLURM_CONF
	if [[ -n $pid ]] && pid_is "$exe" "$pid" && same_root "$pid" &&
		[[ $(conf_of "$pid") == "$SLURM_CONF" ]]; then
		pids+=("$pid")
	fi
	while read -r pid; do
		[[ -n $pid && " ${pids[*]} " != *" $pid "* ]] && pids+=("$pid")
	done < <(our_daemon_pids "$name")
	kill_wait "$name" 30 "${pids[@]}"
	rm -f "$pidfile"
}

is_installed() {
	[[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

cmd_deps() {
	local -a missing=()
	local p
	for p in "${PACKAGES[@]}"; do
		is_installed "$p" || missing+=("$p")
	done
	if [[ ${#missing[@]} -eq 0 ]]; then
		say "all packages present: ${PACKAGES[*]}"
		return 0
	fi
	say "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update
	apt-get -o DPkg::Lock::Timeout=600 install -y "${missing[@]}"
}

check_deps() {
	local b
	for b in munged mysqld_safe sacctmgr scontrol sinfo squeue sbatch; do
		command -v "$b" >/dev/null ||
			die "$b not found; run: $0 deps"
	done
	for b in slurmdbd slurmctld slurmd slurmstepd; do
		[[ -x $SLURM_SBIN/$b ]] || die "no $SLURM_SBIN/$b"
	done
	[[ -n $SLURM_VERSION ]] || die "cannot tell the version of $SLURM_SBIN/slurmctld"
	if [[ -n $SLURM_PREFIX && $(command -v sacctmgr) != "$SLURM_BIN/sacctmgr" ]]; then
		die "sacctmgr is $(command -v sacctmgr), not $SLURM_BIN/sacctmgr"
	fi
	for b in priority_multifactor accounting_storage_mysql auth_munge; do
		[[ -e $SLURM_PLUGIN_DIR/$b.so ]] ||
			die "no $b.so in $SLURM_PLUGIN_DIR"
	done
	[[ $(id -u) -eq 0 ]] || die "must run as root"
	id slurm >/dev/null 2>&1 || die "no 'slurm' user; run: $0 deps"
	# slurmctld and slurmdbd run as slurm and load their plugins as slurm.
	if [[ -n $SLURM_PREFIX ]] &&
		! runuser -u slurm -- test -x "$SLURM_SBIN/slurmctld" -a -r "$UPSTREAM_SO"; then
		die "user slurm cannot read $SLURM_PREFIX (chmod -R a+rX it and its parents)"
	fi
}

# ---------------------------------------------------------------- shared services

# shared_lock: take the shared-services lock on fd 8 (held until
# shared_unlock or exit).  Daemons do not inherit it (detach closes it).
shared_lock() {
	exec 8>>"$SHARED_LOCK"
	if ! flock -n 8; then
		say "waiting for $SHARED_LOCK (another instance starts or stops)"
		flock -w 600 8 || die "$SHARED_LOCK still held after 600s"
	fi
}

shared_unlock() {
	exec 8>&-
}

# adopt_old_markers: earlier versions of this script kept the markers in the
# instance's run/; move a live one to the shared place.
adopt_old_markers() {
	local m
	for m in munge mariadb; do
		[[ -e $RUN/$m.ours ]] || continue
		if [[ ! -e $SHARED/$m.ours ]]; then
			mkdir -p "$SHARED"
			mv -f "$RUN/$m.ours" "$SHARED/$m.ours"
		else
			rm -f "$RUN/$m.ours"
		fi
	done
}

# is_cluster_conf FILE: FILE is a slurm.conf written by this script.
is_cluster_conf() {
	[[ -r $1 ]] && head -n 1 "$1" 2>/dev/null | grep -q '^# Generated by tests/cluster/cluster.sh'
}

# other_instances: one line "PID NAME SLURM_CONF" for each Slurm daemon of
# another instance of the test cluster still running: a process of a Slurm
# daemon whose environment names another slurm.conf written by this script,
# or the pid in another /var/tmp/mfprio-cluster*/run/*.pid.
other_instances() {
	local p pid name conf f
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		name=$(exe_name "$pid")
		case $name in
		slurmctld | slurmd | slurmdbd | slurmstepd) ;;
		*) continue ;;
		esac
		conf=$(conf_of "$pid")
		[[ -n $conf && $conf != "$SLURM_CONF" ]] && is_cluster_conf "$conf" &&
			echo "$pid $name $conf"
	done
	for f in /var/tmp/mfprio-cluster*/run/slurm{ctld,d,dbd}.pid; do
		[[ -e $f && ${f%/run/*} != "$DIR" ]] || continue
		pid=$(pidfile_pid "$f")
		name=${f##*/}
		name=${name%.pid}
		[[ -n $pid && $(exe_name "$pid") == "$name" ]] &&
			echo "$pid $name ${f%/run/*}/etc/slurm.conf"
	done
	return 0
}

# ---------------------------------------------------------------- munge

munge_ok() {
	munge -n -t 10 2>/dev/null | unmunge >/dev/null 2>&1
}

# shared_answers MARKER EXE NAME REUSED: the shared daemon NAME answers;
# say whether a cluster.sh start started it (the pid in $SHARED/MARKER.ours
# is still EXE) or someone else did (REUSED says so; the stale marker goes).
shared_answers() {
	local marker=$SHARED/$1.ours pid
	pid=$(pidfile_pid "$marker")
	if [[ -n $pid ]] && pid_is "$2" "$pid"; then
		say "$3: started by a cluster.sh start (pid $pid)"
	else
		rm -f "$marker"
		say "$3: $4"
	fi
}

start_munge() {
	local marker=$SHARED/munge.ours pid
	if munge_ok; then
		shared_answers munge /usr/sbin/munged munged "reusing the one already running"
		return 0
	fi
	rm -f "$marker"
	mkdir -p /run/munge /var/log/munge /var/lib/munge "$SHARED/log"
	chown munge:munge /run/munge /var/log/munge /var/lib/munge
	if [[ ! -s /etc/munge/munge.key ]]; then
		say "munged: creating /etc/munge/munge.key"
		runuser -u munge -- mungekey --create
	fi
	say "munged: starting"
	detach runuser -u munge -- /usr/sbin/munged </dev/null >"$SHARED/log/munged.stderr" 2>&1 ||
		fail "munged did not start" "$SHARED/log/munged.stderr" /var/log/munge/munged.log
	wait_for "$TIMEOUT" munge_ok ||
		fail "munge does not answer after ${TIMEOUT}s" /var/log/munge/munged.log
	pid=$(pidfile_pid "$MUNGE_PIDFILE")
	echo "$pid" >"$marker"
	say "munged: up (pid $pid)"
}

# stop_shared MARKER EXE NAME SECS: stop the shared daemon a start started
# (its pid in $SHARED/MARKER.ours), if that pid is still EXE: SIGTERM, then
# up to SECS s (kill_wait NAME).  SIGTERM is a clean shutdown for both
# (mysqld_safe then exits by itself).
stop_shared() {
	local marker=$SHARED/$1.ours pid
	[[ -e $marker ]] || return 0
	pid=$(pidfile_pid "$marker")
	if [[ -n $pid ]] && pid_is "$2" "$pid"; then
		kill_wait "$3" "$4" "$pid"
	fi
	rm -f "$marker"
}

stop_munge() { stop_shared munge /usr/sbin/munged munged 15; }

# ---------------------------------------------------------------- mariadb

mysqld_ok() {
	mysqladmin --socket="$MYSQL_SOCKET" --connect-timeout=2 ping >/dev/null 2>&1
}

start_mariadb() {
	local marker=$SHARED/mariadb.ours pid
	local mrun=$SHARED/run/mysql mlog=$SHARED/log
	if mysqld_ok; then
		shared_answers mariadb /usr/sbin/mariadbd mariadb "reusing the server on $MYSQL_SOCKET"
		return 0
	fi
	rm -f "$marker"
	mkdir -p /run/mysqld "$mrun" "$mlog/mariadb"
	chown mysql:mysql /run/mysqld "$mrun" "$mlog/mariadb"
	if [[ ! -d /var/lib/mysql/mysql ]]; then
		say "mariadb: initialising /var/lib/mysql"
		mariadb-install-db --user=mysql --datadir=/var/lib/mysql \
			>"$mlog/mariadb-install.log" 2>&1 ||
			fail "mariadb-install-db failed" "$mlog/mariadb-install.log"
	fi
	say "mariadb: starting mysqld_safe"
	rm -f "$mrun/mysqld.pid"
	# socket only (slurmdbd's StorageHost=localhost uses it): no TCP port
	# to collide with another MariaDB on this network (a chroot's, say)
	detach --bg mysqld_safe --user=mysql --socket="$MYSQL_SOCKET" \
		--skip-networking \
		--pid-file="$mrun/mysqld.pid" \
		--log-error="$mlog/mariadb/mariadb.err" \
		--innodb-lock-wait-timeout=900 --innodb-buffer-pool-size=512M \
		</dev/null >"$mlog/mysqld_safe.out" 2>&1
	wait_for "$TIMEOUT" mysqld_ok ||
		fail "mariadb does not answer after ${TIMEOUT}s" \
			"$mlog/mysqld_safe.out" "$mlog/mariadb/mariadb.err"
	wait_for 10 test -s "$mrun/mysqld.pid" || true
	pid=$(pidfile_pid "$mrun/mysqld.pid")
	[[ -n $pid ]] || fail "mariadb is up but wrote no pid file" "$mlog/mariadb/mariadb.err"
	echo "$pid" >"$marker"
	say "mariadb: up (pid $pid)"
}

stop_mariadb() { stop_shared mariadb /usr/sbin/mariadbd mariadb 60; }

# stop_shared_services: stop the munged and mariadb a start started, unless
# another instance still runs daemons (it needs them; the last one to stop
# stops them).  Called with the shared lock held.
stop_shared_services() {
	local others
	[[ -e $SHARED/mariadb.ours || -e $SHARED/munge.ours ]] || return 0
	others=$(other_instances | awk '{ print $3 }' | sort -u | paste -sd' ')
	if [[ -n $others ]]; then
		say "leaving munged and mariadb running: in use by $others"
		return 0
	fi
	stop_mariadb
	stop_munge
}

setup_db() {
	local sql=""
	if [[ $FRESH == 1 ]]; then
		say "mariadb: dropping $DB_NAME (fresh start)"
		sql+="DROP DATABASE IF EXISTS $DB_NAME;"
	fi
	sql+="CREATE DATABASE IF NOT EXISTS $DB_NAME;"
	sql+="CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASS';"
	sql+="ALTER USER '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASS';"
	sql+="GRANT ALL ON $DB_NAME.* TO '$DB_USER'@'localhost';"
	mysql --socket="$MYSQL_SOCKET" -u root -e "$sql" ||
		die "cannot set up database $DB_NAME as root on $MYSQL_SOCKET"
}

# ---------------------------------------------------------------- config

# node_names: every node of the cluster, this machine's name first.
node_names() {
	local k
	echo "$NODE"
	for ((k = 2; k <= NODES; k++)); do
		echo "$NODE-n$k"
	done
}

# node_lines: the NodeName lines (MFPRIO_CLUSTER_NODES, MFPRIO_NODE_CONF).
node_lines() {
	local hw=${MFPRIO_NODE_CONF:-"CPUs=$(node_cpus) RealMemory=2000"} k
	echo "NodeName=$NODE NodeAddr=$(ha_ctld_addr) $hw State=UNKNOWN"
	for ((k = 2; k <= NODES; k++)); do
		echo "NodeName=$NODE-n$k NodeAddr=$(ha_ctld_addr) Port=$((CTLD_PORT + k + 1)) $hw State=UNKNOWN"
	done
}

# slurmd_paths_per_node: each slurmd has its own pid file, log and spool
# directory (slurmd-%n in slurm.conf): there are several nodes.
slurmd_paths_per_node() {
	((NODES > 1))
}

# write_gres_conf: MFPRIO_GRES_CONF to etc/gres.conf, or remove the one an
# earlier start copied.
write_gres_conf() {
	local f=$ETC/gres.conf
	if [[ -z ${MFPRIO_GRES_CONF:-} ]]; then
		if [[ -e $f ]] && head -n 1 "$f" | grep -q '^# Copied from .* by cluster.sh'; then
			rm -f "$f"
		fi
		return 0
	fi
	[[ -r $MFPRIO_GRES_CONF ]] || die "cannot read MFPRIO_GRES_CONF=$MFPRIO_GRES_CONF"
	copy_in "$MFPRIO_GRES_CONF" "$f"
}

# copy_in SRC DEST: SRC to DEST (mode 644) under a first line naming it,
# through DEST.new, so that a reader never sees half of it.
copy_in() {
	{
		echo "# Copied from $1 by cluster.sh"
		cat "$1"
	} >"$2.new"
	chmod 644 "$2.new"
	mv -f "$2.new" "$2"
}

# release_lines: the slurm.conf lines that depend on the release in use.
release_lines() {
	if ! slurm_at_least 23.11; then
		# Up to 23.02 these name real plugins that do nothing.  23.11
		# removed the 'none' plugins (but auth and cred): it reads a
		# '/none' value as unset, which is also the default, so the
		# lines are left out there.
		cat <<EOF
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SwitchType=switch/none
EOF
	fi
}

# node_cpus: the node's CPUs in slurm.conf, MFPRIO_NODE_CPUS or nproc.
node_cpus() {
	local n=${MFPRIO_NODE_CPUS:-}
	[[ -n $n ]] || { nproc; return 0; }
	[[ $n =~ ^[1-9][0-9]{0,5}$ ]] || die "MFPRIO_NODE_CPUS='$n' is not a CPU count"
	echo "$n"
}

# extra_conf_lines: MFPRIO_CONF_EXTRA's lines (nothing when unset).
extra_conf_lines() {
	[[ -n ${MFPRIO_CONF_EXTRA:-} ]] || return 0
	[[ -r $MFPRIO_CONF_EXTRA ]] || die "cannot read MFPRIO_CONF_EXTRA=$MFPRIO_CONF_EXTRA"
	echo "# from $MFPRIO_CONF_EXTRA (MFPRIO_CONF_EXTRA)"
	cat "$MFPRIO_CONF_EXTRA"
}

write_slurm_conf() {
	local plugindir=$SLURM_PLUGIN_DIR tmp dbd_host=localhost cpus overrides=""
	local sd_spool=$SPOOL/slurmd sd_pid=$RUN/slurmd.pid sd_log=$LOG/slurmd.log part_nodes=$NODE
	if slurmd_paths_per_node; then
		sd_spool=$SPOOL/slurmd-%n sd_pid=$RUN/slurmd-%n.pid sd_log=$LOG/slurmd-%n.log part_nodes=ALL
	fi
	cpus=$(node_cpus)
	# more CPUs than the machine has: slurmd must take slurm.conf's count
	# (else it registers its own, and slurmctld drains the node)
	((cpus <= $(nproc))) || overrides=$'SlurmdParameters=config_overrides\n'
	# a backup controller in its own namespace reaches slurmdbd there
	ha_on && dbd_host=$(ha_ctld_addr)
	if [[ -n ${MFPRIO_PLUGIN_DIR:-} ]]; then
		[[ -d $MFPRIO_PLUGIN_DIR ]] ||
			die "MFPRIO_PLUGIN_DIR=$MFPRIO_PLUGIN_DIR is not a directory"
		plugindir=$MFPRIO_PLUGIN_DIR:$SLURM_PLUGIN_DIR
	fi
	tmp=$ETC/slurm.conf.new
	cat >"$tmp" <<EOF
# Generated by tests/cluster/cluster.sh; rewritten by start and restart-ctld.
# $SLURM_RELEASE, instance $CLUSTER_INSTANCE.
ClusterName=$CLUSTER
$(ha_conf_lines "$NODE")
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
PluginDir=$plugindir
StateSaveLocation=$STATE
SlurmdSpoolDir=$sd_spool
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$sd_pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$sd_log
SlurmctldDebug=info
# restart-ctld may change PluginDir and priority.conf under a running slurmd.
DebugFlags=NO_CONF_HASH
SlurmdDebug=info
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/pgid
$(release_lines)
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=$dbd_host
AccountingStoragePort=$DBD_PORT
AccountingStorageEnforce=${MFPRIO_ACCT_ENFORCE:-associations,limits,qos}
MaxJobCount=${MFPRIO_MAX_JOB_COUNT:-100000}
ReturnToService=2
InactiveLimit=0
KillWait=5
PriorityType=priority/multifactor
# Minutes; 22.05 rounds seconds up to whole minutes, so 1 is the minimum;
# every release gets the same period.
PriorityCalcPeriod=1
Include $ETC/priority.conf
${overrides}$(node_lines)
PartitionName=debug Nodes=$part_nodes Default=YES PriorityJobFactor=10 MaxTime=INFINITE State=UP
PartitionName=big Nodes=$part_nodes PriorityJobFactor=20 MaxTime=INFINITE State=UP
$(extra_conf_lines)
EOF
	chmod 644 "$tmp"
	mv -f "$tmp" "$ETC/slurm.conf"
	write_gres_conf
	ha_write_conf
}

# write_priority_conf DEFAULT: copy MFPRIO_PRIORITY_CONF, else DEFAULT (may be
# empty: keep the present file) to etc/priority.conf.
write_priority_conf() {
	local src=${MFPRIO_PRIORITY_CONF:-$1}
	if [[ -z $src ]]; then
		[[ -e $ETC/priority.conf ]] || : >"$ETC/priority.conf"
		return 0
	fi
	[[ -r $src ]] || die "cannot read priority settings $src"
	copy_in "$src" "$ETC/priority.conf"
}

write_slurmdbd_conf() {
	local tmp=$ETC/slurmdbd.conf.new
	(
		umask 077
		cat >"$tmp" <<EOF
# Generated by tests/cluster/cluster.sh
AuthType=auth/munge
DbdHost=localhost
DbdPort=$DBD_PORT
SlurmUser=slurm
DebugLevel=info
LogFile=$LOG/slurmdbd.log
PidFile=$RUN/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=$DB_USER
StoragePass=$DB_PASS
StorageLoc=$DB_NAME
EOF
	)
	chown slurm:slurm "$tmp"
	chmod 600 "$tmp"
	mv -f "$tmp" "$ETC/slurmdbd.conf"
}

# check_release: set FRESH=1 when the state and database were left by
# another Slurm release than the one in use (slurmctld and slurmdbd may
# refuse, or silently misread, another release's state and tables).  A
# directory without the record is Debian's 22.05's, the only release earlier
# versions of this script ran.
check_release() {
	local prev
	[[ $FRESH == 1 ]] && return 0
	prev=$(cat "$DIR/slurm-release" 2>/dev/null || true)
	if [[ -z $prev ]]; then
		[[ -z $SLURM_PREFIX ]] && return 0
		[[ -n $(ls -A "$STATE" 2>/dev/null) ]] || return 0
		prev="unknown (no $DIR/slurm-release)"
	fi
	[[ $prev == "$SLURM_VERSION" ]] && return 0
	say "state and database are Slurm $prev's, this is $SLURM_VERSION: starting fresh"
	FRESH=1
}

make_dirs() {
	if [[ $FRESH == 1 ]]; then
		say "wiping $STATE $SPOOL $LOG (fresh start)"
		rm -rf "${STATE:?}" "${SPOOL:?}" "${LOG:?}"
	fi
	mkdir -p "$ETC" "$RUN" "$LOG" "$STATE" "$SPOOL"
	chmod 755 "$DIR" "$ETC" "$RUN" "$LOG" "$STATE" "$SPOOL"
	chown slurm:slurm "$RUN" "$LOG" "$STATE"
}

# check_daemon_access: slurmctld and slurmdbd run as the slurm user; stop
# before starting them if it cannot read its configuration and plugins or
# write its state, logs and pid files, naming the path and what blocks it.
# With "plugins", only the plugin directories (before anything is stopped).
check_daemon_access() {
	local p why problems=()
	if [[ ${1:-} != plugins ]]; then
		why=$(slurm_cannot r "$ETC") && problems+=("$why")
		for p in "$STATE" "$LOG" "$RUN"; do
			why=$(slurm_cannot w "$p") && problems+=("$why")
		done
	fi
	why=$(slurm_cannot r "$SLURM_PLUGIN_DIR") && problems+=("$why")
	if [[ -n ${MFPRIO_PLUGIN_DIR:-} ]]; then
		why=$(slurm_cannot r "$MFPRIO_PLUGIN_DIR") && problems+=("$why")
		for p in "$MFPRIO_PLUGIN_DIR"/*.so; do
			[[ -e $p ]] || continue
			why=$(slurm_cannot r "$p") && problems+=("$why")
		done
	fi
	[[ ${#problems[@]} -eq 0 ]] && return 0
	printf 'cluster: error: %s\n' "${problems[@]}" >&2
	die "the daemons run as user slurm and could not use the paths above: install the plugin where slurm can read it (make install, e.g. configure --with-plugindir=/usr/local/lib/mfprio/slurm) and keep MFPRIO_CLUSTER_DIR outside private home directories"
}

# ---------------------------------------------------------------- slurm

dbd_ok() {
	sacctmgr -n -P show cluster format=Cluster
}

ctld_ok() {
	# Without a config file scontrol retries for a minute; do not ask it then.
	[[ -e $SLURM_CONF ]] || return 1
	scontrol ping 2>/dev/null | grep -q 'is UP'
}

# node_state [NAME]: the State field of node NAME (default: ours, this
# machine's) (e.g. IDLE, IDLE+DRAIN, UNKNOWN, DOWN+NOT_RESPONDING); sinfo
# would say "drained" before the node registers.
node_state() {
	ctld_ok || return 0
	scontrol -o show node "${1:-$NODE}" 2>/dev/null |
		grep -o 'State=[^ ]*' | head -n 1 | cut -d= -f2
}

# node_registered [NAME]: its slurmd has registered with the running
# slurmctld.
node_registered() {
	local s
	s=$(node_state "$@")
	[[ -n $s && $s != UNKNOWN* && $s != *NOT_RESPONDING* ]]
}

# all_registered: every node's slurmd has.
all_registered() {
	local n
	for n in $(node_names); do
		node_registered "$n" || return 1
	done
}

# node_usable [NAME]: registered and neither drained nor down.
node_usable() {
	local s
	s=$(node_state "$@")
	[[ $s =~ ^(IDLE|MIXED|ALLOCATED|COMPLETING)(\+|$) &&
		$s != *DRAIN* && $s != *FAIL* && $s != *NOT_RESPONDING* ]]
}

# start_daemon [--bg] NAME COMMAND...: COMMAND detached (--bg: in the
# background, for a daemon kept in the foreground)
start_daemon() {
	local name bg=()
	if [[ $1 == --bg ]]; then
		bg=(--bg)
		shift
	fi
	name=$1
	shift
	say "$name: starting"
	detach "${bg[@]}" "$@" </dev/null >"$LOG/$name.stderr" 2>&1 ||
		fail "$name exited at start" "$LOG/$name.stderr" "$LOG/$name.log"
}

start_slurmdbd() {
	start_daemon slurmdbd "$SLURM_SBIN/slurmdbd"
	wait_for "$TIMEOUT" dbd_ok ||
		fail "slurmdbd does not answer after ${TIMEOUT}s" \
			"$LOG/slurmdbd.stderr" "$LOG/slurmdbd.log"
	say "slurmdbd: up (pid $(pidfile_pid "$RUN/slurmdbd.pid"))"
	if ! dbd_ok | grep -qx "$CLUSTER"; then
		say "sacctmgr: adding cluster $CLUSTER"
		sacctmgr -i add cluster "$CLUSTER" >/dev/null
	fi
}

start_slurmctld() {
	local ctld_env=() wrap=()
	read -ra ctld_env <<<"${MFPRIO_CTLD_ENV:-}"
	if [[ -n ${MFPRIO_CTLD_WRAP:-} ]]; then
		read -ra wrap <<<"$MFPRIO_CTLD_WRAP"
		start_daemon --bg slurmctld env "${ctld_env[@]}" "${wrap[@]}" \
			"$SLURM_SBIN/slurmctld" -D -f "$SLURM_CONF"
	else
		start_daemon slurmctld env "${ctld_env[@]}" "$SLURM_SBIN/slurmctld" -f "$SLURM_CONF"
	fi
	wait_for "$TIMEOUT" ctld_ok ||
		fail "slurmctld does not answer after ${TIMEOUT}s" \
			"$LOG/slurmctld.stderr" "$LOG/slurmctld.log"
	say "slurmctld: up (pid $(pidfile_pid "$RUN/slurmctld.pid"))"
}

start_slurmd() {
	local n
	if ! slurmd_paths_per_node; then
		mkdir -p "$SPOOL/slurmd"
		start_daemon slurmd "$SLURM_SBIN/slurmd" -f "$SLURM_CONF"
		wait_for "$TIMEOUT" node_registered ||
			fail "node $NODE did not register in ${TIMEOUT}s (state '$(node_state)')" \
				"$LOG/slurmd.stderr" "$LOG/slurmd.log" "$LOG/slurmctld.log"
		say "slurmd: up (pid $(pidfile_pid "$RUN/slurmd.pid")), node $NODE $(node_state)"
		return 0
	fi
	# one slurmd per node, each told its node name
	for n in $(node_names); do
		mkdir -p "$SPOOL/slurmd-$n"
		start_daemon "slurmd-$n" "$SLURM_SBIN/slurmd" -f "$SLURM_CONF" -N "$n"
	done
	for n in $(node_names); do
		wait_for "$TIMEOUT" node_registered "$n" ||
			fail "node $n did not register in ${TIMEOUT}s (state '$(node_state "$n")')" \
				"$LOG/slurmd-$n.stderr" "$LOG/slurmd-$n.log" "$LOG/slurmctld.log"
		say "slurmd: up (pid $(pidfile_pid "$RUN/slurmd-$n.pid")), node $n $(node_state "$n")"
	done
}

# Bring the nodes back from a drain/down left by an earlier run.
resume_node() {
	local n
	for n in $(node_names); do
		node_usable "$n" && continue
		say "node $n is $(node_state "$n"); resuming it"
		scontrol update nodename="$n" state=resume || true
		wait_for "$TIMEOUT" node_usable "$n" ||
			fail "node $n is $(node_state "$n"), not usable" "$LOG/slurmctld.log"
	done
}

no_running_jobs() {
	local ids
	ids=$(squeue -h -t RUNNING,SUSPENDED,CONFIGURING,COMPLETING -o %i) || return 1
	[[ -z $ids ]]
}

# Cancel this cluster's running jobs so that no job process outlives stop.
cancel_running_jobs() {
	local ids
	ctld_ok || return 0
	ids=$(squeue -h -t RUNNING,SUSPENDED,CONFIGURING -o %i 2>/dev/null | tr '\n' ' ')
	if [[ -n ${ids// /} ]]; then
		say "cancelling running jobs: $ids"
		# shellcheck disable=SC2086  # word splitting of the id list is wanted
		scancel $ids 2>/dev/null || true
	fi
	wait_for 30 no_running_jobs ||
		say "some jobs still running after 30s"
}

stop_slurm() {
	cancel_running_jobs
	stop_slurm_daemon slurmd "$RUN/slurmd.pid"
	# one per node (MFPRIO_CLUSTER_NODES > 1), whatever it is now: Debian's
	# slurmd runs as slurmd-wlm, which our_daemon_pids does not find
	# (by the pid files alone: a scan of /proc for each would take minutes
	# on a busy machine)
	local f pid
	local -a nodes_pids=()
	for f in "$RUN"/slurmd-*.pid; do
		[[ -e $f ]] || continue
		pid=$(pidfile_pid "$f")
		if [[ -n $pid ]] && pid_is "$SLURM_SBIN/slurmd" "$pid" &&
			[[ $(conf_of "$pid") == "$SLURM_CONF" ]]; then
			nodes_pids+=("$pid")
		fi
		rm -f "$f"
	done
	kill_wait "slurmd of the nodes" 30 "${nodes_pids[@]}"
	local pid
	local -a steps=()
	while read -r pid; do
		[[ -n $pid ]] && steps+=("$pid")
	done < <(our_daemon_pids slurmstepd)
	kill_wait slurmstepd 10 "${steps[@]}"
	ha_stop
	stop_slurm_daemon slurmctld "$RUN/slurmctld.pid"
	stop_slurm_daemon slurmdbd "$RUN/slurmdbd.pid"
}

cmd_start() {
	check_deps
	say "instance $CLUSTER_INSTANCE: cluster $CLUSTER, $SLURM_RELEASE, ports $CTLD_PORT-$DBD_PORT, scratch directory $DIR"
	check_daemon_access plugins
	mkdir -p "$RUN" "$LOG"
	stop_slurm
	check_release
	make_dirs
	check_daemon_access
	ha_net_up
	# From checking munged and mariadb to slurmdbd answering, hold the
	# shared lock: a second instance starting at the same moment must not
	# start a second mariadb, and one stopping must see us as a user.
	shared_lock
	adopt_old_markers
	start_munge
	start_mariadb
	setup_db
	write_priority_conf "$here/priority-default.conf"
	write_slurm_conf
	write_slurmdbd_conf
	echo "$SLURM_VERSION" >"$DIR/slurm-release"
	start_slurmdbd
	shared_unlock
	start_slurmctld
	start_slurmd
	resume_node
	say "cluster $CLUSTER is up"
	[[ -z $SLURM_PREFIX ]] || echo "export PATH=$SLURM_BIN:$SLURM_SBIN:\$PATH"
	echo "export SLURM_CONF=$SLURM_CONF"
}

cmd_stop() {
	stop_slurm
	shared_lock
	adopt_old_markers
	stop_shared_services
	shared_unlock
	say "stopped"
}

cmd_restart_ctld() {
	check_deps
	[[ -e $ETC/slurm.conf ]] || die "no $ETC/slurm.conf; run: $0 start"
	check_daemon_access
	stop_slurm_daemon slurmctld "$RUN/slurmctld.pid"
	write_priority_conf ""
	write_slurm_conf
	start_slurmctld
	wait_for "$TIMEOUT" all_registered ||
		fail "a node is not responding after restart (state of $NODE '$(node_state)')" \
			"$LOG/slurmctld.log"
	say "slurmctld restarted; node $NODE $(node_state)"
}

# cmd_stop_dbd: stop this instance's slurmdbd alone (slurmctld keeps running
# and queues what it would have sent).
cmd_stop_dbd() {
	stop_slurm_daemon slurmdbd "$RUN/slurmdbd.pid"
	say "slurmdbd stopped"
}

# cmd_start_dbd: start this instance's slurmdbd again after stop-dbd, on the
# configuration and database start left (MariaDB must still answer).
cmd_start_dbd() {
	check_deps
	[[ -e $ETC/slurmdbd.conf ]] || die "no $ETC/slurmdbd.conf; run: $0 start"
	mysqld_ok || die "MariaDB does not answer on $MYSQL_SOCKET; run: $0 start"
	start_slurmdbd
}

# status_line NAME EXE PIDFILE
status_line() {
	local pid
	pid=$(pidfile_pid "$3")
	if [[ -n $pid ]] && pid_is "$2" "$pid"; then
		printf '%-10s running (pid %s)\n' "$1" "$pid"
	else
		printf '%-10s stopped\n' "$1"
	fi
}

# shared_status NAME TEST: the status line of the shared daemon NAME (its
# marker $SHARED/NAME.ours); fails when TEST says it does not answer.
shared_status() {
	local marker=$SHARED/$1.ours
	if ! "$2"; then
		printf '%-10s not answering\n' "$1"
		return 1
	fi
	if [[ -e $marker ]]; then
		printf '%-10s running (started by cluster.sh, pid %s)\n' "$1" "$(pidfile_pid "$marker")"
	else
		printf '%-10s running (not ours)\n' "$1"
	fi
}

cmd_status() {
	local rc=0 others
	echo "instance   $CLUSTER_INSTANCE (cluster $CLUSTER, ports $CTLD_PORT $SLURMD_PORT $DBD_PORT, database $DB_NAME)"
	echo "slurm      $SLURM_RELEASE, plugins $SLURM_PLUGIN_DIR"
	echo "directory  $DIR"
	shared_status munge munge_ok || rc=1
	shared_status mariadb mysqld_ok || rc=1
	status_line slurmdbd "$SLURM_SBIN/slurmdbd" "$RUN/slurmdbd.pid"
	status_line slurmctld "$SLURM_SBIN/slurmctld" "$RUN/slurmctld.pid"
	if slurmd_paths_per_node; then
		local n
		for n in $(node_names); do
			status_line "slurmd" "$SLURM_SBIN/slurmd" "$RUN/slurmd-$n.pid"
		done
	else
		status_line slurmd "$SLURM_SBIN/slurmd" "$RUN/slurmd.pid"
	fi
	others=$(other_instances | awk '{ print $3 }' | sort -u | paste -sd' ')
	echo "others     ${others:-none} (other instances with daemons)"
	if [[ -e $SLURM_CONF ]] && ctld_ok; then
		scontrol ping
		sinfo
		echo "export SLURM_CONF=$SLURM_CONF"
	else
		rc=1
	fi
	return "$rc"
}

cmd_logs() {
	local name=${1:-slurmctld} lines=${MFPRIO_LOG_LINES:-50}
	case $name in
	slurmctld | slurmd | slurmdbd) tail -n "$lines" "$LOG/$name.log" ;;
	mariadb) tail -n "$lines" "$SHARED/log/mariadb/mariadb.err" ;;
	munge) tail -n "$lines" /var/log/munge/munged.log ;;
	*) die "logs: unknown log '$name' (slurmctld slurmd slurmdbd mariadb munge)" ;;
	esac
}

# ---------------------------------------------------------------- accounts

# assoc_field ACCOUNT USER FIELD: FIELD of the association, empty if none.
assoc_field() {
	sacctmgr -n -P show assoc where cluster="$CLUSTER" account="$1" \
		format=User,"$3" | awk -F'|' -v u="$2" '$1 == u { print $2; found = 1 } END { exit !found }'
}

ensure_account() {
	local parent=$1 name=$2 shares=$3 cur
	if cur=$(assoc_field "$name" "" Fairshare); then
		if [[ $(assoc_field "$name" "" ParentName) != "$parent" ]]; then
			say "account $name: moving under $parent"
			sacctmgr -i modify account where name="$name" cluster="$CLUSTER" \
				set parent="$parent" >/dev/null
		fi
		if [[ $cur != "$shares" ]]; then
			say "account $name: fairshare $cur -> $shares"
			sacctmgr -i modify account where name="$name" cluster="$CLUSTER" \
				set fairshare="$shares" >/dev/null
		fi
	else
		say "account $name: adding under $parent, fairshare $shares"
		sacctmgr -i add account "$name" cluster="$CLUSTER" parent="$parent" \
			fairshare="$shares" description="$name" organization=mfprio >/dev/null
	fi
}

ensure_user() {
	local account=$1 name=$2 shares=$3 cur
	if ! id -u "$name" >/dev/null 2>&1; then
		say "unix user $name: adding"
		useradd -M -s /bin/sh "$name"
	fi
	if cur=$(assoc_field "$account" "$name" Fairshare); then
		if [[ $cur != "$shares" ]]; then
			say "user $name in $account: fairshare $cur -> $shares"
			sacctmgr -i modify user where name="$name" account="$account" \
				cluster="$CLUSTER" set fairshare="$shares" >/dev/null
		fi
	else
		say "user $name: adding to $account, fairshare $shares"
		sacctmgr -i add user "$name" cluster="$CLUSTER" account="$account" \
			fairshare="$shares" >/dev/null
	fi
}

cmd_accounts() {
	local file=${1:-}
	[[ -n $file && -r $file ]] || die "usage: $0 accounts FILE"
	dbd_ok >/dev/null 2>&1 || die "slurmdbd is not answering; run: $0 start"
	local n=0 kind a b c extra
	while read -r kind a b c extra || [[ -n $kind ]]; do
		n=$((n + 1))
		[[ -z $kind || $kind == \#* ]] && continue
		[[ -n $c && -z $extra ]] ||
			die "$file:$n: expected 'account PARENT NAME SHARES' or 'user ACCOUNT NAME SHARES'"
		[[ $c =~ ^([0-9]+|parent)$ ]] ||
			die "$file:$n: SHARES must be a number or 'parent', not '$c'"
		# sacctmgr stores account and user names in lower case.
		case $kind in
		account) ensure_account "${a,,}" "${b,,}" "$c" ;;
		user) ensure_user "${a,,}" "${b,,}" "$c" ;;
		*) die "$file:$n: unknown kind '$kind'" ;;
		esac
	done <"$file"
	say "associations of $file loaded"
}

usage() {
	cat >&2 <<EOF
usage: $0 COMMAND
  deps            install the Debian packages the cluster needs
  start           start munge, mariadb, slurmdbd, slurmctld, slurmd
  stop            stop what start started
  restart-ctld    restart slurmctld only (rereads MFPRIO_PLUGIN_DIR and,
                  if set, MFPRIO_PRIORITY_CONF)
  stop-dbd        stop slurmdbd only (the other daemons keep running)
  start-dbd       start slurmdbd again after stop-dbd
  start-backup    start the backup slurmctld (MFPRIO_CTLD_BACKUP=1: see
                  ha-lib.sh)
  status          show what runs
  logs [NAME]     tail a log (slurmctld, slurmd, slurmdbd, mariadb, munge)
  accounts FILE   load associations ('account PARENT NAME SHARES',
                  'user ACCOUNT NAME SHARES'; SHARES may be 'parent')
EOF
	exit 2
}

main() {
	[[ $# -ge 1 ]] || usage
	local cmd=$1
	shift
	case $cmd in
	deps) cmd_deps ;;
	start) cmd_start ;;
	stop) cmd_stop ;;
	restart-ctld) cmd_restart_ctld ;;
	stop-dbd) cmd_stop_dbd ;;
	start-dbd) cmd_start_dbd ;;
	start-backup) check_deps && ha_start_backup ;;
	status) cmd_status ;;
	logs) cmd_logs "$@" ;;
	accounts) cmd_accounts "$@" ;;
	-h | --help | help) usage ;;
	*) usage ;;
	esac
}

main "$@"
