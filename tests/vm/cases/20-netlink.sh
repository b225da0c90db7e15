# SPDX-License-Identifier: GPL-2.0
# Malformed and out-of-bounds netlink requests, straight to the family.

# uid 65534 with CAP_PERFMON and nothing else
PERFMON="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon"

t_malformed_requests() {
	local out
	out=$(build/tools/nl_malformed) || { echo "$out" >&2; fail "see above"; }
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "nl_malformed"
}

# Ownership per spec in a batch (persistent and owned mixed) and across
# port reuse.
t_ownership() {
	local out
	out=$(build/tools/nl_ownership) || { echo "$out" >&2; fail "see above"; }
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "nl_ownership"
}

t_events() {
	local id
	$CTL -j monitor > $T_SCRATCH/events 2>&1 &
	local pid=$!
	sleep 0.5
	id=$($CTL probe add kprobe vfs_read)
	$CTL probe disable "$id"
	$CTL probe enable "$id"
	$CTL probe del "$id"
	sleep 0.5
	kill "$pid"; wait "$pid" || true
	for e in added disabled enabled removed; do
		grep -q "\"event\":\"$e\".*\"id\":$id" $T_SCRATCH/events ||
			fail "no '$e' event: $(cat $T_SCRATCH/events)"
	done
}

# A command's probe is its command's: another CAP_PERFMON user can neither
# delete, disable nor enable it, by id or by "all" (which keeps it and
# says so); root, with CAP_SYS_ADMIN, can. The user's own persistent
# probes stay its own to delete.
t_command_probe_refused_to_others() {
	local j id mine out rule="belongs to the command that added it.*EPERM"
	bg_start $T_SCRATCH/owned.out trace kprobe:__x64_sys_getppid
	# a failed check ends the test here: the command goes too
	trap 'kill -INT $BG_PID 2>/dev/null || true' EXIT
	j=$($CTL -j probe list)
	expect_eq 1 "$(json_get "$j" 'len(j)')" "the trace's probes"
	expect_eq False "$(json_get "$j" 'j[0]["persistent"]')" "the trace's probe is owned"
	expect_eq armed "$(json_get "$j" 'j[0]["state"]')" "its state"
	id=$(json_get "$j" 'j[0]["id"]')
	expect_fail 4 "$rule" $PERFMON $CTL probe del "$id"
	expect_fail 4 "$rule" $PERFMON $CTL probe disable "$id"
	expect_fail 4 "$rule" $PERFMON $CTL probe enable "$id"
	mine=$($PERFMON $CTL probe add kprobe vfs_write)
	$PERFMON $CTL probe del "$mine"
	$PERFMON $CTL probe add kprobe vfs_write >/dev/null
	out=$($PERFMON $CTL probe del all 2>&1) || fail "probe del all: $out"
	expect_match "1 probe kept: other commands' probes and overrides need CAP_SYS_ADMIN" \
		"$out" "probe del all's note"
	j=$($CTL -j probe list)
	expect_eq "[$id]" "$(json_get "$j" '[p["id"] for p in j]')" "probes after del all"
	expect_eq armed "$(json_get "$j" 'j[0]["state"]')" "the trace's probe after del all"
	$CTL probe disable "$id"
	expect_eq disabled "$(json_get "$($CTL -j probe show "$id")" 'j["state"]')" \
		"state after root's disable"
	$CTL probe enable "$id"
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes after root's del"
	kill -INT "$BG_PID"
	wait "$BG_PID" || true
}

tests t_malformed_requests t_ownership t_events \
	t_command_probe_refused_to_others
