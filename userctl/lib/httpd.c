// SPDX-License-Identifier: GPL-2.0
/*
 * A small HTTP/1.1 server (lib/httpd.h): what a Prometheus scrape needs
 * and no more, without a library the CLI would have to depend on.
 *
 * Each connection carries one request: its head is read into a fixed
 * buffer, answered whole (the handler builds the body in memory), then
 * the write side is shut and what the client still sends is read and
 * dropped until it closes, so that an unread tail of garbage does not
 * turn the close into a reset that loses the answer. Every phase has a
 * deadline, and a full table makes room by dropping the connection that
 * has been reading the longest: a client that sends nothing, or a byte
 * a second, cannot keep others out.
 */
#define _GNU_SOURCE		/* accept4, asprintf */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include "lib/httpd.h"

#define RP_HTTP_DRAIN_MS	1000	/* to close after the answer */

enum rp_http_phase { RP_HTTP_FREE, RP_HTTP_READ, RP_HTTP_WRITE,
		     RP_HTTP_DRAIN };

struct rp_http_conn {
	int fd;
	enum rp_http_phase phase;
	long long deadline;		/* ms, CLOCK_MONOTONIC */
	size_t len;			/* of req */
	char req[RP_HTTP_REQ_MAX];
	char *out;			/* head and body */
	size_t out_len, out_off;
};

struct rp_httpd {
	int fd;
	int port;
	struct rp_http_conn conns[RP_HTTP_CONNS];
};

static long long rp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *rp_http_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 414: return "URI Too Long";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	}
	return "Unknown";
}

/* --- parsing --- */

/* RFC 9110's tchar: what a method and a header's name are made of */
static bool rp_http_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || strchr("!#$%&'*+-.^_`|~", c);
}

/* The end of the line at s (its \n), or NULL; bare \n is taken too */
static const char *rp_http_eol(const char *s, const char *end)
{
	return memchr(s, '\n', (size_t)(end - s));
}

/* A line's text without its \r\n or \n: [s, *e) */
static const char *rp_http_line_end(const char *s, const char *nl)
{
	return nl > s && nl[-1] == '\r' ? nl - 1 : nl;
}

