# SPDX-License-Identifier: GPL-2.0
# String comparisons in --filter and the --cgroup task
# filter, both run in the kernel: each keeps exactly the calls
# it names, on char arrays, kernel char pointers and user strings, and
# on one cgroup's tasks and its children's. Bad input gets a clear error.

S=$T_SCRATCH
# validate_all FILE: every record of FILE against the JSON schema's record
validate_all() {
	schema record "$1"
}

# pty_writes OUT FILTER: pty_write calls of one python process that
# writes 7 times (5 bytes) to one pty's slave, 11 times (3 bytes) to
# another's, 13 times (2 bytes) to the first one's master, raw mode (no
# echo, no output processing: one pty_write a write). Prints the slaves'
# names (ptsN ptsM); the records of FILTER go to OUT.
pty_writes() {
	local out=$1
	shift
	bg_start $out -j trace kprobe:pty_write --comm python3 --args 3 "$@" \
		-o $out.json
	py 'import os, pty, tty
m0, s0 = pty.openpty(); m1, s1 = pty.openpty()
tty.setraw(s0); tty.setraw(s1)
for i in range(7): os.write(s0, b"aaaaa")
for i in range(11): os.write(s1, b"bbb")
for i in range(13): os.write(m0, b"cc")
print(os.ttyname(s0).replace("/dev/", "").replace("/", ""),
      os.ttyname(s1).replace("/dev/", "").replace("/", ""))' > $out.names
	bg_stop INT
}

# count_by OUT: records of OUT.json by pty_write's count (its third
# argument, c on 6.1): "5:7 3:11"
count_by() {
	python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["args"][2] for l in open(sys.argv[1]) if l.strip())
print(" ".join("%d:%d" % kv for kv in sorted(c.items(), reverse=True)))' "$1.json"
}

# The pty's number is known only once it is open: pts0 and pts1 are the
# first two a fresh guest hands out, which the names file confirms.
t_char_array_equals_and_globs() {
	pty_writes $S/eq --filter 'tty->name == "pts0"'
	expect_eq "pts0 pts1" "$(cat $S/eq.names)" "the ptys opened"
	expect_eq "5:7" "$(count_by $S/eq)" "writes to pts0 only"
	pty_writes $S/glob --filter 'tty->name ~ "pts*"'
	expect_eq "5:7 3:11" "$(count_by $S/glob)" "writes to both slaves"
	pty_writes $S/nglob --filter 'tty->name !~ "pts?"'
	expect_eq "2:13" "$(count_by $S/nglob)" "writes to the master (ptm0)"
	pty_writes $S/ne --filter 'tty->name != "pts0" && arg2 < 5'
	expect_eq "3:11 2:13" "$(count_by $S/ne)" "all but pts0's, with a number's term"
	pty_writes $S/or --filter 'tty->name == "pts1" || tty->name == "ptm0"'
	expect_eq "3:11 2:13" "$(count_by $S/or)" "alternatives of strings"
}

# dev_opens OUT TERM: vfs_open calls of one python process that opens
# /dev/null 5 times and /dev/zero 3 times, kept by 'DENTRY_NAME TERM'
# (the dentry's name: a kernel char pointer, two loads away); sets
# N_OPENS to how many were recorded.
dev_opens() {
	bg_start $1.out -j trace kprobe:vfs_open --comm python3 \
		--filter "path->dentry->d_name.name $2" -o $1.json
	py 'for i in range(5): open("/dev/null").close()
for i in range(3): open("/dev/zero").close()'
	bg_stop INT
	N_OPENS=$(count_records $1.json "r['comm'] == 'python3'")
}

t_kernel_pointer() {
	dev_opens $S/null '== "null"'
	expect_eq 5 "$N_OPENS" "opens of a dentry named null"
	dev_opens $S/zero '~ "ze*o"'
	expect_eq 3 "$N_OPENS" "opens of a dentry matching ze*o"
}

