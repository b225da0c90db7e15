# fails: 6
# The workload's command name instead of its cgroup: every python3 is in.
cat >> lab3.sh <<'END'
trace_cgroup() {
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--comm python3 -d "$DURATION" -f json -o "$1"
}
END
