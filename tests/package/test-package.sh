#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-package.sh: the Debian packages of mfprio on Debian's own Slurm, from
# build to removal.
#
#   - release/build-packages.sh deb, the one command from a clone (make dist,
#     then dpkg-buildpackage -b -us -uc in the unpacked tarball), builds them
#     in a copy of the tree under /var/tmp (nothing is written beside the
#     tree); lintian --fail-on error,warning exits 0 and reports no error
#     and no warning;
#   - two packages, of version UPSTREAM+slurmV-REVISION (V the installed
#     release): mfprio, the command and its man page, depending on no Slurm
#     package at all; mfprio-plugin, the plugin in
#     /usr/lib/<multiarch>/mfprio/slurm, depending on the controller of
#     exactly the installed release (release/releases.sh deb-depends), and
#     linked as Slurm's own plugins are (no BIND_NOW);
#   - installed: /usr/bin/mfprio --version says configure.ac's version and
#     man -w finds the page (in /usr/share/man, whatever else is installed);
#     no file of Slurm's packages changed, Slurm's own plugin is not
#     diverted;
#   - a real cluster (instance MFPRIO_CLUSTER_INSTANCE, default 30) whose
#     PluginDir starts with the installed directory: slurmctld maps the
#     installed priority_multifactor.so and logs it, sprio lists a pending
#     job and sshare answers;
#   - sshare with a client configuration that makes it load the plugin
#     itself (PriorityFlags=NO_FAIR_TREE on 22.05): no dlopen error on its
#     stderr, and the dynamic linker ran our .so's initialisers ("calling
#     init:" of LD_DEBUG=files, printed only once a load has succeeded; the
#     "file=" line is printed for a load that fails too); then the same with
#     LD_BIND_NOW=1, every symbol resolved at dlopen as a build linked with
#     "-z now" would (RHEL's hardened flags): only the plugin's weak
#     references to slurmctld's symbols let it load there;
#   - the cluster is stopped and both packages purged, leaving nothing.
# An earlier run's packages or cluster are removed or restarted first.
# Run as root on Debian with Debian's Slurm (tests/install-deps).
#
# Environment:
#   MFPRIO_SLURM_SOURCE      configured Slurm source for the build (default:
#                            what tests/cluster/slurm-source.sh fetches)
#   MFPRIO_CLUSTER_INSTANCE  the cluster instance (default 30)
#   MFPRIO_KEEP=1            keep the scratch directory even on success
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
export MFPRIO_CLUSTER_INSTANCE=${MFPRIO_CLUSTER_INSTANCE:-30}
# the package is for the distribution's Slurm, not a release under a prefix
unset MFPRIO_SLURM_PREFIX MFPRIO_CLUSTER_DIR MFPRIO_PRIORITY_CONF
# shellcheck source=../cluster/cluster-lock.sh disable=SC1091
. "$top/tests/cluster/cluster-lock.sh"
export SLURM_CONF=$CLUSTER_DIR/etc/slurm.conf

# shellcheck source=pkg-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/pkg-lib.sh"
pkg_checks test-package
# the two binary packages, and the one of before the split (mfprio held
# the plugin too) that an earlier run may have left: its name is the
# command's now
pkgs=(mfprio mfprio-plugin)
# installed PACKAGE: it is installed
installed() { dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
# present PACKAGE: dpkg knows it in any state but not-installed
present() {
	local st
	st=$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null)
	[[ -n $st && $st != *' not-installed' ]]
}

[[ $(id -u) -eq 0 ]] || { say "must run as root"; echo "0 passed, 1 failed"; exit 1; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null) ||
	{ say "dpkg-architecture failed (apt-get install dpkg-dev)"; echo "0 passed, 1 failed"; exit 1; }
