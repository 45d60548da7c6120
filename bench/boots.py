#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Set the goal rows of several bench boots side by side.

  boots.py [--out FILE] DIR...

Each DIR holds one boot's results.json (report.py's output, e.g.
build/bench/boot-1/stock).  One row per goal: the value in each boot, the
spread (largest / smallest), and in how many boots it was met.  A figure
whose spread is wide did not reproduce: its single-boot value says little.
"""
import argparse
import json
import os
import sys

# Beyond this spread a row is flagged: medians move 5-10 % between quiet
# boots under TCG (bench/README.md), so more than that is the host's load.
WIDE = 1.15


def load(d):
    with open(os.path.join(d, "results.json")) as f:
        goals = json.load(f).get("goals", [])
    # The memory rows carry their figures in the name: keep the name only.
    for g in goals:
        g["goal"] = g["goal"].split(": binderc")[0]
    return goals


def spread(values):
    known = [v for v in values if v is not None]
    if len(known) < 2 or min(known) <= 0:
        return "-"
    s = max(known) / min(known)
    return f"{s:.2f}" + (" (wide)" if s > WIDE else "")


def cell(v, q):
    c = "-" if v is None else f"{v:.2f}"
    return c if q is None else f"{c} / {q:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    boots = []
    for d in a.dirs:
        try:
            boots.append(load(d))
        except (OSError, ValueError) as e:
            print(f"boots: {d}: {e}", file=sys.stderr)
            return 1
    names = []
    for b in boots:
        for g in b:
            if g["goal"] not in names:
                names.append(g["goal"])
    head = "| goal | limit | " + " | ".join(f"boot {i + 1}" for i in range(len(boots))) + " | spread | met |"
    lines = [f"### Goals over {len(boots)} boots", "",
             "Each boot: the value over all samples / the quietest repeats' ratio (report.py); "
             f"spread: largest / smallest over the boots, of each; wide past {WIDE:.2f}.", "", head,
             "|" + "---|" * (len(boots) + 4)]
    for n in names:
        gs = [next((g for g in b if g["goal"] == n), None) for b in boots]
        values = [g["value"] if g else None for g in gs]
        quiet = [g.get("quiet") if g else None for g in gs]
        limit = next((g["limit"] for g in gs if g and g["limit"] is not None), None)
        met = sum(1 for g in gs if g and g["met"])
        judged = sum(1 for g in gs if g and g["met"] is not None)
        lim = "-" if limit is None else f"{limit:.2f}"
        sp = spread(values) + ("" if all(q is None for q in quiet) else " / " + spread(quiet))
        lines.append(f"| {n} | {lim} | " + " | ".join(cell(v, q) for v, q in zip(values, quiet)) +
                     f" | {sp} | {met}/{judged} |")
    md = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(md)
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
