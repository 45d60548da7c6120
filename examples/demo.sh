#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The guest half of 'make demo': says what is there and shows it working.
echo "== binder-c demo, inside a QEMU guest running $(uname -r)"
echo "Two binder drivers are loaded side by side:"
grep -E '^(binder_linux|binderc) ' /proc/modules | awk '{print "  module " $1 ", " $2 " bytes"}'
for dev in /dev/binder /dev/binderc; do
	[ -e "$dev" ] && echo "  $dev  (char device $(stat -c '%t:%T' "$dev"))"
done
echo "Each answers the BINDER_VERSION handshake with protocol 8:"
for dev in /dev/binder /dev/binderc; do
	BINDER_DEVICE=$dev build/guest/bin/test_version --filter 'version/is_protocol_8' >/dev/null 2>&1 &&
		echo "  $dev: protocol 8, ok" || echo "  $dev: FAILED"
done
