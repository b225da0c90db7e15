#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) a Linux 6.12 debug kernel for the VM harness from Debian's
# linux-source-6.12: `make tinyconfig`, then the fragments in
# tests/vm/debug/ (base.config + VARIANT.config) merged with
# scripts/kconfig/merge_config.sh, then a check that every option of the
# fragments took.
#
#   tests/vm/debug-kernel.sh VARIANT               build if needed, print the release
#   tests/vm/debug-kernel.sh --print-dir VARIANT   where the cached build is (no build)
#   tests/vm/debug-kernel.sh --print-release VARIANT   its release, if built
#     VARIANT: kasan (KASAN, lockdep, kmemleak, UBSAN, ...) or kcsan
#
# The cache, ${RAWPROBE_CACHE:-/var/cache/rawprobe}:
#   debug-kernels/src-<pkgver>/         the extracted source (shared)
#   debug-kernels/VARIANT-<key>/build   the O= tree: KDIR for out-of-tree
#                                       modules (objects dropped)
#   kernels/<release>/                  vmlinuz, System.map, config,
#                                       lib/modules/: what tests/vm/run boots
# <key> hashes the source package version, the fragments and this script's
# code (not its comments), so a change to any of them rebuilds; a build
# happens in VARIANT-<key>.tmp and is renamed only when complete (an
# interrupted one resumes there). The release is 6.12.<n>-rawprobe-VARIANT.
#
# Build time on the 2-core test machine, nice -n 19, measured with other
# QEMU guests running: kasan 23 min (1381 s, one guest busy on a core for
# most of it); kcsan 24 min (1417 s, the part after an interrupted start,
# with up to three guests running). Then 220 MiB
# per variant (objects dropped) and 1.7 GiB of shared source.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${RAWPROBE_CACHE:-/var/cache/rawprobe}
frags=$here/debug
tarball=/usr/src/linux-source-6.12.tar.xz
jobs=$(nproc)

log() { echo "debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

pkg_version() { dpkg-query -W -f='${Version}' linux-source-6.12; }

# key of a variant: source version + fragments + this script's code
cache_key() {
	{ pkg_version; cat "$frags/base.config" "$frags/$1.config"
	  grep -v '^[[:space:]]*#' "$0"; } | sha256sum | cut -c1-12
}

build_dir() { echo "$cache/debug-kernels/$1-$(cache_key "$1")"; }

release_of() { cat "$(build_dir "$1")/build/include/config/kernel.release"; }

# The source tree, extracted once per package version.
source_tree() {
	local src tmp
	src=$cache/debug-kernels/src-$(pkg_version)
	if [ ! -f "$src/Makefile" ]; then
		log "extracting $tarball"
		tmp=$src.tmp.$$
		rm -rf "$tmp" && mkdir -p "$tmp"
		tar -C "$tmp" --strip-components=1 -xJf "$tarball"
		rm -rf "$src" && mv "$tmp" "$src"
	fi
	echo "$src"
}

# Every option a fragment sets must be in the final .config, except a line
# right after "# optional". Prints the misses; fails if any is required.
check_config() {	# .config fragment...
	local cfg=$1 frag line optional=0 bad=0 name
	shift
	for frag in "$@"; do
		while IFS= read -r line; do
			case $line in
			"# optional")	optional=1; continue ;;
			CONFIG_*=*)	name=${line%%=*} ;;
			"# CONFIG_"*" is not set")
				name=${line#\# }; name=${name%% *} ;;
			*)		continue ;;
			esac
			if ! grep -qxF -- "$line" "$cfg" &&
			   ! { [[ $line == \#* ]] && ! grep -q "^$name=" "$cfg"; }; then
				log "$(basename "$frag"): $line, but .config has:" \
					"$(grep -E "^(# )?$name[= ]" "$cfg" || echo "nothing")" \
					"$([ $optional = 1 ] && echo "(optional)")"
				[ $optional = 1 ] || bad=1
			fi
			optional=0
		done < "$frag"
	done
	return $bad
}

configure() {	# src obj variant
	local src=$1 obj=$2 v=$3
	nice -n 19 make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null
	(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$obj" \
		"$obj/.config" "$frags/base.config" "$frags/$v.config") >/dev/null
	nice -n 19 make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig
	check_config "$obj/.config" "$frags/base.config" "$frags/$v.config" ||
		die "$v: options of the fragments did not take (see above)"
}

# Objects that M= builds do not need; Module.symvers, scripts/, tools/objtool,
# include/ and the .config stay.
prune_objects() {	# obj
	find "$1" \( -path "$1/scripts" -o -path "$1/tools" \) -prune -o \
		-type f \( -name '*.o' -o -name '*.a' -o -name '*.ko' -o \
		-name '.*.cmd' -o -name '*.mod.c' \) -print0 | xargs -0 rm -f
	rm -f "$1/vmlinux" "$1/vmlinux.o" "$1/arch/x86/boot/compressed/vmlinux"
}

# The layout tests/vm/run boots: kernels/<release>/{vmlinuz,...,lib/modules}
install_kernel() {	# tmpdir release variant
	local t=$1 rel=$2 dst=$cache/kernels/$2
	mkdir -p "$t/install"
	cp "$t/build/arch/x86/boot/bzImage" "$t/install/vmlinuz"
	cp "$t/build/System.map" "$t/install/System.map"
	cp "$t/build/.config" "$t/install/config"
	make -s -C "$t/build" INSTALL_MOD_PATH="$t/install" modules_install \
		DEPMOD=/bin/true >/dev/null
	rm -f "$t/install/lib/modules/$rel/build" "$t/install/lib/modules/$rel/source"
	ln -s "$(build_dir "$3")/build" "$t/install/lib/modules/$rel/build"
	depmod -b "$t/install" "$rel"
	rm -rf "$dst.new" && cp -a "$t/install" "$dst.new"
	rm -rf "$dst" && mv "$dst.new" "$dst"
}

build() {	# variant
	local v=$1 dir src tmp start rel
	dir=$(build_dir "$v")
	if [ -f "$dir/build/Module.symvers" ]; then
		rel=$(release_of "$v")
		[ -f "$cache/kernels/$rel/vmlinuz" ] && { echo "$rel"; return; }
	fi
	"$repo/tools/deps.sh" --debug-kernel
	src=$(source_tree)
	# an interrupted build of the same key resumes (make is incremental)
	tmp=$dir.tmp
	rm -rf "$tmp/install" && mkdir -p "$tmp/build"
	start=$(date +%s)
	log "building $v in $tmp (nice -n 19, -j$jobs)"
	configure "$src" "$tmp/build" "$v"
	nice -n 19 make -s -C "$src" O="$tmp/build" ARCH=x86_64 -j"$jobs" \
		bzImage modules
	rel=$(cat "$tmp/build/include/config/kernel.release")
	install_kernel "$tmp" "$rel" "$v"
	prune_objects "$tmp/build"
	rm -rf "$tmp/install"
	# the old builds of this variant go
	find "$cache/debug-kernels" -maxdepth 1 -name "$v-*" ! -name "$(basename "$tmp")" \
		-exec rm -rf {} +
	mv "$tmp" "$dir"
	log "$v: $rel built in $(( $(date +%s) - start ))s"
	echo "$rel"
}

usage() { sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

variant_ok() { [ -f "$frags/$1.config" ] && [ "$1" != base ] || usage; }

case ${1:-} in
--print-dir)	variant_ok "${2:-}"; build_dir "$2" ;;
--print-release) variant_ok "${2:-}"; release_of "$2" ;;
-h|--help)	usage 0 ;;
*)		variant_ok "${1:-}"; build "$1" ;;
esac
