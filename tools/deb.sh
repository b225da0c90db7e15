#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: rawprobe-dkms, rawprobectl and rawprobe-dev .debs, unsigned,
# in build/deb/ (with the .changes, .buildinfo and build.log), then
# lintian's verdict if lintian is installed.
#
# dpkg-buildpackage writes into debian/ and puts its results in the parent
# directory, so it runs in a copy of the tree: the files git knows
# (tracked, as they are in the working tree, and new ones not ignored,
# named so a stray file is seen), never the build outputs.
# Debug symbol packages are left out (noautodbgsym): three .debs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/deb
ver=$(dpkg-parsechangelog -SVersion)
# (dpkg-buildpackage writes the .debs next to it, into build/deb/)
src=$out/rawprobe-$ver

rm -rf "$out"
mkdir -p "$src"
new=$(git ls-files --others --exclude-standard)
[ -z "$new" ] || echo "deb: not in git yet, packaged all the same: ${new//$'\n'/ }" >&2
# (a tracked file deleted from the working tree is left out)
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
	done |
	tar --null -T - -cf - | tar -xf - -C "$src"

echo "deb: dpkg-buildpackage -us -uc -b in $src (log: $out/build.log)"
if ! (cd "$src" && DEB_BUILD_OPTIONS="noautodbgsym ${DEB_BUILD_OPTIONS:-}" \
	nice dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "deb: the build failed; the copy is kept in $src" >&2
	exit 1
fi
rm -rf "$src"
ls -1 "$out"/*.deb

if command -v lintian >/dev/null; then
	echo "deb: lintian:"
	lintian --info "$out"/*.changes || true
fi
