#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's checkpatch.pl on every kernel source file of the project.
# It comes from the Debian linux-source package's scripts/ directory, or
# CHECKPATCH=/path/to/checkpatch.pl.
set -u
cd "$(dirname "$0")/.."
cp=${CHECKPATCH:-$(ls /usr/src/linux-source-*/scripts/checkpatch.pl 2>/dev/null | tail -1)}
if [ -z "$cp" ]; then
	src=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | tail -1)
	[ -n "$src" ] || { echo "no checkpatch.pl: apt-get install linux-source" >&2; exit 2; }
	dir=$(dirname "$src")/$(basename "$src" .tar.xz)
	tar -C "$(dirname "$src")" -xJf "$src" "$(basename "$dir")/scripts" || exit 2
	cp=$dir/scripts/checkpatch.pl
fi
files=$(ls module/*.[ch] kmod/*.[ch] probes/*.[ch] uapi/*.h include/rawprobe/*.h tests/vm/modules/*.c tests/bench/*.c examples/*/*.c 2>/dev/null)
# shellcheck disable=SC2086
perl "$cp" --no-tree --terse --show-types -f $files
