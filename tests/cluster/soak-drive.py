#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""soak-drive.py: replay a soak-gen.py schedule into several clusters at once.

Usage: soak-drive.py --schedule FILE --script JOB-SCRIPT --out DIR
           --nodes "N1 N2 ..." --restart "COMMAND..."
           --cluster NAME=ENVFILE [--cluster NAME=ENVFILE ...]
           [--sample NAME=FILE ...]

Each ENVFILE holds KEY=VALUE lines (SLURM_CONF, PATH, MFPRIO_*; -KEY
removes KEY) put over this process's environment for every command run for that cluster.  Each
event is run for every cluster at the same moment (one thread a cluster),
at its time from the start; an event that comes late (a restart takes tens
of seconds) is run as soon as it can, and how late is logged.
  submit    sbatch (as root, --uid/--gid of the job's user, -D /tmp,
            -o /dev/null); retried for up to 60 s if the controller does
            not answer (a restart); the job id is kept by tag
  suspend   scontrol suspend, once the job runs (waits up to 20 s);
  resume    scontrol resume; requeue: scontrol requeue; cancel: scancel
  down/up   scontrol update nodename=... state=down reason=soak / resume
            (the node of the event, or the nearest one running no
            suspended job in any cluster: see pick_down)
  reconfigure  scontrol reconfigure
  restart   the --restart command (cluster.sh restart-ctld)
