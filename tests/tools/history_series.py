#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a series of reports for `nicbench history` tests: a real report rewritten once per commit.

usage: history_series.py FIXTURE OUTDIR N [--step-at I] [--step-pct P] [--spike-at I] [--spike-pct P]
                         [--noise-pct S] [--seed N]

Report i (1..N) is FIXTURE with each metric's run values multiplied by one factor per report and
metric, 1 + N(0, S%) (seeded: the same arguments write the same bytes), its "created" one hour after
the one before. Throughput (throughput_bps, its runs' too) is also multiplied by the level: 1 before
the step, 1 - P% from report I on (--step-at, 1-based); --spike-at lowers one report alone.
Medians and the summary fields are recomputed from the values, so the report stays consistent.
"""
import argparse
import datetime
import json
import random
import statistics


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fixture")
    ap.add_argument("outdir")
    ap.add_argument("n", type=int)
    ap.add_argument("--step-at", type=int, default=0)
    ap.add_argument("--step-pct", type=float, default=0)
    ap.add_argument("--spike-at", type=int, default=0)
    ap.add_argument("--spike-pct", type=float, default=0)
    ap.add_argument("--noise-pct", type=float, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.fixture) as f:
        base = json.load(f)
    t0 = datetime.datetime(2026, 12, 1, 0, 0, 0)
    for i in range(1, a.n + 1):
        rep = json.loads(json.dumps(base))
        rep["created"] = (t0 + datetime.timedelta(hours=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        level = 1.0
        if a.step_at and i >= a.step_at:
            level *= 1 - a.step_pct / 100
        if a.spike_at and i == a.spike_at:
            level *= 1 - a.spike_pct / 100
        for res in rep["results"]:
            factors = {}
            for name, m in res.get("metrics", {}).items():
                if not isinstance(m, dict) or not m.get("values"):
                    continue
                k = 1 + rng.gauss(0, a.noise_pct / 100)
                if name == "throughput_bps":
                    k *= level
                factors[name] = k
                m["values"] = [v * k for v in m["values"]]
                vals = m["values"]
                m["median"] = statistics.median(vals)
                m["mean"] = statistics.mean(vals)
                m["min"], m["max"] = min(vals), max(vals)
                m["stddev"] = statistics.stdev(vals) if len(vals) > 1 else 0
            for run in res.get("runs", []):
                for name, k in factors.items():
                    v = run.get("metrics", {}).get(name)
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        run["metrics"][name] = v * k
        with open("%s/r%02d.json" % (a.outdir, i), "w") as f:
            json.dump(rep, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
