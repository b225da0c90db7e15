#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The plugin arguments for a program linked with rpmark.c: prints
# "start=0x...,stop=0x..." from the program's symbol table, for
#   -plugin build/tcg-insn/libinsn.so,$(tools/tcg-insn/marks.sh PROG)
# Fails if a marker is missing or is not in the .rpmark section's
# fixed place (a PIE or a build without --section-start).
#   tools/tcg-insn/marks.sh PROGRAM
set -u
prog=${1:?usage: marks.sh PROGRAM}
syms=$(nm "$prog" 2>/dev/null) || { echo "marks.sh: cannot read symbols of $prog" >&2; exit 1; }
addr() {	# symbol
	awk -v s="$1" '$3 == s && $2 ~ /^[Tt]$/ { print "0x" $1; exit }' <<<"$syms"
}
start=$(addr rp_mark_start)
stop=$(addr rp_mark_stop)
if [ -z "$start" ] || [ -z "$stop" ]; then
	echo "marks.sh: $prog has no rp_mark_start/rp_mark_stop (link tools/tcg-insn/rpmark.c)" >&2
	exit 1
fi
if ! readelf -SW "$prog" | grep -q ' \.rpmark '; then
	echo "marks.sh: $prog has no .rpmark section" >&2
	exit 1
fi
if readelf -hW "$prog" | grep -q 'Type:.*DYN'; then
	echo "marks.sh: $prog is position-independent: its markers move (link with -no-pie)" >&2
	exit 1
fi
echo "start=$start,stop=$stop"