Writes DIR/NAME.jobs ("TAG JOBID"), DIR/NAME.actions (one line an event:
planned time, lag, event, outcome) and, for --sample, DIR/NAME.samples:
FILE's "key value" lines read every 15 s, one line a read ("T k=v ...").
"""
import argparse
import grp
import os
import pwd
import subprocess
import sys
import threading
import time


def read_env(path):
    env = dict(os.environ)
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("-"):
                env.pop(line[1:], None)  # -KEY: not in that environment
            elif "=" in line and not line.startswith("#"):
                k, _, v = line.partition("=")
                env[k] = v
    return env


class Cluster:
    def __init__(self, name, envfile, out):
        self.name = name
        self.env = read_env(envfile)
        self.jobs = {}
        self.jobs_f = open(os.path.join(out, name + ".jobs"), "w")
        self.act_f = open(os.path.join(out, name + ".actions"), "w")
        self.lock = threading.Lock()

    def run(self, argv, timeout=60):
        try:
            p = subprocess.run(argv, env=self.env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout,
                               universal_newlines=True)
            return p.returncode, p.stdout.strip()
        except subprocess.TimeoutExpired:
            return 124, "timeout"

    def log(self, planned, lag, what, outcome):
        with self.lock:
            self.act_f.write("%.1f\t%+.1f\t%s\t%s\n" % (
                planned, lag, what, outcome.replace("\n", " | ")[:300]))
            self.act_f.flush()

    def state(self, jid):
        rc, o = self.run(["squeue", "-h", "-j", jid, "-o", "%T"], 20)
        return o.split("\n")[0] if rc == 0 and o else ""


def sbatch_argv(words, sleep, script):
    """sbatch's words: the job's own, with --gid and the common ones."""
    user = next(w[6:] for w in words if w.startswith("--uid="))
    gid = grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name
    acct = words[words.index("-A") + 1]
    tlim = words[words.index("-t") + 1]
    argv = ["sbatch", "--parsable", "-D", "/tmp", "-o", "/dev/null",
            "--gid=" + gid]
    for w in words:
        if w == "@SCRIPT":
            argv += [script, str(sleep)]
        elif w == ":":
            # each component of a heterogeneous job its account and limit
            argv += [":", "-A", acct, "-t", tlim]
        else:
            argv.append(w)
    return argv


def do_event(c, ev, a, t0):
    planned = float(ev[0])
    kind = ev[1]
    lag = time.time() - t0 - planned
    if kind == "submit":
        tag, sleep, words = ev[2], ev[3], ev[4:]
        argv = sbatch_argv(words, sleep, a.script)
        end = time.time() + 60
        while True:
            rc, o = c.run(argv)
            if rc == 0 or time.time() > end:
                break
            time.sleep(3)
        if rc == 0:
            jid = o.split("\n")[-1].split(";")[0]
            c.jobs[tag] = jid
            with c.lock:
                c.jobs_f.write("%s %s\n" % (tag, jid))
                c.jobs_f.flush()
            c.log(planned, lag, "submit " + tag, jid)
        else:
            c.log(planned, lag, "submit " + tag, "FAILED rc %d: %s" % (rc, o))
        return
    if kind in ("suspend", "resume", "requeue", "cancel"):
        tag = ev[2]
        jid = c.jobs.get(tag)
        if not jid:
            c.log(planned, lag, kind + " " + tag, "SKIPPED: no job id")
            return
        st = c.state(jid)
        if kind == "suspend":
            end = time.time() + 20
            while st != "RUNNING" and time.time() < end:
                time.sleep(1)
                st = c.state(jid)
        argv = {"suspend": ["scontrol", "suspend", jid],
                "resume": ["scontrol", "resume", jid],
                "requeue": ["scontrol", "requeue", jid],
                "cancel": ["scancel", jid]}[kind]
        rc, o = c.run(argv)
        c.log(planned, lag, "%s %s (%s, was %s)" % (kind, tag, jid, st or "?"),
              "ok" if rc == 0 else "rc %d: %s" % (rc, o))
        return
    if kind in ("down", "up"):
        node = a.down_node
        if kind == "down":
            argv = ["scontrol", "update", "nodename=" + node, "state=down",
                    "reason=soak"]
        else:
            argv = ["scontrol", "update", "nodename=" + node, "state=resume"]
        _, st = c.run(["sinfo", "-h", "-n", node, "-o", "%T"], 20)
        rc, o = c.run(argv)
        c.log(planned, lag, "%s %s (was %s)" % (kind, node, st or "?"),
              "ok" if rc == 0 else "rc %d: %s" % (rc, o))
        return
    if kind == "reconfigure":
        rc, o = c.run(["scontrol", "reconfigure"])
        c.log(planned, lag, kind, "ok" if rc == 0 else "rc %d: %s" % (rc, o))
        return
    if kind == "restart":
        t = time.time()
        rc, o = c.run(a.restart.split(), 300)
        c.log(planned, lag, kind, ("ok in %.0f s" % (time.time() - t)) if rc == 0
              else "rc %d: %s" % (rc, o[-500:]))
        return
    c.log(planned, lag, kind, "UNKNOWN event")


def pick_down(clusters, nodes, want):
    """The node to set DOWN: node WANT, or the nearest one before it, that
    runs no suspended job in any cluster.  A job killed while suspended
    leaves sacct a run that ends when it was suspended, while both plugins
    charge it to the last pass before the kill (doc/robustness.md, "A production day"):
    a difference of sacct's, not of a plugin's, kept out of the day."""
    busy = set()
    for c in clusters:
        rc, o = c.run(["squeue", "-h", "-t", "S", "-o", "%N"], 20)
        for line in o.split("\n") if rc == 0 else []:
            if line.strip():
                _, hl = c.run(["scontrol", "show", "hostnames", line.strip()], 20)
                busy.update(hl.split())
    for k in list(range(want, -1, -1)) + list(range(want + 1, len(nodes))):
        if nodes[k] not in busy:
            return nodes[k]
    return nodes[want]


def sampler(name, path, out, stop):
    with open(os.path.join(out, name + ".samples"), "w") as f:
        last = None
        while not stop.wait(15):
            try:
                kv = [l.split() for l in open(path) if l.strip() and l[0] != "#"]
            except OSError:
                continue
            line = " ".join("%s=%s" % (k[0], k[1]) for k in kv if len(k) == 2)
            if line != last:
                f.write("%d %s\n" % (time.time(), line))
                f.flush()
                last = line


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--schedule", required=True)
    p.add_argument("--script", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--nodes", required=True)
    p.add_argument("--restart", required=True)
    p.add_argument("--cluster", action="append", required=True)
    p.add_argument("--sample", action="append", default=[])
    a = p.parse_args()
    clusters = [Cluster(*spec.split("=", 1), a.out) for spec in a.cluster]
    events = [l.rstrip("\n").split("\t") for l in open(a.schedule) if l.strip()]
    stop = threading.Event()
    samplers = []
    for spec in a.sample:
        name, path = spec.split("=", 1)
        th = threading.Thread(target=sampler, args=(name, path, a.out, stop),
                              daemon=True)
        th.start()
        samplers.append(th)
    t0 = time.time()
    worst = 0.0
    a.down_node = a.nodes.split()[-1]
    for ev in events:
        wait = t0 + float(ev[0]) - time.time()
        if wait > 0:
            time.sleep(wait)
        worst = max(worst, -wait)
        if ev[1] == "down":
            a.down_node = pick_down(clusters, a.nodes.split(), int(ev[2]))
        ths = [threading.Thread(target=do_event, args=(c, ev, a, t0))
               for c in clusters]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
    stop.set()
    for th in samplers:
        th.join()
    print("soak-drive: %d events into %d clusters in %.0f s, latest event %.0f s late"
          % (len(events), len(clusters), time.time() - t0, worst))


if __name__ == "__main__":
    sys.exit(main())
