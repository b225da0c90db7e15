# fails: 4
# A landed() that never prints "optimized", whatever the probe.
cat >> lab1.sh <<'END'
landed() {
	awk -v t="$1" '$3 == t { print /\[FTRACE\]/ ? "ftrace" : "int3"; exit }' \
		/sys/kernel/debug/kprobes/list
}
END
