#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio report --html FILE --user NAME`: one user's page, from the
# dumps `mfprio why JOBID` reads (tests/data/wait: config, sprio, sshare,
# time; a jobs dump written here, a line per sprio job, with its user,
# plus a running job of dave's that must not be on the page).  Every
# expected figure is worked out below from those files, by awk, not
# read from mfprio's output.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
W="$TOP_SRCDIR/tests/data/wait"
D=$T/site
mkdir -p "$D"
cp "$W/config" "$W/sprio" "$W/sshare" "$W/time" "$D/"

# job ID USER STATE PARTITIONS: one line of the jobs dump
job() {
	sed -e "s/JobId=123 /JobId=$1 /" -e "s/UserId=dave(1234)/UserId=$2(1234)/" \
		-e "s/@PRIO@/1000/" -e "s/@STATE@/$3/" -e "s/@REASON@/Priority/" \
		-e "s/@DEP@/(null)/" -e "s/@ELIG@/2023-11-12T22:13:20/" \
		-e "s/Partition=batch,long/Partition=$4/" "$W/job.in"
}
{
	# every job of sprio, with its user and its partitions there
	awk -F'|' '{ u[$1] = $3; p[$1] = p[$1] ? p[$1] "," $2 : $2 }
		END { for (j in u) print j, u[j], p[j] }' "$W/sprio" |
		sort -n | while read -r id user parts; do
			job "$id" "$user" PENDING "$parts"
		done
	job 150 dave RUNNING batch
} >"$D/jobs"

# The user's pending jobs, from the jobs dump: "ID" lines
pending() {
	sed -n "s/^JobId=\([0-9]*\) .*UserId=$1(.*JobState=PENDING .*/\1/p" \
		"$D/jobs"
}
# The rows the page must have: "ID PARTITION RANK OF" of USER's pending
# jobs, ranked by sprio-rank.awk
expected_rows() {
	awk -F'|' -v u="$1" -f "$TOP_SRCDIR/tests/cli/sprio-rank.awk" "$D/sprio" |
		while read -r id part rank of; do
			pending "$1" | grep -qx "$id" && echo "$id $part $rank $of"
		done | sort
}
# The rows of page FILE: "ID PARTITION RANK OF"
page_rows() {
	sed -n 's/.*<tr data-job="\([^"]*\)" data-partition="\([^"]*\)" data-rank="\([0-9]*\)" data-of="\([0-9]*\)".*/\1 \2 \3 \4/p' "$1" | sort
}

# --- dave: jobs 110 (batch) and 123 (batch, long), not 150 (running)
mf report --html "$T/dave.html" --user dave --snapshot "$D"
check "dave: exit 0" [ "$rc" = 0 ]
expected_rows dave >"$T/want"
page_rows "$T/dave.html" >"$T/got"
check "dave: the fixture has 3 rows to check" [ "$(wc -l <"$T/want")" = 3 ]
same "dave: each pending job's rank in each partition" "$T/want" "$T/got"
id=x
[ -s "$T/dave.html" ] || { bad "dave: no job of another user, nor a running one"; id=; }
for id in ${id:+$(awk -F'|' '$3 != "dave" { print $1 }' "$W/sprio") 150}; do
	if grep -qE "data-job=\"$id\"|id=\"why-$id\"|Job $id \(" "$T/dave.html"
	then
		echo "# job $id is on dave's page"
		bad "dave: no job of another user, nor a running one"
		id=
		break
	fi
done
[ -n "$id" ] && ok "dave: no job of another user, nor a running one"
# the words of `mfprio why ID` for each job, line by line, and the number
# of jobs ahead as the awk above counted them
whyok=yes
for id in $(pending dave); do
	"$MFPRIO" why "$id" --snapshot "$D" >"$T/why.$id" 2>"$err" || whyok=no
	sed -n "/<section class=\"why\" id=\"why-$id\">/,/<\/pre>/p" \
		"$T/dave.html" | sed -e '1d' -e 's/^<pre class="why">//' \
		-e '/^<\/pre>/d' -e 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g' \
		>"$T/page.$id"
	cmp -s "$T/why.$id" "$T/page.$id" || { whyok=no; diff "$T/why.$id" "$T/page.$id" | head -5; }
	awk -v id="$id" '$1 == id && $3 > 1 { print $2, $3 - 1, $4 }' "$T/want" |
		while read -r part ahead of; do
			tr -s '\n ' '  ' <"$T/page.$id" |
				grep -qF "Partition $part: $ahead of $of pending jobs are ahead" ||
				{ echo "# job $id: not '$ahead of $of' in $part"; exit 1; }
		done || whyok=no
