# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# chroot-lib.sh: a throw-away minimal Debian bookworm in a chroot, for the
# package tests that must not see the host's own Slurm (smd-debs.sh builds
# SchedMD's .debs in one, test-smd-deb.sh installs them in another).
# Sourced, not run.
#
# The bare `debootstrap --variant=minbase` result is cached as a tarball
# (CHROOT_CACHE/chroot/bookworm-minbase-ARCH.tar.gz); later runs unpack it
# (seconds) instead of bootstrapping again.  The .debs apt downloads inside
# are kept in CHROOT_CACHE/chroot/apt-archives and copied in before each
# apt-get install (chroot_apt_install), so a warm run downloads little.
# Inside, apt uses the host's archive (/etc/apt/sources.list.d/debian.sources,
# copied in) and no service is started by a package's maintainer scripts
# (policy-rc.d says 101): MariaDB's postinst must not start a server on the
# host's network.
#
# Functions:
#   chroot_create DIR LOG      a fresh chroot in DIR (from the cache, or
#                              debootstrap), mounted (chroot_mount)
#   chroot_mount DIR           proc, dev, dev/pts, sys (rbind, rslave)
#   chroot_pids DIR            pids of the processes whose root is DIR
#   chroot_stop DIR            SIGTERM them, then SIGKILL what is left
#   chroot_umount DIR          unmount everything under DIR
#   chroot_remove DIR          stop, unmount, check nothing is mounted,
#                              rm -rf --one-file-system
#   chroot_release DIR         the end of a run's chroot: with MFPRIO_KEEP=1
#                              stopped and unmounted, kept; else removed
#   chroot_run DIR CMD...      run CMD inside, as root, with a clean
#                              environment and no descriptor above 2 (extra
#                              NAME=VALUE words: chroot_run DIR env A=b CMD)
#   chroot_apt_install DIR LOG PKG...   apt-get install inside (the host's
#                              .deb cache copied in and back)
# Environment:
#   MFPRIO_CHROOT_CACHE  cache directory (default /var/cache/mfprio)

CHROOT_CACHE=${MFPRIO_CHROOT_CACHE:-/var/cache/mfprio}/chroot
CHROOT_SUITE=bookworm

# chroot_mirror: the Debian archive the host uses.
chroot_mirror() {
	local m=""
	[[ -r /etc/apt/sources.list.d/debian.sources ]] &&
		m=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
	[[ -z $m && -r /etc/apt/sources.list ]] &&
		m=$(awk '$1 == "deb" && $2 !~ /^\[/ { print $2; exit }' /etc/apt/sources.list)
	echo "${m:-http://deb.debian.org/debian}"
}

# chroot_pids DIR: the processes whose root directory is DIR.
chroot_pids() {
	local dir p root
	dir=$(readlink -f "$1")
	for p in /proc/[0-9]*; do
		root=$(readlink "$p/root" 2>/dev/null) || continue
		[[ $root == "$dir" ]] && echo "${p#/proc/}"
	done
	return 0
}

# chroot_stop DIR: end every process running inside DIR (by pid, found
# through /proc/PID/root: nothing of the host's is touched).
chroot_stop() {
	local dir=$1 end pids
	pids=$(chroot_pids "$dir")
	[[ -n $pids ]] || return 0
	echo "chroot: stopping the processes left in $dir: $(paste -sd' ' <<<"$pids")" >&2
	# shellcheck disable=SC2086  # a list of pids
	kill -TERM $pids 2>/dev/null
	end=$((SECONDS + 20))
	while [[ -n $(chroot_pids "$dir") ]] && ((SECONDS < end)); do
		sleep 0.5
	done
	pids=$(chroot_pids "$dir")
	if [[ -n $pids ]]; then
		echo "chroot: killing $(paste -sd' ' <<<"$pids")" >&2
		# shellcheck disable=SC2086
		kill -KILL $pids 2>/dev/null
		sleep 1
	fi
	return 0
}

# chroot_mounts DIR: the mount points at or under DIR, deepest first.
chroot_mounts() {
	local dir
	dir=$(readlink -f "$1")
	awk -v d="$dir" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo |
		awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-
}

chroot_umount() {
	local dir=$1 m
	dir=$(readlink -f "$dir") || return 0
	for m in dev/pts dev proc; do
		mountpoint -q "$dir/$m" 2>/dev/null && umount "$dir/$m" 2>/dev/null
	done
	mountpoint -q "$dir/sys" 2>/dev/null && umount -R -l "$dir/sys" 2>/dev/null
	# anything else (a mount made by a package inside, or a left-over)
	while read -r m; do
		[[ -n $m ]] && umount -l "$m" 2>/dev/null
	done < <(chroot_mounts "$dir")
	[[ -z $(chroot_mounts "$dir") ]]
}

chroot_mount() {
	local dir=$1
	mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc" || return 1
	mountpoint -q "$dir/dev" || mount --bind /dev "$dir/dev" || return 1
	mountpoint -q "$dir/dev/pts" || mount --bind /dev/pts "$dir/dev/pts" || return 1
	# slurmd wants the cgroup file system under /sys
	if ! mountpoint -q "$dir/sys"; then
		mount --rbind /sys "$dir/sys" && mount --make-rslave "$dir/sys" || return 1
	fi
}

