#!/bin/sh
# SPDX-License-Identifier: MIT
#
# profile-guest.sh: runs inside a guest (see bench/profile): samples the
# whole guest with perf (cpu-clock) while binderc-bench runs one point on
# one binder device at a time, and prints the hottest symbols of each.
#   sh bench/profile-guest.sh [PARAMS [ITERS]]     (PARAMS: payload bytes)
params=${1:-0}
iters=${2:-3000}
for dev in binderc binder; do
	perf record -q -a -g -F 1999 -e cpu-clock -o /tmp/$dev.data -- \
		binderc-bench --records --only $dev --workloads latency --params "$params" \
		--iters "$iters" --repeats 1 > /tmp/$dev.out 2>&1
	grep '"median_us"' /tmp/$dev.out | sed 's/^BENCH //'
	echo "PROFILE-START $dev (self time, whole guest)"
	perf report -i /tmp/$dev.data --stdio --no-children --sort dso,sym -g none \
		--percent-limit 0.3 2>/dev/null | grep -v "^#" | grep -v "^$" | head -90
	echo "PROFILE-CALLERS $dev (inclusive, kernel)"
	perf report -i /tmp/$dev.data --stdio --children --sort sym -g none \
		--percent-limit 1 2>/dev/null | grep -v "^#" | grep -v "^$" | head -70
	echo "PROFILE-END $dev"
done