/* No control byte but a tab, no DEL: a line is text */
static bool rp_http_text(const char *s, const char *e)
{
	for (; s < e; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return false;
	return true;
}

/* "METHOD /path?query HTTP/1.1": 0 or the status */
static int rp_http_request_line(const char *s, const char *e,
				struct rp_http_req *req)
{
	const char *m = s, *t, *v;
	size_t plen;

	if (!rp_http_text(s, e))
		return 400;
	while (s < e && rp_http_tchar((unsigned char)*s))
		s++;
	if (s == m || s == e || *s != ' ')
		return 400;
	t = ++s;
	while (s < e && *s != ' ')
		s++;
	if (s == t || s == e || *t != '/')
		return 400;
	v = s + 1;
	if (e - v != 8 || memcmp(v, "HTTP/", 5) || v[5] < '0' || v[5] > '9' ||
	    v[6] != '.' || v[7] < '0' || v[7] > '9')
		return 400;
	if (v[5] != '1')
		return 505;
	plen = strcspn(t, "? ");
	if (plen >= sizeof(req->path))
		return 414;
	memcpy(req->path, t, plen);
	req->path[plen] = '\0';
	if ((t - m == 4 && !memcmp(m, "GET ", 4)))
		return 0;
	if (t - m == 5 && !memcmp(m, "HEAD ", 5)) {
		req->head = true;
		return 0;
	}
	return 405;
}

/* "Name: value": 0 or 400; Accept's value kept */
static int rp_http_header(const char *s, const char *e,
			  struct rp_http_req *req)
{
	const char *n = s, *colon;
	size_t len;

	if (!rp_http_text(s, e))
		return 400;
	while (s < e && rp_http_tchar((unsigned char)*s))
		s++;
	/* no name, a space before the colon, or an obsolete folded line */
	if (s == n || s == e || *s != ':')
		return 400;
	colon = s++;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (colon - n == 6 && !strncasecmp(n, "accept", 6)) {
		len = (size_t)(e - s) < sizeof(req->accept) - 1 ?
		      (size_t)(e - s) : sizeof(req->accept) - 1;
		memcpy(req->accept, s, len);
		req->accept[len] = '\0';
	}
	return 0;
}

int rp_http_parse(const char *buf, size_t len, struct rp_http_req *req)
{
	const char *end = buf + len, *s = buf, *nl;
	int rc;

	memset(req, 0, sizeof(*req));
	if (memchr(buf, '\0', len))
		return 400;
	nl = rp_http_eol(s, end);
	if (!nl)
		return len >= RP_HTTP_REQ_MAX ? 414 : 1;
	rc = rp_http_request_line(s, rp_http_line_end(s, nl), req);
	if (rc)
		return rc;
	for (s = nl + 1; (nl = rp_http_eol(s, end)); s = nl + 1) {
		if (rp_http_line_end(s, nl) == s)
			return 0;	/* the empty line: the head is whole */
		rc = rp_http_header(s, rp_http_line_end(s, nl), req);
		if (rc)
			return rc;
	}
	return len >= RP_HTTP_REQ_MAX ? 431 : 1;
}

/* --- connections --- */

static void rp_http_conn_close(struct rp_http_conn *c)
{
	close(c->fd);
	free(c->out);
	c->out = NULL;
	c->phase = RP_HTTP_FREE;
}

/* The answer's head and (but to a HEAD) its body, to be written */
static void rp_http_answer(struct rp_http_conn *c, bool head,
			   struct rp_http_resp *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (f) {
		fprintf(f, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
			"Content-Length: %zu\r\n%sConnection: close\r\n\r\n",
			r->status, rp_http_reason(r->status),
			r->type ? r->type : "text/plain; charset=utf-8", r->len,
			r->status == 405 ? "Allow: GET, HEAD\r\n" : "");
		if (!head && r->len)
			fwrite(r->body, 1, r->len, f);
		if (fclose(f)) {
			free(s);
			s = NULL;
		}
	}
	free(r->body);
	c->out = s;
	c->out_len = s ? len : 0;
	c->out_off = 0;
	c->phase = RP_HTTP_WRITE;
	c->deadline = rp_now_ms() + RP_HTTP_WRITE_MS;
}

/* A refusal of the server's own: its reason as the body */
static void rp_http_refuse(struct rp_http_conn *c, int status)
{
	struct rp_http_resp r = { .status = status };

	if (asprintf(&r.body, "%d %s\n", status, rp_http_reason(status)) < 0)
		r.body = NULL;
	r.len = r.body ? strlen(r.body) : 0;
	rp_http_answer(c, false, &r);
}

static void rp_http_read(struct rp_http_conn *c, rp_http_handler fn,
			 void *ctx)
{
	struct rp_http_resp r = { .status = 500 };
	struct rp_http_req req;
	ssize_t n;
	int rc;

	n = read(c->fd, c->req + c->len, sizeof(c->req) - c->len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {		/* gone before it asked */
		rp_http_conn_close(c);
		return;
	}
	c->len += (size_t)n;
	rc = rp_http_parse(c->req, c->len, &req);
	if (rc == 1)
		return;
	if (rc) {
		rp_http_refuse(c, rc);
		return;
	}
	fn(&req, &r, ctx);
	rp_http_answer(c, req.head, &r);
}

static void rp_http_write(struct rp_http_conn *c)
{
	ssize_t n;

	if (!c->out) {		/* no memory for the answer */
		rp_http_conn_close(c);
		return;
	}
	n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
		 MSG_NOSIGNAL);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		rp_http_conn_close(c);
		return;
	}
	c->out_off += (size_t)n;
	if (c->out_off < c->out_len)
		return;
	shutdown(c->fd, SHUT_WR);
	c->phase = RP_HTTP_DRAIN;
	c->deadline = rp_now_ms() + RP_HTTP_DRAIN_MS;
}

static void rp_http_drain(struct rp_http_conn *c)
{
	char buf[1024];
	ssize_t n = read(c->fd, buf, sizeof(buf));

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		rp_http_conn_close(c);
}

/* --- the listener --- */

/* "HOST:PORT", "[V6]:PORT" or ":PORT" into host (or "") and port */
static int rp_http_split(const char *addr, char *host, size_t hlen,
			 const char **port)
{
	const char *colon = strrchr(addr, ':');
	size_t n;

	if (!colon || !colon[1])
		return -1;
	*port = colon + 1;
	n = (size_t)(colon - addr);
	if (n && addr[0] == '[') {
		if (colon[-1] != ']' || n < 3)
			return -1;
		addr++;
		n -= 2;
	}
	if (n >= hlen || memchr(addr, '[', n) || memchr(addr, ']', n))
		return -1;
	memcpy(host, addr, n);
	host[n] = '\0';
	return strspn(*port, "0123456789") == strlen(*port) &&
	       strlen(*port) <= 5 && atoi(*port) <= 65535 ? 0 : -1;
}

