#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages of `make deb` in a test guest: install the three
# with dpkg -i, DKMS builds and installs the core for the running kernel,
# modprobe loads it, the packaged rawprobectl talks to it, a template
# copied from the installed examples builds against the installed
# development files and loads; unloaded, the CLI says to modprobe it;
# then dpkg --purge leaves no file and no module behind. Output: "ok - ..." / "not ok - ..." per step, then
# "N passed, N failed"; exit status 0 when all passed.
#
# Run as root in the guest, without the tree's module preloaded (-n), with
# time for DKMS to compile under TCG (the core for the running kernel and,
# by dkms's common.postinst, for the newest kernel with headers too):
#
#	make deb
#	tests/vm/run -n -t 3600 -- tests/pkg/deb-in-guest.sh
#	tests/vm/run -n -t 3600 -k 6.12 -- tests/pkg/deb-in-guest.sh
#
# DIR (the first argument) holds the .debs; build/deb of this tree by
# default.
#
# Guest prerequisites: the guest runs the host's root read-only under a
# tmpfs overlay (tests/vm/guest-init), so they are host packages:
#   - dkms (tools/deps.sh --deb installs it);
#   - build-essential (gcc, make) and libnl-genl-3-200 (tools/deps.sh);
#   - the headers of the guest's kernel: the guest shares the host's
#     /usr/src and /lib/modules/<release>/build, so the host's
#     linux-headers-<release> (tools/deps.sh) serve.
# What the script changes (dpkg's database, /usr/src, /lib/modules,
# /var/lib/dkms) lands in the overlay and is gone at power-off; nothing
# here runs on the host.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
DEB_DIR=$(cd "${1:-$repo/build/deb}" 2>/dev/null && pwd) || DEB_DIR=${1:-$repo/build/deb}
PKGS="rawprobe-dkms rawprobectl rawprobe-dev"
REL=$(uname -r)
# The packaged CLI, not the tree's that tests/vm/run puts first on PATH.
export RAWPROBECTL=/usr/sbin/rawprobectl
export RAWPROBE_KO=${RAWPROBE_KO:-/nonexistent}	# (lib.sh insists; unused)
. "$repo/tests/vm/lib.sh"
S=$T_SCRATCH
export DEBIAN_FRONTEND=noninteractive

deb_version() {	# the packages' upstream version, from the .deb
	dpkg-deb -f "$DEB_DIR"/rawprobe-dkms_*.deb Version | sed 's/-[^-]*$//'
}