# chroot_remove DIR: nothing of DIR left (processes, mounts, files).
# Refuses to delete while anything is still mounted below it.
chroot_remove() {
	local dir=$1
	[[ -e $dir ]] || return 0
	dir=$(readlink -f "$dir")
	[[ $dir != / && -n $dir ]] || return 1
	chroot_stop "$dir"
	chroot_umount "$dir" || {
		echo "chroot: still mounted under $dir: $(chroot_mounts "$dir" | paste -sd' ')" >&2
		return 1
	}
	rm -rf --one-file-system "$dir"
}

# chroot_release DIR: kept (MFPRIO_KEEP=1: stopped, unmounted) or removed,
# said on stderr; fails if it could not be removed.
chroot_release() {
	local dir=$1
	if [[ ${MFPRIO_KEEP:-} == 1 ]]; then
		chroot_stop "$dir"
		chroot_umount "$dir"
		echo "chroot: kept in $dir (stopped, unmounted)" >&2
	else
		chroot_remove "$dir" || { echo "chroot: could not remove $dir" >&2; return 1; }
	fi
}

# chroot_run DIR CMD...: CMD as root inside DIR, inheriting no file
# descriptor above 2 (a caller's lock must not live on in what it starts
# there, should the caller be killed).
chroot_run() {
	local dir=$1
	shift
	(
		for f in /proc/"$BASHPID"/fd/*; do
			fd=${f##*/}
			if ((fd > 2)); then
				exec {fd}>&-
			fi
		done
		exec chroot "$dir" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
			"$@"
	)
}

# chroot_create DIR LOG: a fresh bookworm in DIR (removed first if
# present), set up and mounted.  The debootstrap output goes to LOG.
chroot_create() {
	local dir=$1 log=$2 arch tarball tmp mirror
	chroot_remove "$dir" || return 1
	arch=$(dpkg --print-architecture)
	tarball=$CHROOT_CACHE/$CHROOT_SUITE-minbase-$arch.tar.gz
	mkdir -p "$CHROOT_CACHE/apt-archives" "$dir"
	if [[ -s $tarball ]]; then
		tar -xzf "$tarball" -C "$dir" >>"$log" 2>&1 || {
			echo "chroot: cannot unpack $tarball (removed; run again)" >&2
			rm -f "$tarball"
			return 1
		}
	else
		command -v debootstrap >/dev/null || {
			echo "chroot: debootstrap is not installed (apt-get install debootstrap)" >&2
			return 1
		}
		mirror=$(chroot_mirror)
		echo "chroot: debootstrap --variant=minbase $CHROOT_SUITE from $mirror (cached as $tarball)" >&2
		debootstrap --variant=minbase "$CHROOT_SUITE" "$dir" "$mirror" >>"$log" 2>&1 || {
			echo "chroot: debootstrap failed (see $log)" >&2
			return 1
		}
		rm -f "$dir"/var/cache/apt/archives/*.deb
		tmp=$(mktemp "$tarball.XXXXXX")
		if tar -czf "$tmp" -C "$dir" .; then
			mv -f "$tmp" "$tarball"
		else
			rm -f "$tmp"
		fi
	fi
	# the host's archive (and its security updates), name and resolver
	if [[ -r /etc/apt/sources.list.d/debian.sources ]]; then
		cp /etc/apt/sources.list.d/debian.sources "$dir/etc/apt/sources.list.d/"
		rm -f "$dir/etc/apt/sources.list"
	fi
	cp /etc/resolv.conf /etc/hosts "$dir/etc/" 2>/dev/null
	hostname >"$dir/etc/hostname"
	# no service started by maintainer scripts
	printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
	chmod 755 "$dir/usr/sbin/policy-rc.d"
	chroot_mount "$dir" || {
		echo "chroot: mounting proc, dev, sys in $dir failed" >&2
		return 1
	}
	chroot_run "$dir" apt-get update -q >>"$log" 2>&1 || {
		echo "chroot: apt-get update failed in $dir (see $log)" >&2
		return 1
	}
}

# chroot_apt_install DIR LOG ARGS...: apt-get install -y ARGS inside DIR,
# with the cached .debs copied in first and the new ones kept afterwards.
chroot_apt_install() {
	local dir=$1 log=$2 rc
	shift 2
	find "$CHROOT_CACHE/apt-archives" -maxdepth 1 -name '*.deb' \
		-exec cp -n -t "$dir/var/cache/apt/archives/" {} + 2>/dev/null
	chroot_run "$dir" apt-get install -y -q --no-install-recommends "$@" >>"$log" 2>&1
	rc=$?
	find "$dir/var/cache/apt/archives" -maxdepth 1 -name '*.deb' \
		-exec cp -n -t "$CHROOT_CACHE/apt-archives/" {} + 2>/dev/null
	return "$rc"
}
