# SPDX-License-Identifier: GPL-2.0
#
# The setup btf.sh and btf_out.sh share, sourced after lib.sh: the BTF
# of Debian's 6.12 kernel (tests/cli/btf-fixture.sh) in RAWPROBECTL_BTF,
# a kallsyms fixture, same() and ADD.

# same NAME FILE -- CMD...: CMD's stdout is FILE's text exactly
same() {
	local name=$1 want=$2 rc=0
	shift 3
	"$@" >"$T/got" 2>"$T/stderr" || rc=$?
	if [ "$rc" = 0 ] && cmp -s "$want" "$T/got"; then
		pass=$((pass + 1)); echo "ok - btf: $name"
	else
		fail=$((fail + 1)); echo "not ok - btf: $name (exit $rc)"
		diff "$want" "$T/got" | head -20 | sed 's/^/    /'
		sed 's/^/    stderr: /' "$T/stderr" | head -5
	fi
}

if ! BTF=$("$here/btf-fixture.sh" 2>"$T/fixture.err"); then
	echo "not ok - btf: the BTF of Debian's 6.12 kernel (tests/cli/btf-fixture.sh)"
	sed 's/^/    /' "$T/fixture.err"
	echo "0 passed, 1 failed"
	exit 1
fi
export RAWPROBECTL_BTF=$BTF
unset RAWPROBECTL_TRACEFS
# kallsyms as probe add checks it first; ext4's for the module fallback
cat >"$T/kallsyms" <<'KSYMS'
ffffffff81100000 T vfs_read
ffffffff81100200 T vfs_write
ffffffff81100400 t do_sys_openat2
ffffffff81100800 T __x64_sys_openat
ffffffff81100900 T __x64_sys_openat2
ffffffff81100a00 T __x64_sys_getpid
ffffffff81100b00 T __x64_sys_read
ffffffff81100b80 T __x64_sys_pread64
ffffffff81100bc0 T __x64_sys_lseek
ffffffff81100c00 T do_error_trap
ffffffff81100d00 T pte_val
ffffffff81100e00 T fpregs_get
ffffffff81100f00 T __cpuhp_remove_state
ffffffff81101000 T cc_platform_has
ffffffff81101100 T consume_skb
ffffffff81101200 T sk_skb_reason_drop
ffffffff81101300 T inet_release
ffffffff81101400 T inet_csk_accept
ffffffff81101500 T wake_up_process
ffffffff81101600 T perf_event_create_kernel_counter
ffffffff81101700 T __ia32_sys_getppid
ffffffff81101700 T __x64_sys_getppid
ffffffffc0001000 t ext4_sync_file	[ext4]
KSYMS
export RAWPROBE_KALLSYMS=$T/kallsyms
ADD="$CTL probe add"
