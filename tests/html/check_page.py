#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a page nicbench rendered, as Chromium saw it: the DOM after scripts ran, its console and its net log.

usage: check_page.py --report R.json --dom DOM.html --log CHROMIUM.stderr --netlog NET.json
                     [--base B.json] [--png SHOT.png] [--expect-console-error] [--expect-request]
Exit 0 when every check holds; prints one line per failed check otherwise.
"""
import argparse
import json
import os
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png_tool  # noqa: E402


def bps(v):
    """nicbench's own bit rate format (src/render/view.c nb_rv_bps)."""
    if v >= 1e9:
        return "%.2f Gbit/s" % (v / 1e9)
    if v >= 1e6:
        return "%.1f Mbit/s" % (v / 1e6)
    if v >= 1e3:
        return "%.1f kbit/s" % (v / 1e3)
    return "%.0f bit/s" % v


class Page(HTMLParser):
    """Text of the page, and per chart (svg data-chart) the count of each class of shape."""

    def __init__(self):
        super().__init__()
        self.text = []
        self.charts = []  # dicts: kind, test, point, counts {tag.class: n}
        self.svg = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag != "wbr":  # <wbr> only allows a line break inside a word: it does not separate text
            self.text.append(" ")
        if tag == "svg" and "data-chart" in a:
            self.svg = {"kind": a["data-chart"], "test": a.get("data-test"), "point": a.get("data-point"),
                        "counts": {}}
            self.charts.append(self.svg)
        elif self.svg is not None:
            for cls in (a.get("class") or "").split() or [""]:
                key = f"{tag}.{cls}" if cls else tag
                self.svg["counts"][key] = self.svg["counts"].get(key, 0) + 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None

    def handle_data(self, data):
        self.text.append(data)


def metric(point, name):
    m = point.get("metrics", {}).get(name)
    return m if m and m.get("n", 0) > 0 else None


def setting(point):
    return point["id"].split("/", 1)[1] if "/" in point["id"] and point["id"].split("/", 1)[1] else "default"


def test_name(point):
    return (point.get("test") or {}).get("name") or point["id"]


def expected_cpu_rows(report):
    cpus = report.get("host", {}).get("cpus") or 0
    rows = 0
    for p in report["results"]:
        if p["status"] != "ok" or not metric(p, "cpu_busy_pct"):
            continue
        rows += 1 + bool(metric(p, "napi_thread_pct") or metric(p, "traffic_proc_pct"))
        rows += sum(1 for c in range(max(cpus, 1) if cpus else 256) if metric(p, f"cpu{c}_busy_pct"))
    return rows


