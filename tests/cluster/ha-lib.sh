# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# ha-lib.sh: a backup controller for a test cluster on this one machine.
# Sourced by cluster.sh (which sets CLUSTER_INSTANCE, ETC, RUN, LOG,
# SLURM_SBIN, say, die, wait_for, detach, our_daemon_pids, kill_wait), not
# run.
#
# slurmctld tells whether it is the primary or a backup by comparing its
# host name with the SlurmctldHost lines, and every controller listens on
# SlurmctldPort on all addresses: two of them on one machine need two host
# names and two network stacks.  The primary runs as the rest of the
# cluster does (this machine's name); the backup runs in a network
# namespace of its own, mfprio-ha-N, joined to the machine's by a veth
# pair (10.201.N.1 here, 10.201.N.2 there), and in a UTS namespace whose
# host name is mfpb.  Both share the file system: munge's socket, the
# configuration, the one StateSaveLocation.  The controllers and slurmd
# are then reached at 10.201.N.1, slurmdbd too (it listens on all
# addresses), so that the backup reaches them from its namespace.
#
# The backup reads etc/slurm-backup.conf, slurm.conf with its own pid file
# and log (log/slurmctld-backup.log); its environment's SLURM_CONF names
# that file, so that what stops the primary (restart-ctld) leaves it alone.
#
# Enabled by MFPRIO_CTLD_BACKUP=1 (start, restart-ctld); stop always
# removes the backup and the namespace when they exist.

HA_NS=mfprio-ha-$CLUSTER_INSTANCE
HA_IF_HERE=mfpha$CLUSTER_INSTANCE
HA_IF_THERE=mfphb$CLUSTER_INSTANCE
HA_NET=10.201.$CLUSTER_INSTANCE
HA_BACKUP_HOST=mfpb
HA_CONF=$ETC/slurm-backup.conf
HA_PIDFILE=$RUN/slurmctld-backup.pid
HA_LOG=$LOG/slurmctld-backup.log

# ha_on: the cluster is to have a backup controller.
ha_on() {
	[[ ${MFPRIO_CTLD_BACKUP:-0} == 1 ]]
}

# ha_ctld_addr: the address the primary controller, slurmd and slurmdbd
# are reached at.
ha_ctld_addr() {
	if ha_on; then echo "$HA_NET.1"; else echo 127.0.0.1; fi
}

# ha_conf_lines NODE: slurm.conf's controller lines.
ha_conf_lines() {
	echo "SlurmctldHost=$1($(ha_ctld_addr))"
	ha_on || return 0
	echo "SlurmctldHost=$HA_BACKUP_HOST($HA_NET.2)"
	# the backup pings the primary every third of this and takes over
	# once it has not answered for this long (seconds)
	echo "SlurmctldTimeout=${MFPRIO_CTLD_TIMEOUT:-6}"
}

# ha_write_conf: etc/slurm-backup.conf from etc/slurm.conf.
ha_write_conf() {
	ha_on || return 0
	sed -e "s|^SlurmctldPidFile=.*|SlurmctldPidFile=$HA_PIDFILE|" \
		-e "s|^SlurmctldLogFile=.*|SlurmctldLogFile=$HA_LOG|" \
		"$ETC/slurm.conf" >"$HA_CONF.new"
	chmod 644 "$HA_CONF.new"
	mv -f "$HA_CONF.new" "$HA_CONF"
}

# ha_in_ns COMMAND...: COMMAND in the backup's network namespace.  nsenter,
# not "ip netns exec" or "ip -n": those remount / as a slave first, which
# fails where / is no mount point (a chroot made as in
# ../shared/notes/fresh-machine.md); the backup needs only the network.
ha_in_ns() { nsenter --net="/run/netns/$HA_NS" "$@"; }

