# fails: 3
# The desc's kind left a kprobe's: "sched:" then reads as a module's
# name, and there is no module sched to probe.
sed -i 's/\.kind\t= RAWPROBE_KIND_TRACEPOINT,/.kind\t= RAWPROBE_KIND_KPROBE,/' lab9_exec.c
