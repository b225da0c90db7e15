# SPDX-License-Identifier: GPL-2.0
#
# Shell helpers for scripts that drive rawprobectl in a guest, sourced by
# the in-VM suite (tests/vm/lib.sh) and the labs' checks (labs/lib.sh).
# CTL is the rawprobectl to run. Assertions are the sourcing script's own.

# json_get JSON EXPR: a Python expression on the parsed JSON j, printed
# as Python prints it. A plain path to a number, string, boolean or null
# (j["stats"]["hits"], j[0]["kind"]) goes to jq, which starts several
# times faster under TCG (and faster still on the debug kernels), and
# prints it as Python would; anything else (a list, an expression, a
# number past 2^53, which jq 1.6 rounds) to Python.
json_get() {
	local v
	if [[ $2 =~ ^j(\[(\"[A-Za-z0-9_]+\"|[0-9]+)\])+$ ]] &&
	   v=$(printf '%s' "$1" | jq -r ".${2#j}"' |
		if type == "array" or type == "object" then error("not a scalar")
		elif type == "number" and fabs > 9007199254740991
		then error("past a double")
		elif . == true then "True" elif . == false then "False"
		elif . == null then "None" else . end' 2>/dev/null); then
		printf '%s\n' "$v"
		return
	fi
	printf '%s' "$1" |
		python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$2"
}

# Without python (it takes a second to start under TCG): every probe
# object of the compact JSON list opens with its id.
probe_count() {
	$CTL -j probe list | grep -o '{"id":' | wc -l
}

# nap SECONDS: a sleep without a process: read's timeout on a pipe this
# shell holds both ends of. A wait loop's sleep(1), and its grep(1),
# were a fork and an exec each every tenth of a second, which under TCG
# took a good part of the one host thread the guest's two vCPUs share,
# from the very command the loop waited for.
nap() {
	if [ -z "${RP_NAP_FD:-}" ] && ! exec {RP_NAP_FD}<> <(:); then
		RP_NAP_FD=
		sleep "$1"
		return 0
	fi
	read -r -t "$1" -u "$RP_NAP_FD" _ || :
}

# has_text FILE TEXT: FILE holds TEXT (read by the shell, no grep).
has_text() {
	local text=
	[ -r "$1" ] || return 1
	IFS= read -r -d '' text < "$1" || :
	[[ $text == *"$2"* ]]
}

# stale_out OUT: OUT and OUT.err emptied, before a command started in
# the background writes them. Its own redirections truncate them only
# once its process runs, and a check in the shell (has_text) can come
# first and read an earlier command's readiness line.
stale_out() {
	: > "$1" && : > "$1.err"
}

# wait_for CMD [TENTHS]: until CMD succeeds, at most TENTHS/10 s (50).
wait_for() {
	local cmd=$1 n=${2:-50}
	while [ "$n" -gt 0 ]; do
		eval "$cmd" && return 0
		nap 0.1
		n=$((n - 1))
	done
	return 1
}

# stream_all OUT [ARGS...]: a JSON stream into OUT in the background (of
# the probes ARGS select, every probe's without), once it said it is
# reading (its readiness line). Sets STREAM_PID; its stderr goes to
# OUT.err.
stream_all() {
	local out=$1
	shift
	stale_out "$out"
	$CTL -j stream -o "$out" "$@" 2>"$out.err" &
	STREAM_PID=$!
	wait_for "has_text $out.err 'Hit Ctrl-C to end' ||
		! kill -0 $STREAM_PID 2>/dev/null" 300
	has_text "$out.err" 'Hit Ctrl-C to end' && return 0
	echo "    the stream never said it was ready: $(cat "$out.err")" >&2
	return 1
}

stream_stop() {
	kill -INT "$STREAM_PID"
	wait "$STREAM_PID"
}

# count_records FILE PYEXPR: records r in a JSON-lines file matching PYEXPR.
count_records() {
	python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    r = json.loads(line)
    if eval(sys.argv[2]):
        n += 1
print(n)' "$1" "$2"
}
