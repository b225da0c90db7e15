# fails: 1
# The end keyed by the task that runs it (the waker), not the one woken.
sed -i "s/--to kprobe:try_to_wake_up --to-key 'p->pid'/--to kprobe:try_to_wake_up --to-key pid/" lab8.sh
