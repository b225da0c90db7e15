# fails: 5
# The "int3" figure measured on an offset the optimizer made a jump
# (+0x14 on 6.1, +0x18 on 6.12), the optimizer left on.
cat >> lab1.sh <<'END'
cost() {
	local id ns off
	id=$(rawprobectl probe add kprobe __x64_sys_getpgid) || return 1
	ns=$($GETPGID_LOOP -b 5 100000 | cut -d' ' -f1)
	rawprobectl probe del "$id"
	echo "ftrace $ns"
	for off in 0x14 0x18; do
		id=$(rawprobectl probe add kprobe "__x64_sys_getpgid+$off" 2>/dev/null) && break
	done
	sleep 3
	ns=$($GETPGID_LOOP -b 5 100000 | cut -d' ' -f1)
	rawprobectl probe del "$id"
	echo "int3 $ns"
}
END
