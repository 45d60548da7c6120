#!/bin/sh
# SPDX-License-Identifier: MIT
#
# hal.sh: two of Android 14's HALs written in C with bc-aidl
# (examples/hal: android.hardware.vibrator V2, android.hardware.power V4),
# across processes, in a guest:
#   tests/vm/run-guest --kernel stock -- sh tests/aidl/hal.sh [DEVICE]
# Starts the service manager on DEVICE (default $BINDER_DEVICE, else
# /dev/binderc) with tests/aidl/hal.policy, which declares the two
# "/default" instances; checks that an undeclared VINTF instance is
# refused; then runs each service and its client.  Exits non-zero if
# anything failed.
dev=${1:-${BINDER_DEVICE:-/dev/binderc}}
bin=$(pwd)/build/guest/bin
PATH=$bin:$PATH
export BINDER_DEVICE=$dev
status=0
log=/tmp/aidl-hal.$$
# the output of "$@" must contain every line of $1, and it must exit $2
expect_rc() { want=$1; rc_want=$2; shift 2; printf '$ %s\n' "$*"; out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out"
	printf '%s\n' "$want" | while IFS= read -r w; do
		case "$out" in *"$w"*) ;; *) echo "(expected: $w)"; exit 1 ;; esac
	done || status=1
	[ $rc = "$rc_want" ] || { echo "(exit status $rc, expected $rc_want)"; status=1; }; }
expect() { want=$1; shift; expect_rc "$want" 0 "$@"; }
# the service's log ($1) holds every line of $2; one-way calls arrive
# on their own time, so wait for them (10 s at most)
logged() { file=$1; want=$2; i=0
	until printf '%s\n' "$want" | { ok=0; while IFS= read -r w; do grep -qF -- "$w" "$file" || ok=1; done; exit $ok; }; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "(the service did not log:"; printf '%s\n' "$want"; echo "; its log:)"
			cat "$file"; status=1; return; }
		sleep 0.1
	done; echo "(the service logged what was expected)"; }

echo "== bc-aidl HAL examples on $dev"
i=0
until servicemanager --daemon --device "$dev" --pidfile /tmp/aidl-hal-sm.pid -c "$(pwd)/tests/aidl/hal.policy"; do
	i=$((i + 1)); [ $i -lt 20 ] || { echo "hal: no service manager"; exit 1; }; sleep 0.25
done

# Android's rule: a VINTF-stability binder only under a declared name
expect_rc "vibrator-service: registering 'android.hardware.vibrator.IVibrator/undeclared' refused: Invalid argument" 1 \
	vibrator-service undeclared
expect_rc "power-service: registering 'android.hardware.power.IPower/other' refused: Invalid argument" 1 \
	power-service other

vibrator-service >"$log.vib" 2>&1 & vib=$!
binder wait android.hardware.vibrator.IVibrator/default 10 || status=1
expect "vibrator: found 'android.hardware.vibrator.IVibrator/default' (vintf stability)
vibrator: interface version 2, hash ea8742d6993e1a82917da38b9938e537aa7fcb54
vibrator: capabilities 0x4a7 on-callback compose-pwle
vibrator: 3 effects: 0 1 2
callback: onComplete #1
vibrator: double click takes 70 ms
callback: onComplete #2
callback: onComplete #3
callback: onComplete #4
vibrator: bandwidth map of 4 points, 2 braking kinds
vibrator: getQFactor not implemented" vibrator-client
logged "$log.vib" "vibrator-service: serving 'android.hardware.vibrator.IVibrator/default' (version 2, vintf stability)
vibrator: on for 100 ms at amplitude 0.50
vibrator: effect 1 at strength 2 for 70 ms
vibrator: composition of 2 primitives, 74 ms
vibrator: pwle 0: 120 Hz -> 180 Hz over 40 ms
vibrator: pwle 1: braking 1 for 10 ms
vibrator: off"

power-service >"$log.pow" 2>&1 & pow=$!
binder wait android.hardware.power.IPower/default 10 || status=1
expect "power: found 'android.hardware.power.IPower/default' (vintf stability)
power: interface version 4, hash 141ac3bb33bb4f524de020669f12599c18cdd67f
power: LOW_POWER supported, VR unsupported, INTERACTION boost supported
power: preferred rate 16666666 ns
power: session created (vintf stability)
power: setThreads with no threads refused
power: session used and closed" power-client
logged "$log.pow" "power-service: serving 'android.hardware.power.IPower/default' (version 4, vintf stability)
power: mode 1 on
power: boost 0 for 200 ms
power: session 1 for tgid 4242 uid 1000, 1 threads, target 16666666 ns
power: session 1 now has 2 threads
power: session 1 target 12000000 ns
power: session 1 reported 3 durations, 33000000 ns in all (target 12000000)
power: session 1 hint 0
power: session 1 closed"

kill $vib $pow 2>/dev/null
wait $vib $pow 2>/dev/null
kill "$(cat /tmp/aidl-hal-sm.pid)" 2>/dev/null
rm -f "$log.vib" "$log.pow"
sleep 0.2
echo "hal: status $status"
exit $status
