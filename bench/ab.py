#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ab.py: the table of bench/bench-ab from its two guest logs.

    ab.py [--kernel K] [--base-name N] [--head-name N] BASE.log HEAD.log

Each log holds binderc-bench's records ("BENCH {json}") of one -icount
boot; a point's median_ns is then guest instructions per round trip.
Prints, per point, binderc at BASE and at HEAD, HEAD/BASE, each against
mainline's figure of its own boot, and the futex floor; then whether
mainline's figures repeated between the two boots (they should, to a few
instructions: if not, something other than the driver moved).
Exit status 1 when a binderc or mainline point is missing from a log.
"""
import argparse
import json
import sys


def records(path):
    pts = {}
    try:
        f = open(path, errors="replace")
    except OSError as e:
        print(f"ab.py: {e}", file=sys.stderr)
        return pts
    with f:
        for line in f:
            if not line.startswith("BENCH {"):
                continue
            r = json.loads(line[6:])
            if r.get("type") == "point" and r.get("status") == "ok" and "median_ns" in r:
                pts[(r["workload"], r["param"], r["contender"])] = r["median_ns"]
    return pts


def label(wl, param):
    if wl == "latency":
        n = int(param)
        return f"{n // 1024} KiB" if n >= 1024 and n % 1024 == 0 else f"{n} B"
    return f"{wl} {param}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", default="stock")
    ap.add_argument("--base-name", default="BASE")
    ap.add_argument("--head-name", default="HEAD")
    ap.add_argument("base")
    ap.add_argument("head")
    a = ap.parse_args()
    b, h = records(a.base), records(a.head)
    points = []
    for (wl, param, cont) in list(b) + list(h):
        if (cont == "binderc" or cont.startswith("binderc/")) and (wl, param, cont) not in points:
            points.append((wl, param, cont))
    print(f"### bench-ab on {a.kernel}: BASE {a.base_name}, HEAD {a.head_name}\n")
    print("Guest instructions per round trip (QEMU -icount, one vCPU; median of the "
          "iterations).  HEAD/BASE < 1 is faster; vs mainline: that boot's binder_linux.\n")
    print("| point | contender | BASE | HEAD | HEAD/BASE | BASE vs mainline | HEAD vs mainline "
          "| futex floor | HEAD vs futex |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    missing = 0
    drift = []

    def r(x, y):
        return f"{x / y:.3f}" if x and y else "n/a"

    for (wl, param, cont) in points:
        bv, hv = b.get((wl, param, cont)), h.get((wl, param, cont))
        ref = "binder" if cont == "binderc" else cont.replace("binderc", "binder", 1)
        bm, hm = b.get((wl, param, ref)), h.get((wl, param, ref))
        fl = h.get((wl, param, "futex"))
        if bv is None or hv is None:
            missing += 1
        if bm and hm:
            drift.append((label(wl, param), ref, bm, hm))
        print(f"| {label(wl, param)} | {cont} | {bv or 'n/a'} | {hv or 'n/a'} | {r(hv, bv)} "
              f"| {r(bv, bm)} | {r(hv, hm)} | {fl or '-'} | {r(hv, fl) if fl else '-'} |")
    # Object round trips walk trees ordered by kernel addresses, which
    # differ from boot to boot: their drift is reported, not judged.
    for kind, rows in (("payload and api points", [d for d in drift if not d[0].startswith("objects")]),
                       ("object points (address-dependent)", [d for d in drift if d[0].startswith("objects")])):
        if not rows:
            continue
        worst = max(rows, key=lambda d: abs(d[3] - d[2]) / d[2])
        pct = 100.0 * abs(worst[3] - worst[2]) / worst[2]
        verdict = ""
        if pct >= 1 and not kind.startswith("object"):
            verdict = ": more than 1 %, something besides the driver moved; rerun"
        print(f"\nMainline between the two boots, {kind}: largest difference {pct:.2f} % "
              f"({worst[0]}, {worst[1]}: {worst[2]} and {worst[3]}){verdict}")
    if missing:
        print(f"\nbench-ab: {missing} point(s) missing from a log", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
