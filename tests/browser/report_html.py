#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""report_html.py: the page of `mfprio report --html` in a real browser
(Debian's chromium, headless, driven by python3-selenium through
chromium-driver), checked against the JSON of the commands run apart.

  report_html.py PAGE FAIRSHARE_JSON PRIORITY_JSON TOP_N [SCREENSHOT]

FAIRSHARE_JSON and PRIORITY_JSON are `mfprio fairshare --json` and
`mfprio priority --json` over the page's inputs (every job, not only the
heads), TOP_N the page's --top.  Prints "ok - ..." / "not ok - ..." lines
and exits 1 if any check failed.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

failed = 0


def check(cond, what):
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed += 1


def console_errors(d):
    """the SEVERE lines of the page's console so far"""
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE"]


def browser():
    o = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1400, "height": 900, "deviceScaleFactor": 1,
        "mobile": False})
    return d


def view_root(d):
    """The box of the zoomed association (depth 0): (account, user)."""
    b = d.find_element(By.CSS_SELECTOR, '#icicle .box[data-depth="0"]')
    return b.get_attribute("data-account"), b.get_attribute("data-user")


def find(d, name):
    f = d.find_element(By.ID, "find")
    f.clear()
    f.send_keys(name + Keys.ENTER)


def shown_figures(d):
    """The figures the info panel shows: key -> text."""
    return {e.get_attribute("data-key"): e.text
            for e in d.find_elements(By.CSS_SELECTOR, "#info dd.num")}


def same(text, v):
    """The page's text of a figure against the JSON's value: the same
    double, or '(none)' for null."""
    if v is None:
        return text == "(none)"
    try:
        return float(text) == float(v)
    except ValueError:
        return False


