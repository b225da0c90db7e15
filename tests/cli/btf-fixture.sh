#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The BTF of Debian's 6.12 kernel, for the host tests of 'rawprobectl btf'
# and --args auto (RAWPROBECTL_BTF=DIR): vmlinux's BTF taken from the
# vmlinuz that tools/deps.sh keeps in the kernel cache, and ext4's (split
# BTF over it) from its module, in a directory laid out as /sys/kernel/btf.
# Made once, cached in build/btf/<release>/ (not in git); prints its path.
#   tests/cli/btf-fixture.sh [RELEASE]   default: the 6.12 of tools/deps.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${RAWPROBE_CACHE:-/var/cache/rawprobe}
rel=${1:-$("$repo/tools/deps.sh" --print | grep '^6\.12' | grep -v -- '-rt-' | head -1)}
kdir=$CACHE/kernels/$rel
out=$repo/build/btf/$rel
die() { echo "btf-fixture: $*" >&2; exit 1; }

[ -f "$kdir/vmlinuz" ] || die "no $kdir/vmlinuz: run tools/deps.sh"
if [ -s "$out/vmlinux" ] && [ -s "$out/ext4" ] && [ "$out/vmlinux" -nt "$kdir/vmlinuz" ]; then
	echo "$out"
	exit 0
fi
tmp=$(mktemp -d /tmp/rp-btf.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The bzImage's payload, as scripts/extract-vmlinux finds it: the first
# offset of a compression magic that decompresses to an ELF file.
try_unpack() {	# MAGIC DECOMPRESSOR...
	local magic=$1 off
	shift
	for off in $(LC_ALL=C grep -abo "$magic" "$kdir/vmlinuz" | cut -d: -f1); do
		tail -c +$((off + 1)) "$kdir/vmlinuz" | "$@" >"$tmp/vmlinux" 2>/dev/null || true
		[ "$(head -c 4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] && return 0
	done
	return 1
}
try_unpack $'\x28\xb5\x2f\xfd' zstd -dcq ||
	try_unpack $'\xfd\x37\x7a\x58\x5a\x00' xz -dcq ||
	try_unpack $'\x1f\x8b\x08' gzip -dcq ||
	die "no compressed ELF payload found in $kdir/vmlinuz (zstd, xz, gzip)"

# A raw .BTF section, as /sys/kernel/btf has it (magic 0xeb9f, LE).
btf_of() {	# ELF OUT
	# (--dump-section: a module's .BTF is not loaded, -O binary skips it)
	objcopy --dump-section .BTF="$2.new" "$1" "$tmp/discard" ||
		die "objcopy: no .BTF in $1"
	[ "$(head -c 2 "$2.new" | od -An -tx1 | tr -d ' \n')" = 9feb ] ||
		die "$1: its .BTF section is not BTF"
	mv "$2.new" "$2"
}
mkdir -p "$out"
btf_of "$tmp/vmlinux" "$out/vmlinux"
ko=$(find "$kdir/lib/modules/$rel" -name 'ext4.ko*' | head -1)
[ -n "$ko" ] || die "no ext4 module under $kdir/lib/modules/$rel"
case $ko in
*.xz)	xz -dc "$ko" >"$tmp/ext4.ko" ;;
*.zst)	zstd -dcq "$ko" >"$tmp/ext4.ko" ;;
*)	cp "$ko" "$tmp/ext4.ko" ;;
esac
btf_of "$tmp/ext4.ko" "$out/ext4"
touch "$out/vmlinux"
echo "$out"
