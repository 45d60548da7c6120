#!/bin/sh
# SPDX-License-Identifier: MIT
#
# aidl-tree.sh: run bc-aidl over a tree of .aidl files laid out as
# Android's hardware/interfaces (every directory named "aidl" that holds an
# "android" directory is a package root), the way issue 32 measures it:
#   sh tests/aidl/aidl-tree.sh TREE [OUTDIR]
# Each file is compiled with every package root on -I (Android builds a
# HAL with its imports' roots), then each generated .c with
# $CC -std=c11 -Wall -Wextra -Werror.  Prints, per package root, the files
# tried and compiled and the failures by class:
#   ext   a type of android.media.* (frameworks, not this tree);
#   miss  another unknown type or import (a file the tree lacks, or of
#         another version);
#   ours  anything else: a construct bc-aidl refuses;
# then the C compilations that failed for another reason than a header of
# a file refused above.  Logs in OUTDIR (default /tmp/aidl-tree).
# Environment: BC_AIDL (default build/bin/bc-aidl), CC (default cc).
tree=${1:?usage: aidl-tree.sh TREE [OUTDIR]}
out=${2:-/tmp/aidl-tree}
top=$(cd "$(dirname "$0")/../.." && pwd)
bc=${BC_AIDL:-$top/build/bin/bc-aidl}
cc=${CC:-cc}
tree=$(cd "$tree" && pwd)

rm -rf "$out"
mkdir -p "$out/gen"
incs=$(find "$tree" -type d -name aidl -prune | sort | while read -r d; do
	[ -d "$d/android" ] && printf ' -I %s' "$d"
done)
: >"$out/aidl.log"
: >"$out/cc.log"
find "$tree" -name '*.aidl' | sort | while read -r f; do
	rel=${f#"$tree"/}
	# shellcheck disable=SC2086 # $incs is a list of options
	if msg=$("$bc" $incs -o "$out/gen" "$f" 2>&1); then
		printf 'OK %s\n' "$rel" >>"$out/aidl.log"
	else
		printf 'FAIL %s :: %s\n' "$rel" "$(printf '%s\n' "$msg" | head -n 1)" >>"$out/aidl.log"
	fi
done
for c in "$out"/gen/*.c; do
	[ -e "$c" ] || continue
	if ! msg=$("$cc" -std=c11 -Wall -Wextra -Werror -I"$top/include" -I"$out/gen" -c "$c" -o /dev/null 2>&1); then
		printf 'CCFAIL %s :: %s\n' "$(basename "$c")" "$(printf '%s\n' "$msg" | grep -m 1 error)" >>"$out/cc.log"
	fi
done

printf '%-36s %6s %6s %5s %5s %5s\n' root tried ok ext miss ours
sed 's/^[A-Z]* //; s| ::.*||; s|/android/.*||' "$out/aidl.log" | sort -u | while read -r r; do
	t=$(grep -c " $r/android/" "$out/aidl.log")
	ok=$(grep -c "^OK $r/android/" "$out/aidl.log")
	ext=$(grep "^FAIL $r/android/" "$out/aidl.log" | grep -c 'android\.media\.')
	miss=$(grep "^FAIL $r/android/" "$out/aidl.log" | grep -v 'android\.media\.' |
		grep -c "unknown type\|couldn't find import\|unknown constant")
	printf '%-36s %6d %6d %5d %5d %5d\n' "$r" "$t" "$ok" "$ext" "$miss" $((t - ok - ext - miss))
done
printf 'total: %d tried, %d compiled\n' "$(wc -l <"$out/aidl.log")" "$(grep -c '^OK' "$out/aidl.log")"
printf 'generated C: %d files, %d failed (%d of them for a header of a refused file)\n' \
	"$(find "$out/gen" -name '*.c' | wc -l)" "$(wc -l <"$out/cc.log")" \
	"$(grep -c 'No such file' "$out/cc.log")"
grep '^FAIL' "$out/aidl.log" | grep -v "unknown type\|couldn't find import\|unknown constant" || true
grep -v 'No such file' "$out/cc.log" || true
