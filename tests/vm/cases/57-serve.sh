# SPDX-License-Identifier: GPL-2.0
# serve: the Prometheus exporter. Debian's own prometheus server scrapes
# it every second on loopback and PromQL over its HTTP API gives a known
# workload's counts (sum by comm, a histogram's count, a filtered probe's
# hits); direct scrapes during probe churn, resets and deletions never
# see a counter go back; the config's probes are added at the start and
# exactly they are gone at SIGTERM, at a SIGINT while it starts, and
# after a SIGKILL.

S=$T_SCRATCH
LOOP=build/tools/getpgid_loop
SYS=__x64_sys_getpgid
PORT=9435
PROM=127.0.0.1:9090

# serve_bg ARGS...: serve in the background until its readiness line,
# killed when the test ends whatever happened (a port held by a failed
# test's exporter would fail the next)
serve_bg() {
	ip link set lo up
	bg_start $S/serve.out serve "$@"
	trap 'prom_stop; kill $BG_PID 2>/dev/null || true' EXIT
}

# until_true CMD [SECONDS]: CMD, until it succeeds or SECONDS (60) have
# passed (wait_for counts tries, and a try of curl and jq takes a good
# part of a second in a TCG guest)
until_true() {
	local end=$((SECONDS + ${2:-60}))
	until eval "$1"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}

# scrape [PORT]: /metrics, once
scrape() {
	curl -sf --max-time 60 "http://127.0.0.1:${1:-$PORT}/metrics"
}

# promql QUERY [TIME]: the API's answer, as JSON
promql() {
	curl -sfG --max-time 30 --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} "http://$PROM/api/v1/query"
}

# prom_vector QUERY [TIME]: "LABEL=VALUE ... VALUE" a line per sample,
# sorted, the value rounded to an integer
prom_vector() {
	promql "$@" | jq -r '.data.result[] |
		[(.metric | to_entries[] | "\(.key)=\(.value)"),
		 (.value[1] | tonumber | round | tostring)] | join(" ")' | sort
}

# prom_wait QUERY WANT [SECONDS]: until prom_vector QUERY says WANT
prom_wait() {
	until_true "[ \"\$(prom_vector '$1' | tr '\n' ';')\" = '$2' ]" "${3:-60}" ||
		fail "'$1': wanted '$2', got '$(prom_vector "$1" | tr '\n' ';')'"
}

prom_stop() {
	[ -n "${PROM_PID:-}" ] || return 0
	kill "$PROM_PID" 2>/dev/null || true
	wait "$PROM_PID" 2>/dev/null || true
	PROM_PID=
}

# Debian's prometheus, scraping the exporter every second, ready and
# having scraped it once (a TCG guest starts it in tens of seconds).
prom_start() {
	command -v prometheus >/dev/null ||
		fail "no prometheus (tools/deps.sh installs Debian's)" || return
	cat > $S/prom.yml <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: rawprobe
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
	prometheus --config.file=$S/prom.yml --storage.tsdb.path=$S/tsdb \
		--web.listen-address=$PROM > $S/prom.log 2>&1 &
	PROM_PID=$!
	local start=$SECONDS
	until_true "curl -sf --max-time 5 http://$PROM/-/ready >/dev/null" 120 ||
		fail "prometheus never ready: $(tail -5 $S/prom.log)" || return
	echo "    prometheus ready in $((SECONDS - start)) s"
	prom_wait "max(up{job=\"rawprobe\",instance=\"127.0.0.1:$PORT\"})" "1;"
}

# rp_calls COMM N: N getpgid calls from a process named COMM
rp_calls() {
	cp $LOOP "$S/$1"
	"$S/$1" -w 0 "$2" >/dev/null
}

