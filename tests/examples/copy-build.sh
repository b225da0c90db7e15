#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the template workflow in examples/README.md: install the
# core's development files, copy an example out of the tree, rename it,
# build it against them. Ends with "N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rel=$("$repo"/tools/deps.sh --print | head -1)
kdir=/usr/src/linux-headers-$rel
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() {	# name cmd...
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass=$((pass + 1)); echo "ok - $name"
	else
		fail=$((fail + 1)); echo "not ok - $name"
		printf '%s\n' "$out" | tail -15 | sed 's/^/    /'
	fi
}

install_dev() {
	make -C "$repo" --no-print-directory install-dev KDIR="$kdir" \
		DESTDIR="$tmp/root" &&
	test -f "$tmp/root/usr/src/rawprobe/build/$rel/Module.symvers" &&
	grep -q rawprobe_reserve "$tmp/root/usr/src/rawprobe/build/$rel/Module.symvers"
}

copy_rename_build() {
	cp -r "$repo/examples/kprobe_minimal" "$tmp/my_probe" &&
	cd "$tmp/my_probe" &&
	mv kprobe_minimal.c my_probe.c &&
	sed -i 's/kprobe_minimal/my_probe/g' Makefile my_probe.c &&
	make KDIR="$kdir" RAWPROBE="$tmp/root/usr/src/rawprobe" &&
	modinfo -F depends my_probe.ko | grep -qx rawprobe &&
	modinfo -F vermagic my_probe.ko | grep -q "^$rel "
}

# Without the core, or without its build for this kernel: clear errors.
missing_core_explained() {
	local out
	mkdir -p "$tmp/empty/scripts" "$tmp/again" &&
	cp "$repo"/examples/kprobe_minimal/* "$tmp/again/" &&
	! out=$(make -C "$tmp/again" KDIR="$kdir" RAWPROBE="$tmp/empty" 2>&1) &&
	grep -q "rawprobe core not found in '$tmp/empty'" <<<"$out" &&
	cp "$repo/scripts/probe-module.mk" "$tmp/empty/scripts/" &&
	! out=$(make -C "$tmp/again" KDIR="$kdir" RAWPROBE="$tmp/empty" 2>&1) &&
	grep -q "Module.symvers is missing: build the rawprobe core for $rel" <<<"$out"
}

# A core rebuilt with other CRCs relinks the module (Kbuild alone keeps
# the stale one, which the kernel then refuses); an unchanged core does not.
crc_change_relinks() {
	local symvers=$tmp/root/usr/src/rawprobe/build/$rel/Module.symvers
	local ko=$tmp/my_probe/my_probe.ko crc before
	cd "$tmp/my_probe" &&
	sed -i 's/^0x[0-9a-f]*\(\t__rawprobe_register\t\)/0x12345678\1/' "$symvers" &&
	make KDIR="$kdir" RAWPROBE="$tmp/root/usr/src/rawprobe" >/dev/null &&
	crc=$(modprobe --dump-modversions "$ko" | awk '$2 == "__rawprobe_register" { print $1 }') &&
	[ "$crc" = 0x12345678 ] || { echo "the module kept CRC '$crc'"; return 1; }
	before=$(stat -c %Y.%y "$ko") && sleep 1 &&
	make KDIR="$kdir" RAWPROBE="$tmp/root/usr/src/rawprobe" >/dev/null &&
	[ "$(stat -c %Y.%y "$ko")" = "$before" ] ||
		{ echo "rebuilt with no change"; return 1; }
}

# make examples KDIR=...: that kernel alone (not every installed one).
examples_honour_kdir() {
	local dirs
	dirs=$(make -C "$repo" -n --no-print-directory examples KDIR="$kdir" |
		grep -o -- '-C /usr/src/linux-headers-[^ ]*' | sort -u)
	[ "$dirs" = "-C $kdir" ] || { echo "built for: $dirs"; return 1; }
}

check "install-dev installs headers and Module.symvers" install_dev
check "a copied, renamed example builds against them" copy_rename_build
check "a core with new CRCs relinks the module" crc_change_relinks
check "make examples KDIR=... builds for that kernel alone" examples_honour_kdir
check "building without the core says what is missing" missing_core_explained
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