done
check "dave: each job's why text, as mfprio why prints it" [ "$whyok" = yes ]
# dave's accounts: phys (shares 0.5, LevelFS 1.25) and chem (0.5,
# 0.833333) under root: phys 1 of 2, chem 2 of 2; gaps 0.4 - 0.5 and
# 0.6 - 0.5
in=$T/dave.html
has "dave: accounts' rank and gap" 0 \
	'<tr data-account="phys"><td>phys</td><td class="n">0.500000</td><td class="n">400</td><td class="n">0.400000</td><td class="n">1.250000</td><td class="n">-0.100000</td><td class="n" data-rank="1" data-of="2">1 of 2</td>' \
	'<tr data-account="chem"><td>chem</td><td class="n">0.500000</td><td class="n">600</td><td class="n">0.600000</td><td class="n">0.833333</td><td class="n">+0.100000</td><td class="n" data-rank="2" data-of="2">2 of 2</td>'
lacks "dave: no PrivateData banner or note at PrivateData=none" \
	'id="admin-banner"' 'id="private"'

# --- every other user: their rows, and only theirs
allok=yes
for u in $(awk -F'|' '{ print $3 }' "$W/sprio" | sort -u); do
	"$MFPRIO" report --html "$T/u.html" --user "$u" --snapshot "$D" 2>"$err" || allok=no
	expected_rows "$u" >"$T/want"
	page_rows "$T/u.html" >"$T/got"
	cmp -s "$T/want" "$T/got" || { echo "# $u:"; diff "$T/want" "$T/got"; allok=no; }
done
check "every user: the page's rows are the user's jobs and ranks" [ "$allok" = yes ]

# --- an unknown user: a usage error (2) naming it, no page
rm -f "$T/none.html"
mf report --html "$T/none.html" --user zoe --snapshot "$D"
check "unknown user: exit 2, named, no page" \
	sh -c "[ $rc = 2 ] && grep -qF \"user 'zoe' has no job\" '$err' && [ ! -e '$T/none.html' ]"
mf report --html "$T/x.html" --user dave --conf "$W/config"
check "--user with --conf: usage error" [ "$rc" = 2 ]

# --- PrivateData=usage, the dumps taken by SlurmUser: the first line of
# the page's body says it shows every user's usage
P=$T/private
cp -r "$D" "$P"
sed -i 's/^PrivateData .*/PrivateData             = usage/' "$P/config"
echo "SlurmUser               = slurm(64030)" >>"$P/config"
mf report --html "$T/plain.html" --user dave --snapshot "$P"
in=$T/plain.html
has "PrivateData=usage, a plain user: the note" 0 \
	'<p class="note" id="private">This site has PrivateData=usage: what slurmctld hides'
lacks "PrivateData=usage, a plain user: no banner" 'every user'
echo "slurm 64030" >"$P/why-whoami"
mf report --html "$T/admin.html" --user dave --snapshot "$P"
sed -n '/^<body>$/{n;p;q}' "$T/admin.html" >"$T/first"
in=$T/first
has "PrivateData=usage, made by SlurmUser: the banner on the first line" 0 \
	"<p class=\"banner\" id=\"admin-banner\">Made by an administrator: this page shows every user's usage (PrivateData=usage"
echo "root 0" >"$P/why-whoami"
mf report --html "$T/root.html" --user dave --snapshot "$P"
check "PrivateData=usage, made by root: the banner" \
	grep -q 'id="admin-banner"' "$T/root.html"
# an operator's dumps: another user's usage in sshare
rm "$P/why-whoami"
echo "  chem|zoe|0.500000|10|0.010000|0.900000|50.000000||cpu=0|cpu=0" >>"$P/sshare"
mf report --html "$T/op.html" --user dave --snapshot "$P"
check "PrivateData=usage, dumps holding another user's usage: the banner" \
	grep -q 'id="admin-banner"' "$T/op.html"
finish
