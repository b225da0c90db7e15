#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One source of truth for skeletons and solutions, as in the Linux Kernel
# Teaching labs. A lab's sources hold the solution between markers:
#
#	/* TODO 2: what the student writes here */	kept in both outputs
#	/* BEGIN SOLUTION */				the solution starts
#	...
#	/* END SOLUTION */				and ends
#	/* SKELETON: return 0; */			a line only the skeleton has
#
# (in shell scripts and Makefiles: "# BEGIN SOLUTION", "# SKELETON: ...").
#
#   labs/gen.sh student|solution LABDIR DEST   write the lab's sources
#   labs/gen.sh --sources LABDIR               list them
#   labs/gen.sh --lint LABDIR                  check the markers
#
# A lab's sources are its files other than README.md, ANSWERS.md (the
# instructor's) and check.sh (the checker, run in the guest).
set -u

sources() {
	local f
	for f in "$1"/*; do
		case ${f##*/} in
		README.md|ANSWERS.md|check.sh) ;;
		*) [ -f "$f" ] && echo "${f##*/}" ;;
		esac
	done
}

# filter MODE < solution source > output
filter() {
	awk -v mode="$1" '
		/^[ \t]*(\/\*|#|\/\/)[ \t]*BEGIN SOLUTION/ { insol = 1; next }
		/^[ \t]*(\/\*|#|\/\/)[ \t]*END SOLUTION/ { insol = 0; next }
		/^[ \t]*(\/\*|#|\/\/)[ \t]*SKELETON:/ {
			if (mode == "student") {
				line = $0
				match(line, /^[ \t]*/)
				indent = substr(line, 1, RLENGTH)
				sub(/^[ \t]*(\/\*|#|\/\/)[ \t]*SKELETON:[ ]?/, "", line)
				sub(/[ \t]*\*\/[ \t]*$/, "", line)
				print indent line
			}
			next
		}
		insol && mode == "student" { next }
		{ print }'
}

# lint LABDIR: markers paired, not nested, and TODOs numbered 1..N.
lint() {
	local f rc=0
	for f in $(sources "$1"); do
		awk -v f="$1/$f" '
			/BEGIN SOLUTION/ { if (open) { print f ":" NR ": BEGIN inside a solution"; bad = 1 } open = 1 }
			/END SOLUTION/ { if (!open) { print f ":" NR ": END without BEGIN"; bad = 1 } open = 0 }
			END { if (open) { print f ": BEGIN SOLUTION never ended"; bad = 1 } exit bad }
		' "$1/$f" || rc=1
	done
	local nums
	nums=$(cat $(sources "$1" | sed "s|^|$1/|") 2>/dev/null |
		grep -o 'TODO [0-9]*' | awk '{ print $2 }' | sort -n | uniq)
	if [ -z "$nums" ]; then
		echo "$1: no TODO markers"
		rc=1
	elif [ "$nums" != "$(seq 1 "$(echo "$nums" | tail -1)")" ]; then
		echo "$1: TODOs are not numbered 1..N: $(echo $nums)"
		rc=1
	fi
	return $rc
}

case ${1:-} in
student|solution)
	[ $# = 3 ] || { echo "usage: $0 student|solution LABDIR DEST" >&2; exit 2; }
	mkdir -p "$3" || exit 1
	for f in $(sources "$2"); do
		filter "$1" < "$2/$f" > "$3/$f" || exit 1
		# keep the mode: lab scripts stay executable
		chmod --reference="$2/$f" "$3/$f"
	done ;;
--sources)
	sources "$2" ;;
--lint)
	lint "$2" ;;
*)
	sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'
	exit 2 ;;
esac
