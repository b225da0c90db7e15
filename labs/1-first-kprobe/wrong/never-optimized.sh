# fails: 4
# The issue's: a landed() that never prints "optimized".
cat >> lab1.sh <<'END'
landed() {
	awk -v t="$1" '$3 == t { print /\[FTRACE\]/ ? "ftrace" : "int3"; exit }' \
		/sys/kernel/debug/kprobes/list
}
END