# A user string: do_sys_openat2's filename (untagged in gcc's BTF: read
# as a kernel string first, then as a user one), and the system call's
# own argument (a user string by rule).
t_user_string() {
	local f=$S/rp-str-target n
	bg_start $S/u.out -j trace kprobe:do_sys_openat2 --comm python3 \
		--filter "filename == \"$f\"" -e kprobe:__x64_sys_openat \
		--filter "filename ~ \"*rp-str-t?rget\"" -o $S/u.json
	py "
for i in range(4): open('$f', 'w').close()
for i in range(6): open('$S/other', 'w').close()"
	bg_stop INT
	n=$(count_records $S/u.json "r['comm'] == 'python3' and 'do_sys_openat2' in r['probe']")
	expect_eq 4 "$n" "do_sys_openat2 calls that opened $f"
	n=$(count_records $S/u.json "r['comm'] == 'python3' and 'sys_openat' in r['probe'] and 'openat2' not in r['probe']")
	expect_eq 4 "$n" "openat(2) calls that named $f"
}

# Unreadable strings compare as "" and count as fetch faults; a string
# that goes on past 64 bytes equals no constant, and matches only a glob
# that ends with '*'.
t_faults_and_long_strings() {
	local long id j
	long=$S/$(printf 'x%.0s' $(seq 70))
	id=$($CTL probe add kprobe do_sys_openat2 --comm python3 \
		--filter "filename ~ \"$S/xxxx*\"")
	py "import os
open('$long', 'w').close()
try: os.open(None, 0)
except TypeError: pass
import ctypes
ctypes.CDLL(None).syscall(257, -100, 0, 0, 0)"
	j=$($CTL -j probe show "$id")
	$CTL probe del "$id"
	expect_eq 1 "$(json_get "$j" 'j["stats"]["records"]')" "the long name matched the glob ending in *"
	id=$($CTL probe add kprobe do_sys_openat2 --comm python3 \
		--filter "filename == \"$long\"" 2>&1) &&
		fail "a 70-character constant was accepted"
	expect_match "is [0-9]+ characters: a string compares on its first 64 bytes" "$id" "the constant's bound"
	id=$($CTL probe add kprobe do_sys_openat2 --comm python3 \
		--filter "filename != \"x\"")
	py "import ctypes
ctypes.CDLL(None).syscall(257, -100, 8, 0, 0)"
	j=$($CTL -j probe show "$id")
	$CTL probe del "$id"
	expect_ge 1 "$(json_get "$j" 'j["stats"]["fetch_faults"]')" "an unreadable filename counted"
	expect_ge 1 "$(json_get "$j" 'j["stats"]["records"]')" "...and compared as \"\" (!= \"x\")"
}

# Two filters that differ only in a string constant are two probes, each
# keeping its own file's opens; the same constant twice is a duplicate.
t_string_constants_not_duplicates() {
	local a b
	a=$($CTL probe add kprobe do_sys_openat2 --comm python3 \
		--filter "filename == \"$S/dup-a\"") || fail "the first filter refused"
	b=$($CTL probe add kprobe do_sys_openat2 --comm python3 \
		--filter "filename == \"$S/dup-b\"" 2>&1) ||
		fail "another string constant taken for a duplicate: $b"
	expect_fail 1 "identical probe.*EEXIST" $CTL probe add kprobe do_sys_openat2 \
		--comm python3 --filter "filename == \"$S/dup-b\""
	py "for f in ['$S/dup-a', '$S/dup-b', '$S/dup-b']: open(f, 'w').close()"
	expect_eq 1 "$(json_get "$($CTL -j probe show "$a")" 'j["stats"]["records"]')" \
		"opens of dup-a"
	expect_eq 2 "$(json_get "$($CTL -j probe show "$b")" 'j["stats"]["records"]')" \
		"opens of dup-b"
	$CTL probe del "$a"
	$CTL probe del "$b"
}

# --cgroup keeps the tasks of one cgroup v2 and of the cgroups below it.
t_cgroup_filter() {
	local n
	cgroup_make rpcgA
	cgroup_make rpcgB
	mkdir -p $CGROOT/rpcgA/child
	bg_start $S/cg.out -j trace kprobe:__x64_sys_getpgid --cgroup rpcgA \
		-o $S/cg.json
	expect_match "cgroup=$CGROOT/rpcgA" "$($CTL probe list)" "probe list names the cgroup"
	in_cgroup rpcgA python3 -c 'import os
for i in range(50): os.getpgid(0)'
	in_cgroup rpcgB python3 -c 'import os
for i in range(30): os.getpgid(0)'
	in_cgroup rpcgA/child python3 -c 'import os
for i in range(20): os.getpgid(0)'
	py 'import os
for i in range(40): os.getpgid(0)'
	bg_stop INT
	n=$(count_records $S/cg.json "r['comm'] == 'python3'")
	expect_eq 70 "$n" "getpgid calls in rpcgA and rpcgA/child only"
	rmdir $CGROOT/rpcgA/child $CGROOT/rpcgA $CGROOT/rpcgB
}

