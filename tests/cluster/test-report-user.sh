#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-report-user.sh: `mfprio report --live --html FILE --user NAME` on a
# real cluster (upstream's plugin, the weights of priority-default.conf,
# the layout of layout-basic.txt; the node drained so that every job
# pends), run by the Unix user u2 (runuser, no privilege) and by root:
#   u2, PrivateData none: the page's rows are u2's pending jobs (root's
#          squeue -u u2 -t PD) with their rank in debug as root's sprio
#          rows give it (1 + the rows of a higher priority, or the same
#          and a lower job id); no other user's job; no banner, no note.
#   u2, PrivateData=jobs,usage (scontrol reconfigure): the note that says
#          what was hidden, no banner, only u2's jobs, each ranked among
#          the rows u2 may see (its own).
#   root, PrivateData=jobs,usage: the page's first line says it shows
#          every user's usage; an unknown user is exit status 2.
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance of MFPRIO_CLUSTER_INSTANCE (instance.sh).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-report-user

chmod 711 "$out"
mkdir -p "$out/bin" "$out/pages" && chmod 777 "$out/pages" &&
	install -m 755 "$MFPRIO" "$out/bin/mfprio" ||
	{ bad "a copy of $MFPRIO the users can run"; finish; }
umf=$out/bin/mfprio

start_live
scontrol update nodename="$NODE" state=drain reason=test-report-user
# submit USER ACCOUNT: a job of USER's in debug; its id on stdout
submit() {
	(cd /tmp && runuser -u "$1" -- sbatch --parsable -A "$2" -p debug \
		--qos=normal -n 1 -D /tmp -o /dev/null -J ru --wrap 'sleep 30')
}
for spec in u1:b u2:c u2:c u3:c u4:e u2:c; do
	id=$(submit "${spec%:*}" "${spec#*:}") || { bad "sbatch as $spec"; finish; }
	ids+=("${id%%;*}")
done
wait_calc "$(last_ran)" || { bad "no priority calculation in 150 s"; finish; }

# rows FILE: the page's "ID PARTITION RANK OF", sorted
rows() {
	sed -n 's/.*<tr data-job="\([^"]*\)" data-partition="\([^"]*\)" data-rank="\([0-9]*\)" data-of="\([0-9]*\)".*/\1 \2 \3 \4/p' "$1" | sort
}
# want USER SPRIO: USER's rows ranked among SPRIO's ("id|part|user|prio")
want() {
	awk -F'|' -v u="$1" -f "$here/../cli/sprio-rank.awk" "$2" | sort
}

# ---- u2, PrivateData none
sprio -h -o '%i|%r|%u|%Y' >"$out/root.sprio"
want u2 "$out/root.sprio" >"$out/want"
squeue -h -t PD -u u2 -o %i | sort -n >"$out/u2.pending"
if (cd /tmp && runuser -u u2 -- "$umf" report --live --user u2 \
	--html "$out/pages/u2.html") 2>"$out/u2.err"; then
	rows "$out/pages/u2.html" >"$out/got"
	if [[ $(wc -l <"$out/want") -eq 3 ]] && cmp -s "$out/want" "$out/got" &&
		[[ $(cut -d' ' -f1 "$out/got" | sort -n) == "$(cat "$out/u2.pending")" ]]; then
		ok "u2: the page's jobs and ranks are squeue's and sprio's"
	else
		diff "$out/want" "$out/got"; bad "u2: the page's jobs and ranks"
	fi
	if grep -qE 'id="admin-banner"|id="private"' "$out/pages/u2.html"; then
		bad "u2, PrivateData none: no banner, no note"
	else
		ok "u2, PrivateData none: no banner, no note"
	fi
else
	cat "$out/u2.err"; bad "u2: mfprio report --live --user u2"
fi

# ---- PrivateData=jobs,usage
echo "PrivateData=jobs,usage" >>"$DIR/etc/priority.conf"
scontrol reconfigure
sleep 2
awk -F'|' '{ gsub(/ /, "") } $3 == "u2"' "$out/root.sprio" >"$out/own.sprio"
want u2 "$out/own.sprio" >"$out/want.private"
if (cd /tmp && runuser -u u2 -- "$umf" report --live --user u2 \
	--html "$out/pages/private.html") 2>"$out/private.err"; then
	rows "$out/pages/private.html" >"$out/got.private"
	if cmp -s "$out/want.private" "$out/got.private" &&
		grep -qF '<p class="note" id="private">This site has PrivateData=jobs,usage' \
			"$out/pages/private.html" &&
		! grep -q 'id="admin-banner"' "$out/pages/private.html"; then
		ok "u2, PrivateData=jobs,usage: the note, own jobs ranked among own"
	else
		diff "$out/want.private" "$out/got.private"
		bad "u2, PrivateData=jobs,usage: the note, own jobs ranked among own"
	fi
else
	cat "$out/private.err"; bad "u2 under PrivateData: mfprio report"
fi
if "$MFPRIO" report --live --user u2 --html "$out/pages/root.html" \
	2>"$out/root.err" &&
	sed -n '/^<body>$/{n;p;q}' "$out/pages/root.html" |
	grep -qF "Made by an administrator: this page shows every user's usage (PrivateData=jobs,usage"; then
	ok "root, PrivateData=jobs,usage: the banner on the first line"
else
	cat "$out/root.err"; bad "root, PrivateData=jobs,usage: the banner"
fi
"$MFPRIO" report --live --user nosuchuser --html "$out/pages/none.html" \
	2>"$out/none.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -qF "user 'nosuchuser'" "$out/none.err"; then
	ok "an unknown user: exit 2, named"
else
	cat "$out/none.err"; bad "an unknown user: exit $rc"
fi
finish