# The config's probes and a persistent one of someone else's, scraped
# by prometheus: the workload's calls by comm, a histogram's count, and
# a filtered keyless probe's hits, exact; no counter reset seen.
t_serve_prometheus() {
	local t1 q sel="probe=\"kprobe:$SYS\""
	$CTL probe add kprobe __x64_sys_getppid --comm rp-serve-c --count >/dev/null
	cat > $S/exporter.conf <<EOF
# getpgid by command, and its time by command as a histogram
kprobe $SYS --by comm
kretprobe $SYS --by comm --stats latency --hist log2
EOF
	serve_bg --listen 127.0.0.1:$PORT --config $S/exporter.conf
	prom_start
	rp_calls rp-serve-a 1000
	rp_calls rp-serve-b 300
	py 'import ctypes, os
ctypes.CDLL(None).prctl(15, b"rp-serve-c", 0, 0, 0)
for _ in range(7): os.getppid()'
	q="rawprobe_hits_total{$sel,comm=~\"rp-serve-.*\"}"
	prom_wait "sum by (comm) ($q)" 'comm=rp-serve-a 1000;comm=rp-serve-b 300;'
	prom_wait 'sum(rawprobe_latency_seconds_count{comm="rp-serve-a"})' '1000;'
	prom_wait 'sum(rawprobe_latency_seconds_bucket{comm="rp-serve-a",le="+Inf"})' '1000;'
	prom_wait 'sum(rawprobe_hits_total{probe="kprobe:__x64_sys_getppid"})' '7;'
	expect_eq "7" "$(prom_vector 'sum(rawprobe_probe_hits_total{probe="kprobe:__x64_sys_getppid"} - rawprobe_probe_filtered_total{probe="kprobe:__x64_sys_getppid"})')" \
		"the filtered probe's hits less its filtered"
	# the run so far, then 500 more: the difference is theirs, exactly
	t1=$(date +%s.%N)
	rp_calls rp-serve-a 500
	prom_wait "sum by (comm) ($q)" 'comm=rp-serve-a 1500;comm=rp-serve-b 300;'
	q="rawprobe_hits_total{$sel,comm=\"rp-serve-a\"}"
	expect_eq 500 "$(prom_vector "sum($q) - sum($q @ $t1)")" \
		"the second run's calls, from the counter at two times"
	# increase() extrapolates to the range's ends: at least the 500
	local inc
	inc=$(prom_vector "sum(increase($q[1h]))")
	[ "$inc" -ge 500 ] && [ "$inc" -le 1500 ] ||
		fail "increase() over the run: $inc, not 500 to 1500"
	expect_eq 1 "$(promql "rate($q[1h]) > 0" | jq '.data.result | length')" \
		"rate() of the calls"
	# (a family at a time: without their names, two families' series
	# would be one label set)
	expect_eq "0" "$(prom_vector "sum(resets(rawprobe_hits_total[1h])) +
		sum(resets(rawprobe_latency_seconds_bucket[1h])) +
		sum(resets(rawprobe_probe_hits_total[1h]))")" \
		"counter resets seen by prometheus"
	prom_stop
	bg_stop TERM
}

# Direct scrapes while probes are added, reset and deleted: no series
# goes below a value it had (before it went, if it came back), probes
# gone are not exported, and promtool takes the exposition.
t_serve_churn_monotonic() {
	local keep churn
	keep=$($CTL probe add kretprobe $SYS --by comm --stats latency --hist log2)
	serve_bg --listen 127.0.0.1:$PORT
	(
		for i in $(seq 12); do
			id=$($CTL probe add kprobe $SYS --by comm)
			echo "$id" >> $S/churned
			$LOOP -w 0 200 >/dev/null
			$CTL probe reset "$keep" >/dev/null
			$LOOP -w 0 100 >/dev/null
			$CTL probe del "$id"
		done
	) &
	churn=$!
	python3 - $PORT $S/scrapes $churn <<'PY' || fail "scrapes during churn (see above)"
import os, re, sys, time, urllib.request
port, out, churn = sys.argv[1], sys.argv[2], sys.argv[3]
sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$')
last, ids, bad, n = {}, set(), [], 0

def churning():
    try:	# a zombie, not yet waited for, has ended too
        return open("/proc/%s/stat" % churn).read().split(") ")[1][0] != "Z"
    except OSError:
        return False

# until the churn ends, and at least 20 times
while n < 20 or churning():
    n += 1
    body = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=60).read().decode()
    open(out, "w").write(body)
    for line in body.splitlines():
        m = sample.match(line)
        if not line or line.startswith("#"):
            continue
        if not m:
            sys.exit("scrape %d: not a sample: %r" % (n, line))
        name, labels, v = m.group(1), m.group(2) or "", float(m.group(3))
        ids.update(re.findall(r'probe_id="(\d+)"', labels))
        if not re.search(r'_(total|bucket|count)$', name):
            continue
        key = name + labels
        if key in last and v < last[key]:
            bad.append("%s: %s after %s" % (key, v, last[key]))
        last[key] = max(v, last.get(key, v))
    time.sleep(0.05)
