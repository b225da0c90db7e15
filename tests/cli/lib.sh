# SPDX-License-Identifier: GPL-2.0
# What the host CLI tests share: the CLI under test, a scratch directory,
# the counters and check(). Source it with AREA set (the "ok - AREA:"
# prefix); it sets here, repo, CTL, VALIDATE, T, pass and fail.
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
CTL=${RAWPROBECTL:-$repo/userctl/rawprobectl}
VALIDATE=$here/validate_json.py
pass=0 fail=0
T=$(mktemp -d "/tmp/rp-$AREA.XXXXXX")
trap 'rm -rf "$T"' EXIT

# matches TEXT REGEX: "^$" means empty (grep sees no line in "")
matches() {
	if [ "$2" = '^$' ]; then [ -z "$1" ]; else printf '%s' "$1" | grep -Eq -- "$2"; fi
}

# check NAME EXPECTED_EXIT STDOUT_REGEX STDERR_REGEX -- CMD...
check() {
	local name=$1 code=$2 out_re=$3 err_re=$4 rc=0 out err
	shift 5
	out=$("$@" 2>"$T/stderr") || rc=$?
	err=$(cat "$T/stderr")
	if [ "$rc" = "$code" ] && matches "$out" "$out_re" &&
	   matches "$err" "$err_re"; then
		pass=$((pass + 1)); echo "ok - $AREA: $name"
	else
		fail=$((fail + 1)); echo "not ok - $AREA: $name"
		echo "    exit $rc (want $code); stdout: ${out:0:2000}; stderr: ${err:0:2000}"
	fi
}
