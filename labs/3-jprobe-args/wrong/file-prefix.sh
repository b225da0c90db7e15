# fails: 5
# A glob where the name must be equal: wanted2 begins with wanted.
cat >> lab3.sh <<'END'
trace_file() {
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--filter "filename ~ \"$2*\"" -d "$DURATION" -f json -o "$1"
}
END
