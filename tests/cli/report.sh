#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mfprio report --html, without a browser (tests/browser/report-html.sh
# clicks through it): the JSON the page embeds is, text for text, what
# `mfprio fairshare --json`, `mfprio check --json` and `mfprio priority
# --json` print on the same inputs (the last with only each partition's
# first --top N rows); a name with "</script>" in it cannot end its
# element; the title names the cluster and the snapshot's time.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "# no python3: the embedded JSON cannot be read; skipped"
	exit 77
fi
EX=$TOP_SRCDIR/examples/snapshot

# embedded PAGE ID: the text of the data element ID, \u003c back to '<'
embedded() {
	python3 - "$1" "$2" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="%s">(.*?)</script>' % sys.argv[2], page, re.S)
sys.stdout.write(m.group(1).replace("\\u003c", "<") if m else "")
PY
}

"$MFPRIO" report --html "$T/p.html" --snapshot "$EX" >"$out" 2>"$err" &&
	ok "report --snapshot examples/snapshot: exit 0" || bad "report --snapshot: exit $?"
"$MFPRIO" fairshare --json --snapshot "$EX" >"$T/fs.json" 2>"$err"
embedded "$T/p.html" data-fairshare >"$T/fs.page"
cmp -s "$T/fs.json" "$T/fs.page" && ok "the page's fair-share is fairshare --json's, byte for byte" ||
	bad "the page's fair-share differs from fairshare --json's"
"$MFPRIO" check --json --snapshot "$EX" >"$T/ck.json" 2>"$err"
embedded "$T/p.html" data-check >"$T/ck.page"
cmp -s "$T/ck.json" "$T/ck.page" && ok "the page's findings are check --json's" ||
	bad "the page's findings differ from check --json's"
# the example's queue: 5 rows, all within --top 200: every row as printed
"$MFPRIO" priority --json --snapshot "$EX" >"$T/pr.json" 2>"$err"
embedded "$T/p.html" data-priority >"$T/pr.page"
cmp -s "$T/pr.json" "$T/pr.page" && ok "the page's queue is priority --json's (every row under --top)" ||
	bad "the page's queue differs from priority --json's"
# the snapshot's time file: 1700000000 = 2023-11-14 22:13:20 UTC
grep -q '<title>cluster: fair-share and queue at 2023-11-14 22:13:20 UTC</title>' "$T/p.html" &&
	ok "title: cluster and the snapshot's time" || bad "title: $(grep -o '<title>.*</title>' "$T/p.html")"

# --top 1: the first row of each partition only, the rows dropped from
# priority --json's text; the queue summary counts every row
"$MFPRIO" report --html "$T/t.html" --top 1 --snapshot "$EX" 2>"$err"
embedded "$T/t.html" data-priority >"$T/t.page"
embedded "$T/t.html" data-queue >"$T/q.page"
python3 - "$T/pr.json" "$T/t.page" "$T/q.page" >"$out" 2>&1 <<'PY'
import json, sys
full = json.load(open(sys.argv[1]))
page = json.load(open(sys.argv[2]))
queue = json.load(open(sys.argv[3]))
heads = {}
for r in sorted(full["rows"], key=lambda r: (-r["job_priority"], r["job_id"])):
    heads.setdefault(r["partition"], r)
want = sorted(heads.values(), key=lambda r: r["job_id"])
assert page["rows"] == want, (page["rows"], want)
assert page["settings"] == full["settings"]
n = {}
for r in full["rows"]:
    n[r["partition"]] = n.get(r["partition"], 0) + 1
got = {p["name"]: (p["rows"], p["ranked"]) for p in queue["partitions"]}
assert got == {p: (n[p], [heads[p]["job_id"]]) for p in n}, got
print(len(want), "partitions' heads")
PY
[ $? = 0 ] && ok "--top 1: each partition's first row, the others counted ($(cat "$out"))" ||
	bad "--top 1: each partition's first row"

# a name that would end the script element: written as \u003c
mkdir "$T/s" && cp "$EX"/* "$T/s/" && sed -i 's/\bchem\b/ch<\/script>em/g' "$T/s/assoc" "$T/s/usage" "$T/s/jobs" "$T/s/assoc.txt" "$T/s/usage.txt"
"$MFPRIO" report --html "$T/s.html" --snapshot "$T/s" >"$out" 2>"$err"
n=$(grep -c '</script>' "$T/s.html")
embedded "$T/s.html" data-fairshare | grep -q '"account":"ch</script>em"' && [ "$n" = 7 ] &&
	ok "an account named ch</script>em: embedded as \\u003c, 7 script elements end (6 data, 1 script)" ||
	bad "an account named ch</script>em ($n '</script>')"

# errors name what is wrong
"$MFPRIO" report --snapshot "$EX" >"$out" 2>"$err"
[ $? = 2 ] && grep -q 'report: --html FILE is required' "$err" && ok "no --html: usage error" ||
	bad "no --html: usage error"
"$MFPRIO" report --html "$T/x.html" --top x --snapshot "$EX" >"$out" 2>"$err"
[ $? = 2 ] && grep -q "\-\-top 'x': not a whole number" "$err" && ok "--top x: usage error" ||
	bad "--top x: usage error"
"$MFPRIO" report --html "$T/no/x.html" --snapshot "$EX" >"$out" 2>"$err"
[ $? = 1 ] && grep -q "$T/no/x.html.tmp: No such file or directory" "$err" &&
	ok "an unwritable page: exit 1, the file named" || bad "an unwritable page"
finish
