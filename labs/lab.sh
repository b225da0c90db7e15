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
#                            each exercise, the solution passes each, each
#                            wrong answer (labs/N-*/wrong/) fails its own
#                            (on LAB_WRONG_KERNELS, default 6.12);
#                            make lab N=1's shell, typed into, sees a host
#                            edit; make lab-check's documented forms on a
#                            fresh copy of the tree
#   labs/lab.sh dist         student and instructor tarballs in build/labs
#
# Environment: LAB_WORK (the working copy, default build/labs/work/labN),
# LAB_KERNEL (6.1 or 6.12, default 6.1), VM_LOCK (the command that
# serializes guests; default "flock /tmp/rawprobe-vm.lock", empty: none);
# for selftest, LABS="1 3" and LAB_KERNELS=6.12 run a part of it (no
# shell, no fresh copy, unless LAB_SMOKES=1), LAB_WRONG_KERNELS=none
# none of the wrong answers.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
out=build/labs
kernel=${LAB_KERNEL:-6.1}
# (a fresh clone has no build/: the guests' logs go there)
mkdir -p "$out" || exit 2
# The selftest's trees and logs (LAB_SELFTEST_DIR: make check runs
# each kernel's part at once, each in a folder of its own)
selftest_dir=$(realpath -m "${LAB_SELFTEST_DIR:-$out/selftest}")
guest_start=$out/.guest-start
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

