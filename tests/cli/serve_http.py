#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rawprobectl serve's HTTP server, on the host (no module: rawprobe_up 0).

    serve_http.py PORT PROMTOOL

Good requests, each refusal the server makes of its own (400, 405, 414,
431, 505), a request sent a byte at a time, more idle connections than
it serves at once, and random garbage; after all of it, it still
answers. Prints "ok - serve: NAME" or "not ok - serve: NAME" a test.
"""
import random
import socket
import subprocess
import sys
import time

PORT = int(sys.argv[1])
PROMTOOL = sys.argv[2]
results = []


def report(name, good, why=""):
    results.append(good)
    print("%s - serve: %s" % ("ok" if good else "not ok", name))
    if not good:
        print("    " + why[:2000])


def exchange(data, pieces=1, delay=0.0, timeout=15):
    """Send data (in pieces, delay apart), read to the close."""
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    step = max(1, -(-len(data) // pieces))
    try:
        for i in range(0, len(data), step):
            s.sendall(data[i:i + step])
            if delay:
                time.sleep(delay)
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass	# it answered and closed before all was sent
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    except OSError:
        pass
    s.close()
    return got


def parse(raw):
    """status, headers (lower-case names), body"""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    hdrs = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return status, hdrs, body


def expect(name, data, status, check=None, **kw):
    raw = exchange(data, **kw)
    st, hdrs, body = parse(raw)
    why = "status %d, want %d: %r" % (st, status, raw[:300])
    good = st == status and int(hdrs.get("content-length", -1)) == \
        (len(body) if not data.startswith(b"HEAD") else
         int(hdrs.get("content-length", -1)))
    if good and check:
        why = check(hdrs, body)
        good = not why
    report(name, good, why)
    return hdrs, body


def metrics_ok(hdrs, body):
    if hdrs.get("content-type") != "text/plain; version=0.0.4; charset=utf-8":
        return "content type %r" % hdrs.get("content-type")
    if b"\nrawprobe_up 0\n" not in body:
        return "no rawprobe_up 0 in %r" % body[:500]
    p = subprocess.run([PROMTOOL, "check", "metrics"], input=body,
                       capture_output=True)
    if p.returncode:
        return "promtool: %s" % (p.stdout + p.stderr).decode()
    return ""


GET = b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain\r\n\r\n"
hdrs, body = expect("GET /metrics", GET, 200, metrics_ok)
expect("HEAD /metrics: no body", b"HEAD /metrics HTTP/1.1\r\n\r\n", 200,
       lambda h, b: "a body %r" % b if b else
       "" if h.get("content-length") == str(len(body)) else
       "content-length %s, GET's %d" % (h.get("content-length"), len(body)))
expect("a query is not the path", b"GET /metrics?x=1 HTTP/1.0\r\n\r\n", 200)
expect("bare LF lines", b"GET /metrics HTTP/1.1\nHost: x\n\n", 200)
expect("/ says where the metrics are", b"GET / HTTP/1.1\r\n\r\n", 200,
       lambda h, b: "" if b"/metrics" in b else "body %r" % b)
expect("other paths 404", b"GET /metricsx HTTP/1.1\r\n\r\n", 404)
expect("POST 405 with Allow", b"POST /metrics HTTP/1.1\r\n\r\n", 405,
       lambda h, b: "" if h.get("allow") == "GET, HEAD" else "allow %r" % h)
expect("garbage 400", b"garbage\r\n\r\n", 400)
expect("no version 400", b"GET /metrics\r\n\r\n", 400)
expect("not a path 400", b"GET metrics HTTP/1.1\r\n\r\n", 400)
expect("HTTP/2.0 505", b"GET /metrics HTTP/2.0\r\n\r\n", 505)
expect("a control byte 400", b"GET /met\x01rics HTTP/1.1\r\n\r\n", 400)
expect("a NUL 400", b"GET /metrics HTTP/1.1\r\nX: a\x00b\r\n\r\n", 400)
expect("a header without colon 400", b"GET / HTTP/1.1\r\nHost x\r\n\r\n", 400)
expect("a folded header 400",
       b"GET / HTTP/1.1\r\nX: a\r\n  b\r\n\r\n", 400)
expect("a long path 414", b"GET /" + b"a" * 300 + b" HTTP/1.1\r\n\r\n", 414)
expect("a request line past 8 KiB 414", b"GET /" + b"a" * 9000, 414)
expect("headers past 8 KiB 431",
       b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 1200, 431)
expect("a byte at a time", GET, 200, metrics_ok, pieces=len(GET),
       delay=0.002)

# More idle connections than it serves: the oldest readers are dropped,
# a scrape still answered at once.
idle = [socket.create_connection(("127.0.0.1", PORT)) for _ in range(40)]
t0 = time.monotonic()
expect("answered past 40 idle connections", GET, 200, timeout=5)
took = time.monotonic() - t0
report("... within 2 s", took < 2, "took %.1f s" % took)
dropped = 0
for s in idle:
    s.settimeout(2)
    try:
        dropped += s.recv(1) == b""
    except OSError:
        pass
    s.close()
report("the idle ones dropped, oldest first", dropped >= 9,
       "%d of 40 dropped" % dropped)

random.seed(55)
answered = 0
for i in range(200):
    junk = bytes(random.randrange(256) for _ in range(random.randrange(1, 600)))
    if i % 2:
        junk = b"GET /" + junk + b"\r\n\r\n"
    st, _, _ = parse(exchange(junk, timeout=15))
    answered += st in (400, 404, 405, 414, 431, 505) or st == 0
report("200 requests of random bytes answered or closed", answered == 200,
       "%d answered" % answered)
expect("still serving after the garbage", GET, 200, metrics_ok)
sys.exit(0 if all(results) else 1)
