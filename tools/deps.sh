#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything rawprobe needs on a Debian 12 machine, idempotently:
# toolchain, libraries, QEMU, busybox, and the Debian kernels the tests
# boot (6.1, 6.12, and 6.12 PREEMPT_RT for make check-rt): headers through
# apt, vmlinuz + modules extracted with dpkg -x into the kernel cache (no
# initramfs is ever generated).
#
#   tools/deps.sh            install what is missing, print nothing if all is there
#   tools/deps.sh --print    print the kernel releases (one per line) and exit
#   tools/deps.sh --debug-kernel   what tests/vm/debug-kernel.sh builds with:
#                            linux-source-6.12 and the kernel build tools
#   tools/deps.sh --deb      what make deb builds with (debhelper, dh-dkms,
#                            lintian), and dkms for tests/pkg/deb-in-guest.sh
#                            (the guest runs the host's root)
#
# RAWPROBE_CACHE (default /var/cache/rawprobe) holds the extracted kernels.
set -euo pipefail

CACHE=${RAWPROBE_CACHE:-/var/cache/rawprobe}
# (in this order: --print's first line is the default kernel, and the first
# release that starts with 6.12 is the plain one; RT stays last)
HEADER_METAS=(linux-headers-amd64 linux-headers-6.12-amd64 linux-headers-6.12-rt-amd64)
PKGS=(build-essential pkg-config libnl-3-dev libnl-genl-3-dev libbpf-dev libcmocka-dev
      qemu-system-x86 busybox-static kmod cpio gzip xz-utils util-linux
      bpftrace python3 python3-jsonschema python3-yaml groff-base man-db
      jq	# json_get's plain paths in the guest (tools/ctl-helpers.sh)
      curl	# the exporter's /metrics and prometheus' API in the guest (57-serve)
      babeltrace2	# reads --format ctf traces back (tests/cli/ctf.sh)
      qemu-user	# qemu-x86_64 -plugin: the TCG instruction counter's host test (tests/tcg-insn)
      zstd	# unpacks Debian 6.12's vmlinuz for its BTF (tests/cli/btf-fixture.sh)
      dwarves	# pahole: field offsets the host tests check --args paths against (tests/cli/btf.sh)
      prometheus	# promtool check metrics (test_openmetrics, 50-count, serve.sh); the server scraping serve (57-serve)
      chromium	# headless: draws -f svg's flame graphs, runs their script (tests/cli/flame.sh)
      linux-source-6.12)	# YNL's schema and cli.py (tests/ynl)
DEBUG_KERNEL_PKGS=(linux-source-6.12 build-essential flex bison bc libelf-dev
      libssl-dev xz-utils kmod cpio dwarves)	# pahole: BTF
DEB_PKGS=(dpkg-dev debhelper dh-dkms pkg-config libbpf-dev libnl-3-dev libnl-genl-3-dev
      lintian dkms)

log() { echo "deps: $*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_update_once() {
	[ $apt_updated = 1 ] && return
	log "apt-get update"
	as_root apt-get update -qq >/dev/null
	apt_updated=1
}

missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

apt_install() {
	local need
	need=$(missing_pkgs "$@")
	[ -z "$need" ] && return 0
	apt_update_once
	log "installing:" $need
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $need >/dev/null
}

# The concrete package a Debian meta package points at, e.g.
# linux-headers-amd64 -> linux-headers-6.1.0-56-amd64.
meta_target() {
	local meta=$1 dep
	dep=$(dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null || true)
	if [ -z "$dep" ]; then
		apt_update_once
		dep=$(apt-cache depends "$meta" | awk '/Depends: linux-/{print $2; exit}')
	fi
	echo "$dep" | tr ',' '\n' | awk '/linux-/{print $1; exit}'
}

release_of() { echo "${1#linux-headers-}"; }

fetch_kernel() {
	local rel=$1 dir=$CACHE/kernels/$1 tmp pkg deb
	[ -f "$dir/vmlinuz" ] && [ -f "$dir/lib/modules/$rel/modules.dep" ] && return 0
	apt_update_once
	tmp=$(mktemp -d)
	for pkg in "linux-image-$rel" "linux-image-$rel-unsigned"; do
		if (cd "$tmp" && apt-get download -qq "$pkg" >/dev/null 2>&1); then
			break
		fi
	done
	deb=$(ls "$tmp"/*.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || { log "cannot download linux-image-$rel"; exit 1; }
	log "extracting $(basename "$deb")"
	dpkg -x "$deb" "$tmp/x"
	as_root mkdir -p "$dir.new/lib/modules"
	as_root cp "$tmp/x/boot/vmlinuz-$rel" "$dir.new/vmlinuz"
	as_root cp "$tmp/x/boot/System.map-$rel" "$dir.new/System.map"
	as_root cp "$tmp/x/boot/config-$rel" "$dir.new/config"
	as_root cp -a "$tmp/x/lib/modules/$rel" "$dir.new/lib/modules/"
	as_root depmod -b "$dir.new" "$rel"
	as_root rm -rf "$dir" && as_root mv "$dir.new" "$dir"
	rm -rf "$tmp"
}

releases() {
	local m
	for m in "${HEADER_METAS[@]}"; do release_of "$(meta_target "$m")"; done
}

case ${1:-} in
--print)	releases; exit 0 ;;
--debug-kernel)	apt_install "${DEBUG_KERNEL_PKGS[@]}"; exit 0 ;;
--deb)		apt_install "${DEB_PKGS[@]}"; exit 0 ;;
esac

apt_install "${PKGS[@]}" "${HEADER_METAS[@]}"
for rel in $(releases); do
	apt_install "linux-headers-$rel"
	fetch_kernel "$rel"
done
