/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small HTTP/1.1 server for rawprobectl serve (lib/httpd.c): one
 * thread, poll(), a request a connection, GET and HEAD. Bounded: a
 * request's head is at most RP_HTTP_REQ_MAX bytes, at most
 * RP_HTTP_CONNS connections at once, each with a deadline, so that a
 * slow or hostile client holds a slot for seconds, never for good.
 */
#ifndef RAWPROBECTL_HTTPD_H
#define RAWPROBECTL_HTTPD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define RP_HTTP_REQ_MAX		8192	/* request line and headers */
#define RP_HTTP_CONNS		32	/* connections served at once */
#define RP_HTTP_READ_MS		10000	/* to send the whole request */
#define RP_HTTP_WRITE_MS	30000	/* to take the whole answer */

struct rp_http_req {
	bool head;		/* HEAD: the answer's headers only */
	char path[256];		/* the target up to its query ("?...") */
	char accept[256];	/* the Accept header, or "" */
};

/* An answer: the handler fills it; body is malloc'd, the server's then */
struct rp_http_resp {
	int status;
	const char *type;	/* Content-Type */
	char *body;
	size_t len;
};

/*
 * A request's head in buf[len]: 0 when it is whole (*req filled), 1 when
 * more is to come, else the status to refuse it with (400, 405, 414,
 * 431, 505). Pure, for the tests.
 */
int rp_http_parse(const char *buf, size_t len, struct rp_http_req *req);
/* "Not Found" for 404; "Unknown" for a status it does not know */
const char *rp_http_reason(int status);

typedef void (*rp_http_handler)(const struct rp_http_req *req,
				struct rp_http_resp *resp, void *ctx);

struct rp_httpd;

/*
 * Listen on ADDR:PORT ("127.0.0.1:9435", "[::1]:9435", ":9435" for
 * every address; numeric, no name to look up): 0 and *h, or -EINVAL for
 * an address that is not one, -errno if it cannot, the reason in err.
 */
int rp_httpd_listen(const char *addr, struct rp_httpd **h, char *err,
		    size_t len);
/* The port it listens on (the kernel's choice for port 0) */
int rp_httpd_port(const struct rp_httpd *h);
/*
 * Serve, calling fn for each request, until *stop is set (by a signal
 * handler: poll() returns at it). 0, or -errno if poll() fails.
 */
int rp_httpd_run(struct rp_httpd *h, rp_http_handler fn, void *ctx,
		 volatile sig_atomic_t *stop);
void rp_httpd_close(struct rp_httpd *h);

#endif