static int rp_http_bind(const struct addrinfo *ai)
{
	int one = 1, fd;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int rp_http_local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char port[8];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) ||
	    getnameinfo((struct sockaddr *)&ss, len, NULL, 0, port,
			sizeof(port), NI_NUMERICSERV))
		return -1;
	return atoi(port);
}

int rp_httpd_listen(const char *addr, struct rp_httpd **hp, char *err,
		    size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST |
					      AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	struct rp_httpd *h;
	const char *port;
	char host[64];
	int fd;

	*hp = NULL;
	if (rp_http_split(addr, host, sizeof(host), &port) ||
	    getaddrinfo(host[0] ? host : NULL, port, &hints, &ai)) {
		snprintf(err, len, "--listen is ADDRESS:PORT, numeric "
			 "(127.0.0.1:9435, [::1]:9435, :9435 for every "
			 "address), not '%s'", addr);
		return -EINVAL;
	}
	fd = rp_http_bind(ai);
	freeaddrinfo(ai);
	if (fd < 0) {
		snprintf(err, len, "--listen %s: %s", addr, strerror(-fd));
		return fd;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	h->fd = fd;
	h->port = rp_http_local_port(fd);
	*hp = h;
	return 0;
}

int rp_httpd_port(const struct rp_httpd *h)
{
	return h->port;
}

/* A free slot, or the one reading the longest, dropped; NULL if none */
static struct rp_http_conn *rp_http_slot(struct rp_httpd *h)
{
	struct rp_http_conn *c, *old = NULL;

	for (c = h->conns; c < h->conns + RP_HTTP_CONNS; c++) {
		if (c->phase == RP_HTTP_FREE)
			return c;
		if (c->phase == RP_HTTP_READ &&
		    (!old || c->deadline < old->deadline))
			old = c;
	}
	if (old)
		rp_http_conn_close(old);
	return old;
}

static void rp_http_accept(struct rp_httpd *h)
{
	struct rp_http_conn *c;
	int fd;

	while ((fd = accept4(h->fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		c = rp_http_slot(h);
		if (!c) {	/* all writing: they end by their deadline */
			close(fd);
			return;
		}
		c->fd = fd;
		c->len = 0;
		c->phase = RP_HTTP_READ;
		c->deadline = rp_now_ms() + RP_HTTP_READ_MS;
	}
}

/* Connections past their deadline closed; ms to the next, or -1 */
static int rp_http_expire(struct rp_httpd *h)
{
	long long now = rp_now_ms(), next = -1;
	struct rp_http_conn *c;

	for (c = h->conns; c < h->conns + RP_HTTP_CONNS; c++) {
		if (c->phase == RP_HTTP_FREE)
			continue;
		if (c->deadline <= now) {
			rp_http_conn_close(c);
			continue;
		}
		if (next < 0 || c->deadline - now < next)
			next = c->deadline - now;
	}
	return (int)next;
}

int rp_httpd_run(struct rp_httpd *h, rp_http_handler fn, void *ctx,
		 volatile sig_atomic_t *stop)
{
	struct pollfd pfd[RP_HTTP_CONNS + 1];
	struct rp_http_conn *c, *at[RP_HTTP_CONNS + 1];
	int n, i, timeout;

	while (!*stop) {
		timeout = rp_http_expire(h);
		pfd[0] = (struct pollfd){ .fd = h->fd, .events = POLLIN };
		for (n = 1, c = h->conns; c < h->conns + RP_HTTP_CONNS; c++) {
			if (c->phase == RP_HTTP_FREE)
				continue;
			at[n] = c;
			pfd[n++] = (struct pollfd){ .fd = c->fd,
				.events = c->phase == RP_HTTP_WRITE ? POLLOUT :
									POLLIN };
		}
		if (poll(pfd, (nfds_t)n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (i = 1; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			c = at[i];
			if (c->phase == RP_HTTP_READ)
				rp_http_read(c, fn, ctx);
			else if (c->phase == RP_HTTP_WRITE)
				rp_http_write(c);
			else
				rp_http_drain(c);
		}
		if (pfd[0].revents)
			rp_http_accept(h);
	}
	return 0;
}

void rp_httpd_close(struct rp_httpd *h)
{
	struct rp_http_conn *c;

	if (!h)
		return;
	for (c = h->conns; c < h->conns + RP_HTTP_CONNS; c++)
		if (c->phase != RP_HTTP_FREE)
			rp_http_conn_close(c);
	close(h->fd);
	free(h);
}
