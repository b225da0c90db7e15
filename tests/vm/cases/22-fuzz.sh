# SPDX-License-Identifier: GPL-2.0
# The seeded generic netlink fuzzer (tests/tools/nl_fuzz.c):
# FUZZ_COUNT messages of seed FUZZ_SEED as root, as uid 65534 and as root
# of a new user namespace, and a quarter as many templates unmutated as
# root. Every message gets a clean error or a valid
# answer within 2 s; the unprivileged ones change nothing (the tool checks
# that no command on probes, rings or sessions succeeds, and from a root
# socket in class user; this file compares probe list, ring show and the
# sessions before and after); root's run leaves nothing behind: no probe,
# no session but the default one (its sockets' unnamed sessions end with
# them, a new socket every 1000 messages), the budget all back.
#
#   FUZZ_SEED    the seed (default 13007)
#   FUZZ_COUNT   messages per class (default 10000: make check runs
#                32,500 in all: 60 to 110 s on 6.12 under TCG, most
#                of it root's, whose probes really come and go)
#
# tests/vm/run passes no environment into the guest; larger runs (make
# stress) set it there:
#   tests/vm/run -k 6.12 -t 3600 -- env FUZZ_COUNT=200000 FUZZ_SEED=7 \
#	tests/vm/suite.sh tests/vm/cases/22-fuzz.sh
# A failure prints the tool's repro line, e.g.
#   build/tools/nl_fuzz --seed 13007 --count 10000 --class root --allow-changes
# which runs as it is in a guest (tests/vm/run -k 6.12 -- ...).

FUZZ=build/tools/nl_fuzz
SESS=build/tools/nl_session
FUZZ_SEED=${FUZZ_SEED:-13007}
FUZZ_COUNT=${FUZZ_COUNT:-10000}

# A bound on one run: under TCG root's messages go at 300 to 700 a second,
# the unprivileged ones (all refused) at 2000 to 5000.
FUZZ_LIMIT="timeout -k 10 $((FUZZ_COUNT / 20 + 300))"

# fuzz_run CMD...: run the tool, show its summary (seed, outcomes,
# aggregation, errno histogram, rate), and on failure all it said; its
# last line must be "N passed, 0 failed". FUZZ_OUT: all it said.
FUZZ_OUT=
fuzz_run() {
	local out rc=0
	out=$("$@" 2>&1) || rc=$?
	FUZZ_OUT=$out
	printf '%s\n' "$out" | grep -E '^# (seed|outcome|aggregation|sessions|errno|FAIL|repro|message|privileged|[0-9.]+ messages per)'
	if [ $rc != 0 ]; then
		printf '%s\n' "$out" | grep -v -e '^ok ' >&2
		fail "'$*' exited $rc" || return
	fi
	expect_match "^[1-9][0-9]* passed, 0 failed$" \
		"$(printf '%s\n' "$out" | tail -1)" "$*"
}

# What nobody but root may change: each probe's identity, state and
# settings, the ring geometry (counters move on: compared apart) and the
# sessions (id, name, size, mode, owner, probes, memory).
fuzz_state() {
	{ $CTL -j probe list; echo; $CTL -j ring show; } | python3 -c '
import json, sys
probes, ring = [json.loads(x) for x in sys.stdin.read().split("\n") if x.strip()]
for p in probes:
    s = dict(p); s.pop("stats")
    print(json.dumps(s, sort_keys=True))
print("ring", ring["records"], ring["mode"])'
	$SESS list
}

# id:hits of every probe
fuzz_hits() {
	$CTL -j probe list | python3 -c '
import json, sys
print(" ".join("%d:%d" % (p["id"], p["stats"]["hits"]) for p in json.load(sys.stdin)))'
}

