#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen_site.py: a generated site's associations and usage, for `mfprio tree`
and `mfprio fairshare` at a real site's size.

  gen_site.py DIR [--accounts 200] [--users 5000] [--seed 1] [--flat]

Writes DIR/assoc (sacctmgr -P -n show assoc format=Account,User,ParentName,
Fairshare), DIR/usage (sshare -a -P -n -o Account,User,RawUsage) and
DIR/slurm.conf (Fair Tree, ClusterName=bigsite): root, 10 departments, the
other accounts as groups under them (one in ten with a sub-group), users
spread over the groups unevenly (a few large groups, many small), a user in
twenty with FairShare=parent; usage lognormal, a third of the users idle.
With --flat the shape many sites have instead: every account directly
under root (named acct000...), the users dealt out evenly (25 each at the
defaults).  Deterministic for a given seed.  Then: mfprio tree --snapshot DIR.
"""
import argparse
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--accounts", type=int, default=200)
    ap.add_argument("--users", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flat", action="store_true")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    if a.flat:
        flat(a, rnd)
        return
    depts = [f"dept{i:02d}" for i in range(10)]
    accts = []                     # (name, parent, shares)
    for d in depts:
        accts.append((d, "root", rnd.choice([10, 20, 30, 50, 100])))
    groups = []
    n = len(depts)
    while n < a.accounts:
        parent = rnd.choice(depts)
        if groups and rnd.random() < 0.1:
            parent = rnd.choice(groups)
        g = f"grp{n:03d}"
        accts.append((g, parent, rnd.randint(1, 50)))
        groups.append(g)
        n += 1
    weights = [rnd.paretovariate(1.2) for _ in groups]
    users = []                     # (name, account, shares)
    for i in range(a.users):
        g = rnd.choices(groups, weights)[0]
        sh = "parent" if rnd.random() < 0.05 else str(rnd.choice([1, 1, 1, 2, 5]))
        users.append((f"u{i:05d}", g, sh))
    write(a.dir, accts, users, rnd)


def flat(a, rnd):
    """Every account under root, the users dealt out evenly."""
    accts = [(f"acct{i:03d}", "root", rnd.randint(1, 50))
             for i in range(a.accounts)]
    users = []
    for i in range(a.users):
        sh = "parent" if rnd.random() < 0.05 else str(rnd.choice([1, 1, 1, 2, 5]))
        users.append((f"u{i:05d}", accts[i % len(accts)][0], sh))
    write(a.dir, accts, users, rnd)


def write(d, accts, users, rnd):
    """DIR/assoc, DIR/usage (drawn from RND) and DIR/slurm.conf."""
    usage = {}
    for u, g, _ in users:
        usage[(g, u)] = 0 if rnd.random() < 0.33 else \
            int(rnd.lognormvariate(12, 2.0))
    with open(os.path.join(d, "assoc"), "w") as f:
        f.write("root|||1\n")
        for name, parent, sh in accts:
            f.write(f"{name}||{parent}|{sh}\n")
        for u, g, sh in users:
            f.write(f"{g}|{u}||{sh}\n")
    # sshare order is not needed by the reader: account rows, then users;
    # an account's usage is the sum of its users' (mfprio sums it)
    with open(os.path.join(d, "usage"), "w") as f:
        for (g, u), v in usage.items():
            f.write(f"{g}|{u}|{v}\n")
    with open(os.path.join(d, "slurm.conf"), "w") as f:
        f.write("ClusterName=bigsite\nPriorityType=priority/multifactor\n"
                "PriorityWeightFairshare=10000\n")


if __name__ == "__main__":
    main()
