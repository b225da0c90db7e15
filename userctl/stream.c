// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl stream: map the per-CPU rings and print records live.
 *
 * Probes given with -e belong to this command's netlink socket: they go
 * away when it exits, is interrupted or is killed (the kernel reaps them
 * when the socket closes). At exit the command prints, per probe, hits,
 * records delivered and records lost, and per CPU any sequence gap.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <netlink/attr.h>
#include "cli.h"
#include "probe.h"
#include "ring_reader.h"

#define RP_MAX_STREAM_PROBES 64

struct rp_rings_map {
	int fd;
	struct rawprobe_info info;
	void *ctrl;
	void *data;
	struct rp_reader *reader;
};

struct rp_stream {
	struct rp_nl nl;
	struct rp_rings_map map;
	FILE *out;
	bool quiet;
	uint64_t max_count, count;
	unsigned long long t0;
	/* what stream prints per probe id; refreshed on unknown ids */
	struct rp_probe_info *probes;
	size_t nr_probes;
	uint32_t max_known_id;	/* highest id at the last refresh */
	uint32_t owned[RP_MAX_STREAM_PROBES];
	unsigned int nr_owned;
	uint64_t *seen;		/* records per probe id seen here */
	uint32_t seen_len;
};

static volatile sig_atomic_t rp_stop;

static void rp_on_signal(int sig)
{
	(void)sig;
	rp_stop = 1;
}

static unsigned long long rp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* --- the rings --- */

