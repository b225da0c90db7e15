# fails: 2
# The tasks themselves, not their pids: two pointers.
sed -i "s/--args 'prev->pid,next->pid'/--args 'prev,next'/" lab9.sh