t_bad_input() {
	local out
	out=$($CTL trace kprobe:vfs_read --cgroup rp-no-such -d 1 2>&1) &&
		fail "an unknown cgroup was accepted"
	expect_match "--cgroup $CGROOT/rp-no-such: No such file or directory" "$out" "unknown cgroup"
	out=$($CTL trace kprobe:vfs_read --cgroup /tmp -d 1 2>&1) &&
		fail "/tmp was accepted as a cgroup"
	expect_match "not a cgroup v2 directory" "$out" "not a cgroup"
	out=$($CTL probe add kprobe pty_write --filter 'tty->name == "pts0' 2>&1) &&
		fail "an unterminated string was accepted"
	expect_match "unterminated string" "$out" "unterminated"
	out=$($CTL probe add kprobe pty_write --filter 'tty->name > "pts0"' 2>&1) &&
		fail "> on strings was accepted"
	expect_match "strings compare with ==, != and the globs" "$out" "operator"
	out=$($CTL probe add kprobe pty_write --filter 'tty->index == "pts0"' 2>&1) &&
		fail "a number compared with a string"
	expect_match "is a number, not a string" "$out" "number vs string"
	# (what the kernel refuses on its own: nl_malformed, in 20-netlink)
	expect_eq 0 "$(probe_count)" "probes left"
}

# Several strings a record: the seed's pty_write line, the tty's
# name and the buffer written to it together; a failed rename's two
# names in one kretprobe record, read at entry.
t_several_strings() {
	local n
	bg_start $S/two.out -j trace kprobe:pty_write --comm python3 \
		--args 'tty->name,buf:str' --filter 'tty->name ~ "pts*"' \
		-o $S/two.json
	py 'import os, pty, tty
m, s = pty.openpty(); tty.setraw(s)
for i in range(3): os.write(s, b"hello")'
	bg_stop INT
	n=$(count_records $S/two.json "[x['arg'] for x in r['strs']] == [0, 1] and r['strs'][0]['str'].startswith('pts') and r['strs'][1]['str'].startswith('hello')")
	expect_eq 3 "$n" "records with the tty's name and the buffer"
	# the buffer is not NUL-terminated where the write ends: its length
	# is pty_write's third argument, c
	bg_start $S/len.out -j trace kprobe:pty_write --comm python3 \
		--args 'tty->name,buf:str:arg2,arg2' --filter 'tty->name ~ "pts*"' \
		-o $S/len.json
	py 'import os, pty, tty
m, s = pty.openpty(); tty.setraw(s)
os.write(s, b"hello, world" * 3)
for i in range(3): os.write(s, b"hi" + bytes(8))'
	bg_stop INT
	n=$(count_records $S/len.json "r['strs'][1]['str'] == 'hello, world' * 3 and not r['strs'][1]['truncated']")
	expect_eq 1 "$n" "the 36 bytes written, no more, not truncated"
	n=$(count_records $S/len.json "r['strs'][1]['str'] == 'hi' and r['args'][2] == 10")
	expect_eq 3 "$n" "a NUL before the length ends the string"
	bg_start $S/ren.out -j trace kretprobe:do_renameat2 --comm python3 \
		--args 'from->name:str,to->name:str' --filter 'retval < 0' \
		-o $S/ren.json
	py "import os
open('$S/a', 'w').close()
os.rename('$S/a', '$S/b')
for i in range(2):
    try: os.rename('$S/none', '$S/c')
    except FileNotFoundError: pass"
	bg_stop INT
	# (JSON's retval is the register: an int's -2 is 2^32 - 2)
	n=$(count_records $S/ren.json "r['retval'] % 2**32 == 2**32 - 2 and [x['str'] for x in r['strs']] == ['$S/none', '$S/c']")
	expect_eq 2 "$n" "failed renames with both names"
	n=$(count_records $S/ren.json "True")
	expect_eq 2 "$n" "records (the rename that worked is filtered)"
	validate_all $S/ren.json
	expect_eq 0 "$(probe_count)" "probes left"
}

