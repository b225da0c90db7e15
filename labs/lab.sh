#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The labs' host side (the top Makefile's lab targets call this).
#
#   labs/lab.sh shell N      a shell in a guest, module loaded, in the
#                            lab's working copy          (make lab N=)
#   labs/lab.sh check N      build the working copy, run its checks in
#                            the guest                   (make lab-check N=)
#   labs/lab.sh init N       create the working copy from the skeleton
#   labs/lab.sh selftest     every lab on 6.1 and 6.12: the skeleton fails
#                            each exercise, the solution passes each; and
#                            make lab N=1's shell, typed into
#   labs/lab.sh dist         student and instructor tarballs in build/labs
#
# Environment: LAB_WORK (the working copy, default build/labs/work/labN),
# LAB_KERNEL (6.1 or 6.12, default 6.1), VM_LOCK (the command that
# serializes guests; default "flock /tmp/rawprobe-vm.lock", empty: none).
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
out=build/labs
kernel=${LAB_KERNEL:-6.1}
# Guests share the host's cores: one at a time.
VM_LOCK=${VM_LOCK-flock /tmp/rawprobe-vm.lock}

die() {
	echo "lab: $*" >&2
	exit 2
}

labdir() {	# N: labs/N-name, or die
	local d
	[[ $1 =~ ^[0-9]+$ ]] || die "N must be a lab number, e.g. make lab N=1"
	d=$(echo labs/"$1"-*/)
	[ -d "$d" ] || die "no lab $1; the labs are: $(ls -d labs/[0-9]*-* | sed 's|labs/||' | tr '\n' ' ')"
	echo "${d%/}"
}

work_of() {	# N: the working copy's path
	echo "${LAB_WORK:-$out/work/lab$1}"
}

release() {	# 6.1 | 6.12: the installed Debian release (installed if missing)
	[ -f "${RAWPROBE_CACHE:-/var/cache/rawprobe}/kernels/$(tools/deps.sh --print |
		grep -m1 "^$1[.-]")/vmlinuz" ] || tools/deps.sh >&2 || exit 2
	tools/deps.sh --print | awk -v k="$1" 'index($0, k ".") == 1 || index($0, k "-") == 1 { print; exit }'
}

# The core, the CLI and the workload: built once, when missing (a fresh
# clone); never rebuilt here, another user's build may be running. After
# pulling new sources: make ctl modules-all.
need_core() {
	local rel=$1
	[ -n "$rel" ] || die "kernel '$kernel' is not installed: run tools/deps.sh"
	if [ ! -x userctl/rawprobectl ] || [ ! -f "build/$rel/rawprobe.ko" ] ||
	   [ ! -x build/tools/getpgid_loop ]; then
		echo "lab: building the core and rawprobectl first (once)" >&2
		tools/deps.sh && make --no-print-directory ctl modules-all >&2 ||
			die "the build failed"
	fi
}

init_work() {	# N: create the working copy if there is none
	local d w
	d=$(labdir "$1") || exit 2
	w=$(work_of "$1")
	[ -d "$w" ] && return 0
	labs/gen.sh student "$d" "$w" || die "could not create $w"
	echo "lab: created your working copy of lab $1 in $w (edit the files there)" >&2
}

# build_mod SRC OBJ REL: a lab's module, out of tree, for one kernel, in a
# tree of links to SRC (as the top Makefile builds examples/), so that
# the sources stay clean and each kernel has its own objects.
build_mod() {
	local src=$1 obj=$2 rel=$3 f log
	[ -f "$src/Makefile" ] || return 0
	rm -rf "$obj"
	mkdir -p "$obj"
	# sources only: objects a hand-made build left in SRC are not ours
	for f in "$src"/*.[ch] "$src"/Makefile "$src"/Kbuild; do
		[ -f "$f" ] && ln -s "$(cd "$(dirname "$f")" && pwd)/${f##*/}" "$obj/"
	done
	log=$obj/build.log
	if ! make -C "$obj" --no-print-directory RAWPROBE="$repo" \
		KDIR="/usr/src/linux-headers-$rel" > "$log" 2>&1; then
		echo "lab: the module in $src did not build for $rel:" >&2
		grep -E 'error|warning|Error' "$log" | head -20 >&2
		return 1
	fi
	# warnings are worth a look even when the build succeeds
	grep -E 'warning:' "$log" | head -10 >&2
	return 0
}

# guest K TIMEOUT ITEMS...: one boot running labs/guest.sh on ITEMS. The
# time the guest started (the lock taken) goes to $out/.guest-start.
# Both vCPUs on one host thread, as make check's suites (run-all.sh):
# the labs probe functions other processes run.
guest() {
	local k=$1 t=$2
	shift 2
	$VM_LOCK bash -c 'date +%s > "$0"; exec "$@"' "$out/.guest-start" \
		tests/vm/run -k "$k" -t "$t" --tcg-single -- labs/guest.sh "$@"
}

