#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rawprobectl on the host, where no module is loaded: grammar, help,
# usage errors and exit codes; every output format (from a capture file
# with known records, tests/cli/mkcapture.py) validated against the JSON
# schema; symbol help against a fake kallsyms; doctor; man page,
# completion and install. Ends with "N passed, N failed".
AREA=cli
. "$(dirname "$0")/lib.sh"

check "help"             0 "Objects:"        "^$"          -- $CTL --help
check "help object"      0 "probe +add.del"       "^$"          -- $CTL help
check "probe help"       0 "probe del"       "^$"          -- $CTL probe help
check "probe add --help" 0 "maxactive"       "^$"          -- $CTL probe add --help
check "stream --help"    0 "--duration"      "^$"          -- $CTL stream --help
check "ring set help"    0 "power of two"    "^$"          -- $CTL ring set help
abi=$(sed -n 's/^#define RAWPROBE_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$repo/uapi/rawprobe.h")
check "version -V"       0 "ABI $abi\)"      "^$"          -- $CTL -V
check "no object"        2 "^$"              "Usage"       -- $CTL
check "bad option"       2 "^$"              "^rawprobectl: unknown option '--frob' \(try 'rawprobectl --help'\)$" -- $CTL --frob
# an unknown option: one line and where the help is, not the whole help
check "bad option stream" 2 "^$"             "^rawprobectl: unknown option '--frob' \(try 'rawprobectl stream --help'\)$" -- $CTL stream --frob
check "bad option trace" 2 "^$"              "^rawprobectl: unknown option '-Z' \(try 'rawprobectl trace --help'\)$" -- $CTL trace kprobe:f -Z
check "bad option add"   2 "^$"              "^rawprobectl: unknown option '--frob' \(try 'rawprobectl probe add --help'\)$" -- $CTL probe add kprobe f --frob
check "bad option inject" 2 "^$"             "^rawprobectl: unknown option '--frob' \(try 'rawprobectl inject --help'\)$" -- $CTL inject kmalloc --frob
# --times counts down a signed int in the kernel: past INT_MAX is refused
check "inject times range" 2 "^$"            "^rawprobectl: --times must be 1\.\.2147483647, not '3000000000'" -- $CTL inject kmalloc --in f --times 3000000000
check "bad option count" 2 "^$"              "^rawprobectl: unknown option '--frob' \(try 'rawprobectl count --help'\)$" -- $CTL count kprobe:f --frob
check "option needs value" 2 "^$"            "^rawprobectl: option '--args' needs a value \(try 'rawprobectl stream --help'\)$" -- $CTL stream -e kprobe:f --args
check "option takes none" 2 "^$"             "^rawprobectl: option '--quiet' takes no value" -- $CTL stream --quiet=1
# --filter: what a bpftrace user writes, and what to write instead
# tracefs' list of events, as the kernel's: tracepoint targets are checked in it
mkdir -p "$T/tp" && printf 'sched:sched_switch\nsched:sched_wakeup\nirq:irq_handler_entry\nsyscalls:sys_enter_openat\nftrace:function\nkprobes:p_vfs_read_0\n' >"$T/tp/available_events"
check "tracepoint dry-run" 0 "^tracepoint:sched:sched_switch args=u64,u64 $" "^$" -- bash -c "RAWPROBECTL_TRACEFS=$T/tp $CTL count t:sched:sched_switch --args 2 --dry-run | tr '\n' ' '"
check "tracepoint target" 2 "^$"           "a tracepoint is tracepoint:SUBSYSTEM:EVENT \(tracepoint:sched:sched_switch\), not 'sched'$" -- $CTL count tracepoint:sched
check "tracepoint glob"  0 "^tracepoint:sched:sched_switch args=none tracepoint:sched:sched_wakeup args=none $" "'tracepoint:sched:\*': 2 tracepoints$" -- bash -c "RAWPROBECTL_TRACEFS=$T/tp $CTL count 'tracepoint:sched:*' --dry-run | tr '\n' ' '"
check "tracepoint glob syscalls" 0 "^tracepoint:syscalls:sys_enter_openat args=none $" "'tracepoint:\*:sys_enter_\*': 1 tracepoint$" -- bash -c "RAWPROBECTL_TRACEFS=$T/tp $CTL count 'tracepoint:*:sys_enter_*' --dry-run | tr '\n' ' '"
check "tracepoint glob no tp" 1 "^$"        "left out: 2 ftrace events with no tracepoint" -- env RAWPROBECTL_TRACEFS=$T/tp $CTL count 'tracepoint:[fk]*:*' --dry-run
check "tracepoint bad glob" 2 "^$"          "bad glob 'tracepoint:sched:sched_\[w': a '\[' without its '\]'$" -- $CTL count 'tracepoint:sched:sched_[w'
check "tracepoint unknown" 1 "^$"           "tracepoint:irq:sched_switch: no such event in .*available_events \(there is tracepoint:sched:sched_switch\)$" -- env RAWPROBECTL_TRACEFS=$T/tp $CTL count tracepoint:irq:sched_switch --dry-run
check "tracepoint near" 1 "^$"              "sched:sched_swich: no such event in .*available_events
  did you mean: sched:sched_switch$" -- env RAWPROBECTL_TRACEFS=$T/tp $CTL count t:sched:sched_swich --dry-run
check "count two kinds"  2 "^$"              "count's targets are of one kind: 'kretprobe:vfs_write' is not a kprobe$" -- $CTL count kprobe:vfs_read kretprobe:vfs_write
check "count twice"      2 "^$"              "vfs_read is in two of count's targets: give each function once$" -- $CTL count kprobe:vfs_read kprobe:vfs_read --dry-run
check "count targets"    0 "^kprobe:vfs_read args=none kprobe:vfs_write args=none $" "^$" -- bash -c "$CTL count kprobe:vfs_read kprobe:vfs_write --dry-run | tr '\n' ' '"
check "latency --help"   0 "--from-key"      "^$"          -- $CTL latency --help
check "latency one end"  2 "^$"              "needs a start and an end: --from KIND:TARGET --to KIND:TARGET$" -- $CTL latency --from kprobe:vfs_read --key pid
check "latency key first" 2 "^$"             "--from-key applies to the start probe before it: give --from first$" -- $CTL latency --from-key pid --from kprobe:vfs_read
check "latency positional" 2 "^$"            "given with --from and --to" -- $CTL latency kprobe:vfs_read
check "latency opts in hist" 2 "^$"          "are options of 'rawprobectl latency'$" -- $CTL hist kprobe:vfs_read --from kprobe:vfs_write
check "latency no key"   2 "^$"              "kprobe:vfs_read: a pair's probe needs its key" -- $CTL latency --from kprobe:vfs_read --to kprobe:vfs_write --dry-run
check "latency expire"   2 "^$"              "--expire wants seconds, 0 for never" -- $CTL latency --from kprobe:vfs_read --to kprobe:vfs_write --key pid --expire -1
check "latency typed args" 2 "^$"            "the pair key 'file' is computed as an argument: give the probe's other --args by name too" -- $CTL latency --from kprobe:vfs_read --args u64 --from-key file --to kprobe:vfs_write --key pid --dry-run
check "latency dry-run"  0 "^kprobe:vfs_read args=none   pair start key=pid max_keys=0 expire_ms=2500 kprobe:vfs_write args=none   pair end key=pid max_keys=0 expire_ms=2500 $" "^$" -- bash -c "$CTL latency --from kprobe:vfs_read --to kprobe:vfs_write --key pid --expire 2.5 --dry-run | tr '\n' ' '"
check "pair add --help"   0 "agg show ID"    "^$"          -- $CTL probe add pair --help
check "pair add dry-run" 0 "^kprobe:vfs_read args=file:ptr persistent .*pair start key=arg0 .*kprobe:vfs_write args=file:ptr persistent .*pair end key=arg0 " "^$" -- bash -c "$CTL probe add pair --from kprobe:vfs_read --to kprobe:vfs_write --key file --dry-run | tr '\n' ' '"
check "pair add positional" 2 "^$"            "unexpected 'kprobe:vfs_read' \(a pair's probes are given with --from and --to\)$" -- $CTL probe add pair kprobe:vfs_read
check "pair add override" 2 "^$"             "a pair's probes take no --override$" -- $CTL probe add pair --from kprobe:vfs_read --override 1
check "pair add no end"  2 "^$"              "a pair needs a start and an end" -- $CTL probe add pair --from kprobe:vfs_read --key pid
check "filter comm"      2 "^$"              "the command name is not a value --filter compares: use --comm cat$" -- $CTL trace kprobe:f --filter 'comm == "cat"'
check "filter string"    2 "^$"              "strings are in double quotes \('name == \"pts0\"'\)$" -- $CTL trace kprobe:f --filter "arg0 == 'x'"
check "filter parentheses" 2 "^$"            "parentheses are not supported" -- $CTL trace kretprobe:f --filter 'retval < 0 && (arg0 == 1 || arg0 == 2)'
check "unknown object"   2 "^$"              "unknown object 'frob'" -- $CTL frob
check "unknown command"  2 "^$"              "unknown command 'probe frob'" -- $CTL probe frob
check "ambiguous prefix" 2 "^$"              "ambiguous: del or disable" -- $CTL probe d 1
check "bad kind"         2 "^$"              "unknown probe kind 'uprobe'" -- $CTL probe add uprobe x
check "bad target"       2 "^$"              "bad target" -- $CTL probe add kprobe 'mod:'
check "bad offset"       2 "^$"              "bad target" -- $CTL probe add kprobe 'f+zz'
check "maxactive range"  2 "^$"              "1..4096"     -- $CTL probe add kretprobe f -m 5000
check "args count"       2 "^$"              "bad --args"  -- $CTL probe add kprobe f -a 7
check "args type"        2 "^$"              "bad --args"  -- $CTL probe add kprobe f -a s32,float
check "args too many"    2 "^$"              "bad --args"  -- $CTL probe add kprobe f -a u64,u64,u64,u64,u64,u64,u64
check "missing target"   2 "^$"              "Usage"       -- $CTL probe add kprobe
check "bad id"           2 "^$"              "not a probe id" -- $CTL probe del 0
check "bad id of several" 2 "^$"             "'x' is not a probe id" -- $CTL probe disable 3 x 4
check "all among ids"    2 "^$"              "'all' is not a probe id" -- $CTL probe del 3 all
check "no id"            2 "^$"              "Usage: rawprobectl probe enable ID" -- $CTL probe enable
check "stream -a first"  2 "^$"              "give the probe first" -- $CTL stream -a 2
check "stream -e form"   2 "^$"              "KIND:TARGET" -- $CTL stream -e vfs_read
check "stream duration"  2 "^$"              "--duration"  -- $CTL stream -d -1
check "ring set records" 2 "^$"              "power of two" -- $CTL ring set records 100
check "ring set mode"    2 "^$"              "discard or overwrite" -- $CTL ring set mode fast
check "stray argument"   2 "^$"              "Usage: rawprobectl version" -- $CTL version now
check "list help"        0 "statistics"      "^$"          -- $CTL probe list --help
# the host has no module: the CLI says so with exit code 3
check "no module"        3 "^$"              "not loaded.*insmod" -- $CTL probe list
check "no module json"   3 '^\{"cli":\{"version"'    "not loaded" -- $CTL -j version
check "-j after command" 3 '^\{"cli":\{"version"'    "not loaded" -- $CTL version -j
check "--pretty after"   3 '^    "version": "'  "not loaded" -- $CTL version --pretty
check "-j after --"      2 "^$"              "Usage: rawprobectl version" -- $CTL version -- -j


# --- grammar of the new objects ---
check "trace --help"     0 "one-shot|One-shot" "^$"        -- $CTL trace --help
check "hist --help"      0 "--linear STEP"   "^$"          -- $CTL hist --help
check "stats help"       0 "stats reset"     "^$"          -- $CTL stats help
check "stats show help"  0 "FILTERED"        "^$"          -- $CTL stats show --help
check "doctor --help"    0 "module signatures" "^$"        -- $CTL doctor --help
check "stream formats"   0 "perfetto"        "^$"          -- $CTL stream --help
check "prefix tr"        0 "Usage: rawprobectl trace" "^$" -- $CTL tr --help
check "prefix ambiguous" 2 "^$"              "ambiguous: stream or stats" -- $CTL st
check "help lists all"   0 "trace.*hist.*stats.*doctor" "^$" -- bash -c "$CTL help | tr '\n' ' '"
check "trace no probe"   2 "^$"              "trace needs a probe" -- $CTL trace -d 1
check "trace bad probe"  2 "^$"              "KIND:TARGET"  -- $CTL trace vfs_read
check "stream positional" 2 "^$"             "given with -e" -- $CTL stream kprobe:vfs_read
check "bad format"       2 "^$"              "--format is text, json" -- $CTL stream -f xml
check "hist opt on stream" 2 "^$"            "options of 'rawprobectl hist'" -- $CTL stream --retval
check "hist --by"        2 "^$"              "--by takes 'comm'" -- $CTL hist --by pid
check "hist --arg range" 2 "^$"              "--arg wants 0..5" -- $CTL hist --arg 6
check "hist --linear 0"  2 "^$"              "--linear wants" -- $CTL hist --linear 0
check "hist -i records" 2 "^$"              "-i prints what hist's own probes count in the kernel" -- $CTL hist -i 1
check "hist -i --stack"  2 "^$"              "not with --stack, --count" -- $CTL hist kprobe:vfs_read --stack -i 1
check "hist --retval kprobe" 2 "^$"           "hist --retval: only a kretprobe sees a return value" -- $CTL hist kprobe:vfs_read --retval
check "hist -i --arg string" 2 "^$"           "-i: hist counts in the kernel, which keeps no string" -- $CTL hist kprobe:do_sys_openat2 --args s32,ustr --arg 0 -i 1 --dry-run
check "hist -i seconds"  2 "^$"              "--interval wants seconds" -- $CTL hist kretprobe:vfs_read -i 0
check "stream --interval" 2 "^$"             "options of 'rawprobectl hist'" -- $CTL stream --interval 1
check "input and -e"     2 "^$"              "cannot add probes" -- $CTL stream -r x -e kprobe:f
check "input and --drain-log" 2 "^$"         "not with --input" -- $CTL stream -r x --drain-log y
check "stream --drain-log help" 0 "--drain-log FILE" "^$"  -- $CTL stream --help
check "--include-self help" 0 "--include-self +this command's probes record rawprobectl" "^$" -- $CTL trace --help
check "--include-self parses" 3 "^$"         "not loaded" -- $CTL trace kprobe:do_sys_openat2 --include-self -d 1
check "count --include-self" 0 "--include-self +count rawprobectl's own hits" "^$" -- $CTL count --help
check "no --include-self on add" 2 "^$"      "unknown option '--include-self'" -- $CTL probe add kprobe f --include-self
check "bad --pid"        2 "^$"              "--pid wants a number" -- $CTL stream --pid abc
check "bad --comm"       2 "^$"              "--comm wants .*1..15" -- $CTL probe add kprobe f --comm abcdefghijklmnopq
check "bad --cpu"        2 "^$"              "--cpu wants" -- $CTL probe add kprobe f --cpu -1
check "bad --id"         2 "^$"              "--id wants a probe id" -- $CTL stream -i 0
check "bad --count"      2 "^$"              "--count wants" -- $CTL trace kprobe:f -c 0
check "stats bad id"     2 "^$"              "not a probe id" -- $CTL stats 0x
check "stats bad cmd"    2 "^$"              "unknown command 'stats frob'" -- $CTL stats frob
check "stats no module"  3 "^$"              "not loaded"  -- $CTL stats
check "probe add --help filters" 0 "--comm NAME" "^$"      -- $CTL probe add --help

# --- symbol help, against a fake kallsyms (RAWPROBE_KALLSYMS) ---
cat > "$T/kallsyms" <<'KSYMS'
ffffffff81000000 T _stext
ffffffff81100000 T vfs_read
ffffffff81100200 T vfs_write
ffffffff81100400 t do_sys_openat2
ffffffff81100500 t dup_fn
ffffffff81100600 t dup_fn
ffffffff81100700 t cleanup_thing.isra.0
ffffffff81100780 t cleanup_thing.constprop.0
ffffffff81100800 T __x64_sys_openat
ffffffff81200000 D some_data
ffffffffc0001000 t ext4_sync_file	[ext4]
ffffffffc0002000 T fscache_fn	[fscache]
ffffffffc0002000 T fscache_fn	[fscache]
KSYMS
export RAWPROBE_KALLSYMS=$T/kallsyms
check "near match"       1 "^$"  "do_sys_open: unknown symbol.*ENOENT.*did you mean: do_sys_openat2" \
	-- bash -c "$CTL probe add kprobe do_sys_open 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS:-1}"
check "near match exit"  1 "^$"  "did you mean"  -- $CTL probe add kprobe do_sys_open
check "typo"             1 "^$"  "did you mean: vfs_read"  -- $CTL probe add kretprobe vfs_raed
check "compiler variants" 1 "^$" "renamed it; try: cleanup_thing.isra.0 cleanup_thing.constprop.0" \
	-- $CTL probe add kprobe cleanup_thing
check "ambiguous name"   1 "^$"  "'dup_fn' is ambiguous: 2 functions" -- $CTL probe add kprobe dup_fn
check "ambiguous lists"  1 "^$"  "0xffffffff81100600 dup_fn" -- $CTL probe add kprobe dup_fn
# a line /proc/kallsyms repeats (the module list changed during the read)
check "repeated line"    0 "^kprobe:fscache_fn " "^$" -- $CTL probe add kprobe fscache_fn --dry-run
check "module near"      1 "^$"  "did you mean: ext4:ext4_sync_file" -- $CTL probe add kprobe ext4:ext4_sync
check "batch names one"  1 "^$"  "vfs_raed: unknown symbol" -- $CTL probe add kprobe vfs_read vfs_raed
# vfs_read is 0x200 bytes long here (vfs_write follows)
check "offset past end"  1 "^$"  "^rawprobectl: vfs_read\+0x200: the offset is past the end of vfs_read, which is 0x200 bytes long \(kallsyms\)$" \
	-- $CTL probe add kprobe vfs_read+0x200
check "offset past end trace" 1 "^$" "past the end of vfs_read" -- $CTL trace kprobe:vfs_read+0x1000
check "offset inside"    3 "^$"  "not loaded" -- $CTL probe add kprobe vfs_read+0x1ff
check "trace checks first" 1 "^$" "did you mean: vfs_read" -- $CTL trace kretprobe:vfs_raed
check "data is no function" 3 "^$" "not loaded" -- $CTL probe add kprobe some_dat
check "known name needs module" 3 "^$" "not loaded" -- $CTL probe add kprobe do_sys_openat2

# --- globs, against a fake ftrace list and blacklist (RAWPROBECTL_TRACEFS,
# RAWPROBE_KPROBES_BLACKLIST) and the fake kallsyms above ---
mkdir -p "$T/tracefs"
cat > "$T/tracefs/available_filter_functions" <<'AFL'
vfs_read
vfs_write
vfs_twice
vfs_twice
vfs_black
dup_fn
__ftrace_invalid_address___64
do_sys_openat2
ext4_sync_file [ext4]
rp_genl_probe_add [rawprobe]
AFL
printf '0xffffffff81100900-0xffffffff81100980\tvfs_black\n' > "$T/blacklist"
export RAWPROBECTL_TRACEFS=$T/tracefs RAWPROBE_KPROBES_BLACKLIST=$T/blacklist
glob_lines() { bash -c "$* | tr '\n' ' '; exit \${PIPESTATUS[0]}"; }
check "glob dry-run"     0 "^kprobe:vfs_read args=none persistent kprobe:vfs_write args=none persistent $" \
	"'kprobe:vfs_\*': 2 functions" -- glob_lines "$CTL probe add kprobe 'vfs_*' --dry-run"
check "glob leaves out"  0 "^kprobe:vfs_read" \
	"left out: 2 that share their name.*left out: 1 on kprobes' blacklist" \
	-- glob_lines "$CTL probe add kprobe 'vfs_*' --dry-run 2>&1 >/dev/null | tr '\n' ' ' >&2; $CTL probe add kprobe 'vfs_*' --dry-run"
check "glob everything"  0 "^kprobe:do_sys_openat2 .* kprobe:ext4:ext4_sync_file .* kprobe:vfs_read .* kprobe:vfs_write [^ ]+ persistent $" \
	"left out: 1 of rawprobe's own module" -- glob_lines "$CTL probe add kprobe '*' --dry-run"
check "glob ? and []"    0 "^kprobe:vfs_read args=none persistent $" "1 function$" \
	-- glob_lines "$CTL probe add kprobe 'vfs_[r]ea?' --dry-run"
check "glob in a module" 0 "^kprobe:ext4:ext4_sync_file args=none persistent $" "^rawprobectl: 'kprobe:ext4:\*': 1 function$" \
	-- glob_lines "$CTL probe add kprobe 'ext4:*' --dry-run"
check "glob shared only" 1 "^$" "'kprobe:dup_\*' matches no function.*left out: 1 that share" \
	-- glob_lines "$CTL probe add kprobe 'dup_*' 2>&1 >/dev/null | tr '\n' ' ' >&2; exit \${PIPESTATUS[0]}"
check "glob no match"    1 "^$" "'kprobe:zzz\*' matches no function kprobes can take" -- $CTL probe add kprobe 'zzz*'
check "glob bad"         2 "^$" "^rawprobectl: bad glob 'vfs_\[ab': a '\[' without its '\]'" -- $CTL probe add kprobe 'vfs_[ab'
check "glob bad char"    2 "^$" "bad glob" -- $CTL trace 'kprobe:vfs_*/x'
check "glob ] first"     1 "^$" "matches no function" -- $CTL probe add kprobe 'vfs_[]x]' --dry-run
check "glob offset"      2 "^$" "a glob names functions' entries, without \+OFFSET" -- $CTL probe add kprobe 'vfs_*+0x4'
check "glob cap"         2 "^$" "'kprobe:vfs_\*' makes 2 probes, more than 1: narrow the glob, or raise the cap with --max-probes 2 \(at most 16384\)$" \
	-- $CTL probe add kprobe 'vfs_*' --max-probes 1
check "glob cap trace"   2 "^$" "makes 2 probes, more than 1" -- $CTL trace 'kprobe:vfs_*' --max-probes 1
check "glob cap count"   2 "^$" "makes 2 probes, more than 1" -- $CTL count 'kprobe:vfs_*' --max-probes 1
check "glob cap with others" 2 "^$" "makes 3 probes, more than 2" -- $CTL probe add kprobe vfs_read 'vfs_*' --max-probes 2
check "max-probes range" 2 "^$" "--max-probes wants 1..16384" -- $CTL probe add kprobe 'vfs_*' --max-probes 16385
check "max-probes zero"  2 "^$" "--max-probes wants 1..16384" -- $CTL trace 'kprobe:vfs_*' --max-probes 0
check "glob trace dry-run" 0 "^kretprobe:vfs_read args=none kretprobe:vfs_write args=none $" "2 functions" \
	-- glob_lines "$CTL trace 'kretprobe:vfs_*' --dry-run"
check "glob options each" 0 "^kprobe:vfs_read args=u64,u64 stack kprobe:vfs_write args=u64,u64 stack $" "2 functions" \
	-- glob_lines "$CTL stream -e 'kprobe:vfs_*' -a 2 --stack --dry-run"
check "glob hist dry-run" 0 "^kretprobe:vfs_read args=none kretprobe:vfs_write args=none $" "2 functions" \
	-- glob_lines "$CTL hist 'kretprobe:vfs_*' --dry-run"
check "glob from stdin"  0 "^kprobe:do_sys_openat2 args=none persistent kprobe:vfs_read args=none persistent kprobe:vfs_write args=none persistent $" "2 functions" \
	-- glob_lines "printf 'do_sys_openat2\\nvfs_*\\n' | $CTL probe add kprobe - --dry-run"
check "glob count dry-run" 0 "^kprobe:vfs_read args=none kprobe:vfs_write args=none $" "2 functions" \
	-- glob_lines "$CTL count 'kprobe:vfs_*' --dry-run"
check "glob count stack" 2 "^$" "a glob is counted per function: not --by stack" -- $CTL count 'kprobe:vfs_*' --by stack
check "glob json dry-run" 0 '^\{"kind":"kprobe","target":"vfs_read",.*\{"kind":"kprobe","target":"vfs_write",' "2 functions" \
	-- glob_lines "$CTL -j probe add kprobe 'vfs_*' --dry-run"
check "glob needs the module" 3 "^$" "not loaded" -- $CTL probe add kprobe 'vfs_*'
check "glob no blacklist" 0 "^kprobe:vfs_black .* kprobe:vfs_write [^ ]+ persistent $" "note: /nonexistent: No such file.*not left out" \
	-- glob_lines "RAWPROBE_KPROBES_BLACKLIST=/nonexistent $CTL probe add kprobe 'vfs_*' --dry-run"
check "glob no ftrace"   1 "^$" "^rawprobectl: /nonexistent/available_filter_functions: No such file or directory: a glob needs the list of functions ftrace can trace \(mount tracefs" \
	-- env RAWPROBECTL_TRACEFS=/nonexistent $CTL probe add kprobe 'vfs_*'
unset RAWPROBECTL_TRACEFS RAWPROBE_KPROBES_BLACKLIST

# --- sessions: ring create|del|list|show|set, --ring, --ring-records ---
check "ring help"        0 "ring create.*ring del.*ring list" "^$" -- bash -c "$CTL ring help | tr '\n' ' '"
check "ring create --help" 0 "1 to 31 letters" "^$"         -- $CTL ring create --help
check "ring del --help"  0 "Usage: rawprobectl ring del SESSION" "^$" -- $CTL ring del --help
check "ring list --help" 0 "NAME '-'"        "^$"          -- $CTL ring list --help
check "ring show --help" 0 "SESSION: a name, an id or 'default'" "^$" -- $CTL ring show --help
check "ring set --help"  0 "ring set \[SESSION\]" "^$"     -- $CTL ring set --help
check "ring create no name" 2 "^$"           "Usage: rawprobectl ring create NAME" -- $CTL ring create
check "ring create long name" 2 "^$"         "^rawprobectl: ring create: a session's name is at most 31 characters, not 32" \
	-- $CTL ring create abcdefghijabcdefghijabcdefghijab
check "ring create 31 chars" 3 "^$"          "not loaded" -- $CTL ring create abcdefghijabcdefghijabcdefghija
check "ring create digits" 2 "^$"            "bad session name '123': .*not all digits" -- $CTL ring create 123
check "ring create default" 2 "^$"           "bad session name 'default'" -- $CTL ring create default
check "ring create keyword" 2 "^$"           "bad session name 'records'" -- $CTL ring create records
check "ring create bad char" 2 "^$"          "bad session name 'a/b'" -- $CTL ring create a/b
check "ring create dash" 2 "^$"              "bad session name '-x'" -- $CTL ring create -x
check "ring create records" 2 "^$"           "records must be a power of two in 64\.\.[0-9]+ \(0: automatic\), not '100'" -- $CTL ring create flight records 100
check "ring create records range" 2 "^$"     "records must be a power of two" -- $CTL ring create flight records 32
check "ring create mode" 2 "^$"              "^rawprobectl: mode is discard or overwrite, not 'fast'$" -- $CTL ring create flight mode fast
check "ring create word" 2 "^$"              "ring create: unknown word 'size' \(records, mode; try" -- $CTL ring create flight size 64
check "ring create no value" 2 "^$"          "ring create records: missing value" -- $CTL ring create flight records
check "ring create clock" 2 "^$"             "unknown word 'clock'" -- $CTL ring create flight clock tsc
check "ring create needs module" 3 "^$"      "not loaded" -- $CTL ring create flight records 1024 mode overwrite
check "ring del no name" 2 "^$"              "Usage: rawprobectl ring del SESSION" -- $CTL ring del
check "ring del two"     2 "^$"              "Usage: rawprobectl ring del SESSION" -- $CTL ring del a b
check "ring del default" 2 "^$"              "ring del: the default session stays" -- $CTL ring del default
check "ring del 0"       2 "^$"              "ring del: the default session stays" -- $CTL ring del 0
check "ring del long"    2 "^$"              "at most 31 characters" -- $CTL ring del abcdefghijabcdefghijabcdefghijabcdef
check "ring del bad"     2 "^$"              "bad session name 'x y'" -- $CTL ring del 'x y'
check "ring del id past u32" 2 "^$"          "'4294967296' is not a session id" -- $CTL ring del 4294967296
check "ring del needs module" 3 "^$"         "not loaded" -- $CTL ring del flight
check "ring show two"    2 "^$"              "Usage: rawprobectl ring show" -- $CTL ring show a b
check "ring show bad"    2 "^$"              "ring show: bad session name" -- $CTL ring show a:b
check "ring show needs module" 3 "^$"        "not loaded" -- $CTL ring show flight
check "ring list stray"  2 "^$"              "Usage: rawprobectl ring list" -- $CTL ring list x
check "ring list needs module" 3 "^$"        "not loaded" -- $CTL ring list
check "ring set session records" 2 "^$"      "records must be a power of two in 64\.\.[0-9]+, not '100'" -- $CTL ring set flight records 100
check "ring set records 0" 2 "^$"            "records must be a power of two" -- $CTL ring set records 0
check "ring set session clock" 2 "^$"        "the clock is every session's: 'ring set clock tsc'" -- $CTL ring set flight clock tsc
check "ring set clock and mode" 2 "^$"       "the clock goes in a command of its own" -- $CTL ring set clock tsc mode discard
check "ring set word"    2 "^$"              "ring set: unknown word 'size'" -- $CTL ring set flight size 1
check "ring set nothing" 2 "^$"              "Usage: rawprobectl ring set" -- $CTL ring set flight
check "ring set bad session" 2 "^$"          "ring set: bad session name" -- $CTL ring set 'a b' records 128
check "ring set old syntax" 3 "^$"           "not loaded" -- $CTL ring set records 128 mode overwrite
check "ring set session" 3 "^$"              "not loaded" -- $CTL ring set flight records 128
check "ring set default" 3 "^$"              "not loaded" -- $CTL ring set default mode overwrite
check "ring prefix"      2 "^$"              "ambiguous: show or set" -- $CTL ring s
check "--ring-records range" 2 "^$"          "^rawprobectl: --ring-records must be a power of two in 64\.\.[0-9]+ \(0: automatic\), not '100'$" -- $CTL trace kprobe:vfs_read --ring-records 100
check "--ring-records word" 2 "^$"           "--ring-records must be a power of two" -- $CTL stream -e kprobe:vfs_read --ring-records many
check "--ring-mode"      2 "^$"              "^rawprobectl: --ring-mode is discard or overwrite, not 'fast'$" -- $CTL trace kprobe:vfs_read --ring-mode fast
check "--ring-records no probes" 2 "^$"      "give probes \(-e KIND:TARGET\)" -- $CTL stream --ring-records 128
check "--ring-mode no probes" 2 "^$"         "give probes" -- $CTL stream --ring-mode overwrite
check "--ring and --ring-records" 2 "^$"     "a named session is changed with 'ring set NAME'" -- $CTL stream --ring flight -e kprobe:vfs_read --ring-records 128
check "--ring and --input" 2 "^$"            "--ring reads a session's live rings: not with --input" -- $CTL stream --ring flight -r x
check "--ring bad name"  2 "^$"              "^rawprobectl: --ring: bad session name 'a b'" -- $CTL stream --ring 'a b'
check "--ring long name" 2 "^$"              "--ring: a session's name is at most 31 characters" -- $CTL trace kprobe:vfs_read --ring abcdefghijabcdefghijabcdefghijabcdef
check "--ring needs value" 2 "^$"            "option '--ring' needs a value" -- $CTL stream --ring
check "--ring-records help" 0 "--ring-records N" "^$"      -- $CTL trace --help
check "--ring help"      0 "--ring NAME +read the named session" "^$" -- $CTL stream --help
check "probe add --ring help" 0 "--ring NAME +write records into the named session" "^$" -- $CTL probe add --help
check "probe add --ring bad" 2 "^$"          "^rawprobectl: --ring: bad session name 'x/y'" -- $CTL probe add kprobe vfs_read --ring x/y
check "probe add --ring long" 2 "^$"         "at most 31 characters" -- $CTL probe add kprobe vfs_read --ring abcdefghijabcdefghijabcdefghijabcdef
check "probe add --ring dry-run" 0 "^kprobe:vfs_read args=none persistent ring=flight$" "^$" -- $CTL probe add kprobe vfs_read --ring flight --dry-run
check "probe add --ring id dry-run" 0 "^kprobe:vfs_read args=none persistent ring=7$" "^$" -- $CTL probe add kprobe vfs_read --ring 7 --dry-run
check "probe add --ring json" 0 "valid: 1 documents" "^$"  -- bash -c "$CTL -j probe add kprobe vfs_read --ring flight --dry-run | $VALIDATE probe_request"
check "latency json"     0 "valid: 2 documents" "^$"  -- bash -c "$CTL -j latency --from kprobe:vfs_read --to kprobe:vfs_write --key file --dry-run | $VALIDATE probe_request"
check "probe add --ring glob" 0 "^kprobe:vfs_read args=none persistent ring=flight kprobe:vfs_write args=none persistent ring=flight $" "2 functions" \
	-- glob_lines "RAWPROBECTL_TRACEFS=$T/tracefs RAWPROBE_KPROBES_BLACKLIST=$T/blacklist $CTL probe add kprobe 'vfs_*' --ring flight --dry-run"
check "probe add --ring needs module" 3 "^$" "not loaded" -- $CTL probe add kprobe vfs_read --ring flight
check "stream --ring dry-run" 0 "^kprobe:vfs_read args=none ring=flight$" "^$" -- $CTL stream --ring flight -e kprobe:vfs_read --dry-run
check "trace --ring-records parses" 3 "^$"   "not loaded" -- $CTL trace kprobe:vfs_read --ring-records 1024 --ring-mode overwrite -d 1
check "stream --ring parses" 3 "^$"          "not loaded" -- $CTL stream --ring flight -d 1
check "hist in kernel --ring-records" 2 "^$" "hist counts its probes in the kernel, in no rings" -- $CTL hist kretprobe:vfs_read --ring-records 128
check "hist in kernel --ring" 2 "^$"         "hist counts its probes in the kernel" -- $CTL hist kretprobe:vfs_read --ring flight
check "hist records --ring-records" 0 "^kretprobe:vfs_read args=none stack$" "^$" -- $CTL hist kretprobe:vfs_read --stack --ring-records 128 --dry-run
check "hist string --ring-records" 0 "^kprobe:do_sys_openat2 args=s32,ustr$" "^$" -- $CTL hist kprobe:do_sys_openat2 --args s32,ustr --arg 0 --ring-records 128 --dry-run
check "probe list help RING" 0 "RING: default, a name" "^$" -- $CTL probe list --help

# --- every output format, from a capture with known records ---
python3 "$here/mkcapture.py" "$T/cap.rpc"
check "text"             0 "kretprobe:vfs_read +\(0x3, 0xffffffff81100200 <vfs_write\+0x0>, 0x64\) = -14 \(1500 ns\)" \
	"14 records read" -- $CTL stream -r "$T/cap.rpc"
check "text addr symbolized" 0 "kprobe:0xffffffff81100010 <vfs_read\+0x10>" "^$" \
	-- bash -c "$CTL stream -r $T/cap.rpc 2>/dev/null"
check "text string arg"  0 '\(-100, "/etc/hostname"\)' "^$" -- bash -c "$CTL stream -r $T/cap.rpc 2>/dev/null"
check "json records"     0 "valid: 14 documents" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc | $VALIDATE record"
check "json sym"         0 '"addr":"0xffffffff81100010","sym":"vfs_read\+0x10"' "^$" -- $CTL -j stream -r "$T/cap.rpc"
check "-f json = -j"     0 "^$" "^$" -- bash -c "cmp <($CTL -j stream -r $T/cap.rpc 2>/dev/null) <($CTL stream -f json -r $T/cap.rpc 2>/dev/null)"
check "output file"      0 "^$" "14 records read" -- $CTL stream -r "$T/cap.rpc" -o "$T/out.txt"
check "output file has records" 0 "^14$" "^$" -- bash -c "wc -l < $T/out.txt"
check "--count"          0 "^2$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc -c 2 2>/dev/null | wc -l"
check "--comm"           0 "^4$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc --comm dd | wc -l"
check "filtered summary" 0 "^$" "4 records read from .*, 10 filtered out" -- $CTL stream -r "$T/cap.rpc" --comm dd -o /dev/null
check "--pid"            0 "^9$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc --pid 100 2>/dev/null | wc -l"
check "--tgid"           0 "^4$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc --tgid 199 2>/dev/null | wc -l"
check "--cpu"            0 "^6$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc --cpu 1 2>/dev/null | wc -l"
check "--id"             0 "^3$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc -i 2 2>/dev/null | wc -l"
check "filters combine"  0 "^1$" "^$" -- bash -c "$CTL -j stream -r $T/cap.rpc --comm dd --cpu 0 -i 1 -c 1 2>/dev/null | wc -l"
# latency --records' rows: the time since the start, the end's task
python3 "$here/mkcapture.py" --pairs "$T/pairs.rpc"
check "pair text"        0 "curl +kprobe:tcp_set_state +\(0x7\) \(250000000 ns\)$" "^$" -- bash -c "$CTL stream -r $T/pairs.rpc 2>/dev/null"
check "pair text kretprobe" 0 "= -14 \(900 ns\)$" "^$" -- bash -c "$CTL stream -r $T/pairs.rpc 2>/dev/null"
check "pair json"        0 '"comm":"curl",.*"latency_ns":250000000,"end_pid":42,"end_tgid":41}$' "^$" -- bash -c "$CTL -j stream -r $T/pairs.rpc | grep -v retval"
check "pair json schema" 0 "valid: 2 documents" "^$" -- bash -c "$CTL -j stream -r $T/pairs.rpc | $VALIDATE record"
check "pair csv"         0 ',,250000000,$' "^$" -- bash -c "$CTL stream -r $T/pairs.rpc -f csv 2>/dev/null | grep curl"
check "records in hist"  2 "^$" "--records writes a record a pair: not with --linear, --by or -i" -- $CTL latency --records --by comm --from kprobe:vfs_read --to kprobe:vfs_write --key pid
check "latency filter"   0 "term0: src=retval size=8 gt 1000" "^$" -- $CTL latency --records --key pid --from kprobe:vfs_read --to kprobe:vfs_write --filter 'latency > 1000' --dry-run
check "latency filter hist" 2 "^$" "latency: a histogram counts every latency; filter on it with --records$" -- $CTL latency --key pid --from kprobe:vfs_read --to kprobe:vfs_write --filter 'latency > 1000' --dry-run
check "latency filter or" 2 "^$" "join them with && only$" -- $CTL latency --records --key pid --from kprobe:vfs_read --to kprobe:vfs_write --filter 'latency > 1000 || count == 3' --dry-run
check "latency openmetrics records" 2 "^$" "-f openmetrics prints the kernel's counts: hist's own probes, or latency without --records$" -- $CTL latency --records --key pid --from kprobe:vfs_read --to kprobe:vfs_write -f openmetrics --dry-run
check "hist openmetrics two" 2 "^$" "-f openmetrics prints one probe's counts: give one \(latency: one --to\)$" -- $CTL hist kprobe:vfs_read kretprobe:vfs_write -f prometheus --dry-run
check "pair add records by" 2 "^$" "--records writes a record a pair: not with --by, --hist or --lhist$" -- $CTL probe add pair --records --by comm --key pid --from kprobe:vfs_read --to kprobe:vfs_write --dry-run
check "hist by other keys" 2 "^$" "--by takes 'comm', not 'pid'$" -- $CTL hist --by pid kretprobe:vfs_read --dry-run
check "latency by unknown key" 2 "^$" "--by: unknown key 'nope'" -- $CTL latency --by nope --key pid --from kprobe:vfs_read --to kprobe:vfs_write --dry-run
check "records in trace" 2 "^$" "are options of 'rawprobectl latency'$" -- $CTL trace kprobe:vfs_read --records
cat > "$T/check_csv.py" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 14, len(rows)
assert rows[13]['comm'] == 'with,comma"q', rows[13]['comm']
assert rows[13]['sym'] == 'vfs_read+0x10'
assert rows[3]['retval'] == '-14' and rows[3]['latency_ns'] == '1500'
assert rows[10]['arg0'] == '-100' and rows[10]['str'] == '/etc/hostname'
assert rows[10]['arg1'] == '', 'the string argument is in str'
print('csv ok')
PY
check "csv"              0 "csv ok" "^$" -- bash -c "$CTL stream -r $T/cap.rpc -f csv -o $T/out.csv 2>/dev/null && python3 $T/check_csv.py $T/out.csv"
check "perfetto schema"  0 "valid: 1 documents" "^$" -- bash -c "$CTL stream -r $T/cap.rpc -f perfetto 2>/dev/null | $VALIDATE perfetto-"
cat > "$T/perfetto.py" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
x = [e for e in ev if e['ph'] == 'X']
assert len(x) == 10, len(x)
# a slice spans entry to return: ts = (return time - latency) in us
assert x[0]['ts'] == 5000009.9 and x[0]['dur'] == 0.1, x[0]
assert {e['tid'] for e in x} == {100, 200} and {e['pid'] for e in x} == {100, 199}
names = {e['tid']: e['args']['name'] for e in ev if e['ph'] == 'M'}
assert names == {100: 'cat', 200: 'dd', 300: 'with,comma"q'}, names
inst = [e for e in ev if e['ph'] == 'i']
assert len(inst) == 4 and inst[0]['args']['str'] == '/etc/hostname'
print('perfetto ok')
PY
check "perfetto slices"  0 "perfetto ok" "^$" -- bash -c "$CTL stream -r $T/cap.rpc -f perfetto -o $T/p.json 2>/dev/null && python3 $T/perfetto.py $T/p.json"
check "raw round trip"   0 "^$" "^$" -- bash -c "$CTL stream -r $T/cap.rpc -f raw -o $T/cap2.rpc 2>/dev/null && cmp <($CTL -j stream -r $T/cap.rpc 2>/dev/null) <($CTL -j stream -r $T/cap2.rpc 2>/dev/null)"
# --- values by their types, from the capture's types item (no BTF here):
# an int's -2 in eax alone, a bool function's false (0x100) and true, a
# u32's and an s32's upper register bits, a bool argument, a pointer's
# ERR_PTR(-2); retval_raw where retval reads otherwise; a probe of no
# known type as before ---
python3 "$here/mkcapture.py" --typed "$T/typed.rpc"
NOBTF="env RAWPROBECTL_BTF=/nonexistent"
cat > "$T/typed.py" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 8, len(recs)
assert recs[0]['retval'] == -2 and recs[0]['retval_raw'] == 4294967294, recs[0]
assert recs[0]['args'] == [-100, 0x7ffd0000], recs[0]
assert recs[1]['retval'] == -2 and 'retval_raw' not in recs[1], recs[1]
assert recs[2]['retval'] is False and recs[2]['retval_raw'] == 256, recs[2]
assert recs[3]['retval'] is True and recs[3]['retval_raw'] == 1, recs[3]
assert recs[2]['args'] == [2], recs[2]
assert recs[4]['args'] == [-1, True] and recs[5]['args'] == [0, False], recs[4:6]
assert recs[6]['retval'] == 2**64 - 2 and recs[6]['retval_raw'] == -2, recs[6]
assert recs[7]['retval'] == 4294967294 and 'retval_raw' not in recs[7], recs[7]
print('typed json ok')
PY
# -p's documents, one a line
cat > "$T/pretty.py" <<'PY'
import json, sys
t, dec, i = sys.stdin.read(), json.JSONDecoder(), 0
while t[i:].strip():
    o, i = dec.raw_decode(t, len(t) - len(t[i:].lstrip()))
    print(json.dumps(o))
PY
check "typed json"       0 "^typed json ok$" "^$" -- bash -c "$NOBTF $CTL -j stream -r $T/typed.rpc -o $T/typed.json 2>/dev/null && python3 $T/typed.py $T/typed.json"
check "typed json pretty" 0 "^typed json ok$" "^$" -- bash -c "$NOBTF $CTL -p stream -r $T/typed.rpc 2>/dev/null | python3 $T/pretty.py > $T/typed-p.json && python3 $T/typed.py $T/typed-p.json"
check "typed json schema" 0 "valid: 8 documents" "^$" -- bash -c "$NOBTF $CTL -j stream -r $T/typed.rpc 2>/dev/null | $VALIDATE record"
check "typed csv"        0 "^$" "^$" -- bash -c "$NOBTF $CTL stream -r $T/typed.rpc -f csv 2>/dev/null | sed 1d | cut -d, -f12-20 | diff $here/typed.csv -"
cat > "$T/typed.txt" <<'TXT'
     7.600000   0     700 typed            kretprobe:vfs_fstatat    (dfd=-100, filename=0x7ffd0000) = -2 (10 ns)
     7.600001   0     701 typed            kretprobe:vfs_fstatat    (dfd=-100, filename=0x7ffd0000) = -2 (10 ns)
     7.600002   0     700 typed            kretprobe:cc_platform_has (attr=2) = false (10 ns)
     7.600003   0     701 typed            kretprobe:cc_platform_has (attr=2) = true (10 ns)
     7.600004   0     700 typed            kprobe:__cpuhp_remove_state (state=-1, invoke=true)
     7.600005   0     701 typed            kprobe:__cpuhp_remove_state (state=0, invoke=false)
     7.600006   0     700 typed            kretprobe:filp_open      = 0xfffffffffffffffe (10 ns)
     7.600007   0     701 typed            kretprobe:no_such_fn_rp  = 4294967294 (10 ns)
TXT
check "typed text"       0 "^$" "^$" -- bash -c "$NOBTF $CTL stream -r $T/typed.rpc 2>/dev/null | diff $T/typed.txt -"
check "typed perfetto"   0 '"arg0":2,"retval":false\}.*"arg0":-1,"arg1":true\}' "^$" -- bash -c "$NOBTF $CTL stream -r $T/typed.rpc -f perfetto 2>/dev/null | tr -d '\n'"
# the types item is written back with the probe
check "typed raw round trip" 0 "^$" "^$" -- bash -c "$NOBTF $CTL stream -r $T/typed.rpc -f raw -o $T/typed2.rpc 2>/dev/null && cmp <($NOBTF $CTL -j stream -r $T/typed.rpc 2>/dev/null) <($NOBTF $CTL -j stream -r $T/typed2.rpc 2>/dev/null)"
# a types item of another length is refused; an unknown return type, or
# a probe the capture does not describe, is read as no type known; bools
# only among the 32-bit arguments
cat > "$T/badtypes.py" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
first = d.index(struct.pack('<II', 2, 256))     # the first record's item
rec = d[first:first + 8 + 256]
body = struct.pack('<IBBxx', 1, 99, 0xff) if sys.argv[3] == 'unknown' else \
    struct.pack('<IBBxxx', 1, 3, 0) if sys.argv[3] == 'long' else \
    struct.pack('<IBBxx', 77, 3, 0)
open(sys.argv[2], 'wb').write(d + struct.pack('<II', 4, len(body)) + body + rec)
PY
python3 "$T/badtypes.py" "$T/typed.rpc" "$T/badlen.rpc" long
python3 "$T/badtypes.py" "$T/typed.rpc" "$T/badret.rpc" unknown
python3 "$T/badtypes.py" "$T/typed.rpc" "$T/badid.rpc" other
check "types item length" 1 "^$" "Bad message" -- env RAWPROBECTL_BTF=/nonexistent $CTL stream -r "$T/badlen.rpc" -o /dev/null
check "types item unknown type" 0 '"args":\[true,2147287040\],"arg_names":\["dfd","filename"\],"retval":4294967294,"latency_ns":10\}$' "^$" \
	-- bash -c "$NOBTF $CTL -j stream -r $T/badret.rpc 2>/dev/null | tail -1"
check "types item other probe" 0 '"retval":-2,"retval_raw":4294967294,"latency_ns":10\}$' "^$" \
	-- bash -c "$NOBTF $CTL -j stream -r $T/badid.rpc 2>/dev/null | tail -1"
# without the types item (an older capture) nor BTF: the register, as
# before types; 32-bit arguments cut all the same
python3 "$here/mkcapture.py" --typed "$T/untyped.rpc" --no-types
cat > "$T/untyped.py" <<'PY'
import json, sys
recs = [json.loads(l) for l in sys.stdin]
print(*[r['retval'] if 'retval' in r else r['args'] for r in recs],
      'raw' in str(recs))
PY
check "untyped json"     0 "^4294967294 -2 256 1 \[-1, 257\] \[0, 512\] -2 4294967294 False$" "^$" \
	-- bash -c "$NOBTF $CTL -j stream -r $T/untyped.rpc 2>/dev/null | python3 $T/untyped.py"
check "untyped u32 cut"  0 '"args":\[2\],' "^$" -- bash -c "$NOBTF $CTL -j stream -r $T/untyped.rpc 2>/dev/null | sed -n 3p"
check "not a capture"    1 "^$" "not a rawprobectl capture" -- $CTL stream -r "$T/kallsyms"
check "missing capture"  1 "^$" "No such file" -- $CTL stream -r "$T/nope"

# --- hist ---
check "hist log2"        0 "@kretprobe:vfs_read, latency_ns: count 10, sum 29951, avg 2995, min 1, max 20000" \
	"4 records had no latency_ns" -- $CTL hist -r "$T/cap.rpc"
check "hist bars"        0 '\[512, 1K\) +3 \|@{52}\|' "^$" -- bash -c "$CTL hist -r $T/cap.rpc 2>/dev/null"
check "hist half bar"    0 '\[2K, 4K\) +2 \|@{34} {18}\|' "^$" -- bash -c "$CTL hist -r $T/cap.rpc 2>/dev/null"
check "hist by comm"     0 "@kretprobe:vfs_read\[cat\].*count 6.*@kretprobe:vfs_read\[dd\].*count 4" "^$" \
	-- bash -c "$CTL hist -r $T/cap.rpc --by comm 2>/dev/null | tr '\n' ' '"
check "hist linear"      0 '\[1000, 2000\) +1 ' "^$" -- bash -c "$CTL hist -r $T/cap.rpc --linear 1000 2>/dev/null"
check "hist retval neg"  0 '\(\.\.\., 0\) +1 ' "^$" -- bash -c "$CTL hist -r $T/cap.rpc --retval 2>/dev/null"
check "hist signed arg"  0 'do_sys_openat2, arg0: count 3.*\(\.\.\., 0\) +3 ' "^$" -- bash -c "$CTL hist -r $T/cap.rpc --arg 0 --id 2 2>/dev/null | tr '\n' ' '"
check "hist json"        0 "valid: 2 documents" "^$" -- bash -c "$CTL -j hist -r $T/cap.rpc --by comm --linear 500 2>/dev/null | $VALIDATE hist"
check "hist json buckets" 0 '\{"low":512,"high":1024,"count":3\}' "^$" -- bash -c "$CTL -j hist -r $T/cap.rpc 2>/dev/null"
check "hist empty"       0 "no records with a arg5 value" "^$" -- bash -c "$CTL hist -r $T/cap.rpc --arg 5 2>/dev/null"

# --- escaping: a traced process's command and strings (and a custom
# probe's name) must not reach the terminal as control bytes ---
python3 "$here/mkcapture.py" --escapes "$T/esc.rpc"
cat > "$T/clean.py" <<'PY'
import sys
text = sys.stdin.buffer.read().decode('utf-8')     # strict: UTF-8 only
bad = [c for c in text if c != '\n' and (ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0)]
assert text and not bad, bad
print('clean')
PY
check "text escapes clean" 0 "^clean$" "^$" -- bash -c "$CTL stream -r $T/esc.rpc 2>/dev/null | python3 $T/clean.py"
check "text escapes comm" 0 ' 400 \\x1b\]0;pwned\\x07 kretprobe:vfs_read ' "^$" -- bash -c "$CTL stream -r $T/esc.rpc 2>/dev/null"
check "text escapes str" 0 '\(-100, "/tmp/\\x1b\[2J"\)' "^$" -- bash -c "$CTL stream -r $T/esc.rpc 2>/dev/null"
check "text escapes bytes" 0 '"café \\\\ back\\x7f\\xc2\\x9b\\x9b\\x80\\xff\\tend\\n"\)$' "^$" -- bash -c "$CTL stream -r $T/esc.rpc 2>/dev/null"
check "text escapes name" 0 ' plain +custom:evil\\x1b\[31m' "^$" -- bash -c "$CTL stream -r $T/esc.rpc 2>/dev/null"
cat > "$T/check_csv_esc.py" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert len(rows) == 4, len(rows)
assert all(r['comm'] == r'\x1b]0;pwned\x07' for r in rows[:3]), rows[0]['comm']
assert rows[1]['str'] == r'/tmp/\x1b[2J', rows[1]['str']
assert rows[2]['str'] == r'café \\ back\x7f\xc2\x9b\x9b\x80\xff\tend\n', rows[2]['str']
assert rows[3]['probe'] == r'custom:evil\x1b[31m', rows[3]['probe']
print('csv escapes ok')
PY
check "csv escapes"      0 "^clean csv escapes ok$" "^$" -- bash -c "$CTL stream -r $T/esc.rpc -f csv -o $T/esc.csv 2>/dev/null && python3 $T/clean.py < $T/esc.csv | tr '\n' ' ' && python3 $T/check_csv_esc.py $T/esc.csv"
check "hist escapes comm" 0 '^@kretprobe:vfs_read\[\\x1b\]0;pwned\\x07\], latency_ns: count 1' "^$" -- bash -c "$CTL hist -r $T/esc.rpc --by comm 2>/dev/null"
check "hist escapes clean" 0 "^clean$" "^$" -- bash -c "$CTL hist -r $T/esc.rpc --by comm 2>/dev/null | python3 $T/clean.py"
cat > "$T/check_json_esc.py" <<'PY'
import json, sys
recs = [json.loads(line) for line in open(sys.argv[1])]
assert [r['comm'] for r in recs] == ['\x1b]0;pwned\x07'] * 3 + ['plain']
assert recs[1]['str'] == '/tmp/\x1b[2J' and recs[3]['probe'] == 'custom:evil\x1b[31m'
# JSON escapes every byte past ASCII on its own: \u00XX is the byte XX
raw = b'caf\xc3\xa9 \\ back\x7f\xc2\x9b\x9b\x80\xff\tend\n'
assert recs[2]['str'].encode('latin-1') == raw, recs[2]['str']
print('json escapes ok')
PY
check "json escapes"     0 "^json escapes ok$" "^$" -- bash -c "$CTL -j stream -r $T/esc.rpc -o $T/esc.json 2>/dev/null && python3 $T/check_json_esc.py $T/esc.json"
check "json escapes schema" 0 "valid: 4 documents" "^$" -- bash -c "$CTL -j stream -r $T/esc.rpc 2>/dev/null | $VALIDATE record"

# --- doctor, version: JSON against the schema ---
check "doctor host"      3 "FAIL +module +the rawprobe module is not loaded" "^$" -- $CTL doctor
check "doctor fixes"     3 "fix: make && sudo insmod rawprobe.ko" "^$" -- $CTL doctor
check "doctor json"      0 "valid: 1 documents" "^$" -- bash -c "$CTL -j doctor | $VALIDATE doctor"
check "doctor pretty"    0 "valid: 1 documents" "^$" -- bash -c "$CTL -p doctor | $VALIDATE doctor-"
printf 'CONFIG_KPROBES=y\n# CONFIG_KRETPROBES is not set\n' > "$T/config"
check "doctor kconfig"   3 "ok +kprobes +CONFIG_KPROBES=y.*FAIL +kretprobes +CONFIG_KRETPROBES is not set" "^$" \
	-- bash -c "RAWPROBE_KCONFIG=$T/config $CTL doctor | tr '\n' ' '; exit \${PIPESTATUS[0]}"
check "doctor kallsyms"  3 "kprobes +CONFIG_KPROBES is not set \(no register_kprobe in .*kallsyms\)" "^$" \
	-- bash -c "RAWPROBE_KCONFIG=/nonexistent $CTL doctor | grep -v kretprobes; exit \${PIPESTATUS[0]}"
check "version json"     3 "valid: 1 documents" "^$" -- bash -c "$CTL -j version 2>/dev/null | $VALIDATE version; exit \${PIPESTATUS[0]}"
check "version schema"   0 '"json_schema":2' "^$" -- bash -c "$CTL -j version 2>/dev/null; true"
check "schema valid"     0 "valid: schema" "^$" -- $VALIDATE --check
unset RAWPROBE_KALLSYMS

# --- man page, completion, install ---
check "man page"         0 "^$" "^$" -- groff -man -ww -z "$repo/man/rawprobectl.8"
check "man renders"      0 "EXIT STATUS.*RAWPROBE_KALLSYMS" "^$" -- bash -c "MANWIDTH=80 man -l $repo/man/rawprobectl.8 2>/dev/null | tr '\n' ' '"
check "man has objects"  0 "^$" "^$" -- bash -c "for o in \$($CTL help | awk '/^Objects:/ { f = 1; next } /^\$/ { f = 0 } f { print \$1 }'); do grep -q \"^\\.B.*\$o\\|^\\.B rawprobectl \$o\" $repo/man/rawprobectl.8 || grep -qw \"\$o\" $repo/man/rawprobectl.8 || { echo missing \$o >&2; exit 1; }; done"
cat > "$T/comp.sh" <<'SH'
. "$1/completion/rawprobectl"
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _rawprobectl; echo "${COMPREPLY[*]}"; }
comp rawprobectl ""
comp rawprobectl probe ""
comp rawprobectl probe add kprobe do_
comp rawprobectl stream -f p
comp rawprobectl hist --b
SH
check "completion"       0 "probe stream trace hist latency count agg inject tool run serve stats ring monitor doctor version.*add del list show enable disable reset.*do_sys_openat2.*perfetto.*--by" "^$" \
	-- bash -c "RAWPROBE_KALLSYMS=$T/kallsyms bash $T/comp.sh $repo | tr '\n' ' '"
