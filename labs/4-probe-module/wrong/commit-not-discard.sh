# fails: 4
# Names outside the prefix counted, but committed all the same.
sed -i 's/rawprobe_discard(probe, &slot);/rawprobe_commit(probe, \&slot);/' lab4_unlink.c
