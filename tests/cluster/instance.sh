# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034
# instance.sh: which test cluster, and which Slurm release, the scripts of
# tests/cluster/ drive.  Sourced (by cluster.sh, plugin-lib.sh,
# cluster-lock.sh and the other scripts), not run; sourcing it again is
# harmless.  The one place where names, ports and paths are derived.
#
# Environment:
#   MFPRIO_CLUSTER_INSTANCE  N, an integer 0-99 (default 0).  Several
#                            instances run side by side on one machine:
#                              N = 0          N > 0
#                    dir       /var/tmp/mfprio-cluster    /var/tmp/mfprio-cluster-N
#                    cluster   mfprio                     mfprioN
#                    ports     16817 16818 16819          the same + 10*N
#                    database  mfprio_acct_db             mfprio_acct_db_N
#                    lock      /tmp/mfprio-cluster.lock   /tmp/mfprio-cluster-N.lock
#   MFPRIO_CLUSTER_DIR       overrides the directory (names and ports stay
#                            those of the instance)
#   MFPRIO_SLURM_PREFIX      empty: the packaged Slurm (/usr/sbin,
#                            /usr/bin, plugins in /usr/lib/<arch>/slurm-wlm,
#                            Debian's, else /usr/lib/<arch>/slurm, SchedMD's
#                            slurm-smd packages);
#                            set: a SchedMD release installed with
#                            --prefix=PREFIX (PREFIX/sbin, PREFIX/bin,
#                            plugins in PREFIX/lib/slurm)
#
# Sets: CLUSTER_INSTANCE CLUSTER_DIR CLUSTER_NAME CTLD_PORT SLURMD_PORT
#   DBD_PORT DB_NAME CLUSTER_LOCK SLURM_PREFIX SLURM_SBIN SLURM_BIN
#   SLURM_PLUGIN_DIR UPSTREAM_SO SLURM_VERSION (e.g. 23.11.11, from
#   `slurmctld -V` of the release in use; empty if it is not installed)
#   SLURM_VERSION_NUM (231111; 0 if unknown) SLURM_RELEASE (for messages:
#   "Slurm 23.11.11 (PREFIX)", "Slurm 22.05.8 (Debian's package)")
# Exports PATH with the release's bin and sbin first, and without the bin or
# sbin of any other release prefix, so that every client (sshare, sprio,
# sbatch, sacctmgr, scontrol, squeue, sacct) is the release's own.
# Functions: slurm_at_least MAJOR.MINOR[.MICRO], slurm_cannot MODE PATH,
#   last_ran (the time of the last priority calculation)

# _mfprio_instance_die MESSAGE: a configuration error; ends the caller.
_mfprio_instance_die() {
	printf 'instance.sh: error: %s\n' "$*" >&2
	exit 2
}

CLUSTER_INSTANCE=${MFPRIO_CLUSTER_INSTANCE:-0}
[[ $CLUSTER_INSTANCE =~ ^[0-9]{1,2}$ ]] ||
	_mfprio_instance_die "MFPRIO_CLUSTER_INSTANCE='$CLUSTER_INSTANCE' is not an integer 0-99"
CLUSTER_INSTANCE=$((10#$CLUSTER_INSTANCE))

if ((CLUSTER_INSTANCE == 0)); then
	CLUSTER_DIR=${MFPRIO_CLUSTER_DIR:-/var/tmp/mfprio-cluster}
	CLUSTER_NAME=mfprio
	DB_NAME=mfprio_acct_db
	CLUSTER_LOCK=/tmp/mfprio-cluster.lock
else
	CLUSTER_DIR=${MFPRIO_CLUSTER_DIR:-/var/tmp/mfprio-cluster-$CLUSTER_INSTANCE}
	# sacctmgr lower-cases cluster names: keep it lower case from the start.
	CLUSTER_NAME=mfprio$CLUSTER_INSTANCE
	DB_NAME=mfprio_acct_db_$CLUSTER_INSTANCE
	CLUSTER_LOCK=/tmp/mfprio-cluster-$CLUSTER_INSTANCE.lock
fi
CTLD_PORT=$((16817 + 10 * CLUSTER_INSTANCE))
SLURMD_PORT=$((16818 + 10 * CLUSTER_INSTANCE))
DBD_PORT=$((16819 + 10 * CLUSTER_INSTANCE))

SLURM_PREFIX=${MFPRIO_SLURM_PREFIX:-}
SLURM_PREFIX=${SLURM_PREFIX%/}
if [[ -n $SLURM_PREFIX ]]; then
	[[ -x $SLURM_PREFIX/sbin/slurmctld && -d $SLURM_PREFIX/lib/slurm ]] ||
		_mfprio_instance_die "MFPRIO_SLURM_PREFIX=$SLURM_PREFIX has no sbin/slurmctld and lib/slurm (a Slurm installed with --prefix)"
	SLURM_SBIN=$SLURM_PREFIX/sbin
	SLURM_BIN=$SLURM_PREFIX/bin
	SLURM_PLUGIN_DIR=$SLURM_PREFIX/lib/slurm
else
	SLURM_SBIN=/usr/sbin
	SLURM_BIN=/usr/bin
	SLURM_PLUGIN_DIR=/usr/lib/x86_64-linux-gnu/slurm-wlm
	# Debian's packages (slurm-wlm-basic-plugins), else SchedMD's own
	# (slurm-smd, from the debian/ of a Slurm tarball: .../slurm)
	for _mfprio_d in /usr/lib/*/slurm-wlm /usr/lib/*/slurm; do
		if [[ -e $_mfprio_d/priority_multifactor.so ]]; then
			SLURM_PLUGIN_DIR=$_mfprio_d
			break
		fi
	done
	unset _mfprio_d
fi
UPSTREAM_SO=$SLURM_PLUGIN_DIR/priority_multifactor.so

# PATH: drop the bin and sbin of other release prefixes (a directory whose
# ../lib/slurm holds a priority_multifactor.so, other than the system's),
# then put this release's first.  A caller's PATH from another instance must
# not make us run that release's clients.
_mfprio_path=""
IFS=: read -ra _mfprio_dirs <<<"$PATH"
for _mfprio_d in "${_mfprio_dirs[@]}"; do
	case $_mfprio_d in
	"" | /usr/bin | /usr/sbin | /bin | /sbin | /usr/local/bin | /usr/local/sbin) ;;
	*)
		[[ -e ${_mfprio_d%/}/../lib/slurm/priority_multifactor.so ]] && continue
		;;
	esac
	[[ ":$_mfprio_path:" == *":$_mfprio_d:"* ]] && continue
	_mfprio_path+=${_mfprio_path:+:}$_mfprio_d
