#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rawprobectl serve on the host, where no module is loaded: its command
# line, --listen's forms, the config's mistakes (each named by its line,
# nothing added), and its HTTP server against good requests, refusals,
# slow and idle clients and garbage (serve_http.py), under the ASan+UBSan
# build when there is one (make ctl-asan); then SIGTERM ends it with 0.
# The exporter's metrics of real probes are tests/vm/cases/57-serve.sh's.
# Ends with "N passed, N failed".
AREA=serve
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
SRV=$CTL
[ -x "$repo/build/asan/rawprobectl" ] && SRV=$repo/build/asan/rawprobectl
# symbols the config's lines name, as the kernel would list them
printf 'ffffffff81000000 T vfs_read\nffffffff81000100 T vfs_write\n' > "$T/kallsyms"
export RAWPROBE_KALLSYMS=$T/kallsyms

check "help"             0 "Usage: rawprobectl serve .*--config FILE" "^$" -- $CTL serve --help
check "bad option"       2 "^$" "unknown option '--frob' \(try 'rawprobectl serve --help'\)$" -- $CTL serve --frob
check "stray argument"   2 "^$" "serve takes no 'kprobe'" -- $CTL serve kprobe vfs_read
for bad in nohost 127.0.0.1: 127.0.0.1:99999 '[::1:80' localhost:80 1.2.3.4:8x ; do
	check "--listen $bad" 2 "^$" "--listen is ADDRESS:PORT, numeric" -- $CTL serve --listen "$bad"
done

conf() {	# NAME TEXT: a config file $T/NAME.conf
	printf '%b' "$2" > "$T/$1.conf"
}
conf quote "kprobe vfs_read --by comm\nkprobe 'vfs_write --count\n"
check "config: an open quote" 2 "^$" "quote.conf:2: a quote without its end$" -- $CTL serve --config "$T/quote.conf"
conf option "# comment\n\nkprobe vfs_read --count\nkprobe vfs_write --frob\n"
check "config: an unknown option" 2 "^$" "unknown option '--frob'.*
rawprobectl: .*option.conf:4: in this line$" -- $CTL serve --config "$T/option.conf"
conf kind "uprobe vfs_read --count\n"
check "config: an unknown kind" 2 "^$" "unknown probe kind 'uprobe'.*
.*kind.conf:1: in this line$" -- $CTL serve --config "$T/kind.conf"
conf pair "pair --from kprobe:vfs_read --to kprobe:vfs_write --key pid\n"
check "config: a pair" 2 "^$" "a pair is not taken from a config" -- $CTL serve --config "$T/pair.conf"
conf stdin "kprobe - --count\n"
check "config: targets on stdin" 2 "^$" "'-' \(targets on stdin\) is not for a config" -- $CTL serve --config "$T/stdin.conf"
conf dry "kprobe vfs_read --count --dry-run\n"
check "config: --dry-run" 2 "^$" "--dry-run is not for a config" -- $CTL serve --config "$T/dry.conf"
conf empty "# nothing\n   \n# at all\n"
check "config: no probe" 2 "^$" "names no probe$" -- $CTL serve --config "$T/empty.conf"
conf words "kprobe vfs_read$(printf ' -d%.0s' $(seq 70))\n"
check "config: too many words" 2 "^$" "words.conf:1: too many words$" -- $CTL serve --config "$T/words.conf"
conf long "kprobe vfs_read --comm $(printf 'x%.0s' $(seq 5000))\n"
check "config: a line too long" 2 "^$" "long.conf:1: longer than 4095 bytes$" -- $CTL serve --config "$T/long.conf"
check "config: no file" 2 "^$" "--config $T/none.conf: No such file" -- $CTL serve --config "$T/none.conf"
conf good "kprobe vfs_read --by comm   # counted by command\n\"kprobe\" vfs_wr\\\\ite --count\n"
check "config: good, no module" 3 "^$" "not loaded" -- $CTL serve --listen 127.0.0.1:0 --config "$T/good.conf"
check "config: the packaged example" 3 "^$" "not loaded" -- env -u RAWPROBE_KALLSYMS $CTL serve --listen 127.0.0.1:0 --config "$repo/packaging/exporter.conf"
check "completion" 0 "^--listen$" "^$" -- bash -c ". $repo/completion/rawprobectl; COMP_WORDS=(rawprobectl serve --li); COMP_CWORD=2; _rawprobectl; echo \"\${COMPREPLY[*]}\""

# The server itself, on a port of the kernel's choosing
$SRV serve --listen 127.0.0.1:0 > "$T/srv.out" 2> "$T/srv.err" &
srv=$!
for _ in $(seq 100); do
	grep -q 'Hit Ctrl-C to end\.$' "$T/srv.err" && break
	sleep 0.1
done
port=$(sed -n 's/^Serving .* (port \([0-9]*\)).*/\1/p' "$T/srv.err")
check "readiness line"   0 "^[0-9]+$" "^$" -- echo "$port"
check "port taken"       1 "^$" "--listen 127.0.0.1:$port: Address already in use" -- $CTL serve --listen "127.0.0.1:$port"
rc=0
out=$(python3 "$here/serve_http.py" "${port:-1}" "$(command -v promtool || echo promtool)" 2>&1) ||
	rc=$?
printf '%s\n' "$out"
pass=$((pass + $(grep -c '^ok - ' <<< "$out")))
fail=$((fail + $(grep -c '^not ok - ' <<< "$out")))
# a script that died without saying what failed is one failure
[ "$rc" != 0 ] && ! grep -q '^not ok - ' <<< "$out" &&
	{ fail=$((fail + 1)); echo "not ok - serve: serve_http.py (exit $rc)"; }
rc=0
kill -TERM $srv
wait $srv || rc=$?
check "SIGTERM ends it"  0 "^0$" "^$" -- echo "$rc"
check "no sanitizer report" 1 "^$" "^$" -- grep -E 'Sanitizer|runtime error' "$T/srv.err"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
