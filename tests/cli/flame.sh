#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Flame graphs on the host, where no module is loaded: the flamegraph
# command on known folded stacks (its SVG and speedscope file against
# tests/cli/flame_check.py's own merge of the same lines, the speedscope
# file against the schema), count's and hist's -f svg and speedscope
# (hist from a capture with known stacks), the SVG in headless Chromium
# (the frames its DOM holds after the script ran, a search and a zoom
# through the URL, a screenshot that is not blank), and hostile input
# under ASan. Chromium is a dependency (tools/deps.sh): without it the
# browser tests fail. Ends with "N passed, N failed".
#   tests/cli/flame.sh            RAWPROBECTL=... for another build
AREA=flame
. "$(dirname "$0")/lib.sh"
ASAN=$repo/build/asan/rawprobectl
CHECK=$here/flame_check.py

# Known stacks: a stack twice, a stack that is another's prefix ("a"),
# a sibling that sorts between them by bytes ("a-"), blanks in a frame,
# XML's specials, UTF-8, a folded escape, a deep stack, blank lines.
cat > "$T/in.folded" <<'EOF'
dd;entry_SYSCALL_64;do_syscall_64;ksys_read;vfs_read 30
dd;entry_SYSCALL_64;do_syscall_64;ksys_write;vfs_write 10
cat;entry_SYSCALL_64;do_syscall_64;ksys_read;vfs_read 20
cat;entry_SYSCALL_64;do_syscall_64 5
cat;do_syscall_64;ext4_file_read_iter [ext4];vfs_read 4

dd;entry_SYSCALL_64;do_syscall_64;ksys_read;vfs_read 3
a 2
a-;y 3
a;x 4
x<y>&"z';café 6
a\x3bb\x1b;ksys_read;vfs_read	1
deep;f1;f2;f3;f4;f5;f6;f7;f8;f9;f10;f11;f12;f13;f14;f15;f16;f17;f18;f19;f20 2
EOF
# a frame of one sample in 100000: narrower than 0.1 px, left out
printf 'big;work 99999\nbig;tiny 1\n' > "$T/tiny.folded"

# --- the command's grammar ---
check "help"             0 "^Usage: rawprobectl flamegraph" "^$" -- $CTL flamegraph --help
check "help lists it"    0 "flamegraph +\[-f svg\|speedscope\]" "^$" -- $CTL help
check "bad format"       2 "^$" "^rawprobectl: --format is svg or speedscope, not 'png'$" -- $CTL flamegraph -f png "$T/in.folded"
check "two files"        2 "^$" "^rawprobectl: flamegraph reads one file: 'b' is a second$" -- $CTL flamegraph a b
check "bad option"       2 "^$" "^rawprobectl: unknown option '--frob' \(try 'rawprobectl flamegraph --help'\)$" -- $CTL flamegraph --frob
check "missing file"     1 "^$" "^rawprobectl: $T/nope: No such file or directory$" -- $CTL flamegraph "$T/nope"
check "nothing to draw"  1 "^$" "^rawprobectl: flamegraph: stdin: no stacks to draw$" -- bash -c "printf '\n  \n' | $CTL flamegraph"
printf 'a;b 3\nno count here\nx 1.5\n\nc 4\n' > "$T/bad.folded"
check "bad lines counted" 0 "" "^rawprobectl: flamegraph: $T/bad.folded: left out 2 lines that are not \"STACK COUNT\" \(the first: line 2\)$" \
	-- $CTL flamegraph -f speedscope "$T/bad.folded"
check "bad lines left out" 0 "^ok: 2 stacks" "^$" \
	-- bash -c "$CTL flamegraph -f speedscope $T/bad.folded 2>/dev/null > $T/bad.json && python3 $CHECK speedscope $T/bad.folded $T/bad.json"

# --- SVG: every frame merged as flamegraph.pl merges, laid out to scale ---
check "svg frames"       0 "^ok: 46 frames, 90 samples$" "^$" \
	-- bash -c "$CTL flamegraph $T/in.folded > $T/in.svg && python3 $CHECK svg $T/in.folded $T/in.svg"
