# fails: 5
# The right records, chosen in user space: the kernel filters nothing.
cat >> lab3.sh <<'END'
trace_file() {
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		-d "$DURATION" -f json | grep "\"str\":\"$2\"" > "$1"
}
END
