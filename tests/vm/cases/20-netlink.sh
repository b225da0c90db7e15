# SPDX-License-Identifier: GPL-2.0
# Malformed and out-of-bounds netlink requests, straight to the family.

t_malformed_requests() {
	local out
	out=$(build/tools/nl_malformed) || { echo "$out" >&2; fail "see above"; }
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "nl_malformed"
}

# Ownership per spec in a batch (issue 18, item 7) and across port reuse.
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

tests t_malformed_requests t_ownership t_events