check "svg from stdin"   0 "^$" "^$" -- bash -c "$CTL flamegraph - < $T/in.folded | cmp - $T/in.svg"
check "svg -o FILE"      0 "^$" "^$" -- bash -c "$CTL flamegraph -o $T/out.svg $T/in.folded && cmp $T/out.svg $T/in.svg"
check "svg the same twice" 0 "^$" "^$" -- bash -c "$CTL flamegraph $T/in.folded | cmp - $T/in.svg"
check "svg frames as <g>" 0 "^46$" "^$" -- bash -c "grep -c '<g class=\"frame\" data-name=' $T/in.svg"
check "svg hover title"  0 '<title>dd \(43 samples, 47\.78%\)</title>' "^$" -- cat "$T/in.svg"
check "svg a blank in a frame" 0 'data-name="ext4_file_read_iter \[ext4\]" data-count="4"' "^$" -- cat "$T/in.svg"
check "svg script inline" 0 "^1 1$" "^$" -- bash -c "echo \$(grep -c '<script type=\"text/ecmascript\"><!\[CDATA\[' $T/in.svg) \$(grep -c 'http' $T/in.svg | awk '{ print (\$1 <= 2) }')"
cat > "$T/title.py" <<'PY'
import sys, xml.etree.ElementTree as ET
t = [e.text for e in ET.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text') if e.get('id') == 'title']
print(t[0])
PY
check "svg --title"      0 '^a <b> & "c"$' "^$" -- bash -c "$CTL flamegraph --title 'a <b> & \"c\"' $T/in.folded > $T/t.svg && python3 $T/title.py $T/t.svg"
check "svg default title" 0 "^Flame Graph$" "^$" -- python3 "$T/title.py" "$T/in.svg"
check "svg tiny frame left out" 0 "^ok: 3 frames, 100000 samples$" "^$" \
	-- bash -c "$CTL flamegraph $T/tiny.folded > $T/tiny.svg && python3 $CHECK svg $T/tiny.folded $T/tiny.svg"
check "svg tiny not drawn" 0 "^$" "^$" -- bash -c "! grep 'data-name=\"tiny\"' $T/tiny.svg"
# the checker itself: a count changed in the SVG is found
check "checker sees a wrong count" 1 "^FAIL: frame \('ksys_write', 4, [0-9]+, 11\), want \('ksys_write', 4, [0-9]+, 10\)$" "^$" \
	-- bash -c "sed 's/data-name=\"ksys_write\" data-count=\"10\"/data-name=\"ksys_write\" data-count=\"11\"/' $T/in.svg > $T/bad.svg && python3 $CHECK svg $T/in.folded $T/bad.svg"

# --- speedscope: the same stacks, frames shared by name ---
check "speedscope stacks" 0 "^ok: 11 stacks, 37 frames, 90 samples$" "^$" \
	-- bash -c "$CTL flamegraph -f speedscope --title T $T/in.folded > $T/in.json && python3 $CHECK speedscope $T/in.folded $T/in.json"
check "speedscope schema" 0 "^valid: 1 documents$" "^$" -- $VALIDATE speedscope- "$T/in.json"
check "speedscope names"  0 '"name":"T","activeProfileIndex":0,"exporter":"rawprobectl ' "^$" -- cat "$T/in.json"
check "speedscope utf-8 kept" 0 '^\{"name":"café"\}( "Grafik \\"ü\\""){2}$' "^$" \
	-- bash -c "$CTL flamegraph -f speedscope --title 'Grafik \"ü\"' $T/in.folded | grep -o -e '{\"name\":\"caf[^}]*}' -e '\"name\":\"Grafik[^,]*' | sed 's/^\"name\"://' | paste -sd' '"
check "checker sees a lost stack" 1 "^FAIL: samples differ" "^$" \
	-- bash -c "grep -v '^deep' $T/in.folded > $T/less.folded && $CTL flamegraph -f speedscope $T/less.folded > $T/less.json && python3 $CHECK speedscope $T/in.folded $T/less.json"

# --- count and agg show: the formats, what they need ---
check "count svg needs stack" 2 "^$" "^rawprobectl: -f svg writes kernel stacks: count --by stack \(or a key list with stack\)$" \
	-- $CTL count kprobe:vfs_read --by comm -f svg --dry-run
check "count folded needs stack" 2 "^$" "-f folded writes kernel stacks" -- $CTL count kprobe:vfs_read -f folded --dry-run
check "count svg not with -i" 2 "^$" "^rawprobectl: -f speedscope is one document, of the whole run: not with -i$" \
	-- $CTL count kprobe:vfs_read --by stack -f speedscope -i 1
check "count svg dry-run" 0 "^kprobe:vfs_read args=none$" "^$" -- $CTL count kprobe:vfs_read --by comm,stack -f svg --dry-run
check "count formats"    2 "^$" "^rawprobectl: --format is text, json, openmetrics, folded, svg or speedscope, not 'png'$" \
	-- $CTL count kprobe:vfs_read -f png
check "count --help"     0 "with --by stack: folded" "^$" -- $CTL count --help
check "agg show svg"     3 "^$" "not loaded" -- $CTL agg show 1 -f svg

# --- hist --stack from a capture: its folded lines, drawn ---
python3 "$here/mkcapture.py" --stack "$T/stack.rpc" "$T/kallsyms"
export RAWPROBE_KALLSYMS=$T/kallsyms
$CTL hist -r "$T/stack.rpc" --stack --by comm > "$T/hist.folded" 2>/dev/null
check "hist folded"      0 "^7$" "^$" -- bash -c "wc -l < $T/hist.folded"
check "hist -f folded"   0 "^$" "^$" -- bash -c "$CTL hist -r $T/stack.rpc --stack --by comm -f folded 2>/dev/null | cmp - $T/hist.folded"
check "hist -j -f folded" 0 "^$" "^$" -- bash -c "$CTL -j hist -r $T/stack.rpc --stack --by comm -f folded 2>/dev/null | cmp - $T/hist.folded"
check "hist svg"         0 "^ok: 37 frames, 9 samples$" "^$" \
	-- bash -c "$CTL hist -r $T/stack.rpc --stack --by comm -f svg -o $T/hist.svg 2>/dev/null && python3 $CHECK svg $T/hist.folded $T/hist.svg"
check "hist svg escapes" 0 'data-name="a\\x3bb\\x1b"' "^$" -- cat "$T/hist.svg"
check "hist speedscope"  0 "^ok: 7 stacks" "^$" \
	-- bash -c "$CTL hist -r $T/stack.rpc --stack --by comm -f speedscope 2>/dev/null > $T/hist.json && python3 $CHECK speedscope $T/hist.folded $T/hist.json"
check "hist speedscope schema" 0 "^valid: 1 documents$" "^$" -- $VALIDATE speedscope- "$T/hist.json"
check "hist svg needs --stack" 2 "^$" "^rawprobectl: -f folded, svg and speedscope write kernel stacks: hist --stack$" \
	-- $CTL hist -r "$T/stack.rpc" -f svg
check "stream svg"       2 "^$" "^rawprobectl: -f svg draws counted stacks: hist --stack -f svg \(of records\) or count --by stack -f svg \(in the kernel\)$" \
	-- $CTL stream -r "$T/stack.rpc" -f svg
check "hist --help"      0 "svg \(a flame graph" "^$" -- $CTL hist --help
unset RAWPROBE_KALLSYMS

# --- in a browser: what Chromium draws, after the page's script ---
CHROME=(chromium --headless --disable-gpu --no-sandbox --user-data-dir="$T/chrome")
check "chromium installed" 0 "chromium" "^$" -- command -v chromium
dom() {	# URL: the DOM after the script ran
	timeout 120 "${CHROME[@]}" --dump-dom "$1" 2>/dev/null
}
check "browser frames"   0 "^ok: 46 frames, 90 samples \(after the script\)$" "^$" \
	-- bash -c "$(declare -f dom); CHROME=(${CHROME[*]}); dom file://$T/in.svg > $T/in.dom && python3 $CHECK dom $T/in.folded $T/in.dom"
check "browser search"   0 "^ok: 46 frames" "^$" \
	-- bash -c "$(declare -f dom); CHROME=(${CHROME[*]}); dom 'file://$T/in.svg?s=read' > $T/s.dom && python3 $CHECK dom $T/in.folded $T/s.dom --search read"
check "browser search share" 0 'id="matched"[^>]*>Matched: 64\.44%<' "^$" -- cat "$T/s.dom"
check "browser zoom"     0 "^ok: zoomed on dd, 7 frames scaled$" "^$" \
	-- bash -c "$(declare -f dom); CHROME=(${CHROME[*]}); dom 'file://$T/in.svg?f=dd' > $T/z.dom && python3 $CHECK dom $T/in.folded $T/z.dom --zoom dd"
check "browser screenshot" 0 "^ok: 1200x[0-9]+, " "^$" \
	-- bash -c "h=\$(sed -n 's/.*<svg [^>]* height=\"\([0-9]*\)\".*/\1/p' $T/in.svg); timeout 120 ${CHROME[*]} --screenshot=$T/in.png --window-size=1200,\$h file://$T/in.svg >/dev/null 2>&1; python3 $CHECK png $T/in.png"

# --- hostile input under ASan: long, deep, not UTF-8, NUL, overflow ---
cat > "$T/hostile.py" <<'PY'
import sys
out = [b'x' * 1000000 + b';y 3', b';'.join(b'f%d' % i for i in range(5000)) + b' 2',
       b'\xff\xfe;\x1b[31m;\xc3;caf\xc3\xa9\x07 4', b'a\x00b;c 5', b'a;; 6', b';a 1',
       b' 7', b'o 18446744073709551615', b'o 18446744073709551615',
       b'p 99999999999999999999999', b'a;b\t\t8\r']
open(sys.argv[1], 'wb').write(b'\n'.join(out) + b'\n')
PY
python3 "$T/hostile.py" "$T/hostile.folded"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
cat > "$T/wellformed.py" <<'PY'
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
doc = json.load(open(sys.argv[2]))
print(root.get('data-total'), len(doc['profiles'][0]['samples']))
PY
check "asan svg"         0 "^$" "left out 4 lines that are not \"STACK COUNT\" \(the first: line 4\)$" -- "$ASAN" flamegraph -o "$T/hostile.svg" "$T/hostile.folded"
check "asan speedscope"  0 "^$" "left out 4 lines" -- "$ASAN" flamegraph -f speedscope -o "$T/hostile.json" "$T/hostile.folded"
check "asan well-formed" 0 "^31 7$" "^$" -- python3 "$T/wellformed.py" "$T/hostile.svg" "$T/hostile.json"
check "asan hist svg"    0 "^$" "records read" -- env RAWPROBE_KALLSYMS="$T/kallsyms" "$ASAN" hist -r "$T/stack.rpc" --stack -f svg -o "$T/asan.svg"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
