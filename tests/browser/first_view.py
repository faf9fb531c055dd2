#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""first_view.py: what a person sees first on the page of `mfprio report
--html`, in headless chromium (python3-selenium, chromium-driver),
against figures computed here from the site's input files (the dump of
bench/gen_jobs.py: assoc.txt, usage.txt, jobs.txt), never from mfprio's
own output.

  first_view.py PAGE SITE_DIR NOW [SCREENSHOT]

NOW: the page's --now, in seconds since the epoch.  The computation here:
an account's normalized shares are its FairShare over its siblings', its
effective usage its users' raw usage summed over its subtree over its
parent's (Fair Tree), its gap the second less the first; the queue is the
jobs of jobs.txt not held (Priority=0) and eligible by NOW, a row per
partition; a job's wait NOW less its EligibleTime.  Prints "ok - ..." /
"not ok - ..." and exits 1 if any check failed; a check that finds
nothing to compare fails.
"""
import calendar
import re
import sys
import time

from selenium.webdriver.common.by import By

import report_html as rh  # noqa: E402

# report_html.py's check (its count of failures: rh.failed), its headless
# chromium of 1400 x 900 and its console reader
check, browser, console_errors = rh.check, rh.browser, rh.console_errors


def site(d):
    """The accounts: name -> (parent, norm_shares, effective_usage)."""
    acc, use = {}, {}
    for line in open(d + "/assoc.txt"):
        a, u, p, s = line.rstrip("\n").split("|")
        if not u and a != "root":
            acc[a] = (p, int(s))
    for line in open(d + "/usage.txt"):
        a, u, v = line.rstrip("\n").split("|")
        use[(a, u)] = use.get((a, u), 0) + float(v)
    raw = dict.fromkeys(list(acc) + ["root"], 0.0)
    for (a, _), v in use.items():
        while a != "root":
            raw[a] += v
            a = acc[a][0]
        raw["root"] += v
    sib = {}
    for p, s in acc.values():
        sib[p] = sib.get(p, 0) + s
    return {a: (p, s / sib[p], raw[a] / raw[p] if raw[p] else 0.0)
            for a, (p, s) in acc.items()}


def field(line, key):
    m = re.search(" " + key + r"=(\S+)", line)
    return m.group(1) if m else None


def queue(d, now):
    """(rows per partition, account -> [waits]) of the pending jobs."""
    rows, waits = {}, {}
    for line in open(d + "/jobs.txt"):
        # the job name (free text, '=' and all) ends before UserId=
        line = line[line.index(" UserId="):]
        if field(line, "Priority") == "0":
            continue
        el = field(line, "EligibleTime")
        t = field(line, "SubmitTime") if el in ("Unknown", None) else el
        start = calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%S"))
        if start > now:
            continue
        for p in field(line, "Partition").split(","):
            rows[p] = rows.get(p, 0) + 1
        waits.setdefault(field(line, "Account"), []).append(now - start)
    return rows, waits


def pct(v):
    return "%.2f %%" % (100 * v)


def pts(v):
    return ("+" if v >= 0 else "-") + "%.2f" % abs(100 * v)


def days(s):
    return "%.1f d" % (s / 86400)




# the texts of the elements matching a selector that a person sees: shown
# (not display:none or hidden), of some size, wholly inside the viewport,
# the top element at their centre (nothing drawn over them)
SEEN = """
return Array.from(document.querySelectorAll(arguments[0])).filter(
  function (e) {
    var r = e.getBoundingClientRect();
    if (!e.offsetParent || r.width < 4 || r.height < 8) return false;
    if (r.left < 0 || r.top < 0 || r.right > innerWidth ||
        r.bottom > innerHeight) return false;
    var t = document.elementFromPoint(r.left + r.width / 2,
                                      r.top + r.height / 2);
    return t === e || e.contains(t);
  }).map(function (e) { return [e.textContent, e.dataset.account || "",
                                e.dataset.user || "", e.dataset.depth]; });
"""


def main():
    page, sdir, now = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shot = sys.argv[4] if len(sys.argv) > 4 else None
    acc = site(sdir)
    qrows, qwaits = queue(sdir, now)
    gap = {a: eu - ns for a, (_, ns, eu) in acc.items()}
    rank = sorted(acc, key=lambda a: (-abs(gap[a]), a))
    d = browser()
    try:
        d.get("file://" + page)
        errs = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        check(not errs, "the page loads with no console error %s" % errs)
        if shot:
            d.save_screenshot(shot)
            print("# screenshot of the first view (1400x900): " + shot)

        # the names a person reads in the first view
        seen = d.execute_script(SEEN, "#icicle .box")
        named = {a for t, a, u, _ in seen if not u and t == a and a in acc}
        check(len(named) >= 20, "first view: %d account names displayed "
              "inside the viewport (at least 20)" % len(named))
        users = {u for t, a, u, _ in seen if u and t == u}
        check(len(users) >= 10, "first view: %d user names displayed too"
              % len(users))
        # the root's children named are the first of the ranking by gap
        top = [a for a in acc if acc[a][0] == "root"]
        lv1 = [a for t, a, u, dp in seen if dp == "1" and not u and t == a]
        want = [a for a in rank if a in top][:len(lv1)]
        more = [t for t, a, u, dp in seen if dp == "1" and
                t.startswith("+")]
        if len(top) > len(lv1):
            check(sorted(lv1) == sorted(want) and lv1 and more == [
                "+%d more accounts" % (len(top) - len(lv1))],
                "the root's %d children named are the %d of largest gap, "
                "the other %d in one box (%s)" % (len(top), len(lv1),
                                                   len(top) - len(lv1),
                                                   more))
        else:
            check(sorted(lv1) == sorted(top) and not more,
                  "every child of the root (%d) named" % len(top))

        # the summary panel, before anything is hovered
        gaps = d.execute_script(
            "return Array.from(document.querySelectorAll('#sum-gaps tbody"
            " tr')).map(function (r) { return Array.from(r.cells).map("
            "function (c) { return c.textContent; }); })")
        # since when: a page without --history has no snapshots to tell
        want = [[a, pct(acc[a][1]), pct(acc[a][2]), pts(gap[a]), "\u2014"]
                for a in rank[:10]]
        check(len(gaps) == 10 and gaps == want,
              "summary: the ten largest gaps, their shares, usage and gaps"
              " as computed from the input (since: none without --history)%s" % (
                  "" if gaps == want else " (shown %s, wanted %s)"
                  % (gaps[:3], want[:3])))
        ok = d.execute_script(SEEN, "#sum-gaps tbody tr, #sum-waits tbody tr")
        check(len(ok) == 20, "summary: its 20 rows displayed in the first "
              "view (%d)" % len(ok))
        wt = d.execute_script(
            "return Array.from(document.querySelectorAll('#sum-waits tbody"
            " tr')).map(function (r) { return Array.from(r.cells).map("
            "function (c) { return c.textContent; }); })")
        wr = sorted(qwaits, key=lambda a: (
            -sorted(qwaits[a])[(len(qwaits[a]) - 1) // 2],
            -max(qwaits[a]), a))[:10]
        want = [[a, str(len(qwaits[a])),
                 days(sorted(qwaits[a])[(len(qwaits[a]) - 1) // 2]),
                 days(max(qwaits[a]))] for a in wr]
        check(len(wt) == 10 and wt == want,
              "summary: the ten accounts of longest median wait, their "
              "pending jobs, median and longest waits as computed from "
              "jobs.txt%s" % ("" if wt == want else " (shown %s, wanted %s)"
                              % (wt[:2], want[:2])))

        # the queue from the first view: a link in the viewport, and each
        # partition's pending rows
        link = d.execute_script(SEEN, "#to-queue")
        check(len(link) == 1 and "%d pending" % sum(qrows.values())
              in link[0][0], "first view: a link to the queue, %s "
              "(%d pending rows computed)" % (link, sum(qrows.values())))
        d.find_element(By.ID, "to-queue").click()
        top_q = d.execute_script("return document.getElementById("
                                 "'queue-h').getBoundingClientRect().top")
        check(0 <= top_q < 200, "the link brings the queue into view "
              "(its heading at %.0f px)" % top_q)
        heads = {e.get_attribute("data-part"): e.find_element(
            By.TAG_NAME, "h3").text for e in
            d.find_elements(By.CSS_SELECTOR, "#queue .part")}
        got = {p: int(re.search(r": (\d+) pending", h).group(1))
               for p, h in heads.items()}
        check(qrows and got == qrows, "queue: each of the %d partitions' "
              "pending rows as counted in jobs.txt%s" % (
                  len(qrows), "" if got == qrows else
                  " (shown %s, wanted %s)" % (got, qrows)))

        # hovering an account named: the panel's figures
        a = lv1[0] if lv1 else None
        check(a is not None, "an account to hover")
        if a:
            b = d.find_element(By.CSS_SELECTOR, '#icicle .box[data-depth="1"]'
                               '[data-account="%s"]:not([data-user])' % a)
            d.execute_script("arguments[0].focus()", b)
            got = {e.get_attribute("data-key"): e.text for e in
                   d.find_elements(By.CSS_SELECTOR, "#info dd.num")}
            check(abs(float(got["norm_shares"]) - acc[a][1]) < 1e-12 and
                  abs(float(got["effective_usage"]) - acc[a][2]) < 1e-12,
                  "%s focused: its shares and usage as computed (%s, %s)"
                  % (a, got.get("norm_shares"), got.get("effective_usage")))
        # the "+N more" box opens a list of the others, sortable
        d.get("file://" + page)
        boxes = d.find_elements(By.CSS_SELECTOR,
                                '#icicle .box.more[data-depth="1"]')
        if len(top) > len(lv1):
            check(len(boxes) == 1, "one '+N more' box at the root's level")
            boxes[0].click()
            rows = d.find_elements(By.CSS_SELECTOR, "#more-scroll tbody tr")
            rest = [a for a in rank if a in top][len(lv1):]
            names = [r.find_element(By.TAG_NAME, "a").text for r in rows]
            check(names == rest, "the list: the %d others, by gap (%d rows)"
                  % (len(rest), len(names)))
            sc = d.execute_script("var e = document.getElementById("
                                  "'more-scroll'); return [e.scrollHeight,"
                                  " e.clientHeight]")
            check(len(rest) < 15 or sc[0] > sc[1] > 0,
                  "the list scrolls where it is long (%s)" % sc)
            d.find_element(By.CSS_SELECTOR,
                           '#more-scroll button[data-sort="shares"]').click()
            cells = [r.find_elements(By.TAG_NAME, "td")[1].text for r in
                     d.find_elements(By.CSS_SELECTOR, "#more-scroll tbody tr")]
            # the page rounds as JavaScript does (toFixed): to 0.01 point
            want = sorted((100 * acc[a][1] for a in rest), reverse=True)
            cv = [float(c.split()[0]) for c in cells]
            check(len(cv) == len(want) and all(
                abs(x - y) < 0.0051 for x, y in zip(cv, want)), "sorted by share, largest first%s" % (
                "" if cells == want else " (%s, wanted %s)" % (
                    cells[:4], want[:4])))
            d.find_element(By.CSS_SELECTOR,
                           '#more-scroll button[data-sort="name"]').click()
            nm = [r.find_element(By.TAG_NAME, "a").text for r in
                  d.find_elements(By.CSS_SELECTOR, "#more-scroll tbody tr")]
            check(nm == sorted(rest), "sorted by name")
        errs = console_errors(d)
        check(not errs, "no console error after the actions %s" % errs)
    finally:
        d.quit()
    print("%d failed" % rh.failed)
    sys.exit(1 if rh.failed else 0)


if __name__ == "__main__":
    main()
