// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl serve [--listen ADDR:PORT] [--config FILE]: a Prometheus
 * exporter. /metrics holds every persistent probe's statistics and
 * counts (out/exporter.c), over a small HTTP server (lib/httpd.c).
 *
 * The --config's probes are the exporter's socket's, as a count's are
 * its command's: the kernel removes them with the socket, so a crash or
 * a SIGKILL leaves none behind, and a Ctrl-C while they are added stops
 * the batch, which the kernel takes back. At SIGINT or SIGTERM they are
 * deleted by id, exactly those, before the socket closes.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/httpd.h"
#include "lib/probe_nl.h"
#include "out/exporter.h"
#include "out/exporter_conf.h"
#include "out/probe_add.h"

#define RP_SERVE_LISTEN "127.0.0.1:9435"

static volatile sig_atomic_t rp_serve_stop;

static void rp_serve_on_signal(int sig)
{
	(void)sig;
	rp_serve_stop = 1;
}

struct rp_serve {
	const char *listen, *config;
	struct rp_probe_req *reqs;	/* the config's */
	size_t n;
	uint32_t *ids;			/* theirs, while added */
	struct rp_nl nl;
	bool up;			/* nl open */
	struct rp_exporter *x;
};

static void rp_serve_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl serve [--listen ADDR:PORT] [--config FILE]\n"
		"\n"
		"A Prometheus exporter: http://ADDR:PORT/metrics holds every\n"
		"persistent probe's statistics (hits, records, lost, filtered) and\n"
		"counts (probe add --count: rawprobe_hits_total by key, values as\n"
		"summaries or histograms), counters that only grow: each scrape\n"
		"reads the probes' counts since the last one and adds them up.\n"
		"\n"
		"  -l, --listen ADDR:PORT  where to listen (default %s;\n"
		"                          [::1]:PORT, :PORT for every address)\n"
		"  -c, --config FILE       probes to add at the start and remove at\n"
		"                          the end, a line each as 'probe add' takes\n"
		"                          them: 'kprobe __x64_sys_getpgid --by comm';\n"
		"                          '#' comments, quotes as in a shell\n"
		"\n"
		"Counts are read as 'agg show' reads them, so an 'agg show' or\n"
		"'agg clear' of a probe beside the exporter takes what it read\n"
		"from the exporter's counters. Ends at SIGINT or SIGTERM.\n",
		RP_SERVE_LISTEN);
}

static int rp_serve_parse(int argc, char **argv, struct rp_serve *s)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "config", required_argument, NULL, 'c' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	s->listen = RP_SERVE_LISTEN;
	optind = 0;	/* full getopt reset: main() parsed already */
	opterr = 0;	/* rp_bad_option() says what was wrong */
	while ((opt = getopt_long(argc, argv, "l:c:h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			rp_serve_usage(stdout);
			return -1;
		}
		if (opt == '?')
			return rp_bad_option(argv, "l:c:h", longopts,
					     "rawprobectl serve");
		if (opt == 'l')
			s->listen = optarg;
		else
			s->config = optarg;
	}
	if (optind < argc)
		return rp_usage_error("serve takes no '%s': its probes come "
				      "from --config", argv[optind]);
	return RP_EXIT_OK;
}

/* The config's probes, on the socket: all or none. 0 or -errno. */
static int rp_serve_add(struct rp_serve *s)
{
	size_t i;
	int rc;

	if (!s->n)
		return rp_exporter_own(s->x, NULL, 0);
	for (i = 0; i < s->n; i++) {
		rc = rp_probe_ring_check(&s->nl, &s->reqs[i]);
		if (rc)
			return -EINVAL;
	}
	rc = rp_probe_add_many(&s->nl, s->reqs, s->n, s->ids);
	return rc ?: rp_exporter_own(s->x, s->ids, s->n);
}

/*
 * The module again, after it was away (not loaded at the start, or
 * unloaded and loaded): a socket, and the config's probes on it.
 */
static void rp_serve_reconnect(struct rp_serve *s)
{
	if (s->up || rp_nl_open(&s->nl))
		return;
	if (rp_serve_add(s)) {
		rp_nl_close(&s->nl);
		return;
	}
	s->up = true;
	fprintf(stderr, "rawprobectl: serve: the rawprobe module is back%s\n",
		s->n ? ", and the config's probes added again" : "");
}