check "completion tracepoint" 0 "^tracepoint:sched:sched_switch tracepoint:sched:sched_wakeup$" "^$" -- bash -c ". $repo/completion/rawprobectl; COMP_WORDS=(rawprobectl count tracepoint:sched:sched_); COMP_CWORD=2; RAWPROBECTL_TRACEFS=$T/tp _rawprobectl; echo \"\${COMPREPLY[*]}\""
check "completion btf"   0 "^struct$" "^$" -- bash -c ". $repo/completion/rawprobectl; COMP_WORDS=(rawprobectl btf show st); COMP_CWORD=3; RAWPROBE_KALLSYMS=/dev/null _rawprobectl; echo \"\${COMPREPLY[*]}\""
check "completion btf type" 0 "^$" "^$" -- bash -c ". $repo/completion/rawprobectl; COMP_WORDS=(rawprobectl btf show struct do_); COMP_CWORD=4; RAWPROBE_KALLSYMS=$T/kallsyms _rawprobectl; echo -n \"\${COMPREPLY[*]}\""
check "completion objects" 0 "^$" "^$" -- bash -c "for o in \$($CTL help | awk '/^Objects:/ { f = 1; next } /^\$/ { f = 0 } f { print \$1 }'); do grep -q \"objects=.*\$o\" $repo/completion/rawprobectl || exit 1; done"
check "make install-ctl" 0 "^$" "^$" -- bash -c "make -s -C $repo install-ctl DESTDIR=$T/root PREFIX=/usr >/dev/null && test -x $T/root/usr/sbin/rawprobectl && test -f $T/root/usr/share/man/man8/rawprobectl.8 && test -f $T/root/usr/share/bash-completion/completions/rawprobectl && test -f $T/root/usr/share/rawprobe/rawprobectl-v2.json && test -f $T/root/usr/lib/systemd/system/rawprobe-exporter.service && test -f $T/root/usr/share/rawprobe/exporter.conf"
# an installed rawprobectl finds its tools beside it (PREFIX/share)
check "installed tool list" 0 "^killsnoop +Trace signals" "^$" -- \
	env -u RAWPROBE_TOOLS $T/root/usr/sbin/rawprobectl tool list
