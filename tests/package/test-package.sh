#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-package.sh: the Debian package of mfprio, from build to removal.
#
#   - dpkg-buildpackage -b -us -uc builds it, in a copy of the tree under
#     /var/tmp (nothing is written beside the tree), and lintian reports
#     no error and no warning;
#   - it depends on the controller of exactly the installed release
#     (release/releases.sh deb-depends) and holds the plugin in
#     /usr/lib/<multiarch>/mfprio/slurm, the command and its man page;
#   - installed: /usr/bin/mfprio --version says configure.ac's version and
#     man -w finds the page (in /usr/share/man, whatever else is installed); no file of Slurm's packages changed, Slurm's
#     own plugin is not diverted;
#   - a real cluster (instance MFPRIO_CLUSTER_INSTANCE, default 30) whose
#     PluginDir starts with the installed directory: slurmctld maps the
#     installed priority_multifactor.so and logs it, sprio lists a pending
#     job and sshare answers (also with a client configuration that makes it
#     load the plugin itself);
#   - the cluster is stopped and the package purged, leaving nothing.
# An earlier run's package or cluster is removed or restarted first.
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
# installed: the mfprio package is installed
installed() { dpkg-query -W -f '${Status}' mfprio 2>/dev/null | grep -q 'install ok installed'; }

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
	if installed; then
		dpkg --purge mfprio >"$scratch/purge-exit.log" 2>&1 || true
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
status=$(dpkg-query -W -f '${Status}' mfprio 2>/dev/null)
if [[ -n $status && $status != *' not-installed' ]]; then
	say "purging the mfprio package an earlier run left"
	dpkg --purge mfprio >"$scratch/purge-before.log" 2>&1 ||
		abort "dpkg --purge of a left-over mfprio (see $scratch/purge-before.log)"
fi

# ---------------------------------------------------------------- build
# the tree as it is (pkg-lib.sh)
pkg_copy_tree "$scratch/src"
[[ -f $scratch/src/debian/rules ]] || abort "copying the tree to $scratch/src"

debver=$(cd "$scratch/src" && dpkg-parsechangelog -S Version)
check "debian/changelog's version $debver is configure.ac's $version with a revision" \
	test "${debver%-*}" = "$version"
say "building (dpkg-buildpackage -b -us -uc; log $scratch/build.log)"
(cd "$scratch/src" && nice dpkg-buildpackage -b -us -uc -j2) >"$scratch/build.log" 2>&1
rc=$?
check "dpkg-buildpackage succeeds (rc $rc)" test "$rc" -eq 0
deb=$scratch/mfprio_${debver}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
changes=${deb%.deb}.changes
[[ -f $deb ]] || { tail -n 30 "$scratch/build.log"; abort "no $deb"; }
check "the unit and command tests ran in the build (make check)" \
	grep -q '^PASS: tests/check_core' "$scratch/build.log"

lintian --pedantic "$changes" >"$scratch/lintian.log" 2>&1
check "lintian: no error or warning ($(grep -cE '^[EW]: ' "$scratch/lintian.log") lines)" \
	not grep -qE '^[EW]: ' "$scratch/lintian.log"
grep -E '^[EWP]: ' "$scratch/lintian.log"

depends=$(dpkg-deb -f "$deb" Depends)
# the controller of exactly the installed upstream release, in the form
# release/releases.sh deb-depends gives (any packaging revision of it)
ctld_upstream=${ctld_version#*:}
ctld_upstream=${ctld_upstream%%-*}
want_dep=$("$top/release/releases.sh" deb-depends "$ctld_upstream")
check "depends on the controller of exactly Slurm $ctld_upstream ($want_dep)" \
	grep -qF "$want_dep" <<<"$depends"
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$scratch/contents"
for f in "$plugdir/priority_multifactor.so" /usr/bin/mfprio /usr/share/man/man1/mfprio.1.gz; do
	check "the package holds $f" grep -qx "$f" "$scratch/contents"
done
check "and no libtool archive" not grep -q '\.la$' "$scratch/contents"

# ---------------------------------------------------------------- install
# the files of Slurm's packages (slurmctld's and the one of its own
# priority_multifactor.so), to see that installing ours touches none of them
slurm_pkgs=(slurmctld "$(dpkg -S "$UPSTREAM_SO" 2>/dev/null | cut -d: -f1)")
dpkg -L "${slurm_pkgs[@]}" | sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done |
	xargs md5sum >"$scratch/slurm.md5" 2>/dev/null
say "installing $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >"$scratch/install.log" 2>&1
rc=$?
check "apt-get install of the .deb (rc $rc)" test "$rc" -eq 0
installed || { tail -n 20 "$scratch/install.log"; abort "mfprio is not installed"; }
# (a `make install` into /usr/local, e.g. by examples/demo.sh, may come
# first on PATH and MANPATH: look at the package's own files)
check "the package holds /usr/bin/mfprio" eval 'dpkg -L mfprio | grep -qx /usr/bin/mfprio'
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
SLURM_CONF=$scratch/client.conf LD_DEBUG=files sshare -a -l -P >"$scratch/sshare-nft.out" 2>"$scratch/sshare-nft.ld"
rc=$?
check "sshare with NO_FAIR_TREE answers (rc $rc)" test "$rc" -eq 0
check "and loaded the installed plugin" \
	grep -q "file=$plugdir/priority_multifactor.so" "$scratch/sshare-nft.ld"

# ---------------------------------------------------------------- removal
"$top/tests/cluster/cluster.sh" stop >"$scratch/stop.log" 2>&1
rc=$?
check "cluster.sh stop (rc $rc)" test "$rc" -eq 0
dpkg --purge mfprio >"$scratch/purge.log" 2>&1
rc=$?
check "dpkg --purge mfprio (rc $rc)" test "$rc" -eq 0
check "the package is gone" not installed
check "and so are /usr/bin/mfprio and $plugdir" \
	eval "[[ ! -e /usr/bin/mfprio && ! -e $plugdir ]]"
check "the files of ${slurm_pkgs[*]} are still unchanged" md5sum --quiet -c "$scratch/slurm.md5"

finish
