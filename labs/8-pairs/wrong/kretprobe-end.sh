# fails: 2
# A kretprobe as the end: a pair's probes are entry probes.
sed -i 's/--to kprobe:blk_mq_end_request/--to kretprobe:blk_mq_end_request/' lab8.sh