def main():
    page, fs_path, pr_path, top_n = sys.argv[1:5]
    shot = sys.argv[5] if len(sys.argv) > 5 else None
    top_n = int(top_n)
    fs = json.load(open(fs_path))["rows"]
    pr = json.load(open(pr_path))["rows"]
    d = browser()
    try:
        d.get("file://" + page)
        errs = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        check(not errs, "the page loads with no console error %s" % errs)
        ms = d.execute_script("return window.mfReportRenderMs")
        check(ms is not None, "first render done (%.0f ms in the page)" %
              (ms or -1))
        title = d.title
        check(": fair-share and queue at " in title and "UTC" in title,
              "title names cluster and time: %r" % title)
        labels = d.execute_script(
            "return Array.from(document.querySelectorAll('#icicle .box'))"
            ".filter(function (b) { return b.textContent; }).length")
        big = len(fs) > 1000
        check(labels >= (20 if big else min(len(fs), 10)),
              "first view: %d associations named in visible text" % labels)
        if shot:
            d.save_screenshot(shot)
            print("# screenshot of the first view (1400x900): " + shot)

        # five associations: the root, an account, three users (fixed
        # positions in sshare's order), found with the search box and
        # focused; the info panel's figures against fairshare --json
        accts = [r for r in fs if not r["user"] and r["depth"] > 0]
        users = [r for r in fs if r["user"]]
        picks = [fs[0], accts[len(accts) // 2], users[0],
                 users[len(users) // 2], users[-1]]
        for r in picks:
            name = ("%s/%s" % (r["account"], r["user"]) if r["user"]
                    else r["account"])
            find(d, name)
            acct, user = view_root(d)
            box = d.find_element(By.CSS_SELECTOR,
                                 '#icicle .box[data-depth="0"]')
            d.execute_script("arguments[0].focus()", box)
            got = shown_figures(d)
            keys = ["raw_shares", "norm_shares", "raw_usage",
                    "effective_usage", "level_fs", "fairshare"]
            bad = [k for k in keys if not same(got.get(k, "?"), r[k])]
            check((acct, user or None) == (r["account"], r["user"]) and
                  not bad, "%s %s: the six figures shown equal fairshare "
                  "--json's%s" % ("user" if r["user"] else "account", name,
                                  " (differ: %s)" % [(k, got.get(k), r[k])
                                                     for k in bad]
                                  if bad else ""))
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)

        # back to the root, then click the account with most children
        d.get("file://" + page)
        kids = {}
        for r in fs:
            p = r["account"] if r["user"] else r["parent"]
            if p:
                kids.setdefault(p, set()).add(r["user"] or r["account"])
        cand = [b for b in d.find_elements(
            By.CSS_SELECTOR, '#icicle .box[data-depth="1"]')
            if not b.get_attribute("data-user")]
        target = max(cand, key=lambda b: b.size["height"])
        acct = target.get_attribute("data-account")
        target.click()
        under = d.find_elements(By.CSS_SELECTOR,
                                '#icicle .box[data-depth="1"]')
        names = {b.get_attribute("data-user") or b.get_attribute(
            "data-account") for b in under}
        check(view_root(d)[0] == acct and under and
              names <= kids.get(acct, set()) and
              all(b.get_attribute("data-parent") == acct for b in under),
              "click on %s zooms into it: its %d boxes below are its "
              "children" % (acct, len(under)))
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        check(view_root(d) == (fs[0]["account"], None),
              "Escape returns to %s" % fs[0]["account"])
        # keyboard: Tab reaches a box, Enter zooms
        first = d.find_element(By.CSS_SELECTOR,
                               '#icicle .box[data-depth="1"]')
        d.execute_script("arguments[0].focus()", first)
        a1 = first.get_attribute("data-account")
        d.switch_to.active_element.send_keys(Keys.ENTER)
        check(view_root(d)[0] == a1, "Enter on a focused box zooms (%s)"
              % a1)
        d.switch_to.active_element.send_keys(Keys.ESCAPE)

        # search: a user of the site, two actions (type, Enter)
        u = users[len(users) // 3]
        find(d, u["user"] if sum(x["user"] == u["user"] or
                                 x["account"] == u["user"]
                                 for x in fs) == 1
             else "%s/%s" % (u["account"], u["user"]))
        check(view_root(d) == (u["account"], u["user"]),
              "search finds user %s and zooms to them" % u["user"])

        # the queue, filtered by one user: only their jobs, by rank, as
        # priority --json ranks every row (highest first, then job id)
        parts = {}
        for r in pr:
            parts.setdefault(r["partition"], []).append(r)
        heads = {}
        for p, rows in parts.items():
            rows.sort(key=lambda r: (-r["job_priority"], r["job_id"]))
            heads[p] = rows[:top_n] if top_n else rows
        counts = {}
        for p, rows in heads.items():
            for r in rows:
                counts[r["user"]] = counts.get(r["user"], 0) + 1
        who = max(sorted(counts), key=lambda k: counts[k]) if counts else None
        # no row to check is a failure, never a skip: the three queue
        # checks below each count as failed
        if not who:
            for what in ("queue filtered by a user", "a user highlighted",
                         "rows left out said"):
                check(False, "%s: priority --json has no row" % what)
        else:
            f = d.find_element(By.ID, "f-user")
            f.send_keys(who)
            want = {p: [(i + 1, r["job_id"]) for i, r in enumerate(rows)
                        if r["user"] == who] for p, rows in heads.items()}
            ok_rows, n = True, 0
            for sec in d.find_elements(By.CSS_SELECTOR, "#queue .part"):
                p = sec.get_attribute("data-part")
                got = []
                for tr in sec.find_elements(By.CSS_SELECTOR, "tr.job"):
                    if tr.get_attribute("data-user") != who:
                        ok_rows = False
                    got.append((int(tr.find_element(
                        By.CSS_SELECTOR, ".rank").text),
                        int(tr.get_attribute("data-job"))))
                n += len(got)
                if got != want.get(p, []):
                    ok_rows = False
                    print("# %s: shown %s, wanted %s" % (p, got[:5],
                                                        want.get(p)[:5]))
            check(ok_rows and n == sum(len(v) for v in want.values()),
                  "queue filtered by user %s: only their %d rows, in "
                  "priority order with their ranks" % (who, n))
            # highlighted instead: every row stays, theirs marked
            f.clear()
            d.execute_script("document.getElementById('f-user')"
                             ".dispatchEvent(new Event('input'))")
            d.find_element(By.ID, "f-mark").send_keys(who)
            rows = d.find_elements(By.CSS_SELECTOR, "#queue tr.job")
            mine = d.find_elements(By.CSS_SELECTOR, "#queue tr.job.mine")
            check(len(rows) == sum(len(v) for v in heads.values()) and
                  [int(t.get_attribute("data-job")) for t in mine] ==
                  [j for p in d.execute_script(
                      "return Array.from(document.querySelectorAll("
                      "'#queue .part')).map(function (s) "
                      "{ return s.dataset.part; })")
                   for _, j in want.get(p, [])],
                  "user %s highlighted: %d of the %d rows marked, in "
                  "rank order" % (who, len(mine), len(rows)))
            left = sum(len(parts[p]) - len(heads[p]) for p in parts)
            notes = d.find_elements(By.CSS_SELECTOR, "#queue .left-out")
            said = sum(int(e.text.split()[0]) for e in notes)
            check(said == left, "rows left out said: %d (wanted %d)"
                  % (said, left))
        errs = console_errors(d)
        check(not errs, "no console error after the actions %s" % errs)
    finally:
        d.quit()
    print("%d failed" % failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
