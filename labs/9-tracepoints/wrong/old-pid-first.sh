# fails: 3
# old_pid taken as the event's first argument, which is the task.
sed -i 's/old_pid = (pid_t)rawprobe_arg(regs, 1);/old_pid = (pid_t)rawprobe_arg(regs, 0);/' lab9_exec.c