done
if [[ -n $SLURM_PREFIX ]]; then
	_mfprio_path=$SLURM_BIN:$SLURM_SBIN${_mfprio_path:+:}$_mfprio_path
fi
export PATH=$_mfprio_path
unset _mfprio_path _mfprio_dirs _mfprio_d

# The release in use, from its slurmctld: "slurm 23.11.11", Debian's
# "slurm-wlm 22.05.8".
SLURM_VERSION=""
if [[ -x $SLURM_SBIN/slurmctld ]]; then
	SLURM_VERSION=$("$SLURM_SBIN/slurmctld" -V 2>/dev/null |
		grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1)
fi
SLURM_VERSION_NUM=0
if [[ $SLURM_VERSION =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
	SLURM_VERSION_NUM=$((10#${BASH_REMATCH[1]} * 10000 + 10#${BASH_REMATCH[2]} * 100 + 10#${BASH_REMATCH[3]}))
fi

if [[ -n $SLURM_PREFIX ]]; then
	SLURM_RELEASE="Slurm ${SLURM_VERSION:-?} ($SLURM_PREFIX)"
elif [[ $SLURM_PLUGIN_DIR == */slurm ]]; then
	SLURM_RELEASE="Slurm ${SLURM_VERSION:-?} (SchedMD's package)"
else
	SLURM_RELEASE="Slurm ${SLURM_VERSION:-?} (Debian's package)"
fi

# slurm_at_least MAJOR.MINOR[.MICRO]: the release in use is that one or
# newer (false when the version is unknown).
slurm_at_least() {
	local a b c
	IFS=. read -r a b c <<<"$1"
	((SLURM_VERSION_NUM > 0 &&
		SLURM_VERSION_NUM >= 10#$a * 10000 + 10#${b:-0} * 100 + 10#${c:-0}))
}

# last_ran: the time of this instance's last priority calculation, in
# seconds since the epoch: the first 8 bytes (big-endian) of
# priority_last_decay_ran in its StateSaveLocation, which both upstream's
# plugin and ours write after each calculation; 0 when there is none yet.
last_ran() {
	local hex
	hex=$(od -An -tx1 -N8 "$CLUSTER_DIR/state/priority_last_decay_ran" 2>/dev/null | tr -d ' \n')
	[[ -n $hex ]] || { echo 0; return; }
	echo $((16#$hex))
}

# slurm_cannot MODE PATH: whether the 'slurm' user, which slurmctld and
# slurmdbd run as, is denied PATH.  MODE r: read the file (or list the
# directory); w: create files in the directory.  Prints nothing and fails
# when slurm can; else succeeds after printing one line that names PATH and
# why: the first directory on its way slurm cannot enter (mode and owner),
# or PATH's own mode.  Home directories are 0700 on Debian bookworm: a
# build tree under /root is out of the daemons' reach.
slurm_cannot() {
	local mode=$1 path=$2 d="" part
	local -a parts
	if [[ $path != /* ]]; then
		printf '%s: not an absolute path\n' "$path"
		return 0
	fi
	IFS=/ read -ra parts <<<"${path#/}"
	for part in "${parts[@]:0:${#parts[@]}-1}"; do
		[[ -n $part ]] || continue
		d+=/$part
		if ! runuser -u slurm -- test -x "$d" 2>/dev/null; then
			if [[ ! -e $d ]]; then
				printf '%s: %s does not exist\n' "$path" "$d"
			else
				printf '%s: user slurm cannot enter %s (%s, owner %s)\n' \
					"$path" "$d" "$(stat -c %A "$d")" "$(stat -c %U "$d")"
			fi
			return 0
		fi
	done
	if [[ ! -e $path ]]; then
		printf '%s: does not exist\n' "$path"
		return 0
	fi
	case $mode in
	r)
		if [[ -d $path ]]; then
			runuser -u slurm -- test -r "$path" -a -x "$path" 2>/dev/null && return 1
		else
			runuser -u slurm -- test -r "$path" 2>/dev/null && return 1
		fi
		printf '%s: user slurm cannot read it (%s, owner %s)\n' \
			"$path" "$(stat -c %A "$path")" "$(stat -c %U "$path")"
		;;
	w)
		runuser -u slurm -- test -w "$path" -a -x "$path" 2>/dev/null && return 1
		printf '%s: user slurm cannot write in it (%s, owner %s)\n' \
			"$path" "$(stat -c %A "$path")" "$(stat -c %U "$path")"
		;;
	esac
	return 0
}
