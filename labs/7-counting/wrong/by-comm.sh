# fails: 3
# Drops by command: who was running, not where the packet was dropped.
sed -i 's/"kprobe:\$(drop_function)" --by caller/"kprobe:$(drop_function)" --by comm/' lab7.sh