def check(args):
    fails = []
    page = Page()
    page.feed(open(args.dom, encoding="utf-8").read())
    text = "".join(page.text)

    # console: the page logs nothing, so any console line is an error or an uncaught exception
    console = [line for line in open(args.log, errors="replace") if "CONSOLE" in line]
    if args.expect_console_error:
        if not console:
            fails.append("self-check: a page with a script error produced no console line")
    elif console:
        fails.append("console output: " + console[0].strip())

    # network: the page's own requests are the URL requests whose isolation key is the file:// page; the
    # browser's background ones (update checks) carry another key. A request the page's CSP refused shows
    # as a console line above.
    net = json.load(open(args.netlog))
    start_job = net["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = set()
    for ev in net.get("events", []):
        params = ev.get("params") or {}
        if ev.get("type") == start_job and "file://" in params.get("network_isolation_key", "") and params.get("url"):
            urls.add(params["url"])
    remote = sorted(u for u in urls if not u.startswith(("file:", "data:")))
    if args.expect_request:
        if not remote:
            fails.append("self-check: a page with a remote image asked for nothing in the net log")
    elif remote:
        fails.append("network requests: " + ", ".join(remote[:3]))
    if args.expect_console_error or args.expect_request:
        return fails
    report = json.load(open(args.report))

    # every point id, and the median throughput of every ok point
    for p in report["results"]:
        if p["id"] not in text:
            fails.append(f"point id {p['id']} not in the page text")
        t = metric(p, "throughput_bps")
        if p["status"] == "ok" and t and bps(t["median"]) not in text:
            fails.append(f"{p['id']}: median throughput {bps(t['median'])} not in the page text")
        if "bottleneck" in p and p["bottleneck"]["sentence"] not in text:
            fails.append(f"{p['id']}: the report's bottleneck sentence is not in the page")

    charts = page.charts
    by_kind = {}
    for c in charts:
        by_kind.setdefault(c["kind"], []).append(c)

    # throughput: per test one chart, a bar per ok point, a dot per run
    tests = []
    for p in report["results"]:
        if test_name(p) not in tests:
            tests.append(test_name(p))
    for t in tests:
        pts = [p for p in report["results"] if test_name(p) == t and p["status"] == "ok" and metric(p, "throughput_bps")]
        got = [c for c in by_kind.get("throughput", []) if c["test"] == t]
        if not pts:
            continue
        if len(got) != 1:
            fails.append(f"throughput chart of {t}: {len(got)} charts")
            continue
        bars = got[0]["counts"].get("rect.bar", 0)
        dots = got[0]["counts"].get("circle.run", 0)
        runs = sum(len(metric(p, "throughput_bps")["values"]) for p in pts)
        if bars != len(pts):
            fails.append(f"throughput chart of {t}: {bars} bars, want {len(pts)}")
        if dots != runs:
            fails.append(f"throughput chart of {t}: {dots} run dots, want {runs}")

    rows = expected_cpu_rows(report)
    cpu = by_kind.get("cpu", [])
    if rows and (len(cpu) != 1 or cpu[0]["counts"].get("g.row", 0) != rows):
        fails.append(f"cpu chart: {[c['counts'].get('g.row', 0) for c in cpu]} rows, want {rows}")

    settings = []
    for p in report["results"]:
        if setting(p) not in settings:
            settings.append(setting(p))
    heat = by_kind.get("heatmap", [])
    if len(settings) >= 2 and settings[0].count("=") >= 2:
        cells = len(settings) * len(tests)
        if len(heat) != 1 or heat[0]["counts"].get("rect.cell", 0) != cells:
            fails.append(f"heatmap: {[c['counts'].get('rect.cell', 0) for c in heat]} cells, want {cells}")
    elif heat:
        fails.append("heatmap drawn for a sweep with fewer than two knobs")

    # series: two charts per point whose first ok run has samples, each a line per column it holds
    with_series = []
    for p in report["results"]:
        for r in p.get("runs", []):
            if r.get("status") == "ok" and len((r.get("samples") or {}).get("t", [])) >= 2:
                with_series.append((p, r))
                break
    series = by_kind.get("series", [])
    if not args.base and len(series) != 2 * len(with_series):
        fails.append(f"series: {len(series)} charts, want {2 * len(with_series)}")
    for p, r in with_series if not args.base else []:
        mine = [c for c in series if c["point"] == p["id"]]
        cols = [k for k in ("cpu_busy_pct", "softirq_pct", "irq_pct", "napi_thread_pct", "rx_packets_per_s",
                            "tx_packets_per_s")
                if sum(v is not None for v in r["samples"].get(k, [])) >= 2]
        lines = sum(c["counts"].get("polyline.line", 0) for c in mine)
        if lines != len(cols):
            fails.append(f"series of {p['id']}: {lines} lines, want {len(cols)}")

    if args.base:
        base = json.load(open(args.base))
        bpts = {p["id"]: p for p in base["results"]}
        want = 0
        for p in report["results"]:
            b = bpts.get(p["id"])
            if not b or b["status"] != "ok" or p["status"] != "ok":
                continue
            for m in ("throughput_bps", "cpu_busy_pct"):
                if m == "cpu_busy_pct" and not test_name(p).endswith("-rx"):
                    continue
                if metric(p, m) and metric(b, m):
                    want += 1
        cmp_charts = by_kind.get("compare", [])
        got = cmp_charts[0]["counts"].get("g.row", 0) if len(cmp_charts) == 1 else -1
        if got != want:
            fails.append(f"compare chart: {got} rows, want {want} (gated metrics with a change)")
        if "Bottleneck moved" not in text:
            fails.append("compare view without its 'Bottleneck moved' part")

    if args.png:
        ink, colours = png_tool.ink_stats(args.png)
        if ink < 0.02 or colours < 8:
            fails.append(f"screenshot {args.png} looks blank: {ink:.1%} ink, {colours} colours")
    return fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--report")
    ap.add_argument("--base")
    ap.add_argument("--dom", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--netlog", required=True)
    ap.add_argument("--png")
    ap.add_argument("--expect-console-error", action="store_true")
    ap.add_argument("--expect-request", action="store_true")
    args = ap.parse_args()
    fails = check(args)
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
