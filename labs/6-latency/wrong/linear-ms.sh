# fails: 4
# The step in milliseconds: the kernel's latency is in nanoseconds.
sed -i 's/--linear 10000000/--linear 10/' lab6.sh