print("    %d scrapes, %d series, %d probe ids" % (n, len(last), len(ids)))
if bad:
    sys.exit("counters went back:\n" + "\n".join(bad[:10]))
if len(ids) < 3:
    sys.exit("fewer than 3 probes seen: no churn to speak of")
PY
	wait $churn
	scrape > $S/after.prom
	promtool_ok $S/after.prom
	expect_match "rawprobe_probe_hits_total\\{probe_id=\"$keep\",probe=\"kretprobe:$SYS\"\\} [0-9]+" \
		"$(cat $S/after.prom)" "the kept probe's hits"
	expect_eq "" "$(grep -Ff <(sed 's/.*/probe_id="&"/' $S/churned) $S/after.prom)" \
		"the deleted probes' series"
	bg_stop INT
}

promtool_ok() {	# FILE
	local said
	said=$(promtool check metrics < "$1" 2>&1) ||
		fail "promtool refused $1: $said: $(head -c 2000 "$1")"
}

# The config's probes (a glob's among them) come and go with serve, and
# only they: someone else's persistent probe stays. A config's mistake
# adds nothing and names its line.
t_serve_config_probes() {
	local other before n f out
	other=$($CTL probe add kprobe vfs_read)
	before=$(probe_count)
	printf '%s\n' 'kprobe __x64_sys_getpgid --by comm   # a comment after the words' \
		"'kprobe' \"__x64_sys_getp*\" --count" > $S/glob.conf
	$CTL probe add kprobe '__x64_sys_getp*' --dry-run 2>/dev/null |
		awk '{ print $1 }' > $S/glob.funcs
	n=$(wc -l < $S/glob.funcs)
	expect_ge 2 "$n" "the glob's functions"
	serve_bg --listen 127.0.0.1:$PORT --config $S/glob.conf
	expect_eq $((before + 1 + n)) "$(probe_count)" "probes while serving"
	expect_match "$((1 + n)) probes of its own" "$(cat $S/serve.out.err)" "the readiness line"
	out=$(scrape)
	# each keyless count a series from the start, at 0 if nothing came
	for f in $(cat $S/glob.funcs); do
		expect_match "^rawprobe_hits_total\\{probe_id=\"[0-9]+\",probe=\"$f\"\\} [0-9]+\$" \
			"$(grep -F "\"$f\"" <<< "$out")" "$f's count exported"
	done
	bg_stop TERM
	expect_eq "$other" "$(json_get "$($CTL -j probe list)" '",".join(str(p["id"]) for p in j)')" \
		"what is left: the other probe"
	printf 'kprobe %s --by comm\nkprobe no_such_function_rp --count\n' $SYS > $S/bad.conf
	expect_fail 1 "no_such_function_rp: unknown symbol" \
		$CTL serve --listen 127.0.0.1:$PORT --config $S/bad.conf
	expect_eq "$before" "$(probe_count)" "probes after a config's mistake"
}

# A SIGINT while the config's probes are read or added, and a SIGKILL
# once they are: none is left.
t_serve_interrupted() {
	local before pid rc d
	before=$(probe_count)
	echo "'kprobe' 'vfs_*' --count --max-probes 1000" > $S/many.conf
	for d in 0.5 1.5 3; do
		$CTL serve --listen 127.0.0.1:$PORT --config $S/many.conf \
			> $S/int.out 2> $S/int.err &
		pid=$!
		sleep $d	# the signal's moment, not a wait for readiness
		kill -INT $pid 2>/dev/null || true	# it may have ended
		rc=0
		wait $pid || rc=$?
		expect_eq 0 "$rc" "exit status after SIGINT at ${d}s ($(cat $S/int.err))"
		expect_eq "$before" "$(probe_count)" "probes left after SIGINT at ${d}s"
	done
	printf 'kprobe %s --by comm\n' $SYS > $S/kill.conf
	serve_bg --listen 127.0.0.1:$PORT --config $S/kill.conf
	kill -KILL $BG_PID
	wait $BG_PID 2>/dev/null || true
	wait_for "[ \$(probe_count) = $before ]" 100 ||
		fail "probes left after SIGKILL: $(probe_count), not $before"
}

tests t_serve_prometheus t_serve_churn_monotonic t_serve_config_probes \
	t_serve_interrupted
