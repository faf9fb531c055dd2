#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-sprio.sh: the factors list behind sprio, from mfprio's plugin:
# the job, user and partition filters, held jobs hidden, a multi-partition
# job listed once per partition, and PrivateData=jobs (a user sees only
# their own jobs; root sees all).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin ours
export MFPRIO_PRIORITY_CONF=$out/priority.conf
{ cat "$here/priority-default.conf"; echo "PrivateData=jobs"; } >"$MFPRIO_PRIORITY_CONF"
chmod 644 "$MFPRIO_PRIORITY_CONF"
start_cluster "$MFPRIO_PRIORITY_CONF"
scontrol update nodename="$NODE" state=drain reason=mfprio-sprio
sub() { sbatch --parsable -D /tmp -o /dev/null --wrap 'sleep 1' "$@" | cut -d';' -f1; }
j1=$(sub --uid=u1 -A b -p debug)
j2=$(sub --uid=u2 -A c -p big)
j3=$(sub --uid=u2 -A c -p debug,big)
j4=$(sub --uid=u4 -A e -p debug --hold)

ids() { awk 'NR > 1 { print $1 }' | sort -n | uniq | paste -sd' '; }
# until the scheduler has made the three jobs eligible (at most a minute)
for _ in $(seq 60); do
	[[ "$(sprio -l | ids)" == "$j1 $j2 $j3" ]] && break
	sleep 1
done
check "root sees every pending job but the held one" \
	test "$(sprio -l | ids)" = "$j1 $j2 $j3"
check "a multi-partition job has one row per partition" \
	test "$(sprio -l -j "$j3" | awk 'NR > 1 { print $2 }' | sort | paste -sd,)" = "big,debug"
check "-j filters by job" test "$(sprio -l -j "$j2" | ids)" = "$j2"
# the plugin looks a request's job ids up one by one (it does not walk
# every job for them): each job once, an unknown id and a held job left out
check "-j naming a job twice lists it once" \
	test "$(sprio -h -o %i -j "$j2,$j2" | wc -l)" = 1
check "-j with a held job and an unknown id: the others, once each" \
	test "$(sprio -h -o %i -j "$j4,$j2,99999999,$j1" | sort -n | paste -sd' ')" = "$j1 $j2"
check "-j and -p: one partition of a multi-partition job" \
	test "$(sprio -h -o %r -j "$j3" -p big)" = big
check "-u filters by user" test "$(sprio -l -u u2 | ids)" = "$j2 $j3"
check "-p filters by partition" test "$(sprio -l -p big | ids)" = "$j2 $j3"
check "-p and -u together" test "$(sprio -l -p debug -u u2 | ids)" = "$j3"
check "PrivateData=jobs: u1 sees only its own job" \
	test "$(su -s /bin/sh u1 -c "SLURM_CONF=$SLURM_CONF sprio -l" 2>/dev/null | ids)" = "$j1"
check "PrivateData=jobs: u2 sees only its own jobs" \
	test "$(su -s /bin/sh u2 -c "SLURM_CONF=$SLURM_CONF sprio -l" 2>/dev/null | ids)" = "$j2 $j3"
scontrol release "$j4"
# sprio lists a pending job once the scheduler has made it eligible, which
# takes a scheduling pass after the release
for _ in $(seq 60); do
	[[ "$(sprio -l -j "$j4" | ids)" == "$j4" ]] && break
	sleep 1
done
check "a released job shows up" test "$(sprio -l -j "$j4" | ids)" = "$j4"
scancel "$j1" "$j2" "$j3" "$j4"
scontrol update nodename="$NODE" state=resume
cp "$here/priority-default.conf" "$DIR/etc/priority.conf"
finish
