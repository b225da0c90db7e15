# fails: 4
# Guesses from the optimizer's sysctl, not from the probe's own line.
cat >> lab1.sh <<'END'
landed() {
	if grep -q " $1 *\[FTRACE\]" /sys/kernel/debug/kprobes/list; then
		echo ftrace
	elif [ "$(sysctl -n debug.kprobes-optimization)" = 1 ]; then
		echo optimized
	else
		echo int3
	fi
}
END
