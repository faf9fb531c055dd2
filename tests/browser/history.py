#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""history.py: the History section of `mfprio report --html --history
HDIR` in headless chromium (1400x900), against figures computed here
from the snapshots' own assoc and usage files (first_view.py's site():
Fair Tree's normalized shares and effective usage), never from mfprio's
output.

  history.py MFPRIO SITE_DIR [SCREENSHOT]

SITE_DIR: a site of bench/gen_jobs.py (slurm.conf, assoc.txt, usage.txt,
jobs.txt, qos.txt).  Six snapshots a day apart are made of it here, each
user's usage scaled by a factor that grows with time at a rate of its
account's own (so that the gaps move), the last one also the page's own
snapshot; in the first two, the first account over its share among the
ten largest gaps at the end has no usage, and in the first, the first
one starved has a hundred times its own.  Checked:
  - the section holds 12 charts, for the accounts of largest gap on the
    page's snapshot (|effective usage - shares|, then name), in order;
  - each chart's table: per snapshot time the share, usage and LevelFS,
    and each plotted marker's height read back through the chart's axis
    (data-ymax, data-y0, data-y1), against the computed figures;
  - the list names every other account; a click on one draws its chart,
    its figures checked the same way;
  - the "History" link at the top brings the first chart into view;
  - the summary panel's "for" of its ten accounts: how long before the
    page's time the account's gap has kept the sign it has now, by the
    first snapshot from which it did;
  - without --history the section says where a history comes from, with
    the commands;
  - with --history FILE, a replay --json file written here (15 users, 40
    samples): 12 charts in the file's order, each one's factors before
    and after and its markers against the file, the other 3 listed.
MF_HISTORY_BREAK=1 multiplies one embedded usage by 1.5 before the page
is opened (a check must then fail: how the checks were shown to catch a
wrong value).  Prints "ok - ..." / "not ok - ..."; exits 1 if any failed.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import first_view as fv  # noqa: E402

check = fv.check
DAY = 86400
T0 = 1700000000 - 5 * DAY


def rate(acct):
    """how fast ACCT's users' usage grows from one snapshot to the next"""
    return (sum(map(ord, acct)) % 7) / 3.0


def build(site, hdir, cur):
    """six snapshots of SITE in HDIR (s0..s5, a day apart) and CUR (the
    last one, with the jobs); returns [(name, time, dir)]"""
    snaps = []
    lines = open(os.path.join(site, "usage.txt")).read().splitlines()
    for i in range(6):
        name = "s%d" % i
        d = os.path.join(hdir, name)
        os.makedirs(d)
        for f in ("slurm.conf", "assoc.txt"):
            shutil.copy(os.path.join(site, f), d)
        os.symlink("assoc.txt", os.path.join(d, "assoc"))
        with open(os.path.join(d, "usage.txt"), "w") as out:
            for line in lines:
                a, u, v = line.split("|")
                out.write("%s|%s|%d\n" % (a, u, round(float(v) * (1 + i * rate(a)))))
        os.symlink("usage.txt", os.path.join(d, "usage"))
        with open(os.path.join(d, "time"), "w") as out:
            out.write("%d\n" % (T0 + i * DAY))
        snaps.append((name, T0 + i * DAY, d))
    # so that "since" is not the first snapshot for all: of the ten
    # largest gaps at the end, the first account over its share had no
    # usage in s0 and s1 (starved there), and the first one starved had
    # a hundred times its usage in s0 (over there)
    end = fv.site(snaps[-1][2])
    top = sorted(end, key=lambda a: (-abs(end[a][2] - end[a][1]), a))[:10]
    over = [a for a in top if end[a][2] > end[a][1]][:1]
    under = [a for a in top if end[a][2] <= end[a][1]][:1]
    for i, scale in ((0, {**{a: 0 for a in over}, **{a: 100 for a in under}}),
                     (1, {a: 0 for a in over})):
        f = os.path.join(snaps[i][2], "usage.txt")
        rows = [line.split("|") for line in open(f).read().splitlines()]
        with open(f, "w") as out:
            for a, u, v in rows:
                out.write("%s|%s|%d\n" % (a, u, int(v) * scale.get(a, 1)))
    shutil.copytree(snaps[-1][2], cur, symlinks=True)
    with open(os.path.join(site, "jobs.txt")) as f, \
            open(os.path.join(cur, "jobs"), "w") as out:
        for n, line in enumerate(f):
            if n == 2000:
                break
            out.write(line)
    shutil.copy(os.path.join(site, "qos.txt"), os.path.join(cur, "qos"))
    return snaps


def close(x, y, tol=1e-5):
    return abs(x - y) <= tol * max(1.0, abs(y))


def when(t):
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(t))


def chart_figures(d, fig):
    """a chart's table [(time, share, usage, levelfs)] and its markers'
    values read back from their heights [(index, value)]"""
    rows = d.execute_script("""
      return Array.from(arguments[0].querySelectorAll('table.hist-values tbody tr')).map(function (r) {
        return [+r.dataset.time, r.querySelector('.share').dataset.v, r.querySelector('.usage').dataset.v,
                r.querySelector('.fs').dataset.v, r.cells[0].textContent];
      });""", fig)
    marks = d.execute_script("""
      var s = arguments[0].querySelector('svg'), top = +s.dataset.ymax, y0 = +s.dataset.y0, y1 = +s.dataset.y1;
      return Array.from(s.querySelectorAll('circle.u')).map(function (c) {
        return [+c.dataset.i, top * (y0 - c.getAttribute('cy')) / (y0 - y1), top];
      });""", fig)
    return rows, marks


def compare(d, fig, acct, snaps, want):
    """the figures of chart FIG of ACCT against WANT[i][acct] (parent,
    shares, usage); returns the count of figures compared, 0 on a
    mismatch (printed)"""
    rows, marks = chart_figures(d, fig)
    n = 0
    if [r[0] for r in rows] != [t for _, t, _ in snaps]:
        print("# %s: snapshot times %s" % (acct, [r[0] for r in rows]))
        return 0
    for i, (t, share, usage, lfs, text) in enumerate(rows):
        _, ns, eu = want[i][acct]
        lf = ns / eu if eu else None
        if text != when(t):
            print("# %s: time shown %r, wanted %r" % (acct, text, when(t)))
            return 0
        if not close(float(share), ns) or not close(float(usage), eu) or \
                (lf is None and lfs != "") or (lf is not None and not close(float(lfs), lf)):
            print("# %s at %s: share %s usage %s LevelFS %s; wanted %r %r %r"
                  % (acct, when(t), share, usage, lfs, ns, eu, lf))
            return 0
        n += 3
    if len(marks) != len(rows):
        print("# %s: %d markers for %d snapshots" % (acct, len(marks), len(rows)))
        return 0
    for i, v, top in marks:
        eu = want[i][acct][2]
        # a marker's cy is written to 0.1 px of a 78 px panel
        if abs(v - eu) > top * 0.002:
            print("# %s: marker %d plotted at %r, usage %r" % (acct, i, v, eu))
            return 0
        n += 1
    return n


def page_with(mfprio, page, cur, hdir):
    # run in the directory above HDIR: the page names it "history"
    args = [mfprio, "report", "--html", page, "--snapshot", cur]
    if hdir:
        args += ["--history", os.path.basename(hdir)]
    r = subprocess.run(args, capture_output=True, text=True,
                       cwd=os.path.dirname(cur))
    check(r.returncode == 0, "report %s: exit 0 %s" % ("--history" if hdir else "without --history",
                                                      r.stderr.strip()[:300]))
    if os.environ.get("MF_HISTORY_BREAK") and hdir:
        text = open(page).read()
        m = re.search(r'("effective_usage":\[)([0-9.e-]+)', text)
        text = text[:m.start(2)] + repr(float(m.group(2)) * 1.5) + text[m.end(2):]
        open(page, "w").write(text)
        print("# MF_HISTORY_BREAK: the first account's first usage made 1.5 times itself")


def replay_file(path):
    """a replay --json file written here: 15 users, 40 samples; returns
    its series"""
    series = []
    for u in range(15):
        t = [1767225600 + 600 * k for k in range(40)]
        b = [round(0.5 + 0.45 * math.sin(k / 7 + u), 6) for k in range(40)]
        a = [round(min(1.0, x * (1 + u / 30)), 6) for x in b]
        series.append(dict(account="acct%03d" % (u % 5), user="user%02d" % (20 - u),
                           time=t, fs_before=b, fs_after=a))
    json.dump({"note": "written by history.py", "history": "sacct-2026.txt",
               "from": 1767225600, "to": 1767225600 + 600 * 39,
               "before": {"fairshare": "fair_tree"}, "after": {"fairshare": "fair_tree"},
               "series": series, "final": [], "jobs": [], "users": []}, open(path, "w"))
    return series


def replay_page(d, mfprio, tmp, cur):
    """the page of --history FILE (replay --json): 12 charts in the
    file's order, each chart's table and "before" markers against the
    file, the other 3 users listed; returns the figures compared"""
    f = os.path.join(tmp, "replay.json")
    series = replay_file(f)
    page = os.path.join(tmp, "replay.html")
    r = subprocess.run([mfprio, "report", "--html", page, "--snapshot", cur, "--history", f],
                       capture_output=True, text=True)
    check(r.returncode == 0, "report --history FILE (replay --json): exit 0 %s" % r.stderr.strip()[:300])
    if os.environ.get("MF_HISTORY_BREAK"):
        text = open(page).read()
        m = re.search(r'("fs_after":\[)([0-9.e-]+)', text)
        text = text[:m.start(2)] + repr(float(m.group(2)) * 0.5) + text[m.end(2):]
        open(page, "w").write(text)
        print("# MF_HISTORY_BREAK: the first user's first factor after made half itself")
    d.get("file://" + page)
    check(not fv.console_errors(d), "the replay page loads with no console error")
    figs = d.find_elements(By.CSS_SELECTOR, "#hist-grid figure.hist-chart")
    shown = [(f.get_attribute("data-account"), f.get_attribute("data-user")) for f in figs]
    check(shown == [(s["account"], s["user"]) for s in series[:12]],
          "replay: 12 charts, the file's first 12 series in order")
    n = 0
    for fig, s in zip(figs, series):
        rows = d.execute_script("""
          return Array.from(arguments[0].querySelectorAll('table.hist-values tbody tr')).map(function (r) {
            return [+r.dataset.time, +r.querySelector('.before').dataset.v, +r.querySelector('.after').dataset.v];
          });""", fig)
        marks = d.execute_script("""
          var s = arguments[0].querySelector('svg'), y0 = +s.dataset.y0, y1 = +s.dataset.y1;
          return Array.from(s.querySelectorAll('circle.b')).map(function (c) {
            return [+c.dataset.i, (y0 - c.getAttribute('cy')) / (y0 - y1)];
          });""", fig)
        good = [r[0] for r in rows] == s["time"] and \
            all(close(r[1], s["fs_before"][i]) and close(r[2], s["fs_after"][i]) for i, r in enumerate(rows)) and \
            len(marks) == len(rows) and all(abs(v - s["fs_before"][i]) <= 0.002 for i, v in marks)
        check(good, "replay chart of %s/%s: %d times, factors before and after, markers" %
              (s["account"], s["user"], len(rows)))
        n += 3 * len(rows) if good else 0
    listed = d.execute_script("""return Array.from(document.querySelectorAll('#hist-rest tbody tr')).map(
        function (r) { return r.dataset.user; });""")
    check(listed == [s["user"] for s in series[12:]], "replay: the other 3 users listed")
    return n


def main():
    mfprio, site = sys.argv[1], sys.argv[2]
    shot = sys.argv[3] if len(sys.argv) > 3 else None
    tmp = tempfile.mkdtemp(prefix="mfprio-history.")
    hdir, cur = os.path.join(tmp, "history"), os.path.join(tmp, "now")
    snaps = build(site, hdir, cur)
    want = [fv.site(dd) for _, _, dd in snaps]
    now = want[-1]
    rank = sorted(now, key=lambda a: (-abs(now[a][2] - now[a][1]), a))
    page, bare = os.path.join(tmp, "h.html"), os.path.join(tmp, "bare.html")
    page_with(mfprio, page, cur, hdir)
    page_with(mfprio, bare, cur, None)
    d = fv.browser()
    try:
        d.get("file://" + page)
        errs = fv.console_errors(d)
        check(not errs, "the page with a history loads with no console error %s" % errs)
        sec = d.find_elements(By.ID, "history-section")
        check(len(sec) == 1, "a History section in the DOM")
        figs = d.find_elements(By.CSS_SELECTOR, "#hist-grid figure.hist-chart")
        shown = [f.get_attribute("data-account") for f in figs]
        check(shown == rank[:12], "12 charts, the accounts of largest gap in order: %s" % ",".join(shown))
        n = 0
        for f, a in zip(figs, shown):
            k = compare(d, f, a, snaps, want) if a in now else 0
            check(k > 0, "chart of %s: shares, usage, LevelFS and markers of %d snapshots "
                  "(%d figures)" % (a, len(snaps), k))
            n += k
        listed = d.execute_script("""return Array.from(document.querySelectorAll(
            '#hist-rest tbody tr')).map(function (r) { return r.dataset.account; });""")
        check(listed == rank[12:], "the other %d accounts listed, in rank order" % len(listed))
        # a listed account's chart, on a click
        d.execute_script("document.getElementById('hist-rest').open = true;")
        pick = rank[-1]
        b = d.find_element(By.CSS_SELECTOR, '#hist-rest tr[data-account="%s"] button' % pick)
        d.execute_script("arguments[0].scrollIntoView({block: 'center'});", b)
        b.click()
        got = d.find_elements(By.CSS_SELECTOR, '#hist-picked figure[data-account="%s"]' % pick)
        k = compare(d, got[0], pick, snaps, want) if got else 0
        check(k > 0, "a click on %s (the last listed) draws its chart, its %d figures right" % (pick, k))
        d.execute_script("document.getElementById('hist-rest').open = false; scrollTo(0, 0);")
        d.find_element(By.ID, "to-history").click()
        time.sleep(0.2)
        seen = d.execute_script(fv.SEEN, "#hist-grid figure.hist-chart figcaption b")
        check(seen and seen[0][0] == rank[0],
              "the History link brings the first chart (%s) into view: %d captions seen"
              % (rank[0], len(seen or [])))
        if shot:
            d.save_screenshot(shot)
            print("# screenshot of the History section (1400x900): " + shot)
        # the summary's "for": for each of its ten accounts, how long
        # before the page's time (the last snapshot's) its gap has had
        # the sign it has now, by the first snapshot from which it kept it
        got = d.execute_script("""return Array.from(document.querySelectorAll(
            '#sum-gaps tbody tr')).map(function (r) {
              return [r.dataset.account, r.querySelector('.since').textContent]; });""")
        wsince, last = [], snaps[-1][1]
        for a in rank[:10]:
            g = [w[a][2] - w[a][1] for w in want]
            over, k = g[-1] > 0, len(g)
            while k > 0 and (g[k - 1] > 0) == over:
                k -= 1
            if k == len(g):
                text = "< %.1f d" % ((last - snaps[-1][1]) / DAY)
            else:
                text = ("\u2265 " if k == 0 else "") + "%.1f d" % ((last - snaps[k][1]) / DAY)
            wsince.append([a, text])
        kinds = sorted({t for _, t in wsince})
        check(got == wsince and len(kinds) > 1, "summary: for how long each of the ten "
              "largest gaps has had its sign, from the snapshots' files (%s)%s" % (
                  ", ".join(kinds), "" if got == wsince else
                  " (shown %s, wanted %s)" % (got[:3], wsince[:3])))
        d.get("file://" + bare)
        none = d.find_elements(By.ID, "hist-none")
        text = none[0].text if none else ""
        check("mfprio snapshot /var/lib/mfprio/history/" in text and
              "mfprio report --html FILE --snapshot DIR --history /var/lib/mfprio/history" in text,
              "without --history: where a history comes from, with the commands")
        check(not d.find_elements(By.CSS_SELECTOR, "figure.hist-chart"), "without --history: no chart")
        n += replay_page(d, mfprio, tmp, cur)
        print("# %d figures compared" % n)
    finally:
        d.quit()
    if not fv.rh.failed:
        shutil.rmtree(tmp)
    else:
        print("# pages kept in " + tmp)
    return 1 if fv.rh.failed else 0


if __name__ == "__main__":
    sys.exit(main())
