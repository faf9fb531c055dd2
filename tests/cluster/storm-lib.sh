# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# storm-lib.sh: a storm of client RPCs against the running slurmctld, shared
# by test-load.sh and test-tsan.sh.  Sourced after plugin-lib.sh, not run.
#
# storm SECONDS SUBMIT...: for SECONDS, four loops side by side, each call
# bounded by STORM_RPC_TIMEOUT seconds (default 120):
#   sprio     sprio -h -o '%i %Y' back to back (a pause of 1 s between);
#   sshare    sshare -a -h -P back to back (1 s between);
#   reconfig  scontrol reconfigure every STORM_RECONFIG seconds (default 20);
#   sbatch    the command SUBMIT... once a second (a job that will pend).
# Each call is logged as "KIND RC MILLISECONDS" in $out/storm.KIND; the
# last answer of each client is kept in $out/storm.sprio.last and
# $out/storm.sshare.last; the state file's time at every sprio call goes to
# $out/storm.ticks (to count the decay passes the storm saw).
#
# storm_check MAXPRIO: the assertions on what the storm logged: every call
# answered with rc 0, but for a failure alone (storm-answered.awk says
# which), slurmctld alive, at least STORM_MIN_TICKS (default 2) decay passes
# during the storm, every priority sprio printed a number in 1..MAXPRIO (no
# NaN, nothing wrapped), no nan or inf in sshare.

STORM_RPC_TIMEOUT=${STORM_RPC_TIMEOUT:-120}
STORM_RECONFIG=${STORM_RECONFIG:-20}
STORM_MIN_TICKS=${STORM_MIN_TICKS:-2}

# _storm_call KIND COMMAND...: one bounded call, logged; its output
# replaces $out/storm.KIND.out.
_storm_call() {
	local kind=$1 t0 rc
	shift
	t0=$(date +%s%N)
	timeout -k 5 "$STORM_RPC_TIMEOUT" "$@" >"$out/storm.$kind.out" 2>"$out/storm.$kind.err"
	rc=$?
	echo "$kind $rc $((($(date +%s%N) - t0) / 1000000))" >>"$out/storm.$kind"
	if ((rc != 0)); then
		sed "s/^/$kind rc $rc: /" "$out/storm.$kind.err" >>"$out/storm.errors"
	fi
	return "$rc"
}

storm() {
	local secs=$1 end pids=() kind
	shift
	end=$((SECONDS + secs))
	date +%s >"$out/storm.start"
	: >"$out/storm.ticks"
	for kind in sprio sshare reconfig sbatch; do
		: >"$out/storm.$kind"
	done
	: >"$out/storm.errors"
	(
		while ((SECONDS < end)); do
			stat -c %Y "$STATE/priority_last_decay_ran" >>"$out/storm.ticks" 2>/dev/null
			_storm_call sprio sprio -h -o '%i %Y' &&
				cp "$out/storm.sprio.out" "$out/storm.sprio.last"
			sleep 1
		done
	) &
	pids+=($!)
	(
		while ((SECONDS < end)); do
			_storm_call sshare sshare -a -h -P &&
				cp "$out/storm.sshare.out" "$out/storm.sshare.last"
			sleep 1
		done
	) &
	pids+=($!)
	(
		while ((SECONDS + STORM_RECONFIG < end)); do
			sleep "$STORM_RECONFIG"
			_storm_call reconfig scontrol reconfigure
		done
	) &
	pids+=($!)
	(
		while ((SECONDS < end)); do
			_storm_call sbatch "$@"
			sleep 1
		done
	) &
	pids+=($!)
	wait "${pids[@]}"
}

# _storm_calls KIND: "N calls, M failed, longest L ms"
_storm_calls() {
	awk '{ n++; if ($2 != 0) f++; if ($3 > l) l = $3 }
		END { printf "%d calls, %d failed, longest %d ms", n, f, l }' "$out/storm.$1"
}

storm_check() {
	local max=$1 kind ticks bad
	for kind in sprio sshare reconfig sbatch; do
		check "storm: every $kind answered, a failure only alone ($(_storm_calls "$kind"))" \
			awk -f "$here/storm-answered.awk" "$out/storm.$kind"
	done
	[[ -s $out/storm.errors ]] && head -n 5 "$out/storm.errors"
	check "storm: slurmctld alive after it" ctld_alive
	# the passes that wrote the state file after the storm began
	ticks=$(awk -v t0="$(cat "$out/storm.start")" '$1 > t0' "$out/storm.ticks" | sort -u | wc -l)
	check "storm: at least $STORM_MIN_TICKS decay passes during it ($ticks)" \
		test "$ticks" -ge "$STORM_MIN_TICKS"
	bad=$(awk -v max="$max" '$2 !~ /^[0-9]+$/ || $2 < 1 || $2 > max' \
		"$out/storm.sprio.last" 2>/dev/null | head -n 3 | tr '\n' ' ')
	check "storm: sprio's last answer has $(wc -l <"$out/storm.sprio.last" 2>/dev/null) priorities, each in 1..$max ($bad)" \
		test -s "$out/storm.sprio.last" -a -z "$bad"
	check "storm: no nan or inf in sshare's last answer" \
		eval "test -s '$out/storm.sshare.last' && ! grep -qiwE 'nan|-?inf' '$out/storm.sshare.last'"
}
