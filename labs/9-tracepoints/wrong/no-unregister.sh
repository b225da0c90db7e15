# fails: 4
# Statistics read, the probe left to the core.
sed -i '/^\trawprobe_unregister(exec_probe);/d' lab9_exec.c
