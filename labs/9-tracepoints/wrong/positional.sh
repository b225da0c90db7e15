# fails: 2
# By position, as a function's first two: preempt and prev.
sed -i "s/--args 'prev->pid,next->pid'/--args 2/" lab9.sh