plugdir=/usr/lib/$multiarch/mfprio/slurm
version=$(sed -n 's/^AC_INIT(\[mfprio\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
ctld_version=$(dpkg-query -W -f '${Version}' slurmctld 2>/dev/null)
[[ -n $version && -n $ctld_version ]] ||
	{ say "no version in configure.ac, or slurmctld not installed"; echo "0 passed, 1 failed"; exit 1; }

cluster_lock test-package
scratch=$(mktemp -d /var/tmp/mfprio-package-XXXXXX)
chmod 755 "$scratch"
say "instance $CLUSTER_INSTANCE, scratch directory $scratch"

# cleanup FAILURES: stop the cluster, purge the package, remove the scratch
# directory unless something failed (or MFPRIO_KEEP=1)
cleanup() {
	local failures=${1:-1}
	"$top/tests/cluster/cluster.sh" stop >"$scratch/stop.log" 2>&1 || true
	if present mfprio || present mfprio-plugin; then
		dpkg --purge "${pkgs[@]}" >"$scratch/purge-exit.log" 2>&1 || true
	fi
	if [[ $failures -eq 0 && ${MFPRIO_KEEP:-} != 1 ]]; then
		rm -rf "$scratch"
	else
		say "logs kept in $scratch"
	fi
}
trap 'cleanup 1' EXIT

# ---------------------------------------------------------------- leftovers
# A package an earlier run left installed would make apt-get skip the
# install ("already the newest version"): remove it first.
if present mfprio || present mfprio-plugin; then
	say "purging the mfprio packages an earlier run left"
	dpkg --purge "${pkgs[@]}" >"$scratch/purge-before.log" 2>&1 ||
		abort "dpkg --purge of a left-over mfprio (see $scratch/purge-before.log)"
fi

# ---------------------------------------------------------------- build
# the tree as it is (pkg-lib.sh)
pkg_copy_tree "$scratch/src"
[[ -f $scratch/src/debian/rules ]] || abort "copying the tree to $scratch/src"

debver=$(cd "$scratch/src" && dpkg-parsechangelog -S Version)
check "debian/changelog's version $debver is configure.ac's $version with a revision" \
	test "${debver%-*}" = "$version"
# the installed upstream release (22.05.8 of 22.05.8-4+deb12u3)
ctld_upstream=${ctld_version#*:}
ctld_upstream=${ctld_upstream%%-*}
binver=$version+slurm$ctld_upstream-${debver##*-}
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
say "building: release/build-packages.sh deb (log $scratch/build.log)"
(cd "$scratch/src" && MFPRIO_PKG_BUILD_DIR=$scratch/build DPKG_BUILDPACKAGE_FLAGS=-j2 \
	nice release/build-packages.sh deb) >"$scratch/build.log" 2>&1
rc=$?
check "release/build-packages.sh deb succeeds (rc $rc)" test "$rc" -eq 0
out=$scratch/build/deb-build
deb=$out/mfprio_${binver}_$arch.deb
pdeb=$out/mfprio-plugin_${binver}_$arch.deb
changes=$out/mfprio_${debver}_$arch.changes
for f in "$deb" "$pdeb" "$changes"; do
	[[ -f $f ]] || { tail -n 30 "$scratch/build.log"; ls -l "$out" 2>&1; abort "no $f"; }
done
ok "two packages of version $binver: $(basename "$deb") and $(basename "$pdeb")"
check "the unit and command tests ran in the build (make check)" \
	grep -q '^PASS: tests/check_core' "$scratch/build.log"

# lintian; the command: no Slurm package among its relations (login
# nodes); the plugin: the controller of exactly the installed upstream
# release, in the form release/releases.sh deb-depends gives (any packaging
# revision)
deb_checks "$changes" "$scratch/lintian.log" "$deb" "$pdeb" "$ctld_upstream"
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$scratch/contents"
dpkg-deb -c "$pdeb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$scratch/contents-plugin"
for f in /usr/bin/mfprio /usr/share/man/man1/mfprio.1.gz; do
	check "mfprio holds $f" grep -qx "$f" "$scratch/contents"
done
check "and no plugin" not grep -q priority_multifactor "$scratch/contents"
check "mfprio-plugin holds $plugdir/priority_multifactor.so" \
	grep -qx "$plugdir/priority_multifactor.so" "$scratch/contents-plugin"
check "and neither the command nor a libtool archive" \
	not grep -qE '/bin/|/man/|\.la$' "$scratch/contents-plugin"
mkdir -p "$scratch/payload"
dpkg-deb -x "$pdeb" "$scratch/payload"
flags=$(readelf -d "$scratch/payload$plugdir/priority_multifactor.so" 2>&1 | grep -E 'FLAGS|BIND_NOW')
check "the plugin is linked as Slurm's own plugins are: no BIND_NOW (${flags:-no flags})" \
	not grep -qE 'BIND_NOW|Flags:.* NOW' <<<"$flags"

# ---------------------------------------------------------------- install
# the files of Slurm's packages (slurmctld's and the one of its own
# priority_multifactor.so), to see that installing ours touches none of them
slurm_pkgs=(slurmctld "$(dpkg -S "$UPSTREAM_SO" 2>/dev/null | cut -d: -f1)")
dpkg -L "${slurm_pkgs[@]}" | sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done |
	xargs md5sum >"$scratch/slurm.md5" 2>/dev/null
say "installing $(basename "$deb") and $(basename "$pdeb")"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" "$pdeb" >"$scratch/install.log" 2>&1
rc=$?
check "apt-get install of the two .debs (rc $rc)" test "$rc" -eq 0
{ installed mfprio && installed mfprio-plugin; } || { tail -n 20 "$scratch/install.log"; abort "mfprio and mfprio-plugin are not installed"; }
# (a `make install` into /usr/local, e.g. by examples/demo.sh, may come
# first on PATH and MANPATH: look at the package's own files)
check "/usr/bin/mfprio is mfprio's, the plugin mfprio-plugin's" eval \
	"[[ \$(dpkg -S /usr/bin/mfprio 2>/dev/null) == 'mfprio: /usr/bin/mfprio' && \$(dpkg -S '$plugdir/priority_multifactor.so' 2>/dev/null) == 'mfprio-plugin: $plugdir/priority_multifactor.so' ]]"
out=$(/usr/bin/mfprio --version 2>&1)
check "mfprio --version says $version ($out)" test "$out" = "mfprio $version"
out=$(MANPATH=/usr/share/man man -w mfprio 2>&1)
check "man -w mfprio finds the installed page ($out)" \
	test "$out" = /usr/share/man/man1/mfprio.1.gz
check "man renders the page" eval 'MANPATH=/usr/share/man man -P cat mfprio 2>/dev/null | grep -q "replay a Slurm"'
check "the files of ${slurm_pkgs[*]} are unchanged" md5sum --quiet -c "$scratch/slurm.md5"
check "Slurm's own $UPSTREAM_SO is still there, not diverted" \
	test -f "$UPSTREAM_SO" -a -z "$(dpkg-divert --list "$UPSTREAM_SO")"

# ---------------------------------------------------------------- cluster
export MFPRIO_PLUGIN_DIR=$plugdir
say "starting cluster $CLUSTER_INSTANCE with PluginDir=$plugdir:..."
"$top/tests/cluster/cluster.sh" start >"$scratch/start.log" 2>&1 ||
	{ tail -n 30 "$scratch/start.log"; abort "cluster.sh start (see $scratch/start.log)"; }

pid=$(head -n 1 "$CLUSTER_DIR/run/slurmctld.pid" 2>/dev/null | tr -dc '0-9')
check "PluginDir of the cluster starts with $plugdir" \
	grep -q "^PluginDir=$plugdir:" "$SLURM_CONF"
mapped=$(grep -o '/[^ ]*priority_multifactor\.so' "/proc/$pid/maps" 2>/dev/null | sort -u)
check "slurmctld maps the installed plugin, and only it ($mapped)" \
	test "$mapped" = "$plugdir/priority_multifactor.so"
# the log of this start: after the last "started on cluster" line
check "slurmctld logs mfprio's plugin as loaded" eval \
	"awk '/slurmctld version .* started on cluster/ { n = NR } { l[NR] = \$0 } END { for (i = n; i <= NR; i++) print l[i] }' '$CLUSTER_DIR/log/slurmctld.log' | grep -q 'mfprio: priority/multifactor loaded'"

# a pending job (the node drained): sprio lists it once it is eligible
node=$(hostname -s)
scontrol update nodename="$node" state=drain reason=mfprio-package >/dev/null 2>&1
job=$(sbatch --parsable -D /tmp -o /dev/null --wrap 'sleep 1' 2>"$scratch/sbatch.err" | cut -d';' -f1)
check "sbatch queued a job ($job)" test -n "$job"
for _ in $(seq 60); do
	sprio -l -j "$job" 2>/dev/null | awk 'NR > 1 { print $1 }' | grep -qx "$job" && break
	sleep 1
done
sprio -l >"$scratch/sprio.out" 2>&1
rc=$?
check "sprio answers (rc $rc)" test "$rc" -eq 0
check "sprio lists the pending job" \
	eval "awk 'NR > 1 { print \$1 }' '$scratch/sprio.out' | grep -qx '$job'"
[[ -n $job ]] && scancel "$job" 2>/dev/null
scontrol update nodename="$node" state=resume >/dev/null 2>&1

sshare -a -l -P >"$scratch/sshare.out" 2>&1
rc=$?
check "sshare answers (rc $rc)" test "$rc" -eq 0
check "sshare lists the root association" grep -q '^root|' "$scratch/sshare.out"
# under NO_FAIR_TREE, sshare loads the plugin itself (from PluginDir)
{ grep -v '^Include' "$SLURM_CONF"; cat "$CLUSTER_DIR/etc/priority.conf"; echo "PriorityFlags=NO_FAIR_TREE"; } \
	>"$scratch/client.conf"
chmod 644 "$scratch/client.conf"
# sshare_loads NAME [ENV...]: sshare, with the client configuration and
# LD_DEBUG=files (and ENV), answers, prints no dlopen error, and the dynamic
# linker called our .so's initialisers: it loaded, relocated and ran it.
# (The "file=" line of LD_DEBUG is printed before the load, whether it
# succeeds or not: it proves nothing.)
sshare_loads() {
	local name=$1 err=$scratch/sshare-$1.err rc
	shift
	env SLURM_CONF="$scratch/client.conf" LD_DEBUG=files "$@" sshare -a -l -P \
		>"$scratch/sshare-$name.out" 2>"$err"
	rc=$?
	check "sshare ($name) answers (rc $rc)" eval "[[ $rc -eq 0 ]] && grep -q '^root|' '$scratch/sshare-$name.out'"
	# sshare's own messages (not the dynamic linker's "PID: ..." lines)
	grep -vE '^ *[0-9]+:' "$err" >"$err.own"
	# under LD_BIND_NOW, Slurm's own plugins may fail to load (upstream's
	# priority/multifactor does: unlock_slurmctld): only the lines about
	# ours, or about the priority plugin, count there
	if [[ $name == *bind-now ]]; then
		grep -E "$plugdir|priority" "$err.own" >"$err.ours"
	else
		cp "$err.own" "$err.ours"
	fi
	check "sshare ($name): no dlopen error on its stderr$(grep -m1 -E 'dlopen|undefined symbol|load' "$err.ours" | sed 's/^/: /')" \
		not grep -qE 'dlopen|undefined symbol|Couldn.t load|cannot create priority context' "$err.ours"
	check "sshare ($name) loaded our .so: the dynamic linker called its init" \
		grep -qE "^ *[0-9]+:[[:space:]]+calling init: $plugdir/priority_multifactor\.so\$" "$err"
}
sshare_loads no-fair-tree
# a -z now build (RHEL's hardened flags) resolves every symbol at dlopen:
# only weak references to slurmctld's own symbols load there
sshare_loads no-fair-tree-bind-now LD_BIND_NOW=1

# ---------------------------------------------------------------- removal
"$top/tests/cluster/cluster.sh" stop >"$scratch/stop.log" 2>&1
rc=$?
check "cluster.sh stop (rc $rc)" test "$rc" -eq 0
dpkg --purge "${pkgs[@]}" >"$scratch/purge.log" 2>&1
rc=$?
check "dpkg --purge ${pkgs[*]} (rc $rc)" test "$rc" -eq 0
check "the packages are gone" eval '! present mfprio && ! present mfprio-plugin'
check "and so are /usr/bin/mfprio and $plugdir" \
	eval "[[ ! -e /usr/bin/mfprio && ! -e $plugdir ]]"
check "the files of ${slurm_pkgs[*]} are still unchanged" md5sum --quiet -c "$scratch/slurm.md5"

finish