# Probes, rings and a session for the unprivileged classes to attack: an
# armed, a disabled, a filtered and a counting one (by comm, whose
# interval an AGG_READ would end), rings off their defaults, a named
# session (rp-fuzz-victim, a name the fuzzer's pool has) with a probe
# writing into it. Prints the probe ids, then the session's id.
fuzz_setup() {
	local a b c d e v
	a=$($CTL probe add kprobe vfs_read)
	b=$($CTL probe add kretprobe vfs_write --maxactive 8 --disabled)
	c=$($CTL probe add jprobe do_sys_openat2 --args s32,ustr --comm cat)
	d=$($CTL probe add kprobe vfs_read --count --by comm)
	$CTL ring set records 1024 mode overwrite
	# (a test that failed may have left it; its probes went after it)
	$SESS del rp-fuzz-victim >/dev/null 2>&1 || true
	v=$($SESS new rp-fuzz-victim records 64 mode 1)
	e=$($SESS add rp-fuzz-victim vfs_read persistent)
	echo "$a,$b,$c,$d,$e $v"
}

# No counter went back (a stats reset), no probe came or went.
fuzz_hits_grew() {	# before after
	python3 -c '
import sys
b = dict(x.split(":") for x in sys.argv[1].split())
a = dict(x.split(":") for x in sys.argv[2].split())
assert b.keys() == a.keys(), (b, a)
for k in b:
    assert int(a[k]) >= int(b[k]), (k, b[k], a[k])' "$1" "$2" ||
		fail "counters went back: '$1' -> '$2'"
}

