#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs for one kernel release: static busybox, the
# guest init, and the modules that kernel needs before it can mount the
# host's root over 9p (virtio-pci, 9p, overlay are modules on 6.1; 6.12
# has virtio built in). Modules are decompressed here: busybox insmod
# does not read .ko.xz.
#
#   mkinitramfs.sh KERNEL_DIR RELEASE OUTPUT.cpio.gz
set -euo pipefail

kdir=$1 rel=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
moddir=$kdir/lib/modules/$rel
wanted=(virtio_pci 9pnet_virtio 9p overlay)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# path of a module by name, from modules.dep ("" if built in)
mod_path() {
	local name=${1//-/_}
	awk -F: -v n="$name" '{
		f = $1; sub(/.*\//, "", f); sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", f)
		gsub(/-/, "_", f)
		if (f == n) { print $1; exit }
	}' "$moddir/modules.dep"
}

declare -A seen=()
order=()
# depth-first: dependencies before the module itself
visit() {
	local path=$1 dep
	[ -n "${seen[$path]:-}" ] && return
	seen[$path]=1
	for dep in $(awk -F: -v p="$path" '$1 == p { print $2; exit }' \
			"$moddir/modules.dep"); do
		visit "$dep"
	done
	order+=("$path")
}

for m in "${wanted[@]}"; do
	p=$(mod_path "$m")
	[ -n "$p" ] && visit "$p"
done

mkdir -p "$tmp"/{bin,dev,proc,sys,mnt,lib/modules}
cp /bin/busybox "$tmp/bin/busybox"
cp "$here/guest-init" "$tmp/init"
chmod +x "$tmp/init"
: > "$tmp/modules.order"
for p in "${order[@]}"; do
	base=$(basename "$p")
	name=${base%.xz}; name=${name%.zst}; name=${name%.gz}
	case $base in
	*.xz)	xz -dc "$moddir/$p" > "$tmp/lib/modules/$name" ;;
	*.zst)	zstd -qdc "$moddir/$p" > "$tmp/lib/modules/$name" ;;
	*.gz)	gzip -dc "$moddir/$p" > "$tmp/lib/modules/$name" ;;
	*)	cp "$moddir/$p" "$tmp/lib/modules/$name" ;;
	esac
	echo "$name" >> "$tmp/modules.order"
done

(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.$$.tmp"
# (a file of its own: guests of two lanes may build it at once)
mv "$out.$$.tmp" "$out"
