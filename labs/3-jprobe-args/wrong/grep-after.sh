# fails: 2
# Filtered after the fact, in user space: the kernel filters nothing.
cat >> lab3.sh <<'END'
trace_comm() {
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		-d "$DURATION" -f json | grep "\"comm\":\"$2\"" > "$1"
}
END
