# SPDX-License-Identifier: GPL-2.0
# Kernel lockdown raised while probes exist: whatever
# would arm a probe or read the rings asks again; from integrity on, no
# return override. Lockdown cannot be
# lowered, and once raised no unsigned module loads, so this case runs
# last in its guest (suite.sh runs the cases in name order).

LOCKDOWN=/sys/kernel/security/lockdown
S=$T_SCRATCH

t_lockdown_raised_with_probes() {
	local dummy modp offp
	probe_state() { json_get "$($CTL -j probe show $1)" 'j["state"]'; }
	# Debian's own dummy.ko: signed, so it still loads under lockdown
	dummy=$(find /var/cache/rawprobe/kernels/$KREL/lib/modules -name 'dummy.ko*' | head -1)
	[ -n "$dummy" ] || fail "no dummy.ko for $KREL"
	grep -q '\[none\]' $LOCKDOWN || fail "lockdown is not 'none': $(cat $LOCKDOWN)"
	insmod "$dummy"
	modp=$($CTL probe add kprobe dummy:dummy_setup)
	offp=$($CTL probe add kprobe vfs_read --disabled)
	rmmod dummy
	expect_eq gone "$(probe_state $modp)" "module probe gone with dummy"

	# integrity: probes still read, but nothing may change what the
	# kernel's code does (return override)
	echo integrity > $LOCKDOWN
	grep -q '\[integrity\]' $LOCKDOWN || fail "lockdown not raised to integrity"
	expect_fail 4 "locked down: return override" \
		$CTL trace kprobe:__x64_sys_getuid --override 1 -d 1
	expect_fail 4 "locked down: return override" \
		$CTL inject kmalloc --in __x64_sys_mount
	$CTL probe del "$($CTL probe add kprobe vfs_write)"

	echo confidentiality > $LOCKDOWN
	grep -q '\[confidentiality\]' $LOCKDOWN || fail "lockdown not raised"

	insmod "$dummy"
	expect_eq gone "$(probe_state $modp)" "module probe after reload under lockdown"
	dmesg | grep -q "probe $modp: not re-armed in dummy: kernel lockdown" ||
		fail "the refused re-arm is not logged"
	expect_fail 4 "refused by kernel lockdown.*EPERM" $CTL probe enable "$offp"
	expect_eq disabled "$(probe_state $offp)" "disabled probe stays disabled"
	expect_fail 4 "refused by kernel lockdown.*EPERM" $CTL probe add kprobe vfs_write
	expect_fail 4 "refused by kernel lockdown" $CTL stream -d 0.2
	$CTL probe del all
	rmmod dummy
}

tests t_lockdown_raised_with_probes