static int rp_rings_open(struct rp_rings_map *m)
{
	struct rp_reader_ring *rings;
	size_t ctrl_len, data_len;
	unsigned int i;

	m->fd = open("/dev/" RAWPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (m->fd < 0)
		return -errno;
	if (ioctl(m->fd, RAWPROBE_IOC_INFO, &m->info))
		return -errno;
	if (m->info.abi_version != RAWPROBE_ABI_VERSION ||
	    m->info.record_size != sizeof(struct rawprobe_record))
		return -EPROTO;
	ctrl_len = (size_t)m->info.nr_rings * m->info.page_size;
	data_len = (size_t)m->info.nr_rings * m->info.ring_bytes;
	m->ctrl = mmap(NULL, ctrl_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       m->fd, (off_t)m->info.ctrl_offset);
	if (m->ctrl == MAP_FAILED)
		return -errno;
	m->data = mmap(NULL, data_len, PROT_READ, MAP_SHARED, m->fd,
		       (off_t)m->info.data_offset);
	if (m->data == MAP_FAILED)
		return -errno;

	rings = calloc(m->info.nr_rings, sizeof(*rings));
	if (!rings)
		return -ENOMEM;
	for (i = 0; i < m->info.nr_rings; i++) {
		rings[i].ctrl = (void *)((char *)m->ctrl +
					 (size_t)i * m->info.page_size);
		rings[i].recs = (void *)((char *)m->data +
					 (size_t)i * m->info.ring_bytes);
		rings[i].nr_records = m->info.nr_records;
		rings[i].mode = m->info.mode;
	}
	m->reader = rp_reader_new(rings, m->info.nr_rings, RP_READER_MERGE);
	free(rings);
	return m->reader ? 0 : -errno;
}

static void rp_rings_close(struct rp_rings_map *m)
{
	if (m->reader)
		rp_reader_free(m->reader);
	if (m->ctrl && m->ctrl != MAP_FAILED)
		munmap(m->ctrl, (size_t)m->info.nr_rings * m->info.page_size);
	if (m->data && m->data != MAP_FAILED)
		munmap(m->data, (size_t)m->info.nr_rings * m->info.ring_bytes);
	if (m->fd >= 0)
		close(m->fd);
}

/* --- probe descriptions --- */

static void rp_stream_refresh(struct rp_stream *s)
{
	size_t i;

	free(s->probes);
	s->probes = NULL;
	s->nr_probes = 0;
	rp_probe_dump(&s->nl, &s->probes, &s->nr_probes);
	for (i = 0; i < s->nr_probes; i++)
		if (s->probes[i].id > s->max_known_id)
			s->max_known_id = s->probes[i].id;
}

static const struct rp_probe_info *rp_stream_lookup(struct rp_stream *s,
						   uint32_t id, bool refresh)
{
	size_t i;

	for (i = 0; i < s->nr_probes; i++)
		if (s->probes[i].id == id)
			return &s->probes[i];
	/*
	 * Ids are handed out in increasing order: one not above the highest
	 * known belongs to a deleted probe (its records outlive it), and
	 * asking the kernel again for each of them would cost a dump per
	 * record.
	 */
	if (!refresh || id <= s->max_known_id)
		return NULL;
	rp_stream_refresh(s);
	return rp_stream_lookup(s, id, false);
}

static void rp_stream_count(struct rp_stream *s, uint32_t id)
{
	if (id >= s->seen_len) {
		uint32_t len = id + 64;
		uint64_t *v = realloc(s->seen, len * sizeof(*v));

		if (!v)
			return;
		memset(v + s->seen_len, 0, (len - s->seen_len) * sizeof(*v));
		s->seen = v;
		s->seen_len = len;
	}
	s->seen[id]++;
}

static int rp_stream_record(unsigned int cpu, const struct rawprobe_record *r,
			    void *ctx)
{
	struct rp_stream *s = ctx;
	const struct rp_probe_info *pi;
	struct rp_probe_desc d;

	(void)cpu;
	rp_stream_count(s, r->probe_id);
	if (s->quiet)
		goto counted;
	pi = rp_stream_lookup(s, r->probe_id, true);
	if (pi)
		rp_probe_desc(pi, &d);
	else
		snprintf(d.name, sizeof(d.name), "probe#%u", r->probe_id);
	if (rp_opts.json)
		rp_record_json(&rp_json, r, pi ? &d : NULL);
	else
		rp_record_print(s->out, r, pi ? &d : NULL, s->t0);
counted:
	s->count++;
	if (s->max_count && s->count >= s->max_count) {
		rp_stop = 1;
		return 1;
	}
	return 0;
}

/* --- summary --- */

static void rp_stream_summary(struct rp_stream *s)
{
	struct rp_reader_cpu_stats st;
	uint64_t gaps = 0, ring_lost = 0;
	unsigned int cpu;
	size_t i;

	rp_stream_refresh(s);
	fprintf(stderr, "\n%-40s %10s %10s %10s %10s\n", "PROBE", "HITS",
		"RECORDS", "LOST", "DELIVERED");
	for (i = 0; i < s->nr_probes; i++) {
		const struct rp_probe_info *pi = &s->probes[i];
		struct rp_probe_desc d;
		uint64_t seen = pi->id < s->seen_len ? s->seen[pi->id] : 0;

		rp_probe_desc(pi, &d);
		fprintf(stderr, "%-40s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 "\n", d.name, pi->hits, pi->records,
			pi->lost_ring, seen);
	}
	for (cpu = 0; cpu < rp_reader_nr_rings(s->map.reader); cpu++) {
		if (rp_reader_stats(s->map.reader, cpu, &st))
			continue;
		gaps += st.seq_lost;
		ring_lost += st.ring_lost;
	}
	fprintf(stderr, "%" PRIu64 " records read, %" PRIu64
		" lost (ring full), %" PRIu64 " sequence gaps\n",
		s->count, ring_lost, gaps);
}

/* --- owned probes --- */

/* One batch: every -e probe or none, one pass over /proc/kallsyms. */
static int rp_stream_add(struct rp_stream *s, struct rp_probe_req *reqs,
			 unsigned int n)
{
	int err;

	if (!n)
		return 0;
	err = rp_probe_add_many(&s->nl, reqs, n, s->owned);
	if (!err)
		s->nr_owned = n;
	return err;
}

static void rp_stream_owned_cmd(struct rp_stream *s, int cmd)
{
	struct nl_msg *msg;
	unsigned int i;

	for (i = 0; i < s->nr_owned; i++) {
		msg = rp_nl_msg(&s->nl, cmd, 0);
		if (!msg)
			continue;
		nla_put_u32(msg, RAWPROBE_A_PROBE_ID, s->owned[i]);
		rp_nl_call(&s->nl, msg, NULL, NULL);
	}
}

/* --- the loop --- */

static void rp_stream_loop(struct rp_stream *s, double duration)
{
	unsigned long long end = duration > 0 ?
		rp_now_ns() + (unsigned long long)(duration * 1e9) : 0;
	struct pollfd pfd = { .fd = s->map.fd, .events = POLLIN };
	int timeout;

	while (!rp_stop) {
		timeout = 200;
		if (end) {
			unsigned long long now = rp_now_ns();

			if (now >= end)
				break;
			if ((end - now) / 1000000 < (unsigned long long)timeout)
				timeout = (int)((end - now) / 1000000) + 1;
		}
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			break;
		rp_reader_drain_all(s->map.reader, rp_stream_record, s);
		if (!rp_opts.json)
			fflush(s->out);
	}
}

static void rp_stream_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl stream [-e KIND:TARGET [PROBE OPTIONS]]... [OPTIONS]\n"
		"\n"
		"Print records from every probe as they arrive, until Ctrl-C,\n"
		"--duration or --count. Probes given with -e exist only while\n"
		"the stream runs (they are removed even if it is killed).\n"
		"\n"
		"  -e, --probe KIND:TARGET  add a probe owned by this stream\n"
		"                           (KIND: kprobe, kretprobe, jprobe)\n"
		"  PROBE OPTIONS apply to the -e before them:\n"
		"    -a, --args SPEC        argument count or types (see 'probe add --help')\n"
		"    -m, --maxactive N      kretprobe instances\n"
		"    -s, --strmax N         string capture length\n"
		"  -d, --duration SECONDS   stop after this long\n"
		"  -c, --count N            stop after N records\n"
		"  -o, --output FILE        write records to FILE\n"
		"  -q, --quiet              count only, print the summary\n"
		"\n"
		"Columns: CLOCK_MONOTONIC seconds, cpu, pid, comm, probe, arguments,\n"
		"'= return value (latency)' for kretprobes. -j: JSON lines.\n");
}

