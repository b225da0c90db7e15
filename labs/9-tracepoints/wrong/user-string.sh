# fails: 3
# The file name copied as a user string: it is the kernel's copy.
sed -i 's/rawprobe_record_str(probe, rec, bprm->filename, false);/rawprobe_record_str(probe, rec, bprm->filename, true);/' lab9_exec.c
