#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The family through its YNL spec alone: the kernel's own cli.py (Linux
# 6.12 tools/net/ynl, unmodified) drives rawprobe with uapi/rawprobe.yaml,
# and what it reads must agree with rawprobectl -j.
#
# Runs in the test guest, as root, with rawprobe loaded and the repository
# at its host path, e.g.:
#   tests/vm/run -k 6.12 -- tests/ynl/ynl-in-guest.sh
# tests/ynl/check-spec.py, run on the host first, extracts cli.py and the
# schemas into build/ynl/ (the guest cannot write there, and unpacking the
# kernel tarball under TCG would take minutes).
#
# Output: "ok - ynl: NAME" / "not ok - ynl: NAME" lines (tests/vm/lib.sh),
# then "N passed, N failed".
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
export RAWPROBECTL=${RAWPROBECTL:-$repo/userctl/rawprobectl}
export RAWPROBE_KO=${RAWPROBE_KO:-$repo/rawprobe.ko}
# fail, expect_*, run_tests, wait_for, json_get
. "$repo/tests/vm/lib.sh"
T_CASE="ynl: "

SPEC=$repo/uapi/rawprobe.yaml
KSRC=$repo/build/ynl
proto=$(sed -n 's/^protocol: *//p' "$SPEC")
# --schema: cli.py looks for the schema next to the spec's parent directory
# (a kernel tree's layout), which uapi/ is not.
YNL=(python3 "$KSRC/tools/net/ynl/cli.py" --spec "$SPEC"
     --schema "$KSRC/Documentation/netlink/${proto:-genetlink}.yaml" --output-json)
SYM=__x64_sys_getpgid

ynl() {
	"${YNL[@]}" "$@"
}

