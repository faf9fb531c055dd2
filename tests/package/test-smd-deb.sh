#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-smd-deb.sh: mfprio's Debian package beside SchedMD's own Slurm
# packages (slurm-smd, slurm-smd-slurmctld, ...), on a machine without
# Debian's Slurm, from build to removal.
#
# In a fresh minimal bookworm chroot (chroot-lib.sh; MFPRIO_SMD_CHROOT,
# default /var/tmp/mfprio-smd-chroot), which has no Debian Slurm package:
#   - SchedMD's .debs of the release are built or reused (smd-debs.sh);
#   - mfprio's tree (git ls-files) is copied in, its Build-Depends install
#     and dpkg-checkbuilddeps is content, with no Slurm package at all
#     there; dpkg-buildpackage builds it against the release's tarball
#     (MFPRIO_SLURM_TARBALL), make check included: the packages mfprio and
#     mfprio-plugin, of version UPSTREAM+slurmV-REVISION; lintian (on the
#     host) exits 0 with --fail-on error,warning and reports no error or
#     warning; mfprio depends on no Slurm package, mfprio-plugin on the
#     controller of exactly that release (release/releases.sh deb-depends),
#     SchedMD's slurm-smd-slurmctld among the alternatives;
#   - the command package installs there, still with no Slurm package (a
#     login node's case), and mfprio runs;
#   - SchedMD's slurm-smd, -slurmctld, -slurmd, -slurmdbd, -client install
#     with munge and mariadb-server from Debian, then mfprio-plugin; no file
#     of SchedMD's packages changes;
#   - a real cluster (tests/cluster/cluster.sh, instance
#     MFPRIO_CLUSTER_INSTANCE, default 31: ports 17127-17129, no host test
#     uses them) with the installed plugin directory first on PluginDir:
#     slurmctld maps our installed priority_multifactor.so and logs it,
#     sprio and sshare answer; sshare (which loads the priority plugin
#     itself from 23.11 on) prints no dlopen error and the dynamic linker
#     called our .so's initialisers (LD_DEBUG=files "calling init:");
#     MariaDB listens on no TCP port;
#   - the differential (tests/cluster/test-plugin-differential.sh,
#     MFPRIO_DIFF_ONLY=fair_tree unless MFPRIO_SMD_DIFF_CASES says
#     otherwise): the same state under SchedMD's package's own
#     priority_multifactor.so and under ours gives the same sshare and sprio
#     figures;
#   - the cluster stops, apt-get purge removes both packages and every path
#     they installed, and leaves SchedMD's files as they were;
#   - the chroot is removed: every process whose root is the chroot is
#     stopped (by pid, through /proc/PID/root), everything under it is
#     unmounted first.
# Without a tarball of the release (none found, none fetched) it is
# skipped (exit 77), its last line saying how to provide one.
# A chroot, mounts or daemons an earlier run left are removed first.  The
# host's own daemons and test clusters are never touched.
#
# Usage: test-smd-deb.sh [VERSION]    (default 24.11.7; a release whose
#                                     packages column lists slurm-smd-slurmctld)
# Environment:
#   MFPRIO_SMD_CHROOT        the chroot directory
#   MFPRIO_CLUSTER_INSTANCE  the cluster instance inside (default 31)
#   MFPRIO_SMD_DIFF_CASES    the differential's cases (default fair_tree;
#                            "none" skips it)
#   MFPRIO_KEEP=1            keep the chroot (stopped and unmounted) and logs
#   MFPRIO_CHROOT_CACHE, MFPRIO_SMD_DEB_CACHE, MFPRIO_SLURM_TARBALLS:
#                            see chroot-lib.sh and smd-debs.sh
# (dpkg-query's ${Status} formats are in single quotes on purpose)
# shellcheck disable=SC2016
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=chroot-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/chroot-lib.sh"

version=${1:-24.11.7}
root=${MFPRIO_SMD_CHROOT:-/var/tmp/mfprio-smd-chroot}
instance=${MFPRIO_CLUSTER_INSTANCE:-31}
diff_cases=${MFPRIO_SMD_DIFF_CASES:-fair_tree}