static const struct option rp_stream_longopts[] = {
	{ "probe",     required_argument, NULL, 'e' },
	RP_PROBE_LONGOPTS,
	{ "duration",  required_argument, NULL, 'd' },
	{ "count",     required_argument, NULL, 'c' },
	{ "output",    required_argument, NULL, 'o' },
	{ "quiet",     no_argument,       NULL, 'q' },
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* "kretprobe:vfs_read" -> kind and target */
static int rp_stream_probe_arg(const char *arg, struct rp_probe_req *req)
{
	char kind[16];
	const char *colon = strchr(arg, ':');

	if (!colon || (size_t)(colon - arg) >= sizeof(kind))
		return rp_usage_error("-e wants KIND:TARGET, e.g. kretprobe:vfs_read, not '%s'",
				      arg);
	memcpy(kind, arg, colon - arg);
	kind[colon - arg] = '\0';
	memset(req, 0, sizeof(*req));
	return rp_probe_req_init(req, kind, colon + 1);
}

static int rp_stream_parse(int argc, char **argv, struct rp_stream *s,
			   struct rp_probe_req *reqs, unsigned int *nreqs,
			   double *duration, const char **output)
{
	uint64_t v;
	char *end;
	int opt, rc;

	optind = 0;	/* full getopt reset: main() parsed already */
	while ((opt = getopt_long(argc, argv, "e:a:m:s:d:c:o:qh",
				  rp_stream_longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (*nreqs == RP_MAX_STREAM_PROBES)
				return rp_usage_error("at most %d probes per stream",
						      RP_MAX_STREAM_PROBES);
			rc = rp_stream_probe_arg(optarg, &reqs[*nreqs]);
			if (rc)
				return rc;
			(*nreqs)++;
			break;
		case 'a':
		case 'm':
		case 's':
			if (!*nreqs)
				return rp_usage_error("-%c applies to a probe: give -e first",
						      opt);
			rc = rp_probe_opt(opt, optarg, &reqs[*nreqs - 1]);
			if (rc)
				return rc;
			break;
		case 'd':
			*duration = strtod(optarg, &end);
			if (*end || *duration <= 0)
				return rp_usage_error("--duration wants seconds > 0, not '%s'",
						      optarg);
			break;
		case 'c':
			if (rp_parse_u64(optarg, 1, UINT64_MAX, &v))
				return rp_usage_error("--count wants a number > 0, not '%s'",
						      optarg);
			s->max_count = v;
			break;
		case 'o':
			*output = optarg;
			break;
		case 'q':
			s->quiet = true;
			break;
		case 'h':
			rp_stream_usage(stdout);
			return -1;
		default:
			rp_stream_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return rp_usage_error("unexpected '%s' (probes are given with -e)",
				      argv[optind]);
	return 0;
}

int rp_cmd_stream(int argc, char **argv)
{
	static struct rp_probe_req reqs[RP_MAX_STREAM_PROBES];
	struct rp_stream s = { .map.fd = -1, .out = stdout };
	const char *output = NULL;
	unsigned int nreqs = 0;
	double duration = 0;
	struct sigaction sa = { .sa_handler = rp_on_signal };
	int rc, err;

	rc = rp_stream_parse(argc, argv, &s, reqs, &nreqs, &duration, &output);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	if (output) {
		s.out = fopen(output, "w");
		if (!s.out) {
			fprintf(stderr, "rawprobectl: %s: %s\n", output,
				strerror(errno));
			return RP_EXIT_FAIL;
		}
		rp_json.out = s.out;
	}
	rc = rp_connect(&s.nl);
	if (rc)
		return rc;

	err = rp_rings_open(&s.map);
	if (err) {
		fprintf(stderr, "rawprobectl: /dev/%s: %s%s\n",
			RAWPROBE_DEVICE_NAME, strerror(-err),
			err == -EBUSY ? " (another stream is reading)" :
			err == -EPROTO ? " (ABI mismatch)" : "");
		rc = err == -EACCES || err == -EPERM ? RP_EXIT_PERM :
		     RP_EXIT_FAIL;
		goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	err = rp_stream_add(&s, reqs, nreqs);
	if (err) {
		rc = rp_exit_from_errno(err);
		goto out;
	}
	s.t0 = rp_now_ns();
	rp_stream_refresh(&s);
	rp_stream_loop(&s, duration);

	/* Stop producing, take what is left, then account. */
	rp_stream_owned_cmd(&s, RAWPROBE_CMD_PROBE_DISABLE);
	if (!s.max_count || s.count < s.max_count)
		rp_reader_drain_all(s.map.reader, rp_stream_record, &s);
	fflush(s.out);
	if (!rp_opts.json || s.out != stdout)
		rp_stream_summary(&s);
	rp_stream_owned_cmd(&s, RAWPROBE_CMD_PROBE_DEL);
	rc = RP_EXIT_OK;
out:
	rp_rings_close(&s.map);
	rp_nl_close(&s.nl);
	free(s.probes);
	free(s.seen);
	if (s.out != stdout)
		fclose(s.out);
	return rc;
}
