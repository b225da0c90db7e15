# fails: 3
# args[0] and nargs set, but not the flag that says args[] holds data.
sed -i '/rec->flags |= RAWPROBE_REC_ARGS;/d' lab4_unlink.c
