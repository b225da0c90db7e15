# fails: 3
# The return value set, but not the flag that says it is there.
sed -i '/rec->flags |= RAWPROBE_REC_RETVAL;/d' lab5_inject.c
