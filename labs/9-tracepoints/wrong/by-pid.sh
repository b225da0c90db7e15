# fails: 1
# Counted by pid: each exec is a new process, nothing adds up by command.
sed -i 's/sched_process_exec --by comm/sched_process_exec --by pid/' lab9.sh
