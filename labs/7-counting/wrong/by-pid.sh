# fails: 1
# Counted by pid, not by command.
sed -i 's/kprobe:__x64_sys_getpgid --by comm/kprobe:__x64_sys_getpgid --by pid/' lab7.sh
