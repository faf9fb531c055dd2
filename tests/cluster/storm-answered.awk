# SPDX-License-Identifier: GPL-2.0-or-later
# storm-answered.awk: reads one storm.KIND log ("KIND RC MILLISECONDS" a
# call) and exits 0 when the controller answered throughout: at least one
# call, the last call answered (rc 0), no call timed out (rc 124), no two
# failures in a row, and failures at most 2 in 100 calls.  A failure alone
# is allowed because slurmctld under TSan, ten times slower, now and then
# hangs up a connection before reading it ("Unexpected missing socket
# error": 2 of 11 runs, one sprio call each); a controller that dies or
# hangs fails every call after it.
{
	n++
	if ($2 == 124)
		timed_out = 1
	if ($2 != 0) {
		failed++
		if (last_failed)
			in_a_row = 1
	}
	last_failed = ($2 != 0)
}
END {
	exit !(n > 0 && !last_failed && !timed_out && !in_a_row && failed * 50 <= n)
}