# shellcheck source=pkg-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/pkg-lib.sh"
pkg_checks test-smd-deb
# (set -o pipefail: no "| grep -q" after a command that may still write when
# grep has seen its match and gone, as chroot_pids does: "| grep >/dev/null")
# inside CMD...: CMD inside the chroot
inside() { chroot_run "$root" "$@"; }
# in_cluster CMD...: CMD inside, with the cluster's instance and slurm.conf
in_cluster() {
	chroot_run "$root" env MFPRIO_CLUSTER_INSTANCE="$instance" \
		SLURM_CONF="$cdir/etc/slurm.conf" "$@"
}

[[ $(id -u) -eq 0 ]] || { say "must run as root"; echo "0 passed, 1 failed"; exit 1; }
if ! [[ $instance =~ ^[0-9]+$ ]] || ((instance < 1 || instance > 99)); then
	say "MFPRIO_CLUSTER_INSTANCE=$instance: 1-99"
	echo "0 passed, 1 failed"
	exit 1
fi
cdir=/var/tmp/mfprio-cluster-$instance
ctld_port=$((16817 + 10 * instance))
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null) ||
	{ say "dpkg-architecture failed (apt-get install dpkg-dev)"; echo "0 passed, 1 failed"; exit 1; }
plugdir=/usr/lib/$multiarch/mfprio/slurm
smd_plugdir=/usr/lib/$multiarch/slurm

# no tarball of the release anywhere (no ../shared/slurm, no
# MFPRIO_SLURM_TARBALLS, no network): skipped (exit 77), saying how to
# provide one, before anything is built; a tarball found but refused is
# a failure (below)
if ! release_tarball "$version" slurm-smd-slurmctld && [[ -n $TARBALL_MISSING ]]; then
	skip_no_tarball
fi

# one run at a time (the chroot and the instance's ports are fixed)
exec 7>/tmp/mfprio-test-smd-deb.lock
flock -w 3600 7 || { say "another test-smd-deb.sh holds /tmp/mfprio-test-smd-deb.lock"; echo "0 passed, 1 failed"; exit 1; }

logs=$(mktemp -d /var/tmp/mfprio-smd-deb-logs-XXXXXX)
chmod 755 "$logs"
say "Slurm $version, chroot $root, cluster instance $instance (ports $ctld_port-$((ctld_port + 2))), logs $logs"

cleanup() {
	if [[ -x $root/build/mfprio/tests/cluster/cluster.sh && -d $root/proc/self ]]; then
		in_cluster /build/mfprio/tests/cluster/cluster.sh stop >>"$logs/stop.log" 2>&1
	fi
	chroot_release "$root"
	if [[ $fail -eq 0 && ${MFPRIO_KEEP:-} != 1 ]]; then
		rm -rf "$logs"
	else
		say "logs kept in $logs"
	fi
}
trap 'fail=$((fail + 1)); cleanup' EXIT
# interrupted: still clean up (the EXIT trap)
trap 'say "interrupted"; exit 1' INT TERM HUP

# ---------------------------------------------------------------- leftovers
if [[ -e $root ]]; then
	left=$(chroot_pids "$root" | wc -l)
	say "removing the chroot an earlier run left ($left processes, $(chroot_mounts "$root" | wc -l) mounts)"
fi
chroot_remove "$root" || abort "removing the left-over chroot $root"
check "no chroot, process or mount left from an earlier run" \
	eval "[[ ! -e $root && -z \$(chroot_mounts $root) ]]"
# the instance's ports must be free (a host test on them would meet ours)
busy=$(ss -Htln 2>/dev/null | awk '{ print $4 }' | grep -E ":($ctld_port|$((ctld_port + 1))|$((ctld_port + 2)))\$")
[[ -z $busy ]] || abort "the ports of instance $instance are in use on this machine ($busy): choose another MFPRIO_CLUSTER_INSTANCE"

# ---------------------------------------------------------------- SchedMD's .debs
say "SchedMD's .debs of Slurm $version (tests/package/smd-debs.sh; log $logs/smd-debs.log)"
debdir=$("$here/smd-debs.sh" "$version" 7>&- 2>"$logs/smd-debs.log" | tail -n 1)
[[ -n $debdir && -f $debdir/.mfprio-built ]] ||
	{ tail -n 20 "$logs/smd-debs.log"; abort "smd-debs.sh $version"; }
