#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# demo.sh: the main job, from a fresh clone, as root on Debian bookworm.
#
#   1. installs what is needed, builds mfprio and the plugin and installs
#      them (make install: /usr/local/bin/mfprio, the plugin in
#      /usr/local/lib/mfprio/slurm; MFPRIO_DEMO_PREFIX=DIR instead of /usr/local)
#   2. replays the example snapshot (the spec's Figure 3) with
#      `mfprio fairshare` under the three fair-share algorithms
#   3. brings up a real one-node cluster (munge, MariaDB, slurmdbd,
#      slurmctld, slurmd) with OUR priority_multifactor.so first on
#      PluginDir, runs a small mixed workload (several accounts, users,
#      partitions and QOS), shows `sprio -l` and `sshare -a -l`, and stops
#      the cluster again.
#
# MFPRIO_DEMO_KEEP=1 leaves the cluster running at the end (stop it with
# tests/cluster/cluster.sh stop).
set -euo pipefail
umask 022

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MFPRIO_BUILD_DIR:-$top/_build}/main
say() { printf '\n=== %s\n' "$*"; }

say "installing packages"
"$top/tests/install-deps"

say "fetching the source of the installed Slurm (internal headers for the plugin)"
slurm_src=$("$top/tests/cluster/slurm-source.sh" | tail -n 1)

say "building"
cd "$top"
autoreconf -fi >/dev/null
mkdir -p "$build"
# Installed as the README says an admin installs it: the daemons run as user
# slurm, which cannot read a build tree in a private home directory (/root).
prefix=${MFPRIO_DEMO_PREFIX:-/usr/local}
plugindir=$prefix/lib/mfprio/slurm
(cd "$build" && "$top/configure" --prefix="$prefix" --with-plugindir="$plugindir" \
	--with-slurm-source="$slurm_src" >/dev/null)
make -C "$build" -j2 >/dev/null
say "installing (make install)"
make -C "$build" install >/dev/null
mfprio=$prefix/bin/mfprio
echo "installed $mfprio and $plugindir/priority_multifactor.so"

ex=$top/examples/snapshot
for flags in "" NO_FAIR_TREE DEPTH_OBLIVIOUS; do
	say "mfprio fairshare on examples/snapshot, PriorityFlags=${flags:-(none: Fair Tree)}"
	"$mfprio" fairshare --assoc "$ex/assoc.txt" --usage "$ex/usage.txt" \
		--flags "$flags" | column -t -s '|'
done

say "a real cluster with our plugin"
export MFPRIO_PLUGIN_DIR=$plugindir
DIR=${MFPRIO_CLUSTER_DIR:-/var/tmp/mfprio-cluster}
export SLURM_CONF=$DIR/etc/slurm.conf
exec 9>/tmp/mfprio-cluster.lock
flock 9
[[ ${MFPRIO_DEMO_KEEP:-} == 1 ]] ||
	trap '"$top/tests/cluster/cluster.sh" stop >/dev/null 2>&1 || true' EXIT
# a clean cluster: no jobs or accounts left by an earlier run
MFPRIO_CLUSTER_FRESH=1 "$top/tests/cluster/cluster.sh" start
grep -h "mfprio" "$DIR"/log/slurmctld.log | tail -n 3 || true
"$top/tests/cluster/cluster.sh" accounts "$top/tests/cluster/layout-basic.txt"
if ! sacctmgr -n -P show qos format=Name | grep -qx high; then
	sacctmgr -i add qos high Priority=100 >/dev/null
fi
sacctmgr -i modify user where name=u1,u2,u4 set qos+=high >/dev/null

say "a workload: jobs that run, then jobs that wait"
"$top/tests/cluster/run-jobs.sh"
node=$(hostname -s)
scontrol update nodename="$node" state=drain reason=mfprio-demo
for spec in u1:b:debug:normal u2:c:big:high u3:c:debug:normal u4:e:big:high \
	    u5:f:debug:normal u7:z:big:normal; do
	IFS=: read -r u a p q <<<"$spec"
	sbatch --uid="$u" -A "$a" -p "$p" --qos="$q" -n 1 -D /tmp -o /dev/null \
		--wrap 'sleep 5' >/dev/null
done
# sprio lists a pending job once the scheduler has made it eligible
for _ in $(seq 60); do
	[[ $(sprio -h | wc -l) -ge 6 ]] && break
	sleep 1
done

say "sprio -l"
sprio -l
say "sshare -a -l"
sshare -a -l
scancel --state=PENDING --quiet || true
scontrol update nodename="$node" state=resume >/dev/null 2>&1 || true