static void rp_serve_metrics(struct rp_serve *s, struct rp_http_resp *r)
{
	FILE *f = open_memstream(&r->body, &r->len);

	if (!f)
		return;		/* a 500 */
	rp_serve_reconnect(s);
	if (rp_exporter_scrape(s->x, s->up ? &s->nl : NULL, f) && s->up) {
		/* its family gone with the module, or the socket broken */
		rp_nl_close(&s->nl);
		s->up = false;
	}
	if (fclose(f)) {
		free(r->body);
		r->body = NULL;
		r->len = 0;
		return;
	}
	r->status = 200;
	r->type = "text/plain; version=0.0.4; charset=utf-8";
}

static void rp_serve_request(const struct rp_http_req *req,
			     struct rp_http_resp *r, void *ctx)
{
	static const char index[] = "rawprobe exporter (rawprobectl serve): "
				    "the metrics are at /metrics\n";

	if (!strcmp(req->path, "/metrics")) {
		rp_serve_metrics(ctx, r);
		return;
	}
	r->status = strcmp(req->path, "/") ? 404 : 200;
	r->body = strdup(r->status == 200 ? index : "404 Not Found\n");
	r->len = r->body ? strlen(r->body) : 0;
}

/* Until SIGINT or SIGTERM; the exit code */
static int rp_serve_run(struct rp_serve *s, struct rp_httpd *h)
{
	int err;

	fprintf(stderr, "Serving http://%s/metrics (port %d), %zu probe%s of "
		"its own. Hit Ctrl-C to end.\n", s->listen, rp_httpd_port(h),
		s->n, s->n == 1 ? "" : "s");
	err = rp_httpd_run(h, rp_serve_request, s, &rp_serve_stop);
	if (err)
		fprintf(stderr, "rawprobectl: serve: %s\n", strerror(-err));
	return err ? RP_EXIT_FAIL : RP_EXIT_OK;
}

/* The socket, and the config's probes on it; the exit code */
static int rp_serve_start(struct rp_serve *s)
{
	int rc, err;

	if (!s->n) {
		/* no probes of its own: it waits for the module if need be */
		s->up = !rp_nl_open(&s->nl);
		if (!s->up)
			fprintf(stderr, "rawprobectl: serve: the rawprobe "
				"module is not loaded: rawprobe_up is 0 until it "
				"is\n");
		return rp_exporter_own(s->x, NULL, 0) ? RP_EXIT_FAIL : 0;
	}
	rc = rp_connect(&s->nl);
	if (rc)
		return rc;
	s->up = true;
	err = rp_serve_add(s);
	if (!err)
		return RP_EXIT_OK;
	rp_nl_close(&s->nl);
	s->up = false;
	if (rp_serve_stop)
		return RP_EXIT_OK;	/* stopped while it added */
	return err == -EINVAL ? RP_EXIT_FAIL : rp_exit_from_errno(err);
}

static void rp_serve_end(struct rp_serve *s)
{
	int err;

	if (s->up && s->n) {
		err = rp_probe_del_many(&s->nl, s->ids, s->n);
		if (err)	/* still the socket's: they go as it closes */
			rp_nl_perror(&s->nl, "serve: removing its probes", err);
	}
	if (s->up)
		rp_nl_close(&s->nl);
	rp_exporter_free(s->x);
	free(s->ids);
	free(s->reqs);
}

int rp_cmd_serve(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = rp_serve_on_signal };
	struct rp_serve s = { 0 };
	struct rp_httpd *h = NULL;
	char why[256];
	int rc, err;

	/*
	 * First, without SA_RESTART: a signal while the config is read ends
	 * the command before it adds anything, one while it adds stops the
	 * batch (the kernel takes it back).
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = rp_serve_parse(argc, argv, &s);
	if (!rc && s.config)
		rc = rp_conf_load(s.config, &s.reqs, &s.n);
	if (rc || rp_serve_stop)
		goto out;
	s.ids = calloc(s.n ? s.n : 1, sizeof(*s.ids));
	s.x = rp_exporter_new();
	snprintf(why, sizeof(why), "out of memory");
	err = s.ids && s.x ? rp_httpd_listen(s.listen, &h, why, sizeof(why)) :
			     -ENOMEM;
	if (err) {
		fprintf(stderr, "rawprobectl: serve: %s\n", why);
		rc = err == -EINVAL ? RP_EXIT_USAGE : RP_EXIT_FAIL;
		goto out;
	}
	rc = rp_serve_start(&s);
	if (!rc && !rp_serve_stop)
		rc = rp_serve_run(&s, h);
out:
	rp_httpd_close(h);
	rp_serve_end(&s);
	return rc < 0 ? RP_EXIT_OK : rc;
}