# pycheck CODE JSON...: run CODE on d[0], d[1], ... (the documents, parsed);
# its same(a, b, what) and want(cond, what) collect failures, which fail
# the test. One python per check: it takes a second to start under TCG.
pycheck() {
	local code=$1
	shift
	python3 -c '
import json, os, sys
d = [json.loads(a) for a in sys.argv[2:]]
bad = []
def same(a, b, what):
    if a != b:
        bad.append(f"{what}: cli.py {a!r}, rawprobectl {b!r}")
def want(cond, what):
    if not cond:
        bad.append(what)
exec(sys.argv[1])
for b in bad:
    print("    FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)' "$code" "$@"
}

# asleep PID: PID blocks in (clock_)nanosleep, i.e. cli.py has subscribed
# and reached its --sleep.
asleep() {
	local nr
	read -r nr _ < "/proc/$1/syscall" 2>/dev/null || return 1
	[ "$nr" = 230 ] || [ "$nr" = 35 ]
}

# A stale copy of the ABI would test nothing.
t_spec_loads() {
	local ops
	ops=$(ynl --list-ops) || fail "cli.py cannot load $SPEC"
	for op in get-info probe-add probe-del probe-get ring-get ring-new ring-del; do
		expect_match "^$op " "$ops" "cli.py --list-ops"
	done
}

t_get_info() {
	local y c
	y=$(ynl --do get-info) || fail "get-info: $y"
	c=$($CTL -j version)
	pycheck '
y, c = d[0], d[1]["module"]
same(y["abi-version"], c["abi"], "ABI version")
same(y["module-version"], c["version"], "module version")
same(y["kernel-release"], c["kernel"], "kernel release")
want(y["kernel-release"] == os.uname().release, "kernel-release is not uname -r")
same(y["nr-rings"], c["rings"], "rings")
same(y["ring-records"], c["ring_records"], "ring records")
same(y["ring-mode"], c["ring_mode"], "ring mode")
same(y["nr-probes"], c["probes"], "probes")' "$y" "$c"
}

t_ring_get() {
	local y c
	y=$(ynl --do ring-get) || fail "ring-get: $y"
	c=$($CTL -j ring show)
	pycheck '
y, c = d[0], d[1]
same(y["nr-rings"], c["rings"], "rings")
same(y["ring-records"], c["records"], "records")
same(y["ring-mode"], c["mode"], "mode")
same(y["ring-bytes"], c["allocated_bytes"], "allocated bytes")' "$y" "$c"
}

# A named session made with cli.py (it outlives cli.py's socket), as
# rawprobectl sees it (ring list, ring show NAME, a probe's session), a
# probe added into it with cli.py, the session kept while the probe is,
# then removed with rawprobectl.
t_sessions() {
	local new dump list show add id plist after
	new=$(ynl --do ring-new --json \
		'{"session-name": "ynl_t", "ring-records": 128, "ring-mode": "overwrite"}') ||
		fail "ring-new: $new"
	# the test runs in a subshell: leave no session behind on failure
	trap '$CTL ring del ynl_t >/dev/null 2>&1 || true' EXIT
	dump=$(ynl --dump ring-get) || fail "ring-get dump: $dump"
	list=$($CTL -j ring list)
	show=$($CTL -j ring show ynl_t)
	add=$(ynl --do probe-add --json \
		"{\"kind\": \"kprobe\", \"symbol\": \"$SYM\", \"flags\": [\"persistent\"], \"session-name\": \"ynl_t\"}") ||
		fail "probe-add into ynl_t: $add"
	id=$(json_get "$add" 'j["probe-id"]')
	# shellcheck disable=SC2064
	# (set -e holds in the trap too: one list, its status ignored)
	trap "{ $CTL probe del $id; $CTL ring del ynl_t; } >/dev/null 2>&1 || true" EXIT
	plist=$($CTL -j probe list)
	expect_fail 1 "EBUSY" "$CTL" ring del ynl_t
	$CTL probe del "$id"
	$CTL ring del ynl_t
	after=$($CTL -j ring list)
	pycheck '
new, dump, lst, show, add, plist, after = d
want(new.get("session-name") == "ynl_t" and new.get("ring-records") == 128 and
     new.get("ring-mode") == "overwrite", f"ring-new answered {new}")
sid = new["session"]
y = next(s for s in dump if s.get("session") == sid)
c = next(s for s in lst if s["session"] == sid)
for a, b in (("session-name", "name"), ("nr-rings", "rings"), ("ring-records", "records"),
             ("ring-mode", "mode"), ("ring-bytes", "allocated_bytes"),
             ("session-uid", "owner_uid"), ("nr-probes", "probes"),
             ("session-readers", "readers"), ("session-lost", "lost")):
    same(y.get(a), c.get(b), a)
same(show, c, "ring show ynl_t against ring list")
want(0 in [s["session"] for s in lst], f"no default session in ring list: {lst}")
same(add.get("session"), sid, "probe-add answered its session")
same(next(p for p in plist if p["id"] == add["probe-id"])["session"], sid,
     "probe list: the session")
want(sid not in [s["session"] for s in after], f"ring del left it: {after}")' \
		"$new" "$dump" "$list" "$show" "$add" "$plist" "$after"
}

# Add with cli.py (persistent: its socket closes when it exits), hit the
# probe, dump it with cli.py and rawprobectl, get it by id, delete it.
t_add_dump_del() {
	local add id dump one list del
	add=$(ynl --do probe-add --json \
		"{\"kind\": \"kprobe\", \"symbol\": \"$SYM\", \"flags\": [\"persistent\"]}") ||
		fail "probe-add: $add"
	id=$(json_get "$add" 'j["probe-id"]')
	python3 -c 'import os
for i in range(200): os.getpgid(0)'
	dump=$(ynl --dump probe-get) || fail "probe-get dump: $dump"
	one=$(ynl --do probe-get --json "{\"probe-id\": $id}") || fail "probe-get: $one"
	list=$($CTL -j probe list)
	pycheck '
add, dump, one, lst, pid, sym = d
want(add["kind"] == "kprobe" and add["symbol"] == sym and
     add["state"] == "armed" and "persistent" in add["flags"],
     f"probe-add answered {add}")
same(sorted(p["probe-id"] for p in dump), sorted(p["id"] for p in lst), "probe ids")
y = next(p for p in dump if p["probe-id"] == pid)
c = next(p for p in lst if p["id"] == pid)
for a, b in (("kind", "kind"), ("symbol", "symbol"), ("state", "state"),
             ("offset", "offset"), ("probed-addr", "address")):
    same(y.get(a), c.get(b), a)
same("persistent" in y["flags"], c["persistent"], "persistent flag")
same("syscall" in y["flags"], c["syscall_args"], "syscall flag")
same(y["nargs"], len(c["args"]), "nargs")
# cli.py read first: none of its counters may be ahead of rawprobectl
ys, cs = y["stats"], c["stats"]
for a, b in (("hits", "hits"), ("records", "records"), ("lost-ring", "lost_ring"),
             ("miss-maxactive", "missed_maxactive"),
             ("miss-recursion", "missed_recursion"),
             ("str-faults", "string_faults"), ("filtered", "filtered")):
    want(ys[a] <= cs[b], f"stats {a}: cli.py {ys[a]}, later rawprobectl {cs[b]}")
want(ys["hits"] >= 200, f"hits {ys} < 200")
want(ys["hits"] == ys["records"] + ys["lost-ring"], f"hits != records + lost-ring: {ys}")
# flags: cli.py decodes a set, printed in any order
strip = lambda p: {k: sorted(v) if k == "flags" else v
                   for k, v in p.items() if k != "stats"}
want(strip(one) == strip(y), f"probe-get {one} is not its dump entry {y}")
' "$add" "$dump" "$one" "$list" "$id" "\"$SYM\""
	del=$(ynl --do probe-del --json "{\"probe-id\": $id}") || fail "probe-del: $del"
	# an answer (an empty message) means the probe was deleted
	expect_eq "{}" "$del" "probe-del's answer"
	list=$($CTL -j probe list)
	if printf '%s' "$list" | grep -q "\"id\":$id,"; then
		fail "probe $id is still listed after probe-del: $list"
	fi
}

# probe-del of a list (probe-ids, binary u32s: cli.py takes hex), and
# arg-names kept and reported as cli.py sent them.
t_del_list_and_names() {
	local add id a b hex
	add=$(ynl --do probe-add --json "{\"kind\": \"jprobe\", \"symbol\": \"vfs_read\",
		\"nargs\": 3, \"arg-names\": \"file,buf,count\", \"flags\": [\"persistent\"]}") ||
		fail "probe-add: $add"
	expect_eq "file,buf,count" "$(json_get "$add" 'j["arg-names"]')" "arg-names answered"
	id=$(json_get "$add" 'j["probe-id"]')
	read -r a b <<<"$($CTL probe add kprobe vfs_write vfs_fsync | xargs)"
	hex=$(python3 -c 'import struct, sys
print(struct.pack("<3I", *map(int, sys.argv[1:])).hex())' "$id" "$a" "$b")
	ynl --do probe-del --json "{\"probe-ids\": \"$hex\"}" >/dev/null ||
		fail "probe-del of a list"
	expect_eq 0 "$(probe_count)" "probes left after deleting the list"
}

# Without the persistent flag the probe is cli.py's socket's: it goes
# when cli.py exits.
t_owned_probe_goes() {
	local add id
	add=$(ynl --do probe-add --json "{\"kind\": \"kprobe\", \"symbol\": \"$SYM\"}") ||
		fail "probe-add: $add"
	id=$(json_get "$add" 'j["probe-id"]')
	wait_for "! $CTL -j probe list | grep -q '\"id\":$id,'" 50 ||
		fail "probe $id outlived cli.py's socket"
}

# The policy rejects a custom kind; cli.py names the attribute from the
# extended ack's offset, through the spec.
t_policy_error() {
	local out rc=0
	out=$(ynl --do probe-add --json "{\"kind\": \"custom\", \"symbol\": \"$SYM\"}" 2>&1) ||
		rc=$?
	expect_eq 1 "$rc" "cli.py's exit status (out: $out)"
	expect_match "Netlink error" "$out" "cli.py's error"
	expect_match "'bad-attr': '\.kind'" "$out" "the attribute the extack blames"
}

# cli.py subscribed to "events" and rawprobectl monitor see the same
# added and removed events.
t_events() {
	local id pid mon out=$T_SCRATCH/ynl-events.json mout=$T_SCRATCH/monitor.json
	$CTL -j monitor > "$mout" 2>&1 &
	mon=$!
	"${YNL[@]}" --subscribe events --sleep 6 > "$out" 2> "$out.err" &
	pid=$!
	# the test runs in a subshell: leave no listener behind on failure
	# (expanded now: the locals are gone when the subshell exits; and
	# "|| true": under set -e, a kill of what already ended would make
	# the test's status 1)
	# shellcheck disable=SC2064
	trap "kill $pid $mon 2>/dev/null || true" EXIT
	wait_for "asleep $pid" 300 ||
		fail "cli.py did not reach its --sleep: $(cat "$out.err")"
	id=$($CTL probe add kprobe "$SYM")
	$CTL probe del "$id"
	wait "$pid" || fail "cli.py --subscribe: $(cat "$out" "$out.err")"
	sleep 0.5	# the monitor prints as it reads
	kill "$mon" 2>/dev/null || fail "rawprobectl monitor ended early: $(cat "$mout")"
	wait "$mon" || true
	pycheck '
ynl, mon, pid = d
y = [(e["msg"]["event"], e["msg"]["probe-id"], e["msg"]["kind"], e["msg"]["state"])
     for e in ynl if e["name"] == "event" and e["msg"]["probe-id"] == pid]
c = [(m["event"], m["id"], m["kind"], m["state"]) for m in mon if m["id"] == pid]
want([e[0] for e in y] == ["added", "removed"], f"cli.py got {y}")
same(y, c, "events")' "$(cat "$out")" "[$(paste -sd, "$mout")]" "$id"
}

# ftrace-addr: the kernel checks it against its own kallsyms, and arms the
# probe through its ftrace_ops (flag ftrace); an address that is not the
# symbol's is refused with the reason, and adds nothing.
t_ftrace_addr() {
	local addr add id wrong
	# bash's arithmetic is signed: printed back as the u64 it is
	addr=$((16#$(awk '$3 == "vfs_read" && $2 ~ /^[tT]$/ { print $1; exit }' /proc/kallsyms)))
	wrong=$(printf '%u' $((addr + 16)))
	addr=$(printf '%u' "$addr")
	add=$(ynl --do probe-add --json "{\"kind\": \"kprobe\", \"symbol\": \"vfs_read\",
		\"ftrace-addr\": $wrong}" 2>&1) &&
		fail "a wrong ftrace-addr was taken: $add"
	expect_match "not where kallsyms has the symbol" "$add" "the reason"
	expect_eq 0 "$(probe_count)" "probes after the refused add"
	add=$(ynl --do probe-add --json "{\"kind\": \"kprobe\", \"symbol\": \"vfs_read\",
		\"ftrace-addr\": $addr, \"flags\": [\"persistent\"]}") ||
		fail "probe-add: $add"
	pycheck 'want("ftrace" in d[0]["flags"], "flags %s" % d[0]["flags"])' "$add"
	id=$(json_get "$add" 'j["probe-id"]')
	ynl --do probe-del --json "{\"probe-id\": $id}" >/dev/null ||
		fail "probe-del"
}

# A pair through the spec: a start alone is refused (its end must come
# in its batch); a pair rawprobectl added reads back, role, key and
# counts, as rawprobectl shows it.
t_pair() {
	local out ids start j
	out=$(ynl --do probe-add --json "{\"kind\": \"kprobe\", \"symbol\": \"$SYM\",
		\"pair\": {\"role\": \"start\", \"key\": \"pid\"}}" 2>&1) &&
		fail "a start without its end was taken: $out"
	expect_match "a pair needs a start and an end in the same batch" "$out" "the reason"
	ids=$($CTL probe add pair --key pid --from kprobe:$SYM --to kprobe:__x64_sys_getppid | xargs)
	start=${ids%% *}
	python3 -c 'import os
os.getpgid(0); os.getppid()'
	j=$(ynl --do probe-get --json "{\"probe-id\": $start}") || fail "probe-get: $j"
	pycheck '
y, c = d
same(y["pair"]["role"], c["pair"]["role"], "role")
same(y["pair"]["key"], c["pair"]["key"], "key")
same(y["pair"]["expire-ms"], c["pair"]["expire_ms"], "expire-ms")
want(y["pair-stats"]["matched"] >= 1, "pair-stats %s" % y["pair-stats"])
want(y["pair-stats"]["matched"] <= c["pair"]["stats"]["matched"], "matched ahead of rawprobectl")
' "$j" "$($CTL -j probe show "$start")"
	$CTL probe del $ids
}

tests t_spec_loads t_get_info t_ring_get t_sessions t_add_dump_del t_del_list_and_names \
	t_owned_probe_goes t_ftrace_addr t_pair \
	t_policy_error t_events

if [ ! -f "$KSRC/tools/net/ynl/cli.py" ]; then
	echo "not ok - ${T_CASE}no $KSRC/tools/net/ynl/cli.py: run tests/ynl/check-spec.py on the host"
	T_FAIL=1
elif ! grep -qs '^rawprobe ' /proc/modules; then
	echo "not ok - ${T_CASE}rawprobe is not loaded (tests/vm/run loads it unless -n)"
	T_FAIL=1
else
	run_tests
fi
rm -rf "$T_SCRATCH"
echo "$T_PASS passed, $T_FAIL failed"
[ "$T_FAIL" = 0 ]
