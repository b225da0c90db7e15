# fails: 6
# Every command's calls: the probe of exercise 1 again.
sed -i 's/probe add kprobe __x64_sys_getpgid --comm "\$1"$/probe add kprobe __x64_sys_getpgid/' lab1.sh
