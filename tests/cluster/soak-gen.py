#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""soak-gen.py: a seeded stream of jobs and events shaped like a site's day,
for test-soak.sh (which replays it into two clusters with soak-drive.py).

Usage: soak-gen.py --seed N --minutes M --nodes K --cpus C --gpus G [--load R]

Prints one event a line, tab separated, sorted by time:
    T  submit   TAG  SLEEP  SBATCH-ARG...   a job (TAG: its --job-name)
    T  suspend  TAG                         scontrol suspend / resume /
    T  resume   TAG                         requeue the job, scancel it
    T  requeue  TAG
    T  cancel   TAG
    T  down     NODE-INDEX                  a node set DOWN (reason soak),
    T  up       NODE-INDEX                  and resumed
    T  reconfigure                          scontrol reconfigure
    T  restart                              slurmctld restarted
T is seconds from the start.  SBATCH-ARG words carry no tab; "@SCRIPT"
stands for the job script (its one argument is SLEEP), ":" separates the
components of a heterogeneous job.  A summary of what was drawn goes to
standard error.

The shape (decided here, see test-soak.sh's header): most submissions are
single 1-CPU jobs and arrays of short 1-CPU tasks (seconds to a few
minutes, log-normal), some 2-8 CPU jobs, a few whole-node and two-node
jobs, GPU jobs (1-4 of a node's GPUs), heterogeneous jobs (a 1-CPU
component and a GPU component), jobs naming two partitions, scavenger
jobs (preempted with cancel) and, in bursts, urgent jobs (a higher
PriorityTier: they preempt batch jobs, which are requeued, and scavenger
jobs, which are cancelled).  Submissions arrive as a Poisson stream whose
rate gives the cluster about LOAD of its CPU-seconds.  No job is meant to
run past the end of the stream: a sleep is cut to what is left, so the
queue drains soon after.  Jobs to the partition "parked" (State=DOWN)
never start: they stay pending for sprio at the end; they are submitted in
the first quarter so that their age has saturated by the end
(PriorityMaxAge is a third of the run).
"""
import argparse
import math
import random
import sys

USERS = [  # (user, account, weight of its submissions)
    ("u1", "b", 30), ("u2", "c", 15), ("u3", "c", 10), ("u4", "e", 20),
    ("u5", "f", 12), ("u6", "b", 8), ("u7", "z", 5)]


def lognorm(r, median, sigma, lo, hi):
    return int(min(hi, max(lo, round(median * math.exp(r.gauss(0, sigma))))))


class Gen:
    def __init__(self, a):
        self.a = a
        self.r = random.Random(a.seed)
        self.end = a.minutes * 60
        self.events = []
        self.n = 0
        self.stats = {"submissions": 0, "job_records": 0, "cpu_secs": 0,
                      "arrays": 0, "het": 0, "multi_part": 0, "gpu": 0,
                      "whole_node": 0, "two_node": 0, "scav": 0,
                      "urgent": 0, "parked": 0, "mem": 0}

    def tag(self):
        self.n += 1
        return "s%05d" % self.n

    def user(self):
        tot = sum(w for _, _, w in USERS)
        x = self.r.uniform(0, tot)
        for u, acct, w in USERS:
            x -= w
            if x <= 0:
                return u, acct
        return USERS[-1][:2]

    def tlimit(self, secs):
        return "%d" % (secs // 60 + 2)

    def add(self, t, *fields):
        self.events.append((round(t, 1),) + tuple(str(f) for f in fields))

    def submit(self, t, secs, words, records, cpus):
        """A job of SECS seconds (cut to the stream's end) at T."""
        secs = int(min(secs, self.end - 15 - t))
        if secs < 2:
            return None
        tg = self.tag()
        u, acct = self.user()
        head = ["--job-name=" + tg, "--uid=" + u, "-A", acct,
                "-t", self.tlimit(secs)]
        self.add(t, "submit", tg, secs, *(head + words + ["@SCRIPT"]))
        self.stats["submissions"] += 1
        self.stats["job_records"] += records
        self.stats["cpu_secs"] += cpus * secs
        return tg, secs

    def mem(self, cpus):
        if self.r.random() < 0.2:
            self.stats["mem"] += 1
            return ["--mem=%dG" % self.r.randint(1, 2 * cpus + 2)]
        return []

    def draw(self, t):
        """One submission at T, of the site's shape."""
        r, a = self.r, self.a
        x = r.random()
        part = "batch"
        if r.random() < 0.15:
            part = "short"
        if x < 0.40:  # an array of short 1-CPU tasks
            n = r.randint(4, 32)
            secs = lognorm(r, 15, 0.7, 3, 120)
            self.stats["arrays"] += 1
            return self.submit(t, secs, ["-p", part, "-n", "1",
                                         "--array=0-%d" % (n - 1)],
                               n, n)
        if x < 0.70:  # a single 1-CPU job
            secs = lognorm(r, 30, 1.0, 2, 900)
            if r.random() < 0.12:
                part = "scav"
                self.stats["scav"] += 1
            elif r.random() < 0.12:
                part = "batch,short" if part == "batch" else "short,scav"
                self.stats["multi_part"] += 1
            return self.submit(t, secs, ["-p", part, "-n", "1"] +
                               self.mem(1), 1, 1)
        if x < 0.84:  # 2-8 CPUs on one node
            c = r.randint(2, 8)
            secs = lognorm(r, 60, 0.9, 5, 900)
            if r.random() < 0.1:
                part = "scav"
                self.stats["scav"] += 1
            elif r.random() < 0.1:
                part = "scav,batch"
                self.stats["multi_part"] += 1
            return self.submit(t, secs, ["-p", part, "-N", "1", "-n", str(c)] +
                               self.mem(c), 1, c)
        if x < 0.89:  # GPU jobs
            g = r.randint(1, a.gpus)
            c = r.randint(1, 8)
            secs = lognorm(r, 90, 0.8, 10, 900)
            self.stats["gpu"] += 1
            return self.submit(t, secs, ["-p", "batch", "-N", "1", "-n", str(c),
                                         "--gres=gpu:%d" % g], 1, c)
        if x < 0.93:  # heterogeneous: 1 CPU : a GPU component
            c = r.randint(2, 8)
            secs = lognorm(r, 60, 0.8, 10, 600)
            self.stats["het"] += 1
            return self.submit(t, secs, ["-p", "batch", "-n", "1", ":",
                                         "-p", "batch", "-N", "1", "-n", str(c),
                                         "--gres=gpu:1"], 2, 1 + c)
        if x < 0.97:  # a whole node
            secs = lognorm(r, 120, 0.7, 20, 900)
            self.stats["whole_node"] += 1
            return self.submit(t, secs, ["-p", part, "-N", "1", "-n", str(a.cpus)],
                               1, a.cpus)
        # two nodes
        secs = lognorm(r, 90, 0.6, 20, 600)
        self.stats["two_node"] += 1
        return self.submit(t, secs, ["-p", "batch", "-N", "2", "-n", str(2 * a.cpus)],
                           1, 2 * a.cpus)

    def mean_cpu_secs(self):
        """The CPU-seconds of a submission, on average (a side stream of
        the same seed, so that the main one is not shifted)."""
        saved, self.r = self.r, random.Random(self.a.seed + 7919)
        ev, st, n = self.events, dict(self.stats), self.n
        self.events = []
        self.end = 10 ** 9
        for _ in range(4000):
            self.draw(0)
        m = self.stats["cpu_secs"] / max(1, self.stats["submissions"])
        self.r, self.events, self.stats, self.n = saved, ev, st, n
        self.end = self.a.minutes * 60
        return m

    def stream(self):
        a, r = self.a, self.r
        cap = a.nodes * a.cpus
        rate = a.load * cap / self.mean_cpu_secs()  # submissions a second
        t = 1.0
        stop = self.end - 30
        while True:
            t += r.expovariate(rate)
            if t >= stop:
                break
            self.draw(t)
        # pending for good: the parked partition (State=DOWN)
        for i in range(12):
            t = r.uniform(5, self.end / 4)
            c = r.choice([1, 1, 2, 4, 8])
            tg = self.tag()
            u, acct = self.user()
            self.add(t, "submit", tg, 60, "--job-name=" + tg, "--uid=" + u,
                     "-A", acct, "-t", "5", "-p", "parked", "-n", str(c),
                     "@SCRIPT")
            self.stats["parked"] += 1
        # urgent bursts: whole-node jobs of a higher PriorityTier (they
        # preempt batch jobs, requeued, and scavenger jobs, cancelled)
        for f in (0.2, 0.45, 0.65, 0.85):
            t0 = f * self.end
            for k in range(2):
                self.submit(t0 + 2 * k, lognorm(r, 60, 0.3, 30, 120),
                            ["-p", "urgent", "-N", "1", "-n", str(a.cpus)],
                            1, a.cpus)
                self.stats["urgent"] += 1

    def target(self, t, secs):
        """A job for an action at T + 20: urgent, so that it runs by then
        in both clusters."""
        return self.submit(t, secs, ["-p", "urgent", "-n", "2"], 1, 2)

    def actions(self):
        e = self.end
        # suspended and resumed (one suspended twice)
        for f, held in ((0.12, 90), (0.5, 60), (0.72, 45)):
            t = f * e
            tg = self.target(t, 200 + held)
            if tg:
                self.add(t + 20, "suspend", tg[0])
                self.add(t + 20 + held, "resume", tg[0])
        tg = self.target(0.3 * e, 300)
        if tg:
            for k in range(2):
                self.add(0.3 * e + 20 + 70 * k, "suspend", tg[0])
                self.add(0.3 * e + 50 + 70 * k, "resume", tg[0])
        # requeued by hand, cancelled while running
        for f in (0.22, 0.55, 0.78):
            tg = self.target(f * e, 240)
            if tg:
                self.add(f * e + 25, "requeue", tg[0])
        for f in (0.25, 0.6, 0.8):
            tg = self.target(f * e, 240)
            if tg:
                self.add(f * e + 25, "cancel", tg[0])
        # a node DOWN under its running jobs (they are requeued), and back
        self.add(0.4 * e, "down", self.a.nodes - 1)
        self.add(0.4 * e + min(120, 0.05 * e), "up", self.a.nodes - 1)
        self.add(0.35 * e, "reconfigure")
        self.add(0.82 * e, "reconfigure")
        self.add(0.62 * e, "restart")

    def run(self):
        self.stream()
        self.actions()
        self.events.sort(key=lambda ev: ev[0])
        for ev in self.events:
            print("\t".join(str(x) for x in ev))
        s = self.stats
        print("soak-gen: seed %d, %d min, %d nodes x %d CPUs: %s" % (
            self.a.seed, self.a.minutes, self.a.nodes, self.a.cpus,
            ", ".join("%s %d" % kv for kv in s.items())), file=sys.stderr)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--minutes", type=float, default=30)
    p.add_argument("--nodes", type=int, default=4)
    p.add_argument("--cpus", type=int, default=32)
    p.add_argument("--gpus", type=int, default=4)
    p.add_argument("--load", type=float, default=0.8)
    Gen(p.parse_args()).run()


if __name__ == "__main__":
    main()
