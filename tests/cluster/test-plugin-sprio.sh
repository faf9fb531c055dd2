#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-sprio.sh: the factors list behind sprio, from mfprio's plugin:
# the job, user and partition filters, held jobs hidden, a multi-partition
# job listed once per partition, and PrivateData=jobs (a user sees only
# their own jobs; root sees all).
#
# Which side filters: a 22.05 sprio names the jobs, users and partitions
# asked for in its request, and the plugin looks the job ids up one by one
# and filters the rest.  From 23.02 sprio sends a request with no body and
# filters the whole list itself (slurmctld 23.02 and 23.11 still read the
# old request from a 22.05 client: where Debian's 22.05 sprio is installed
# and answers the cluster, the -j checks ask with it); from 24.05 the
# request has no body for any client, and the plugin has no lookup.  Where
# no client names the jobs, the -j, -u and -p checks are labelled as checks
# of sprio's own filter over the plugin's whole list, and the output says
# that the plugin's by-id lookup was not exercised.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin ours
export MFPRIO_PRIORITY_CONF=$out/priority.conf
{ cat "$here/priority-default.conf"; echo "PrivateData=jobs"; } >"$MFPRIO_PRIORITY_CONF"
chmod 644 "$MFPRIO_PRIORITY_CONF"
start_cluster "$MFPRIO_PRIORITY_CONF"
drain mfprio-sprio
j1=$(sub --uid=u1 -A b -p debug)
j2=$(sub --uid=u2 -A c -p big)
j3=$(sub --uid=u2 -A c -p debug,big)
j4=$(sub --uid=u4 -A e -p debug --hold)

ids() { awk 'NR > 1 { print $1 }' | sort -n | uniq | paste -sd' '; }
# ids_sprio: a sprio whose request names the jobs (see the header); asked:
# the plugin is asked for them (1) or sprio filters the whole list (0)
ids_sprio=sprio asked=1 by=""
if slurm_at_least 24.05; then
	asked=0
elif slurm_at_least 23.02; then
	asked=0
	if [[ -x /usr/bin/sprio && $(dpkg-query -W -f '${Version}' slurm-client 2>/dev/null) == 22.05.* ]]; then
		ids_sprio=/usr/bin/sprio asked=1 by=", asked by Debian's 22.05 sprio"
	fi
fi
# until the scheduler has made the three jobs eligible (at most a minute)
for _ in $(seq 60); do
	[[ "$(sprio -l | ids)" == "$j1 $j2 $j3" ]] && break
	sleep 1
done
check "root sees every pending job but the held one" \
	test "$(sprio -l | ids)" = "$j1 $j2 $j3"
check "a multi-partition job has one row per partition" \
	test "$(sprio -l -j "$j3" | awk 'NR > 1 { print $2 }' | sort | paste -sd,)" = "big,debug"
if [[ $ids_sprio != sprio ]] && ! "$ids_sprio" -h -o %i -j "$j2" 2>"$out/ids-sprio.err" | grep -qx " *$j2"; then
	say "Debian's 22.05 sprio does not answer this cluster: $(head -c 300 "$out/ids-sprio.err")"
	ids_sprio=sprio asked=0
fi
# via, filt: what the -j checks and the -u/-p checks exercise
if ((asked)); then
	via="the plugin's by-id lookup$by" filt="the plugin's filter$by"
else
	via="sprio's own filter over the plugin's whole list" filt=$via
	say "not exercised: the plugin's by-id lookup and its -u/-p filters (on $SLURM_VERSION no sprio here names the jobs in its request: sprio filters the whole list itself)"
fi
check "-j filters by job ($via)" test "$("$ids_sprio" -l -j "$j2" | ids)" = "$j2"
# the plugin looks a request's job ids up one by one (it does not walk
# every job for them): each job once, an unknown id and a held job left out
check "-j naming a job twice lists it once ($via)" \
	test "$("$ids_sprio" -h -o %i -j "$j2,$j2" | wc -l)" = 1
check "-j with a held job and an unknown id: the others, once each ($via)" \
	test "$("$ids_sprio" -h -o %i -j "$j4,$j2,99999999,$j1" | sort -n | paste -sd' ')" = "$j1 $j2"
check "-j and -p: one partition of a multi-partition job ($via)" \
	test "$("$ids_sprio" -h -o %r -j "$j3" -p big)" = big
check "-u filters by user ($filt)" test "$("$ids_sprio" -l -u u2 | ids)" = "$j2 $j3"
check "-p filters by partition ($filt)" test "$("$ids_sprio" -l -p big | ids)" = "$j2 $j3"
check "-p and -u together ($filt)" test "$("$ids_sprio" -l -p debug -u u2 | ids)" = "$j3"
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