fuzz_unprivileged() {	# class cmd-prefix...
	local cls=$1 ids sess before hits after
	shift
	ids=$(fuzz_setup)
	sess=${ids#* } ids=${ids% *}
	before=$(fuzz_state)
	hits=$(fuzz_hits)
	fuzz_run "$@" $FUZZ_LIMIT $FUZZ --seed "$FUZZ_SEED" \
		--count "$FUZZ_COUNT" --class "$cls" --ids "$ids" \
		--sessions "$sess"
	after=$(fuzz_state)
	[ "$before" = "$after" ] ||
		fail "probes, rings or sessions changed: $(diff <(echo "$before") <(echo "$after"))"
	fuzz_hits_grew "$hits" "$(fuzz_hits)"
	$CTL probe del all >/dev/null
	$SESS del rp-fuzz-victim
	$CTL ring set records $RING_DEFAULT mode discard
	echo "# figure: fuzz messages_$cls $FUZZ_COUNT"
}

# Root may change everything: the probes it adds fire meanwhile (a read,
# and open loop), with whatever argument types and filters the
# messages gave them, while others come and go and the rings are resized.
t_fuzz_root() {
	local j load rc=0 kprobes
	kprobes=$(kprobes_total)
	( while :; do cat /proc/version >/dev/null; sleep 0.02; done ) & load=$!
	fuzz_run $FUZZ_LIMIT $FUZZ --seed "$FUZZ_SEED" --count "$FUZZ_COUNT" \
		--class root --allow-changes || rc=$?
	kill $load; wait $load 2>/dev/null || true
	[ $rc = 0 ] || return $rc
	# Aggregating probes (RAWPROBE_F_AGG) came and were read: a run of
	# the default's size adds some 40 and reads them some 30 times.
	if [ "$FUZZ_COUNT" -ge 5000 ]; then
		set -- $(printf '%s\n' "$FUZZ_OUT" | sed -n \
			's/^# aggregation: \([0-9]*\) aggregating probes added, \([0-9]*\) AGG_READ dumps read \([0-9]*\) entries, \([0-9]*\) stacks.*/\1 \2 \3 \4/p')
		[ $# = 4 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$3" -gt 0 ] &&
			[ "$4" -gt 0 ] ||
			fail "aggregating probes added, read, entries, stacks: '$*'"
	fi
	expect_eq 0 "$(probe_count)" "probes left by the root run"
	j=$($CTL -j ring show)
	expect_eq "$RING_DEFAULT discard" \
		"$(json_get "$j" 'str(j["records"]) + " " + j["mode"]')" "rings"
	expect_eq "$kprobes" "$(kprobes_total)" "kprobes registered"
	expect_eq 0 "$(fentry_left)" "functions left in rawprobe's ftrace filter"
	# Sessions came and went, named and the sockets' (a run of the
	# default's size makes some 60 and deletes some 15; probes into
	# them: t_fuzz_root_templates): the tool deleted the named ones and
	# saw the others go; all of the budget is back.
	if [ "$FUZZ_COUNT" -ge 5000 ]; then
		set -- $(printf '%s\n' "$FUZZ_OUT" | sed -n \
			's/^# sessions: \([0-9]*\) made (\([0-9]*\) named), \([0-9]*\) deleted.*/\1 \2 \3/p')
		[ $# = 3 ] && [ "$1" -gt "$2" ] && [ "$2" -gt 0 ] &&
			[ "$3" -gt 0 ] ||
			fail "sessions made, named, deleted: '$*'"
	fi
	expect_eq "id=0" "$($SESS list | cut -d' ' -f1 | xargs)" "sessions left"
	$SESS budget
	echo "# figure: fuzz messages_root $FUZZ_COUNT"
}

# The templates alone (--plain), a quarter as many: requests the module
# takes, so that sessions, named and the sockets', and the probes that
# write into them really come and go, with the rings resized and deleted
# under them (most mutated requests are refused when parsed: in the run
# above a session comes with one message in 150). (These found RING_NEW
# leaving in the table a session it had freed.)
t_fuzz_root_templates() {
	local load rc=0 n=$((FUZZ_COUNT / 4))
	( while :; do cat /proc/version >/dev/null; sleep 0.02; done ) & load=$!
	fuzz_run $FUZZ_LIMIT $FUZZ --seed "$((FUZZ_SEED + 1))" --count "$n" \
		--class root --allow-changes --plain || rc=$?
	kill $load; wait $load 2>/dev/null || true
	[ $rc = 0 ] || return $rc
	if [ "$n" -ge 1000 ]; then
		set -- $(printf '%s\n' "$FUZZ_OUT" | sed -n \
			's/^# sessions: \([0-9]*\) made (\([0-9]*\) named), \([0-9]*\) deleted, \([0-9]*\) probes.*/\1 \2 \3 \4/p')
		[ $# = 4 ] && [ "$1" -gt "$2" ] && [ "$2" -gt 0 ] &&
			[ "$3" -gt 0 ] && [ "$4" -gt 0 ] ||
			fail "sessions made, named, deleted, probes into them: '$*'"
	fi
	expect_eq 0 "$(probe_count)" "probes left by the run"
	expect_eq "id=0" "$($SESS list | cut -d' ' -f1 | xargs)" "sessions left"
	$SESS budget
	echo "# figure: fuzz messages_root_templates $n"
}

# uid/gid 65534, no groups, no capabilities: the tool drops to it after
# opening the root socket it checks from.
t_fuzz_user() {
	fuzz_unprivileged user
}

# unshare -Ur CMD...: root of a new user namespace. The guest runs its
# jobs chrooted into the host's root (tests/vm/guest-init), and the kernel
# refuses a new user namespace to a chrooted caller (EPERM); then the
# namespace is made from pid 1's root (the initramfs's busybox), and
# entered back into our root with chroot, which its root may do.
userns() {
	if unshare -Ur true 2>/dev/null; then
		unshare -Ur "$@"
	elif [ /proc/1/root/mnt/root/. -ef / ]; then
		chroot /proc/1/root /bin/busybox unshare -U -r \
			/bin/busybox chroot /mnt/root /bin/bash -c \
			'cd "$1" && shift && exec "$@"' userns "$PWD" "$@"
	else
		fail "cannot make a user namespace here"
	fi
}

# Root of a new user namespace: every capability, none in the initial one.
t_fuzz_userns() {
	fuzz_unprivileged userns userns
}

tests t_fuzz_root t_fuzz_root_templates t_fuzz_user t_fuzz_userns
