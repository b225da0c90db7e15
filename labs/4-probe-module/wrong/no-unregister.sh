# fails: 5
# Statistics read, the probe left to the core.
sed -i '/^\trawprobe_unregister(unlink_probe);/d' lab4_unlink.c
