#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# user_page.py: the page of `mfprio report --html --user NAME` as a person
# sees it in chromium (1400x900, headless), on a small site built here
# from tests/data/wait (every sprio job given its user and partitions; a
# running job of dave's that must not show):
#   - the cells of the jobs table that are inside the viewport, shown and
#     not covered (first_view.py's SEEN) name exactly the user's pending
#     jobs, each partition with the rank computed here from sprio (1 + the
#     rows of a higher priority, or the same and a lower job id);
#   - under PrivateData=usage with dumps taken by SlurmUser, the banner is
#     the first element of the body and is seen at the top of the view.
#
#   user_page.py MFPRIO TOP_SRCDIR [SCREENSHOT]
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import first_view as fv  # noqa: E402
from first_view import SEEN, browser  # noqa: E402

check = fv.check


def build(wait, d):
    """The site's dumps in D; returns sprio's rows (id, part, user, prio)
    and the jobs' (id, user, state)."""
    for f in ("config", "sprio", "sshare", "time"):
        shutil.copy(os.path.join(wait, f), d)
    rows = []
    with open(os.path.join(wait, "sprio")) as f:
        for line in f:
            c = line.strip().split("|")
            rows.append((int(c[0]), c[1], c[2], float(c[3])))
    tmpl = open(os.path.join(wait, "job.in")).read()
    jobs, parts, users = [], {}, {}
    for j, p, u, _ in rows:
        parts.setdefault(j, []).append(p)
        users[j] = u
    for j in sorted(users):
        jobs.append((j, users[j], "PENDING", ",".join(parts[j])))
    jobs.append((150, "dave", "RUNNING", "batch"))
    with open(os.path.join(d, "jobs"), "w") as f:
        for j, u, st, p in jobs:
            line = tmpl.replace("JobId=123 ", "JobId=%d " % j)
            line = line.replace("UserId=dave(", "UserId=%s(" % u)
            line = line.replace("Partition=batch,long", "Partition=" + p)
            for k, v in (("@PRIO@", "1000"), ("@STATE@", st),
                         ("@REASON@", "Priority"), ("@DEP@", "(null)"),
                         ("@ELIG@", "2023-11-12T22:13:20")):
                line = line.replace(k, v)
            f.write(line)
    return rows, jobs


def expected(rows, jobs, user):
    mine = {j for j, u, st, _ in jobs if u == user and st == "PENDING"}
    want = set()
    for j, p, _, y in rows:
        if j not in mine:
            continue
        same = [(k, z) for k, q, _, z in rows if q == p]
        rank = 1 + sum(1 for k, z in same if z > y or (z == y and k < j))
        want.add((str(j), p, "%d of %d" % (rank, len(same))))
    return want


def page(mfprio, d, user, out):
    subprocess.run([mfprio, "report", "--html", out, "--user", user,
                    "--snapshot", d], check=True)
    return "file://" + out


def main():
    mfprio, top = sys.argv[1], sys.argv[2]
    shot = sys.argv[3] if len(sys.argv) > 3 else None
    t = tempfile.mkdtemp(prefix="mfprio-user-page.")
    d = os.path.join(t, "site")
    os.mkdir(d)
    rows, jobs = build(os.path.join(top, "tests/data/wait"), d)
    drv = browser()
    try:
        for user in ("dave", "alice", "frank"):
            drv.get(page(mfprio, d, user, os.path.join(t, user + ".html")))
            cells = [c[0] for c in drv.execute_script(
                SEEN, "#jobs tbody td")]
            seen = set()
            for i in range(0, len(cells) - 4, 5):
                seen.add((cells[i], cells[i + 1], cells[i + 2]))
            want = expected(rows, jobs, user)
            check(len(cells) % 5 == 0 and seen == want,
                  "%s: the jobs and ranks seen in the first view are %s"
                  % (user, sorted(want)))
            if user == "dave" and shot:
                drv.save_screenshot(shot)
        # the banner: PrivateData=usage, dumps taken by SlurmUser
        conf = os.path.join(d, "config")
        text = open(conf).read()
        text = re.sub(r"(?m)^PrivateData .*$",
                      "PrivateData             = usage", text)
        open(conf, "w").write(text + "SlurmUser               = "
                              "slurm(64030)\n")
        open(os.path.join(d, "why-whoami"), "w").write("slurm 64030\n")
        drv.get(page(mfprio, d, "dave", os.path.join(t, "admin.html")))
        first = drv.execute_script(
            "var e = document.body.firstElementChild;"
            "var r = e.getBoundingClientRect();"
            "return [e.id, e.textContent, r.top, r.bottom, innerHeight];")
        seen = [c[0] for c in drv.execute_script(SEEN, "#admin-banner")]
        check(first[0] == "admin-banner" and first[2] < 100 and
              "shows every user's usage" in first[1] and len(seen) == 1,
              "admin at PrivateData=usage: the banner, first and seen")
    finally:
        drv.quit()
    if not fv.rh.failed:
        shutil.rmtree(t)
    else:
        print("# pages kept in " + t)
    print("%d failed" % fv.rh.failed)
    sys.exit(1 if fv.rh.failed else 0)


if __name__ == "__main__":
    main()