cmd_shell() {
	local n=$1 d w rel
	d=$(labdir "$n") || exit 2
	rel=$(release "$kernel")
	need_core "$rel"
	init_work "$n"
	w=$(cd "$(work_of "$n")" && pwd)
	build_mod "$w" "$out/obj/work-lab$n/$rel" "$rel" ||
		echo "lab: (starting the shell anyway)" >&2
	echo "lab: booting $rel; the shell starts in $w; exit or Ctrl-D powers off" >&2
	# Unknown kernel parameters become init's environment, which the
	# guest's interactive bash inherits: PROMPT_COMMAND sources our rc
	# once, before the first prompt.
	$VM_LOCK tests/vm/run -k "$kernel" -s \
		-a "LAB=$n" -a "LAB_WORK=$w" -a "LAB_OBJ=$repo/$out/obj/work-lab$n/$rel" \
		-a "\"PROMPT_COMMAND=. $repo/labs/shellrc\""
}

# finish PASS FAIL: the totals line and the exit status.
finish() {
	echo "$1 passed, $2 failed"
	[ "$2" = 0 ]
}

cmd_check() {
	local n=$1 d w rel obj res rc pass fail
	d=$(labdir "$n") || exit 2
	rel=$(release "$kernel")
	need_core "$rel"
	init_work "$n"
	w=$(cd "$(work_of "$n")" && pwd)
	obj=$repo/$out/obj/work-lab$n/$rel
	build_mod "$w" "$obj" "$rel"
	echo "lab: checking lab $n ($w) on $rel" >&2
	res=$(guest "$kernel" 600 "$n:work:$w:$obj" 2>"$out/check.err")
	rc=$?
	printf '%s\n' "$res" | grep -v '^## '
	# the harness's own messages (a warning in dmesg, a hung guest)
	[ $rc = 0 ] || [ $rc = 1 ] || cat "$out/check.err"
	pass=$(printf '%s\n' "$res" | grep -c '^ok - ')
	fail=$(printf '%s\n' "$res" | grep -c '^not ok - ')
	if [ $rc = 125 ]; then
		echo "not ok - the guest: the kernel logged a warning or crashed (above); a handler did something it must not"
		fail=$((fail + 1))
	elif [ "$pass$fail" = 00 ]; then
		echo "not ok - the guest ran no check (exit $rc)"
		fail=1
	fi
	finish "$pass" "$fail"
}

cmd_selftest() {
	local labs n d k rel items tag res rc pass=0 fail=0 start line t0
	start=$(date +%s)
	labs=$(ls -d labs/[0-9]*-*/ | sed 's|labs/\([0-9]*\)-.*|\1|' | sort -n)
	for n in $labs; do
		d=$(labdir "$n")
		labs/gen.sh --lint "$d" || die "$d: bad markers"
		grep -q 'BEGIN SOLUTION' $(labs/gen.sh --sources "$d" | sed "s|^|$d/|") ||
			die "$d has no solution (a student's tree): selftest needs the instructor's"
		for tag in skeleton solution; do
			rm -rf "$out/selftest/$tag/lab$n"
			labs/gen.sh "${tag/skeleton/student}" "$d" "$out/selftest/$tag/lab$n" || exit 1
		done
	done
	for k in 6.1 6.12; do
		rel=$(release "$k")
		need_core "$rel"
		items=()
		for n in $labs; do
			for tag in skeleton solution; do
				# a skeleton's module may not build: its checks say so
				build_mod "$repo/$out/selftest/$tag/lab$n" \
					"$repo/$out/obj/$tag-lab$n/$rel" "$rel" 2>/dev/null ||
					[ $tag = skeleton ] || { echo "not ok - $k lab$n solution builds"; fail=$((fail + 1)); }
				items+=("$n:$tag:$repo/$out/selftest/$tag/lab$n:$repo/$out/obj/$tag-lab$n/$rel")
			done
		done
		echo "labs-selftest: $rel: ${#items[@]} runs in one guest" >&2
		t0=$(date +%s)
		# (the guest's stderr apart: on a failure it repeats the console)
		res=$(guest "$k" 1200 "${items[@]}" 2>"$out/selftest/guest-$k.err")
		rc=$?
		echo "labs-selftest: $rel: the guest took $(( $(date +%s) - $(cat "$out/.guest-start") )) s" \
			"(after $(( $(cat "$out/.guest-start") - t0 )) s waiting for the VM lock)" >&2
		printf '%s\n' "$res" > "$out/selftest/guest-$k.log"
		# A skeleton's exercise must fail, a solution's must pass.
		while IFS= read -r line; do
			case $line in
			"## "*) tag=${line#\#\# }; tag=${tag% *} ;;
			"ok - "*)
				if [ "$tag" = solution ]; then
					echo "ok - $k solution: ${line#ok - }"; pass=$((pass + 1))
				else
					echo "not ok - $k skeleton passes: ${line#ok - }"; fail=$((fail + 1))
				fi ;;
			"not ok - "*)
				if [ "$tag" = solution ]; then
					echo "not ok - $k solution: ${line#not ok - }"; fail=$((fail + 1))
				else
					echo "ok - $k skeleton fails: ${line#not ok - }" | sed 's/ (hint: .*//'
					pass=$((pass + 1))
				fi ;;
			esac
		done <<< "$res"
		if [ $rc = 125 ] || ! grep -q '^## solution' <<< "$res"; then
			echo "not ok - $k guest (exit $rc; $out/selftest/guest-$k.log, .err)"
			tail -30 "$out/selftest/guest-$k.err"
			fail=$((fail + 1))
		fi
	done
	if shell_smoke; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
	echo "labs-selftest: $(( $(date +%s) - start )) s" >&2
	finish "$pass" "$fail"
}

