# fails: 6
# Other commands left out before a record is reserved: right records,
# but nothing given up, so the probe filtered nothing.
sed -i 's/^\trec = rawprobe_reserve(probe, &slot);$/\tif (comm[0] \&\& strncmp(current->comm, comm, TASK_COMM_LEN))\n\t\treturn 0;\n&/' lab4_unlink.c