# the tools and scripts: what runs without the module
check "by start. empty" 2 "^$" "--by start.NAME: NAME, an argument" -- \
	$CTL latency --key pid --by start. --from kprobe:vfs_read --to kprobe:vfs_write
check "tool list" 0 "^vfscount +Count VFS calls" "^$" -- $CTL tool list
check "tool show" 0 "^count 'kprobe:vfs_\*'" "^$" -- $CTL tool show vfscount
check "tool -h" 0 "^Runs: rawprobectl count 'kprobe:vfs_\*'" "^$" -- $CTL tool vfscount -h
check "tool unknown" 2 "^$" "no tool 'nosuch'" -- $CTL tool nosuch
check "tool bad option" 2 "^$" "vfscount: unknown option '-z'" -- $CTL tool vfscount -z
check "tool missing value" 2 "^$" "-i wants its SECONDS" -- $CTL tool vfscount -i
check "run missing file" 2 "^$" "nosuch.rp: No such file" -- $CTL run $T/nosuch.rp
printf 'option -q "x" "y"\ncount "kprobe:x\n' > $T/open.rp
check "run open quote" 2 "^$" "line 2: \" not closed" -- $CTL run $T/open.rp
check "run no args" 2 "^$" "Usage: rawprobectl run FILE" -- $CTL run

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