# shell_smoke: `make lab N=1` as a student meets it, on the solution's
# working copy, typed into through a FIFO: the banner, the lab's
# functions in the shell, a probe added, and power-off on exit.
# Prints one "ok"/"not ok" line.
shell_smoke() {
	local w=$repo/$out/selftest/solution/lab1 log=$out/selftest/shell.log
	local fifo pid n=240 what=""
	fifo=$(mktemp -u) && mkfifo "$fifo" || return 1
	LAB_WORK=$w LAB_KERNEL=6.1 timeout -k 5 600 "$0" shell 1 \
		< "$fifo" > "$log" 2>&1 &
	pid=$!
	exec 3> "$fifo"
	# the console drops what is typed before the shell reads it
	while [ $n -gt 0 ] && ! grep -q 'rawprobe.ko is loaded' "$log" &&
	      kill -0 $pid 2>/dev/null; do
		sleep 1
		n=$((n - 1))
	done
	sleep 2
	# (in a subshell: a guest that died early closed the FIFO, and the
	# SIGPIPE must end only the echo, not the selftest)
	(echo 'echo "lab-shell: $PWD"; add_probe; rawprobectl probe list; exit' >&3) 2>/dev/null
	wait $pid
	exec 3>&-
	rm -f "$fifo"
	grep -q 'functions of lab1.sh loaded' "$log" || what+=" no lab functions;"
	grep -qF "lab-shell: $w" "$log" || what+=" not in the working copy;"
	grep -Eq '^ +[0-9]+ kprobe +__x64_sys_getpgid +armed' "$log" ||
		what+=" add_probe made no probe;"
	grep -q 'reboot: Power down' "$log" || what+=" no power-off at exit;"
	if [ -z "$what" ]; then
		echo "ok - 6.1 make lab N=1 opens a shell in the working copy"
		return 0
	fi
	echo "not ok - 6.1 make lab N=1:$what (see $log)"
	return 1
}

cmd_dist() {
	local d n st in
	st=$out/dist/student/labs
	in=$out/dist/instructor/labs
	rm -rf "$out/dist"
	mkdir -p "$st" "$in"
	# the wing's own files; each lab's skeleton, README and check
	cp labs/README.md labs/*.sh labs/shellrc "$st/"
	cp -r labs/. "$in/"
	for d in labs/[0-9]*-*/; do
		d=${d%/}
		n=${d#labs/}
		labs/gen.sh --lint "$d" || die "$d: bad markers"
		labs/gen.sh student "$d" "$st/$n" || exit 1
		cp "$d/README.md" "$d/check.sh" "$st/$n/"
		# the instructor's copy also has the solutions stripped of markers
		labs/gen.sh solution "$d" "$in/$n/solution" || exit 1
	done
	if grep -rl 'BEGIN SOLUTION' "$st"/[0-9]*-*/ || ls "$st"/*/ANSWERS.md 2>/dev/null; then
		die "a solution or the answers leaked into the student tarball"
	fi
	tar -C "$out/dist/student" -czf "$out/rawprobe-labs-student.tar.gz" labs
	tar -C "$out/dist/instructor" -czf "$out/rawprobe-labs-instructor.tar.gz" labs
	echo "$out/rawprobe-labs-student.tar.gz   (skeletons, READMEs, checks; extract in a rawprobe tree)"
	echo "$out/rawprobe-labs-instructor.tar.gz  (sources with solutions, solution/, ANSWERS.md)"
}

case ${1:-} in
shell|check|init)
	[ -n "${2:-}" ] || die "which lab? e.g. make lab N=1"
	case $1 in
	shell) cmd_shell "$2" ;;
	check) cmd_check "$2" ;;
	init) labdir "$2" >/dev/null && init_work "$2" ;;
	esac ;;
selftest) cmd_selftest ;;
dist) cmd_dist ;;
*) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
