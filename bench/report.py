#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn binderc-bench records (BENCH lines in guest logs) into a table,
a JSON file and PNG plots.

  report.py --out DIR LOG...

Writes DIR/results.json, DIR/table.md (also printed), DIR/latency.png and
DIR/scaling.png (gnuplot).  Ratios: latency columns are contender/reference
(lower is better); throughput columns are contender/reference (higher is
better).
"""
import argparse
import json
import os
import subprocess
import sys

PAYLOAD_NAMES = {"0": "0 B", "128": "128 B", "4096": "4 KiB", "65536": "64 KiB", "1040384": "1 MiB - 8 KiB"}
CONTENDERS = ["binderc", "binder", "pipe", "socket", "futex"]
LABEL = {"binderc": "binderc (ours)", "binder": "binder (mainline)", "pipe": "pipe",
         "socket": "unix socketpair", "futex": "futex+shm (floor)"}


def parse_logs(paths):
    """Records of every log.  A log of an -icount boot (run-guest's last
    line says accel=tcg+icount) has its points marked icount: their
    medians are guest instructions, shown in columns of their own."""
    metas, points = [], []
    for path in paths:
        phase = None
        with open(path, errors="replace") as f:
            icount = "accel=tcg+icount" in f.read()
        with open(path, errors="replace") as f:
            for line in f:
                i = line.find("BENCH {")
                if i < 0:
                    continue
                try:
                    rec = json.loads(line[i + 6:])
                except ValueError:
                    print(f"report: {path}: unparsable record skipped", file=sys.stderr)
                    continue
                if rec.get("type") == "meta":
                    phase = rec.get("phase")
                    rec["log"] = os.path.basename(path)
                    rec["icount"] = icount
                    metas.append(rec)
                elif rec.get("type") == "end":
                    if metas:
                        metas[-1]["secs"] = rec.get("secs")
                        metas[-1]["complete"] = True
                elif rec.get("type") == "point":
                    rec["phase"] = phase
                    rec["cpus"] = metas[-1]["cpus"] if metas else None
                    rec["icount"] = icount
                    points.append(rec)
    return metas, points


def find(points, wl, param, cont, icount=False):
    """The point for (workload, param, contender) of a timed boot (icount:
    of an -icount boot); a successful one wins when several logs carry
    it."""
    found = None
    for p in points:
        if p["workload"] == wl and p["param"] == param and p["contender"] == cont and \
                bool(p.get("icount")) == icount:
            if ok(p):
                return p
            found = found or p
    return found


def ok(p):
    return p is not None and p.get("status") == "ok"


def fmt(v, nd=1):
    if v is None:
        return "-"
    if v >= 10000:
        return f"{v:,.0f}"
    return f"{v:.{nd}f}"


def ratio(a, b):
    if a is None or b in (None, 0):
        return None
    return a / b


def fr(r):
    return "-" if r is None else f"{r:.2f}"


def spread(p, key):
    v = p.get(key) or []
    if len(v) < 2:
        return "-"
    return f"{fmt(min(v))}–{fmt(max(v))}"


def status_cell(p):
    if p is None:
        return "not run"
    if p.get("status") == "pending":
        return f"pending ({p.get('error', '')})"
    return f"n/a (error: {p.get('error', '?')})"


def objects_name(par):
    return "1 fd" if par == "fd" else f"{par} binder{'s' if par != '1' else ''}"


def icount_header(points, wl, floor=False):
    """The extra header cells for a round-trip table when an -icount boot
    measured this workload: its medians in guest instructions and their
    ratios."""
    if not any(x.get("icount") and x["workload"] == wl for x in points):
        return "", ""
    cells = ["instructions", "vs mainline (instr.)"] + (["vs futex (instr.)"] if floor else [])
    return " " + " | ".join(cells) + " |", "---|" * len(cells)


def icount_cells(points, wl, par, c, floor):
    """The -icount columns of one row (see icount_header)."""
    p = find(points, wl, par, c, icount=True)
    ref = find(points, wl, par, "binder", icount=True)
    fl = find(points, wl, par, "futex", icount=True)
    if not ok(p) or "median_ns" not in p:
        return " - |" * (3 if floor else 2)
    ins = p["median_ns"]
    rs = [ratio(ins, ref.get("median_ns")) if ok(ref) else None]
    if floor:
        rs.append(ratio(ins, fl.get("median_ns")) if ok(fl) else None)
    return f" {ins:,} | " + " | ".join(fr(r) for r in rs) + " |"


def latency_rows(w, points, wl, params, name, cols, floor=False):
    """The rows of a round-trip table: per parameter and contender, the
    median and the spread of the per-repeat medians, the figures named in
    cols, and the ratio to mainline (and to the futex floor); then, when
    an -icount boot measured the workload, the same in instructions."""
    ic = bool(icount_header(points, wl, floor)[0])
    for par in params:
        ref = find(points, wl, par, "binder")
        fl = find(points, wl, par, "futex") if floor else None
        for c in CONTENDERS:
            p = find(points, wl, par, c)
            head = f"| {name(par)} | {LABEL[c]} | "
            tail = icount_cells(points, wl, par, c, floor) if ic else ""
            if p is None:
                # Measured in the -icount boot only (bench-ab's logs).
                if ic and find(points, wl, par, c, icount=True):
                    w(head + "- | " * (len(cols) + (3 if floor else 2)) + "- |" + tail)
                continue
            if not ok(p):
                w(head + f"{status_cell(p)} |" + " |" * (len(cols) + (3 if floor else 2)) + tail)
                continue
            rs = [ratio(p["median_us"], ref["median_us"]) if ok(ref) else None]
            if floor:
                rs.append(ratio(p["median_us"], fl["median_us"]) if ok(fl) else None)
            w(head + f"{fmt(p['median_us'])} | {spread(p, 'rep_median_us')} | " +
              "".join(f"{fmt(p[k])} | " for k in cols) + " | ".join(fr(r) for r in rs) + " |" + tail)
    w("")


def tables(metas, points):
    out = []
    w = out.append
    for m in metas:
        w(f"- run `{m['log']}`: phase {m['phase']}, {m['cpus']} vCPU, kernel {m['kernel']}, "
          f"{m['iters']} iterations per latency point over {m['repeats']} repeats"
          f"{' (quick)' if m.get('quick') else ''}, {m.get('secs', '?')} s"
          f"{'' if m.get('complete') else ', INCOMPLETE (the guest stopped early)'}")
    w("")
    w("Latency is in µs. \"spread\" is the range of the per-repeat medians. "
      "Ratios are contender / reference on the median (lower is better) for latency, and "
      "contender / reference (higher is better) for throughput.")
    w("")
    # latency
    params = [p for p in PAYLOAD_NAMES if any(x["workload"] == "latency" and x["param"] == p for x in points)]
    if params:
        w("### Round-trip latency (payload in the request, empty reply)")
        w("")
        ih, isep = icount_header(points, "latency", floor=True)
        w("| payload | contender | median | spread | p90 | p99 | max | vs mainline | vs futex |" + ih)
        w("|---|---|---|---|---|---|---|---|---|" + isep)
        latency_rows(w, points, "latency", params, PAYLOAD_NAMES.get,
                     ["p90_us", "p99_us", "max_us"], floor=True)
    # pairs
    pars = sorted({x["param"] for x in points if x["workload"] == "pairs"}, key=int)
    if pars:
        w("### Throughput: N client/server pairs, 0-byte round trips (each client and server a process)")
        w("")
        w("| pairs | contender | round trips/s | spread | avg µs | p99 µs | vs 1 pair | vs mainline | vs futex |")
        w("|---|---|---|---|---|---|---|---|---|")
        for par in pars:
            ref = find(points, "pairs", par, "binder")
            floor = find(points, "pairs", par, "futex")
            for c in CONTENDERS:
                p = find(points, "pairs", par, c)
                if p is None:
                    continue
                if not ok(p):
                    w(f"| {par} | {LABEL[c]} | {status_cell(p)} | | | | | | |")
                    continue
                t = mean(p["rep_tput"])
                one = find(points, "pairs", "1", c)
                sc = ratio(t, mean(one["rep_tput"])) if ok(one) else None
                rm = ratio(t, mean(ref["rep_tput"])) if ok(ref) else None
                rf = ratio(t, mean(floor["rep_tput"])) if ok(floor) else None
                w(f"| {par} | {LABEL[c]} | {fmt(t, 0)} | {spread(p, 'rep_tput')} | {fmt(p.get('lat_avg_us'))} | "
                  f"{fmt(p.get('lat_p99_us'))} | {fr(sc)} | {fr(rm)} | {fr(rf)} |")
        w("")
    # the same pairs in binderThroughputTest's terms (records from before
    # the merged histograms have no lat_min_us: not shown)
    if any(x["workload"] == "pairs" and ok(x) and "lat_min_us" in x for x in points):
        w("### The same pairs in binderThroughputTest's terms (every client's round trips together; ms)")
        w("")
        w("| pairs | contender | iterations/s | average | worst | best | 50% | 90% | 95% | 99% |")
        w("|---|---|---|---|---|---|---|---|---|---|")
        for par in pars:
            for c in CONTENDERS:
                p = find(points, "pairs", par, c)
                if not ok(p) or "lat_min_us" not in p:
                    continue
                ms = [p[k] / 1000 for k in ("lat_avg_us", "lat_max_us", "lat_min_us", "lat_p50_us",
                                            "lat_p90_us", "lat_p95_us", "lat_p99_us")]
                w(f"| {par} | {LABEL[c]} | {fmt(mean(p['rep_tput']), 1)} | " +
                  " | ".join(f"{v:.4f}" for v in ms) + " |")
        w("")
    # oneway
    if any(x["workload"] == "oneway" for x in points):
        w("### Oneway: messages into one server (0-byte payload)")
        w("")
        w("| contender | messages/s | spread | vs mainline |")
        w("|---|---|---|---|")
        ref = find(points, "oneway", "0", "binder")
        for c in CONTENDERS:
            p = find(points, "oneway", "0", c)
            if p is None:
                continue
            if not ok(p):
                w(f"| {LABEL[c]} | {status_cell(p)} | | |")
                continue
            t = mean(p["rep_tput"])
            rm = ratio(t, mean(ref["rep_tput"])) if ok(ref) else None
            w(f"| {LABEL[c]} | {fmt(t, 0)} | {spread(p, 'rep_tput')} | {fr(rm)} |")
        w("")
    # rtprio: the same caller with a plain node and with INHERIT_RT; the
    # tail (p99) is what inheritance is for
    if any(x["workload"] == "rtprio" for x in points):
        w("### A SCHED_FIFO 10 caller under CPU hogs (one busy SCHED_OTHER process per CPU), SCHED_OTHER "
          "server; node plain, or asking for its callers' real-time priority (INHERIT_RT: binderc lends "
          "it, mainline ignores it)")
        w("")
        w("| node | contender | median | spread | p90 | p99 | max | vs mainline |")
        w("|---|---|---|---|---|---|---|---|")
        latency_rows(w, points, "rtprio", ["plain", "inherit"], str, ["p90_us", "p99_us", "max_us"])
    # objects
    if any(x["workload"] == "objects" for x in points):
        w("### Round trips carrying objects (request: N local binder objects, or one fd)")
        w("")
        ih, isep = icount_header(points, "objects")
        w("| objects | contender | median | spread | p99 | max | vs mainline |" + ih)
        w("|---|---|---|---|---|---|---|" + isep)
        latency_rows(w, points, "objects", ["1", "8", "64", "fd"], objects_name, ["p99_us", "max_us"])
    # memory
    if any(x["workload"] == "memory" for x in points):
        w("### Kernel memory per binder process (KiB; 1 MiB mapping; idle, after a burst that filled it, "
          "after memory pressure)")
        w("")
        w("| state | contender | KiB a process | spread | vs mainline |")
        w("|---|---|---|---|---|")
        for par in ["idle", "burst", "pressure"]:
            ref = find(points, "memory", par, "binder")
            for c in ["binderc", "binder"]:
                p = find(points, "memory", par, c)
                if p is None:
                    continue
                if not ok(p):
                    w(f"| {par} | {LABEL[c]} | {status_cell(p)} | | |")
                    continue
                k = mean(p["rep_kib"])
                rm = ratio(k, mean(ref["rep_kib"])) if ok(ref) else None
                w(f"| {par} | {LABEL[c]} | {k:.1f} | {spread(p, 'rep_kib')} | {fr(rm)} |")
        w("")
    # api
    if any(x["workload"] == "api" for x in points):
        w("### Library layers: 0-byte round trip, raw ioctls vs libbinder-c vs libffi proxy")
        w("")
        w("| device | layer | median | spread | p99 | vs raw |")
        w("|---|---|---|---|---|---|")
        for dev in ["binderc", "binder"]:
            raw = find(points, "api", "0", f"{dev}/raw")
            for layer in ["raw", "libbinder-c", "ffi"]:
                p = find(points, "api", "0", f"{dev}/{layer}")
                if p is None:
                    continue
                if not ok(p):
                    w(f"| {LABEL[dev]} | {layer} | {status_cell(p)} | | | |")
                    continue
                rr = ratio(p["median_us"], raw["median_us"]) if ok(raw) else None
                w(f"| {LABEL[dev]} | {layer} | {fmt(p['median_us'])} | {spread(p, 'rep_median_us')} | "
                  f"{fmt(p['p99_us'])} | {fr(rr)} |")
        w("")
    return out


def mean(v):
    return sum(v) / len(v) if v else None


def goals(points):
    """Issue 31's goals: in guest instructions (-icount boot),
    binderc/mainline round trip <= 0.70 (0 B-4 KiB) and <= 0.85 (64 KiB-
    1 MiB), 0 B round trip <= 1.35x the futex floor; in wall time,
    binderc/mainline <= 0.80 (0 B-4 KiB; 64 KiB-1 MiB kept at issue 19's
    0.80), 0 B round trip <= 1.35x the futex floor, throughput >= 1.15x
    mainline at every pair count and oneway >= 1.25x; libbinder-c <= 1.04x
    and the ffi proxy <= 1.15x raw ioctls (issue 19); an RPC binder round
    trip <= 1.5x a raw unix socket's, 0 B-64 KiB (issue 33)."""
    g = []

    def instr_goal(name, a, b, lim):
        r = ratio(a.get("median_ns"), b.get("median_ns")) if ok(a) and ok(b) else None
        g.append({"goal": name, "limit": lim, "value": r, "met": None if r is None else r <= lim})

    for par, lim in [("0", 0.70), ("128", 0.70), ("4096", 0.70), ("65536", 0.85), ("1040384", 0.85)]:
        instr_goal(f"binderc/mainline instructions a round trip, {PAYLOAD_NAMES[par]}",
                   find(points, "latency", par, "binderc", icount=True),
                   find(points, "latency", par, "binder", icount=True), lim)
    instr_goal("binderc 0 B round trip / futex floor, instructions",
               find(points, "latency", "0", "binderc", icount=True),
               find(points, "latency", "0", "futex", icount=True), 1.35)

    def lat_goal(name, a, b, lim):
        both = ok(a) and ok(b)
        r = ratio(a["median_us"], b["median_us"]) if both else None
        q = ratio(min(a["rep_median_us"]), min(b["rep_median_us"])) if both and a.get("rep_median_us") \
            and b.get("rep_median_us") else None
        g.append({"goal": name, "limit": lim, "value": r, "quiet": q, "met": None if r is None else r <= lim})

    for par, lim in [("0", 0.80), ("128", 0.80), ("4096", 0.80), ("65536", 0.80), ("1040384", 0.80)]:
        lat_goal(f"binderc/mainline round-trip median, {PAYLOAD_NAMES[par]}",
                 find(points, "latency", par, "binderc"), find(points, "latency", par, "binder"), lim)
    lat_goal("binderc 0 B round trip / futex floor",
             find(points, "latency", "0", "binderc"), find(points, "latency", "0", "futex"), 1.35)
    for wl, par, lim in [("pairs", x, 1.15) for x in ["1", "2", "4", "8", "16"]] + [("oneway", "0", 1.25)]:
        a, b = find(points, wl, par, "binderc"), find(points, wl, par, "binder")
        r = ratio(mean(a["rep_tput"]), mean(b["rep_tput"])) if ok(a) and ok(b) else None
        q = ratio(max(a["rep_tput"]), max(b["rep_tput"])) if r is not None and a["rep_tput"] and b["rep_tput"] \
            else None
        name = f"{par} pair{'s' if par != '1' else ''}" if wl == "pairs" else "oneway messages/s"
        g.append({"goal": f"binderc/mainline throughput, {name}", "limit": lim, "value": r, "quiet": q,
                  "met": None if r is None else r >= lim})
    for par in ["idle", "pressure"]:
        a, b = find(points, "memory", par, "binderc"), find(points, "memory", par, "binder")
        if ok(a) and ok(b):
            ka, kb = mean(a["rep_kib"]), mean(b["rep_kib"])
            # within 8 KiB a process is measurement noise (idle spreads are +-5)
            g.append({"goal": f"kernel KiB a process, {par}: binderc {ka:.1f} <= mainline {kb:.1f} (+8)",
                      "limit": kb + 8, "value": ka, "met": ka <= kb + 8})
        else:
            g.append({"goal": f"kernel KiB a process, {par}", "limit": None, "value": None, "met": None})
    for layer, lim in [("libbinder-c", 1.04), ("ffi", 1.15)]:
        for dev in ["binderc", "binder"]:
            a, raw = find(points, "api", "0", f"{dev}/{layer}"), find(points, "api", "0", f"{dev}/raw")
            r = ratio(a["median_us"], raw["median_us"]) if ok(a) and ok(raw) else None
            q = ratio(min(a["rep_median_us"]), min(raw["rep_median_us"])) if r is not None and \
                a.get("rep_median_us") and raw.get("rep_median_us") else None
            g.append({"goal": f"{layer}/raw on {dev}", "limit": lim, "value": r, "quiet": q,
                      "met": None if r is None else r <= lim,
                      "note": (a or {}).get("error") if not ok(a) else None})
    # issue 33: an RPC round trip over a unix socketpair within 1.5x the
    # same socket's request/reply ping-pong, measured in the same run
    for par in ["0", "128", "4096", "65536"]:
        lat_goal(f"RPC/raw unix socket round-trip median, {PAYLOAD_NAMES[par]}",
                 find(points, "rpc", par, "rpc"), find(points, "rpc", par, "socket"), 1.5)
    return g