# The core for kernel REL, the CLI and the workload: built once, when
# missing (a fresh clone), for that kernel alone; never rebuilt here,
# another user's build may be running. After pulling new sources: make
# ctl modules-all.
need_core() {
	local rel=$1
	[ -n "$rel" ] || die "kernel '$kernel' is not installed: run tools/deps.sh"
	if [ ! -x userctl/rawprobectl ] || [ ! -f "build/$rel/rawprobe.ko" ] ||
	   [ ! -x build/tools/getpgid_loop ]; then
		echo "lab: building the core for $rel and rawprobectl first (once)" >&2
		tools/deps.sh >&2 && make --no-print-directory ctl module LINK_KO= \
			KDIR="/usr/src/linux-headers-$rel" >&2 ||
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
# time the guest started (the lock taken) goes to $guest_start.
# Both vCPUs on one host thread, as make check's suites (run-all.sh):
# the labs probe functions other processes run.
guest() {
	local k=$1 t=$2
	shift 2
	$VM_LOCK bash -c 'date +%s > "$0"; exec "$@"' "$guest_start" \
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
	# the working copy without the root's 9p cache: an edit on the host
	# is what the guest reads next
	$VM_LOCK tests/vm/run -k "$kernel" -s --share "$w" \
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

# wrong_answers LABDIR: its wrong answers, "SLUG:EXERCISES" a line. Each
# labs/N-*/wrong/SLUG.sh changes a copy of the solution (run in it) into
# a plausible wrong one; its "# fails: 2 3" line names the exercises
# that must fail on it.
wrong_answers() {
	local f ex
	for f in "$1"/wrong/*.sh; do
		[ -f "$f" ] || continue
		ex=$(sed -n 's/^# fails: *//p' "$f" | tr ' ' ',')
		[ -n "$ex" ] || die "$f: no '# fails: N...' line"
		echo "$(basename "$f" .sh):$ex"
	done
}

# Wrong answers fail the same way on either kernel: make check runs them
# on one (about 5 minutes a kernel); LAB_WRONG_KERNELS="6.1 6.12" both.
wrong_here() {
	[[ " ${LAB_WRONG_KERNELS:-6.12} " == *" $1 "* ]]
}

cmd_selftest() {
	local labs n d k rel items tag res rc pass=0 fail=0 start line t0 w slug ex smokes
	local -A wants=()
	start=$(date +%s)
	guest_start=$selftest_dir/.guest-start
	mkdir -p "$selftest_dir" || exit 2
	labs=${LABS:-$(ls -d labs/[0-9]*-*/ | sed 's|labs/\([0-9]*\)-.*|\1|' | sort -n)}
	rm -rf "$selftest_dir/wrong"
	for n in $labs; do
		d=$(labdir "$n")
		labs/gen.sh --lint "$d" || die "$d: bad markers"
		grep -q 'BEGIN SOLUTION' $(labs/gen.sh --sources "$d" | sed "s|^|$d/|") ||
			die "$d has no solution (a student's tree): selftest needs the instructor's"
		for tag in skeleton solution; do
			rm -rf "$selftest_dir/$tag/lab$n"
			labs/gen.sh "${tag/skeleton/student}" "$d" "$selftest_dir/$tag/lab$n" || exit 1
		done
		for w in $(wrong_answers "$d"); do
			slug=${w%%:*}
			labs/gen.sh solution "$d" "$selftest_dir/wrong/lab$n-$slug" || exit 1
			(cd "$selftest_dir/wrong/lab$n-$slug" && bash "$repo/$d/wrong/$slug.sh") ||
				die "$d/wrong/$slug.sh failed"
			# a change that changed nothing would test the solution
			diff -rq "$selftest_dir/solution/lab$n" "$selftest_dir/wrong/lab$n-$slug" >/dev/null &&
				die "$d/wrong/$slug.sh left the solution as it was"
			# (two labs may name a wrong answer alike)
			wants[wrong-lab$n-$slug]=${w#*:}
		done
	done
	for k in ${LAB_KERNELS-6.1 6.12}; do
		rel=$(release "$k")
		need_core "$rel"
		items=()
		for n in $labs; do
			for tag in skeleton solution; do
				# a skeleton's module may not build: its checks say so
				build_mod "$selftest_dir/$tag/lab$n" \
					"$repo/$out/obj/$tag-lab$n/$rel" "$rel" 2>/dev/null ||
					[ $tag = skeleton ] || { echo "not ok - $k lab$n solution builds"; fail=$((fail + 1)); }
				items+=("$n:$tag:$selftest_dir/$tag/lab$n:$repo/$out/obj/$tag-lab$n/$rel")
			done
			# the wrong answers: only the exercises each must fail,
			# on LAB_WRONG_KERNELS' kernels only
			wrong_here "$k" || continue
			for w in $(wrong_answers "$(labdir "$n")"); do
				slug=${w%%:*}
				build_mod "$selftest_dir/wrong/lab$n-$slug" \
					"$repo/$out/obj/wrong-lab$n-$slug/$rel" "$rel" 2>/dev/null ||
					{ echo "not ok - $k lab$n wrong answer $slug builds"; fail=$((fail + 1)); }
				items+=("$n:wrong-lab$n-$slug:$selftest_dir/wrong/lab$n-$slug:$repo/$out/obj/wrong-lab$n-$slug/$rel:${w#*:}")
			done
		done
		echo "labs-selftest: $rel: ${#items[@]} runs in one guest" >&2
		t0=$(date +%s)
		# (the guest's stderr apart: on a failure it repeats the console)
		res=$(guest "$k" 2400 "${items[@]}" 2>"$selftest_dir/guest-$k.err")
		rc=$?
		echo "labs-selftest: $rel: the guest took $(( $(date +%s) - $(cat "$guest_start") )) s" \
			"(after $(( $(cat "$guest_start") - t0 )) s waiting for the VM lock)" >&2
		printf '%s\n' "$res" > "$selftest_dir/guest-$k.log"
		# A skeleton's exercise must fail, a solution's must pass, a
		# wrong answer's must fail; and no check may stop at an error
		# it did not foresee (output it could not parse is a hint).
		while IFS= read -r line; do
			case $line in
			"## "*) tag=${line#\#\# }; tag=${tag% *}; ex=${wants[$tag]:-} ;;
			"ok - "*)
				if [ "$tag" = solution ]; then
					echo "ok - $k solution: ${line#ok - }"; pass=$((pass + 1))
				else
					echo "not ok - $k $tag passes: ${line#ok - }"; fail=$((fail + 1))
				fi ;;
			"not ok - "*"the check stopped at an unexpected error"*)
				echo "not ok - $k $tag: ${line#not ok - }"; fail=$((fail + 1)) ;;
			"not ok - "*)
				if [ "$tag" = solution ]; then
					echo "not ok - $k solution: ${line#not ok - }"; fail=$((fail + 1))
				elif [ "$tag" = skeleton ]; then
					echo "ok - $k skeleton fails: ${line#not ok - }" | sed 's/ (hint: .*//'
					pass=$((pass + 1))
				else
					# the hint too: it should name what is wrong
					echo "ok - $k ${tag/wrong-/wrong answer } fails: ${line#not ok - }"
					pass=$((pass + 1))
				fi ;;
			esac
		done <<< "$res"
		# each wrong answer ran, and failed each exercise it must
		for tag in "${!wants[@]}"; do
			wrong_here "$k" || break
			for ex in ${wants[$tag]//,/ }; do
				n=$(awk -v t="$tag" '$1 == "##" { on = ($2 == t) } on' <<< "$res" |
					grep -c "^not ok - lab[0-9]*\.$ex ")
				[ "$n" = 1 ] || { echo "not ok - $k $tag: exercise $ex did not run"; fail=$((fail + 1)); }
			done
		done
		if [ $rc = 125 ] || ! grep -q '^## solution' <<< "$res"; then
			echo "not ok - $k guest (exit $rc; $selftest_dir/guest-$k.log, .err)"
			tail -30 "$selftest_dir/guest-$k.err"
			fail=$((fail + 1))
		fi
	done
	# (LABS, LAB_KERNELS: a part, while working on a lab; make check
	# runs each kernel's part in a job of its own, the smokes in one)
	smokes=${LAB_SMOKES:-}
	if [ -z "$smokes" ]; then
		smokes=0
		[ -z "${LABS:-}${LAB_KERNELS:-}" ] && smokes=1
	fi
	if [ "$smokes" = 1 ]; then
		if shell_smoke; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
		t0=$(date +%s)
		res=$(fresh_copy)
		printf '%s\n' "$res"
		pass=$((pass + $(grep -c '^ok - ' <<< "$res")))
		fail=$((fail + $(grep -c '^not ok - ' <<< "$res")))
		echo "labs-selftest: the fresh copy's checks took $(( $(date +%s) - t0 )) s" >&2
	fi
	echo "labs-selftest: $(( $(date +%s) - start )) s" >&2
	finish "$pass" "$fail"
}

# shell_smoke: `make lab N=1` as a student meets it, on a copy of the
# solution's working copy, typed into through a FIFO: the banner, the
# lab's functions in the shell, a probe added, files edited on the host
# (in place, and replaced by sed -i) read again in the guest two seconds
# later, and power-off on exit. Prints one "ok"/"not ok" line.
shell_smoke() {
	local w=$selftest_dir/shell/lab1 log=$selftest_dir/shell.log
	local fifo pid n=240 what="" size
	rm -rf "$w"
	mkdir -p "${w%/*}" && cp -r "$selftest_dir/solution/lab1" "$w" || return 1
	echo before > "$w/edit.txt"
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
	(echo 'echo "lab-shell: $PWD"; echo "seen-1 $(cat edit.txt)"; add_probe; rawprobectl probe list' >&3) 2>/dev/null
	n=120
	while [ $n -gt 0 ] && ! grep -q 'seen-1 before' "$log" && kill -0 $pid 2>/dev/null; do
		sleep 1
		n=$((n - 1))
	done
	# the student's edits: a new file (sed -i), and an append in place
	# (the lines looked for are unanchored: the shell's bracketed-paste
	# escapes may precede them; what was typed does not hold them)
	sed -i 's/before/after/' "$w/edit.txt"
	echo 'edited() { echo "edited-fn $(wc -c < lab1.sh)"; }' >> "$w/lab1.sh"
	size=$(wc -c < "$w/lab1.sh")
	sleep 2
	(echo 'echo "seen-2 $(cat edit.txt)"; . ./lab1.sh; edited' >&3) 2>/dev/null
	# exit once the answer is out: the power-off is no part of the check
	n=120
	while [ $n -gt 0 ] && ! grep -Eaq 'edited-fn [0-9]|edited: command not found' "$log" &&
	      kill -0 $pid 2>/dev/null; do
		sleep 1
		n=$((n - 1))
	done
	(echo exit >&3) 2>/dev/null
	wait $pid
	exec 3>&-
	rm -f "$fifo"
	grep -q 'functions of lab1.sh loaded' "$log" || what+=" no lab functions;"
	grep -qF "lab-shell: $w" "$log" || what+=" not in the working copy;"
	grep -Eq '^ +[0-9]+ kprobe +__x64_sys_getpgid +armed' "$log" ||
		what+=" add_probe made no probe;"
	grep -q 'seen-1 before' "$log" || what+=" edit.txt not read;"
	grep -q 'seen-2 after' "$log" || what+=" a file replaced on the host (sed -i) read as it was;"
	grep -q "edited-fn $size" "$log" ||
		what+=" lab1.sh appended to on the host read as it was ($(grep -ao 'edited-fn [0-9]*' "$log"), host: $size bytes);"
	grep -q 'reboot: Power down' "$log" || what+=" no power-off at exit;"
	if [ -z "$what" ]; then
		echo "ok - 6.1 make lab N=1 opens a shell in the working copy, which reads host edits"
		return 0
	fi
	echo "not ok - 6.1 make lab N=1:$what (see $log)"
	# the log goes with a CI's clean clone: its end, where the run's log keeps it
	tail -n 25 "$log" | sed 's/^/labs-selftest: shell: /' >&2
	return 1
}

# fresh_copy: make lab-check's documented forms on a copy of the tree
# with no build/ (a fresh clone, the uncommitted changes included), a
# skeleton each: every check runs (and fails), and the first builds for
# the kernel asked for alone. Prints "ok"/"not ok" lines.
fresh_copy() {
	local t log rc built
	t=$(mktemp -d /tmp/rawprobe-labs-fresh.XXXXXX) || return 1
	mkdir -p "$t/tree" "$t/home"
	git ls-files -co --exclude-standard -z | cpio -0pdm --quiet "$t/tree" 2>/dev/null
	log=$t/k612.log
	(cd "$t/tree" && HOME=$t/home bash -c 'make lab-check N=1 K=6.12 LAB_WORK=~/labs/lab1') > "$log" 2>&1
	rc=$?
	built=$(cd "$t/tree/build" && ls -d [0-9]*/ 2>/dev/null | tr -d / | tr '\n' ' ')
	if [ $rc != 0 ] && [ -f "$t/home/labs/lab1/lab1.sh" ] &&
	   [ "$(grep -c '^not ok - lab1\.' "$log")" = 6 ] && grep -q '^0 passed, 6 failed$' "$log"; then
		echo "ok - fresh clone: make lab-check N=1 K=6.12 LAB_WORK=~/labs/lab1 runs each check"
	else
		echo "not ok - fresh clone: make lab-check N=1 K=6.12 LAB_WORK=~/labs/lab1 (exit $rc): $(tail -3 "$log" | tr '\n' ' ')"
	fi
	if [ "$built" = "$(release 6.12) " ]; then
		echo "ok - fresh clone: make lab-check K=6.12 builds for 6.12 alone"
	else
		echo "not ok - fresh clone: make lab-check K=6.12 built for: $built"
	fi
	log=$t/k61.log
	(cd "$t/tree" && HOME=$t/home make lab-check N=1) > "$log" 2>&1
	rc=$?
	if [ $rc != 0 ] && [ -f "$t/tree/build/labs/work/lab1/lab1.sh" ] &&
	   grep -q '^0 passed, 6 failed$' "$log"; then
		echo "ok - fresh clone: make lab-check N=1 runs each check"
	else
		echo "not ok - fresh clone: make lab-check N=1 (exit $rc): $(tail -3 "$log" | tr '\n' ' ')"
	fi
	rm -rf "$t"
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