# Strings from the return value among others: all read at return, the
# entry's user pointer as the kernel's copy of it (getname's own).
t_strings_at_return() {
	bg_start $S/gn.json -j trace kretprobe:getname --comm gnopen -d 60 \
		--args 'retval->name:str,filename:ustr,retval->uptr:ustr'
	cp /bin/cat $S/gnopen
	! $S/gnopen $S/none-at-return 2>/dev/null
	bg_stop INT
	n=$(count_records $S/gn.json "[x['str'] for x in r['strs']] == ['$S/none-at-return'] * 3")
	expect_ge 1 "$n" "the kernel's copy, the user's name, its pointer: $(cat $S/gn.json)"
	validate_all $S/gn.json
}

# argv_is JOIN TRUNCATED WHAT: one record of $S/argv.json has the argv
# (its second string) JOIN, a python expression
argv_is() {
	expect_eq 1 "$(count_records $S/argv.json "r['strs'][1] == {'arg': 1, 'str': $1, 'truncated': $2}")" \
		"$3: $(cat $S/argv.json)"
}

# :strv joins a NULL-terminated array of strings, execve's argv, with
# spaces (bpftrace's join()): an empty string is an empty word; one cut
# at the string area, or more than 20 strings, says truncated (20 do
# not); an unreadable array is a fault, an empty one an empty string.
# A kernel array of kernel strings (kernel_execve's, a module request's
# helper) is joined by the same code, read as the kernel's.
t_string_arrays() {
	local long n
	long=$(printf 'y%.0s' $(seq 150))
	bg_start $S/argv.out -j trace tracepoint:syscalls:sys_enter_execve \
		--comm python3 --args 'filename:str,argv:strv' -o $S/argv.json
	py "import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
def run(argv, raw=None):
    pid = os.fork()
    if pid == 0:
        try:
            if raw is None: os.execv('/bin/true', argv)
            libc.syscall(59, b'/bin/true', raw, None)
        finally: os._exit(127)
    os.waitpid(pid, 0)
run(['true', 'a', '', 'b c'])
run(['true', '$long'])
run(['true'] + [str(i) for i in range(30)])
run(['true'] + [str(i) for i in range(19)])
run(None, ctypes.c_void_p(8))
run(None, (ctypes.c_char_p * 1)(None))"
	bg_stop INT
	validate_all $S/argv.json
	argv_is "'true a  b c'" False "argv with an empty string joined"
	# the area: 128 bytes, less /bin/true's segment and this one's header
	argv_is "'true ' + 'y' * 106" True "a long string cut, truncated"
	argv_is "'true ' + ' '.join(map(str, range(19)))" True "31 strings: the first 20, truncated"
	argv_is "'true ' + ' '.join(map(str, range(19)))" False "20 strings, all of them"
	argv_is "''" False "an empty argv"
	n=$(count_records $S/argv.json "r['strs'][1]['str'] is None and r.get('str_fault')")
	expect_eq 1 "$n" "an unreadable argv, a fault"
	# --strmax bounds the join; --template prints it as a string
	bg_start $S/argvt.out trace tracepoint:syscalls:sys_enter_execve \
		--comm python3 --args 'argv:strv' --strmax 8 \
		--template '{comm} [{argv}]' -o $S/argvt.txt
	py "import os
if os.fork() == 0: os.execv('/bin/true', ['true', 'a', '', 'b c'])
os.wait()"
	bg_stop INT
	expect_match '^python3 \[true a  \]$' "$(cat $S/argvt.txt)" "--strmax 8 (8 bytes), a template"
	# the kernel's own: a module request's helper (no such family)
	bg_start $S/kargv.out -j trace kprobe:kernel_execve --args 'argv:strv' \
		-o $S/kargv.json
	py "import socket
try: socket.socket(12, socket.SOCK_DGRAM)
except OSError: pass"
	bg_stop INT
	n=$(count_records $S/kargv.json "r['str'].endswith(' net-pf-12') and not r['str_truncated']")
	expect_ge 1 "$n" "kernel_execve's argv, a kernel array"
	expect_eq 0 "$(probe_count)" "probes left"
}

tests t_char_array_equals_and_globs t_kernel_pointer t_user_string \
	t_faults_and_long_strings t_cgroup_filter t_several_strings t_strings_at_return \
	t_bad_input \
	t_string_constants_not_duplicates t_string_arrays