def goal_lines(g):
    out = ["### Goals (not test assertions)", "",
           "\"quietest repeat\": the same ratio between each side's best repeat (lowest "
           "per-repeat median, highest per-repeat throughput), which host load moves least; "
           "\"met\" judges the value over all samples.", "",
           "| goal | limit | value | quietest repeat | met |", "|---|---|---|---|---|"]
    for x in g:
        met = "n/a" if x["met"] is None else ("yes" if x["met"] else "**no**")
        lim = "-" if x["limit"] is None else f"{x['limit']:.2f}"
        val = "-" if x["value"] is None else f"{x['value']:.2f}"
        quiet = "-" if x.get("quiet") is None else f"{x['quiet']:.2f}"
        note = f" ({x['note']})" if x.get("note") else ""
        out.append(f"| {x['goal']} | {lim} | {val}{note} | {quiet} | {met} |")
    out.append("")
    return out


def plot(outdir, points):
    lat = [p for p in points if p["workload"] == "latency" and ok(p) and not p.get("icount")]
    if not lat:
        return []
    made = []
    order = list(PAYLOAD_NAMES)
    dat = os.path.join(outdir, "latency.dat")
    with open(dat, "w") as f:
        for ci, c in enumerate(CONTENDERS):
            f.write(f"# {c}\n")
            for xi, par in enumerate(order):
                p = find(points, "latency", par, c)
                if not ok(p):
                    continue
                reps = p.get("rep_median_us") or [p["median_us"]]
                x = xi + (ci - 2) * 0.06
                f.write(f"{x:.3f} {p['median_us']:.3f} {min(reps):.3f} {max(reps):.3f} "
                        f"{p['p90_us']:.3f} {p['p99_us']:.3f}\n")
            f.write("\n\n")
    png = os.path.join(outdir, "latency.png")
    xt = ", ".join(f'"{PAYLOAD_NAMES[p]}" {i}' for i, p in enumerate(order))
    plots = []
    for ci, c in enumerate(CONTENDERS):
        if any(p["contender"] == c for p in lat):
            plots.append(f"'{dat}' index {ci} using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 title '{LABEL[c]}'")
    script = f"""set terminal pngcairo size 1000,650 font ',11'
set output '{png}'
set title 'Round-trip latency vs payload (median; bars: min-max of per-repeat medians)'
set xlabel 'request payload'
set ylabel 'round trip (us, TCG guest; log scale)'
set logscale y
set grid ytics mytics
set key top left
set xrange [-0.4:{len(order) - 0.6}]
set xtics ({xt})
plot {', '.join(plots)}
"""
    if run_gnuplot(script):
        made.append(png)
    pairs = [p for p in points if p["workload"] == "pairs" and ok(p)]
    if pairs:
        dat2 = os.path.join(outdir, "scaling.dat")
        with open(dat2, "w") as f:
            for c in CONTENDERS:
                f.write(f"# {c}\n")
                for par in ["1", "2", "4", "8"]:
                    p = find(points, "pairs", par, c)
                    if ok(p):
                        f.write(f"{par} {mean(p['rep_tput']):.1f} {min(p['rep_tput']):.1f} "
                                f"{max(p['rep_tput']):.1f}\n")
                f.write("\n\n")
        png2 = os.path.join(outdir, "scaling.png")
        plots = [f"'{dat2}' index {ci} using 1:2:3:4 with yerrorlines lw 2 pt 7 title '{LABEL[c]}'"
                 for ci, c in enumerate(CONTENDERS) if any(p["contender"] == c for p in pairs)]
        script = f"""set terminal pngcairo size 1000,650 font ',11'
set output '{png2}'
set title 'Throughput with N client/server pairs (0-byte round trips; bars: min-max over repeats)'
set xlabel 'client/server pairs'
set ylabel 'round trips per second (TCG guest)'
set logscale x 2
set grid
set key top left
set xrange [0.8:10]
plot {', '.join(plots)}
"""
        if run_gnuplot(script):
            made.append(png2)
    return made


def run_gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True, capture_output=True)
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        err = getattr(e, "stderr", "") or str(e)
        # pngcairo may be missing in gnuplot-nox builds: fall back to png.
        if "pngcairo" in err:
            return run_gnuplot(script.replace("pngcairo", "png"))
        print(f"report: gnuplot failed: {err.strip()}", file=sys.stderr)
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    metas, points = parse_logs(a.logs)
    g = goals(points)
    lines = tables(metas, points) + goal_lines(g)
    md = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(md)
    made = plot(a.out, points)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"runs": metas, "points": points, "goals": g, "plots": [os.path.basename(m) for m in made]},
                  f, indent=1)
    sys.stdout.write(md)
    print(f"report: wrote {a.out}/table.md, {a.out}/results.json" +
          "".join(f", {m}" for m in made), file=sys.stderr)
    return 0 if points else 1


if __name__ == "__main__":
    sys.exit(main())