ok "SchedMD's .debs of $version in $debdir ($(grep -c '^deb ' "$debdir/.mfprio-built") packages, built in $(awk '$1 == "build_seconds" { print $2 }' "$debdir/.mfprio-built") s)"
release_tarball "$version" slurm-smd-slurmctld || abort "$TARBALL_ERROR"
tarball=$TARBALL

# ---------------------------------------------------------------- chroot
say "creating the chroot (log $logs/chroot.log)"
chroot_create "$root" "$logs/chroot.log" || abort "creating the chroot (see $logs/chroot.log)"
ok "a minimal bookworm in $root, mounted"

# ---------------------------------------------------------------- build
pkg_copy_tree "$root/build/mfprio"
[[ -f $root/build/mfprio/debian/rules ]] || abort "copying the tree into the chroot"
cp "$tarball" "$root/build/"
ctarball=/build/${tarball##*/}

say "installing mfprio's Build-Depends (apt-get build-dep; log $logs/build-dep.log)"
find "$CHROOT_CACHE/apt-archives" -maxdepth 1 -name '*.deb' \
	-exec cp -n -t "$root/var/cache/apt/archives/" {} + 2>/dev/null
inside sh -c 'cd /build && apt-get build-dep -y -q --no-install-recommends ./mfprio' >"$logs/build-dep.log" 2>&1
rc=$?
find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' \
	-exec cp -n -t "$CHROOT_CACHE/apt-archives/" {} + 2>/dev/null
check "apt-get build-dep ./mfprio (rc $rc)" test "$rc" -eq 0
inside sh -c 'cd /build/mfprio && dpkg-checkbuilddeps' >"$logs/checkbuilddeps.log" 2>&1
check "dpkg-checkbuilddeps is content there" test $? -eq 0
# slurm_pkgs: the packages of the chroot with slurm in their name
slurm_pkgs() {
	inside dpkg-query -W -f '${Package} ${Status}\n' 2>/dev/null | grep -i slurm | grep 'install ok installed' | cut -d' ' -f1
}
check "and no Slurm package at all ($(slurm_pkgs | paste -sd' '))" test -z "$(slurm_pkgs)"

say "building (MFPRIO_SLURM_TARBALL=$ctarball dpkg-buildpackage -b -us -uc; log $logs/build.log)"
tb=$SECONDS
inside env MFPRIO_SLURM_TARBALL="$ctarball" sh -c 'cd /build/mfprio && nice -n 10 dpkg-buildpackage -b -us -uc -j2' \
	>"$logs/build.log" 2>&1
rc=$?
check "dpkg-buildpackage against $ctarball succeeds (rc $rc, $((SECONDS - tb)) s)" test "$rc" -eq 0
debver=$(cd "$root/build/mfprio" && dpkg-parsechangelog -S Version)
binver=$("$top/release/releases.sh" deb-version "$debver" "$version")
arch=$(dpkg --print-architecture)
deb=$root/build/mfprio_${binver}_$arch.deb
pdeb=$root/build/mfprio-plugin_${binver}_$arch.deb
changes=$root/build/mfprio_${debver}_$arch.changes
for f in "$deb" "$pdeb" "$changes"; do
	[[ -f $f ]] || { tail -n 30 "$logs/build.log"; ls -l "$root/build"; abort "no ${f#"$root"}"; }
done
ok "two packages of version $binver: ${deb##*/} and ${pdeb##*/}"
check "configure skipped the slurmctld check (SLURMCTLD=none)" \
	grep -q 'SLURMCTLD=none: not checking' "$logs/build.log"
check "the unit and command tests ran in the build (make check)" \
	grep -q '^PASS: tests/check_core' "$logs/build.log"
check "debian/build-slurm holds Slurm $version's configured tree" \
	grep -q "^#define SLURM_VERSION_STRING \"$version\"" "$root/build/mfprio/debian/build-slurm/config.h"

deb_checks "$changes" "$logs/lintian.log" "$deb" "$pdeb" "$version"
check "SchedMD's slurm-smd-slurmctld is among the alternatives" \
	grep -qF "slurm-smd-slurmctld (>= $version)" <<<"$depends"

# ---------------------------------------------------------------- the command alone
# a login node: no Slurm package, only the command
say "installing ${deb#"$root"} where no Slurm package is (log $logs/install-command.log)"
chroot_apt_install "$root" "$logs/install-command.log" "/build/${deb##*/}"
rc=$?
check "apt-get install of mfprio alone (rc $rc)" test "$rc" -eq 0
check "it brought no Slurm package ($(slurm_pkgs | paste -sd' '))" test -z "$(slurm_pkgs)"
mfprio_v=$(sed -n 's/^AC_INIT(\[mfprio\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
out=$(inside /usr/bin/mfprio --version 2>&1)
check "mfprio --version says $mfprio_v ($out)" test "$out" = "mfprio $mfprio_v"
# a real command on a snapshot of the tests' data, as on a login node
# (tests/cli/snapshot.sh computes alice's row by hand)
cp -r "$top/tests/data/snapshot/example" "$root/build/snapshot"
inside /usr/bin/mfprio fairshare -o Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS \
	--snapshot /build/snapshot >"$logs/command.out" 2>&1
rc=$?
check "mfprio fairshare --snapshot there gives sshare's row of alice (rc $rc)" \
	grep -qxF '   theory|alice|1|0.300000|200|0.200320|0.387745|0.408248|0.000000' "$logs/command.out"

# ---------------------------------------------------------------- SchedMD's .debs, installed
mkdir -p "$root/debs"
smd_pkgs=(slurm-smd slurm-smd-slurmctld slurm-smd-slurmd slurm-smd-slurmdbd slurm-smd-client)
smd_files=()
for p in "${smd_pkgs[@]}"; do
	f=$(find "$debdir" -maxdepth 1 -name "${p}_*.deb" | head -n 1)
	[[ -n $f ]] || abort "no $p .deb in $debdir"
	cp "$f" "$root/debs/"
	smd_files+=("./debs/${f##*/}")
done
say "installing ${smd_pkgs[*]}, munge and mariadb-server (log $logs/apt.log)"
chroot_apt_install "$root" "$logs/apt.log" "${smd_files[@]}" munge mariadb-server mariadb-client \
	python3 || { tail -n 20 "$logs/apt.log"; abort "apt-get install of SchedMD's .debs and the services"; }
for p in "${smd_pkgs[@]}"; do
	check "$p is installed ($(inside dpkg-query -W -f '${Version}' "$p" 2>/dev/null))" \
		eval "inside dpkg-query -W -f '\${Status}' $p 2>/dev/null | grep 'install ok installed' >/dev/null"
done
debian_slurm=$(inside dpkg-query -W -f '${Package} ${Status}\n' slurmctld slurm-wlm-basic-plugins libslurm-dev slurm-client 2>/dev/null |
	grep 'install ok installed')
check "no Debian Slurm package in the chroot" test -z "$debian_slurm"
inside sh -c 'cd /build/mfprio && dpkg-checkbuilddeps' >"$logs/checkbuilddeps-smd.log" 2>&1
check "dpkg-checkbuilddeps is still content, beside SchedMD's packages" test $? -eq 0
check "SchedMD's own plugin is $smd_plugdir/priority_multifactor.so" test -f "$root$smd_plugdir/priority_multifactor.so"
# SchedMD's packages make no slurm user: an administrator does
inside id slurm >/dev/null 2>&1 ||
	inside useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin slurm

# ---------------------------------------------------------------- install
# the files of SchedMD's packages, to see that ours changes none of them
inside dpkg -L "${smd_pkgs[@]}" | sort -u | while read -r f; do [[ -f $root$f ]] && echo "$f"; done >"$logs/smd.files"
(cd "$root" && sed 's|^/||' "$logs/smd.files" | xargs md5sum) >"$logs/smd.md5" 2>/dev/null
say "installing ${pdeb#"$root"} (log $logs/install.log)"
inside apt-get install -y -q "/build/${pdeb##*/}" >"$logs/install.log" 2>&1
rc=$?
check "apt-get install of mfprio-plugin beside SchedMD's packages (rc $rc)" test "$rc" -eq 0
inside dpkg-query -W -f '${Status}' mfprio-plugin 2>/dev/null | grep 'install ok installed' >/dev/null ||
	{ tail -n 20 "$logs/install.log"; abort "mfprio-plugin is not installed"; }
inside dpkg -L mfprio mfprio-plugin | sort -u >"$logs/mfprio.files"
check "the package installed $plugdir/priority_multifactor.so" test -f "$root$plugdir/priority_multifactor.so"
check "the files of ${smd_pkgs[*]} are unchanged" eval "(cd '$root' && md5sum --quiet -c '$logs/smd.md5')"
check "SchedMD's $smd_plugdir/priority_multifactor.so is still there, not diverted" \
	eval "[[ -f '$root$smd_plugdir/priority_multifactor.so' && -z \$(inside dpkg-divert --list '$smd_plugdir/priority_multifactor.so') ]]"

# ---------------------------------------------------------------- cluster
say "starting cluster $instance in the chroot with PluginDir=$plugdir:$smd_plugdir (log $logs/start.log)"
in_cluster env MFPRIO_PLUGIN_DIR="$plugdir" MFPRIO_CLUSTER_FRESH=1 \
	/build/mfprio/tests/cluster/cluster.sh start >"$logs/start.log" 2>&1 ||
	{ tail -n 30 "$logs/start.log"; abort "cluster.sh start in the chroot (see $logs/start.log)"; }
check "cluster.sh saw SchedMD's package" grep -q "Slurm $version (SchedMD's package)" "$logs/start.log"
conf=$root$cdir/etc/slurm.conf
check "PluginDir starts with $plugdir, then SchedMD's $smd_plugdir" \
	grep -qx "PluginDir=$plugdir:$smd_plugdir" "$conf"
pid=$(head -n 1 "$root$cdir/run/slurmctld.pid" 2>/dev/null | tr -dc '0-9')
check "slurmctld ($pid) runs inside the chroot" eval "chroot_pids '$root' | grep -x '${pid:-none}' >/dev/null"
# /proc/PID/maps read from inside: the paths are the chroot's
mapped=$(inside cat "/proc/${pid:-0}/maps" 2>/dev/null | grep -o '/[^ ]*priority_multifactor\.so' | sort -u)
check "slurmctld maps our installed plugin, and only it ($mapped)" \
	test "$mapped" = "$plugdir/priority_multifactor.so"
check "slurmctld logs mfprio's plugin as loaded" eval \
	"awk '/slurmctld version .* started on cluster/ { n = NR } { l[NR] = \$0 } END { for (i = n; i <= NR; i++) print l[i] }' '$root$cdir/log/slurmctld.log' | grep 'mfprio: priority/multifactor loaded' >/dev/null"
in_cluster sprio -l >"$logs/sprio.out" 2>&1
rc=$?
check "sprio answers (rc $rc)" test "$rc" -eq 0
in_cluster sshare -a -l -P >"$logs/sshare.out" 2>&1
rc=$?
check "sshare answers (rc $rc)" eval "[[ $rc -eq 0 ]] && grep -q '^root|' '$logs/sshare.out'"
# sshare loads the priority plugin itself (priority_g_init() at its start
# from 23.11 on): no dlopen error, and the dynamic linker called our .so's
# initialisers ("calling init:" is printed only once a load succeeded; the
# "file=" line is printed for a failed load too)
sshare_loads() {
	local name=$1 err=$logs/sshare-$1.err rc
	shift
	in_cluster LD_DEBUG=files "$@" sshare -a -l -P >"$logs/sshare-$name.out" 2>"$err"
	rc=$?
	check "sshare ($name) answers (rc $rc)" eval "[[ $rc -eq 0 ]] && grep -q '^root|' '$logs/sshare-$name.out'"
	grep -vE '^ *[0-9]+:' "$err" >"$err.own"
	check "sshare ($name): no dlopen error on its stderr$(grep -m1 -E 'dlopen|undefined symbol|load' "$err.own" | sed 's/^/: /')" \
		not grep -qE 'dlopen|undefined symbol|Couldn.t load|cannot create priority context' "$err.own"
	check "sshare ($name) loaded our .so: the dynamic linker called its init" \
		grep -qE "^ *[0-9]+:[[:space:]]+calling init: $plugdir/priority_multifactor\.so\$" "$err"
}
sshare_loads plain
# (not under LD_BIND_NOW, as test-package.sh does on 22.05: this sshare
# then stops before it loads the priority plugin, SchedMD's own
# accounting_storage_slurmdbd.so failing on unlock_slurmctld, fatal)
# MariaDB of the chroot: on its socket only, never on the host's TCP 3306
dbpids=$(for p in $(chroot_pids "$root"); do
	[[ $(readlink "/proc/$p/exe") == */mariadbd ]] && echo "$p"
done)
check "MariaDB runs inside the chroot (pid $(paste -sd' ' <<<"$dbpids"))" test -n "$dbpids"
tcp=$(ss -Htlnp 2>/dev/null | grep -E "pid=($(paste -sd'|' <<<"$dbpids")),")
check "and listens on no TCP port" test -z "$tcp"

# ---------------------------------------------------------------- differential
if [[ $diff_cases != none ]]; then
	say "the differential, SchedMD's plugin against ours ($diff_cases; log $logs/differential.log)"
	# the packaged command (installed above) for its check of sshare's shape
	in_cluster env MFPRIO_PLUGIN_SO="$plugdir/priority_multifactor.so" MFPRIO_DIFF_ONLY="$diff_cases" \
		MFPRIO=/usr/bin/mfprio \
		/build/mfprio/tests/cluster/test-plugin-differential.sh >"$logs/differential.log" 2>&1
	rc=$?
	grep -E ': (ok|FAILED):' "$logs/differential.log" | sed 's/^/    /'
	tally=$(tail -n 1 "$logs/differential.log")
	check "differential of $smd_plugdir/priority_multifactor.so and ours ($tally, rc $rc)" \
		eval "[[ $rc -eq 0 && '$tally' =~ ^[1-9][0-9]*' passed, 0 failed'$ ]]"
	# the test's own outputs, for a look at a failure
	cp -a "$root"/tmp/mfprio-test-plugin-differential-* "$logs/" 2>/dev/null
fi

# ---------------------------------------------------------------- removal
in_cluster /build/mfprio/tests/cluster/cluster.sh stop >"$logs/stop.log" 2>&1
rc=$?
check "cluster.sh stop in the chroot (rc $rc)" test "$rc" -eq 0
daemons=$(for p in $(chroot_pids "$root"); do
	n=$(readlink "/proc/$p/exe")
	case ${n##*/} in slurmctld | slurmd | slurmdbd | slurmstepd | mariadbd | munged) echo "$p:${n##*/}" ;; esac
done)
check "no Slurm, MariaDB or munge daemon left in the chroot${daemons:+: $(paste -sd' ' <<<"$daemons")}" test -z "$daemons"
inside apt-get purge -y -q mfprio mfprio-plugin >"$logs/purge.log" 2>&1
rc=$?
check "apt-get purge mfprio mfprio-plugin (rc $rc)" test "$rc" -eq 0
check "the packages are gone" \
	eval "! inside dpkg-query -W -f '\${Status}\n' mfprio mfprio-plugin 2>/dev/null | grep 'installed' >/dev/null"
# every path it installed is gone, but directories other packages share
left=()
while read -r f; do
	[[ -n $f && $f != /. ]] || continue
	[[ -e $root$f || -L $root$f ]] || continue
	if [[ -d $root$f && ! -L $root$f ]] && inside dpkg-query -S "$f" >/dev/null 2>&1; then
		continue
	fi
	left+=("$f")
done <"$logs/mfprio.files"
check "each of the $(wc -l <"$logs/mfprio.files") paths it installed is gone (but shared directories)${left:+: left ${left[*]}}" \
	test "${#left[@]}" -eq 0
check "$(dirname "$plugdir") is gone" test ! -e "$root$(dirname "$plugdir")"
check "the files of ${smd_pkgs[*]} are still unchanged" eval "(cd '$root' && md5sum --quiet -c '$logs/smd.md5')"

# ---------------------------------------------------------------- the chroot
if [[ ${MFPRIO_KEEP:-} != 1 ]]; then
	trap - EXIT
	chroot_remove "$root"
	rc=$?
	check "the chroot is gone: no process, mount or file left (rc $rc)" \
		eval "[[ $rc -eq 0 && ! -e $root && -z \$(chroot_pids $root) ]]"
	trap 'fail=$((fail + 1)); cleanup' EXIT
fi
finish