re() {	# STRING as an extended regex matching it literally (6.12.117+deb12)
	printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

installed() {	# PKG: dpkg has it installed ("not-installed" is not)
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' installed$'
}

# The state a fresh machine would have: no rawprobe loaded, no DKMS or
# dpkg trace of it, no /usr/src/rawprobe from a `make install-dev` on
# the host (removed from the overlay only: it would shadow the package's
# files and Module.symvers).
t_clean_start() {
	[ "$(id -u)" = 0 ] || fail "run as root (in the guest)"
	command -v dkms >/dev/null || fail "dkms is not installed on the host (tools/deps.sh --deb)"
	[ -e "/lib/modules/$REL/build/include/generated/utsrelease.h" ] ||
		fail "no headers for $REL in /lib/modules/$REL/build"
	local p
	for p in $PKGS; do
		compgen -G "$DEB_DIR/${p}_*.deb" >/dev/null ||
			fail "no $p .deb in $DEB_DIR (make deb)"
	done
	if grep -q '^rawprobe ' /proc/modules; then
		echo "    note: rawprobe was loaded (run with -n); unloading it" >&2
		rmmod rawprobe
	fi
	for p in $PKGS; do
		! installed "$p" || fail "$p is already installed"
	done
	[ -z "$(dkms status rawprobe 2>/dev/null)" ] || fail "dkms already knows rawprobe"
	if [ -e /usr/src/rawprobe ]; then
		echo "    note: /usr/src/rawprobe exists (make install-dev on the host?); removed in the overlay" >&2
		rm -rf /usr/src/rawprobe
	fi
	true
}

t_dpkg_install() {
	local rc=0 p
	dpkg -i "$DEB_DIR"/rawprobe-dkms_*.deb "$DEB_DIR"/rawprobectl_*.deb \
		"$DEB_DIR"/rawprobe-dev_*.deb >"$S/install.log" 2>&1 || rc=$?
	[ $rc = 0 ] || { tail -n 40 "$S/install.log" >&2; fail "dpkg -i: exit $rc"; }
	for p in $PKGS; do
		expect_eq "install ok installed" "$(dpkg-query -W -f='${Status}' "$p")" "$p's status"
	done
	# (what the purge must take away again)
	for p in $PKGS; do dpkg -L "$p"; done | sort -u >"$S/owned"
	while read -r f; do
		if [ -d "$f" ] && [ ! -L "$f" ]; then echo "$f"; fi
	done <"$S/owned" >"$S/owned.dirs"
	grep -vxF -f "$S/owned.dirs" "$S/owned" >"$S/owned.files"
	expect_ge 30 "$(wc -l <"$S/owned.files")" "files the packages own"
}

t_dkms_built_and_installed() {
	local v ko
	v=$(deb_version)
	expect_match "^rawprobe/$(re "$v"), $(re "$REL"), x86_64: installed" \
		"$(dkms status -m rawprobe -v "$v" -k "$REL")" "dkms status"
	ko=$(modinfo -n rawprobe) || fail "modinfo does not find rawprobe for $REL"
	expect_match "^/lib/modules/$(re "$REL")/updates/dkms/rawprobe\.ko" "$ko" "installed module"
	expect_eq "$v" "$(modinfo -F version rawprobe)" "module version"
	# the core's CRCs, kept by dkms.conf's MAKE for probe modules
	awk '$2 == "rawprobe_reserve" { ok = 1 } END { exit !ok }' \
		"/var/lib/dkms/rawprobe/kernel-$REL-x86_64/Module.symvers" ||
		fail "no Module.symvers in DKMS's tree for $REL"
}

t_modprobe() {
	modprobe rawprobe
	grep -q '^rawprobe ' /proc/modules || fail "rawprobe not in /proc/modules"
	wait_for "[ -c /dev/rawprobe ]" || fail "no /dev/rawprobe"
}

t_rawprobectl_version() {
	local v out
	v=$(deb_version)
	out=$($CTL version)
	expect_match "^rawprobectl $(re "$v") " "$out" "CLI version"
	expect_match "^module +$(re "$v") \(ABI [0-9]+\) on Linux $(re "$REL")" "$out" "module version"
	expect_eq true "$(json_get "$($CTL -j version)" 'str(j["abi_match"]).lower()')" "ABI match"
}

t_rawprobectl_files() {
	man -w rawprobectl | grep -q '^/usr/share/man/man8/rawprobectl\.8' || fail "man -w rawprobectl"
	[ -f /usr/share/bash-completion/completions/rawprobectl ] || fail "no bash completion"
	python3 -m json.tool /usr/share/rawprobe/rawprobectl-v2.json >/dev/null ||
		fail "the JSON schema does not parse"
}

# examples/README.md's "Make it yours", with the packaged files: the
# default KDIR (the running kernel's) and RAWPROBE (/usr/src/rawprobe).
t_template_builds_and_loads() {
	local j id
	cp -r /usr/src/rawprobe/examples/kprobe_minimal "$S/my_probe"
	cd "$S/my_probe"
	mv kprobe_minimal.c my_probe.c
	sed -i 's/kprobe_minimal/my_probe/g' Makefile my_probe.c
	make >"$S/template.log" 2>&1 || { tail -n 30 "$S/template.log" >&2; fail "make"; }
	cmp -s .rawprobe.symvers "/var/lib/dkms/rawprobe/kernel-$REL-x86_64/Module.symvers" ||
		fail "not built against DKMS's Module.symvers"
	expect_eq rawprobe "$(modinfo -F depends my_probe.ko)" "depends"
	insmod my_probe.ko
	trap 'rmmod my_probe 2>/dev/null || true' EXIT
	j=$($CTL -j probe list)
	id=$(json_get "$j" "[p['id'] for p in j if p.get('name') == 'my_probe'][0]")
	for _ in 1 2 3; do /bin/true; done
	expect_ge 3 "$(json_get "$($CTL -j probe show "$id")" 'j["stats"]["hits"]')" "my_probe's hits"
	rmmod my_probe
}

t_unload() {
	grep -q '^my_probe ' /proc/modules && rmmod my_probe
	modprobe -r rawprobe
	! grep -q '^rawprobe ' /proc/modules || fail "rawprobe still loaded"
}

# Installed but not loaded: the CLI and doctor say modprobe, not insmod.
t_hint_modprobe() {
	expect_fail 3 "load it with 'modprobe rawprobe'" $CTL probe list
	expect_match "fix: sudo modprobe rawprobe" "$($CTL doctor 2>&1)" "doctor"
}

t_dpkg_purge() {
	local rc=0 left=0 f d
	# dev first: it depends on the dkms package (dpkg orders it anyway)
	dpkg --purge rawprobe-dev rawprobectl rawprobe-dkms >"$S/purge.log" 2>&1 || rc=$?
	[ $rc = 0 ] || { tail -n 40 "$S/purge.log" >&2; fail "dpkg --purge: exit $rc"; }
	for f in $PKGS; do
		! installed "$f" || fail "$f still installed"
	done
	while read -r f; do
		if [ -e "$f" ] || [ -L "$f" ]; then echo "    left: $f" >&2; left=1; fi
	done <"$S/owned.files"
	# a directory of ours left empty (others' directories stay, not empty)
	while read -r d; do
		if [ -d "$d" ] && [ -z "$(ls -A "$d")" ]; then echo "    left empty: $d" >&2; left=1; fi
	done <"$S/owned.dirs"
	for d in /usr/src/rawprobe /usr/src/rawprobe-* /usr/share/rawprobe \
		 /usr/share/doc/rawprobe-dkms /usr/share/doc/rawprobectl \
		 /usr/share/doc/rawprobe-dev /var/lib/dkms/rawprobe; do
		if [ -e "$d" ]; then echo "    left: $d" >&2; left=1; fi
	done
	# what DKMS installed outside the packages' files
	for f in /lib/modules/*/updates/dkms/rawprobe.ko*; do
		if [ -e "$f" ]; then echo "    left: $f" >&2; left=1; fi
	done
	[ $left = 0 ] || fail "files left behind"
	[ -z "$(dkms status rawprobe 2>/dev/null)" ] || fail "dkms still lists rawprobe"
	! modinfo rawprobe >/dev/null 2>&1 || fail "modinfo still finds rawprobe"
	! grep -q '^rawprobe ' /proc/modules || fail "rawprobe loaded after the purge"
}

tests t_clean_start t_dpkg_install t_dkms_built_and_installed t_modprobe \
	t_rawprobectl_version t_rawprobectl_files t_template_builds_and_loads \
	t_unload t_hint_modprobe t_dpkg_purge
T_CASE="deb: "
run_tests
echo "$T_PASS passed, $T_FAIL failed"
rm -rf "$T_SCRATCH"
[ "$T_FAIL" = 0 ]
