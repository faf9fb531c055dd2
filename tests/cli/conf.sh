#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm.conf read as slurmctld's parser reads it (tests/data/conf): blanks
# around '=', quoted values, escaped '#', Include relative to the including
# file, "%c" for the ClusterName, and where slurmctld would refuse the file
# but the meaning is plain (a byte-order mark, an unknown key, two settings
# on a line, an Include not on this host) the same results as the plain
# file (tests/data/priority/small, hand-computed) with a warning naming the
# file and line.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/conf"
S="$TOP_SRCDIR/tests/data/priority/small"

IN=(--jobs "$S/jobs.txt" --qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000)

# same_rows NAME CONF: the rows of the plain file, hand-computed
same_rows() {
	if "$MFPRIO" priority --conf "$2" "${IN[@]}" >"$out" 2>"$err" &&
	   cmp -s "$out" "$S/expected.txt"; then ok "$1"; else bad "$1"; fi
}
# warns NAME TEXT: the last run's stderr holds TEXT
warns() {
	if grep -qF -- "$2" "$err"; then ok "$1"; else
		echo "# wanted on stderr: $2"; bad "$1"; fi
}

same_rows "blanks around '=', quotes, Include relative and %c" "$D/spaces.conf"
if [ -s "$err" ]; then bad "a file slurmctld takes gives no warning"
else ok "a file slurmctld takes gives no warning"; fi

same_rows "a byte-order mark is read past" "$D/bom.conf"
warns "the byte-order mark is named, with file and line" \
	"$D/bom.conf:1: the file starts with a UTF-8 byte-order mark: slurmctld would not start with it"

same_rows "unknown key, two settings a line, missing Include: read on" \
	"$D/unknown.conf"
warns "an unknown key is named with its line" \
	"$D/unknown.conf:12: 'PriortyWeightAge' is not a slurm.conf key: slurmctld would not start"
warns "two settings on a line are named" \
	"$D/unknown.conf:13: 2 settings on one line: slurmctld would not start"
warns "a missing absolute Include is named" \
	"$D/unknown.conf:14: Include /nonexistent/mfprio-test/site.conf:"

# an Include of something that is not a regular file (found by
# tests/fuzz: "Include /dev/zero" read until memory ran out): a FIFO
# nobody writes to would block forever; it is named and skipped
fifo_dir=$(mktemp -d)
mkfifo "$fifo_dir/fifo"
{ cat "$S/slurm.conf"; echo "Include $fifo_dir/fifo"; } >"$fifo_dir/slurm.conf"
fifo_line=$(wc -l <"$fifo_dir/slurm.conf")
if timeout 20 "$MFPRIO" priority --conf "$fifo_dir/slurm.conf" "${IN[@]}" \
	>"$out" 2>"$err" && cmp -s "$out" "$S/expected.txt"
then ok "an Include of a FIFO is skipped, not waited on"
else bad "an Include of a FIFO is skipped, not waited on"; fi
warns "an Include that is not a regular file is named" \
	"$fifo_dir/slurm.conf:$fifo_line: Include $fifo_dir/fifo: $fifo_dir/fifo is not a regular file; read on without it"
rm -rf "$fifo_dir"
"$MFPRIO" priority --conf "$D/parts-missing.conf" "${IN[@]}" >"$out" 2>"$err"
rc=$?
if [ "$rc" -eq 1 ] &&
   grep -qF "$D/parts-missing.conf:5: Include parts-not-here.conf:" "$err" &&
   grep -qF "no PartitionName line" "$err"; then
	ok "a needed key in a missing Include: the Include named, then fatal"
else echo "# rc=$rc"; bad "a needed key in a missing Include: the Include named, then fatal"; fi
"$MFPRIO" priority --conf "$D/nokv.conf" "${IN[@]}" >"$out" 2>"$err"
rc=$?
if [ "$rc" -eq 1 ] &&
   grep -qF "$D/nokv.conf:2: 'PriorityWeightAge' is not of the form Key=Value" "$err"
then ok "a line with no '=' is fatal, with file and line"
else echo "# rc=$rc"; bad "a line with no '=' is fatal, with file and line"; fi

# fairshare shows the reader's warnings too
"$MFPRIO" fairshare --conf "$D/bom.conf" --assoc "$S/assoc.txt" >"$out" 2>"$err"
warns "fairshare names the byte-order mark" "$D/bom.conf:1: the file starts"

finish