# ha_net_up: the namespace and the veth pair, made anew.
ha_net_up() {
	ha_on || return 0
	ha_net_down
	say "backup controller: namespace $HA_NS, $HA_NET.1 here, $HA_NET.2 there"
	ip netns add "$HA_NS" &&
		ip link add "$HA_IF_HERE" type veth peer name "$HA_IF_THERE" &&
		ip link set "$HA_IF_THERE" netns "$HA_NS" &&
		ip addr add "$HA_NET.1/24" dev "$HA_IF_HERE" &&
		ip link set "$HA_IF_HERE" up &&
		ha_in_ns ip addr add "$HA_NET.2/24" dev "$HA_IF_THERE" &&
		ha_in_ns ip link set "$HA_IF_THERE" up &&
		ha_in_ns ip link set lo up ||
		die "cannot make the network namespace $HA_NS and its veth pair (ip netns, ip link: see above)"
}

# ha_net_down: remove the namespace and the pair (deleting one end deletes
# both), if they exist.
ha_net_down() {
	if ip link show "$HA_IF_HERE" >/dev/null 2>&1; then
		ip link del "$HA_IF_HERE" || say "could not delete link $HA_IF_HERE"
	fi
	if ip netns list 2>/dev/null | grep -qw -- "$HA_NS"; then
		ip netns del "$HA_NS" || say "could not delete network namespace $HA_NS"
	fi
	return 0
}

# ha_backup_ok: scontrol ping says the backup answers.
ha_backup_ok() {
	scontrol ping 2>/dev/null | grep -q "^Slurmctld(backup) at $HA_BACKUP_HOST is UP"
}

# ha_start_backup: start the backup controller in its namespaces and wait
# until it answers.
ha_start_backup() {
	ha_on || die "start-backup needs MFPRIO_CTLD_BACKUP=1 (and a start with it)"
	ip netns list 2>/dev/null | grep -qw -- "$HA_NS" ||
		die "no network namespace $HA_NS: run start with MFPRIO_CTLD_BACKUP=1"
	[[ -e $HA_CONF ]] || die "no $HA_CONF: run start with MFPRIO_CTLD_BACKUP=1"
	local ctld_env=()
	read -ra ctld_env <<<"${MFPRIO_CTLD_ENV:-}"
	say "backup slurmctld: starting as $HA_BACKUP_HOST in $HA_NS"
	detach nsenter --net="/run/netns/$HA_NS" unshare --uts -- sh -c \
		'hostname "$1" && shift && exec "$@"' sh "$HA_BACKUP_HOST" \
		env SLURM_CONF="$HA_CONF" "${ctld_env[@]}" "$SLURM_SBIN/slurmctld" -f "$HA_CONF" \
		</dev/null >"$LOG/slurmctld-backup.stderr" 2>&1 ||
		fail "the backup slurmctld exited at start" "$LOG/slurmctld-backup.stderr" "$HA_LOG"
	wait_for "$TIMEOUT" ha_backup_ok ||
		fail "the backup slurmctld does not answer after ${TIMEOUT}s" \
			"$LOG/slurmctld-backup.stderr" "$HA_LOG"
	say "backup slurmctld: up (pid $(pidfile_pid "$HA_PIDFILE"))"
}

# ha_stop: stop the backup controller (its pid file's, and any with its
# SLURM_CONF) and remove the namespace.
ha_stop() {
	local pid
	local -a pids=()
	pid=$(pidfile_pid "$HA_PIDFILE")
	if [[ -n $pid ]] && pid_is "$SLURM_SBIN/slurmctld" "$pid" &&
		[[ $(conf_of "$pid") == "$HA_CONF" ]]; then
		pids+=("$pid")
	fi
	while read -r pid; do
		[[ -n $pid && " ${pids[*]} " != *" $pid "* ]] && pids+=("$pid")
	done < <(SLURM_CONF=$HA_CONF our_daemon_pids slurmctld)
	kill_wait "backup slurmctld" 30 "${pids[@]}"
	rm -f "$HA_PIDFILE"
	ha_net_down
}
