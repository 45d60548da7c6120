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


def row(name, limit, values):
    known = [v for v in values if v is not None]
    cells = ["-" if v is None else f"{v:.2f}" for v in values]
    if len(known) >= 2 and min(known) > 0:
        s = max(known) / min(known)
        spread = f"{s:.2f}" + (" (wide)" if s > WIDE else "")
    else:
        spread = "-"
    return cells, spread


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
    lines = [f"### Goals over {len(boots)} boots", "", head,
             "|" + "---|" * (len(boots) + 4)]
    for n in names:
        gs = [next((g for g in b if g["goal"] == n), None) for b in boots]
        values = [g["value"] if g else None for g in gs]
        limit = next((g["limit"] for g in gs if g and g["limit"] is not None), None)
        met = sum(1 for g in gs if g and g["met"])
        judged = sum(1 for g in gs if g and g["met"] is not None)
        cells, spread = row(n, limit, values)
        lim = "-" if limit is None else f"{limit:.2f}"
        lines.append(f"| {n} | {lim} | " + " | ".join(cells) + f" | {spread} | {met}/{judged} |")
    md = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(md)
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
