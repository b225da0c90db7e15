// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl monitor: probe state changes as the module announces them
 * on its "events" multicast group (added, removed, gone, rearmed,
 * enabled, disabled), like `ip monitor`.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/probe_nl.h"
#include "out/probe.h"

static volatile sig_atomic_t rp_monitor_stop;

static void rp_monitor_signal(int sig)
{
	(void)sig;
	rp_monitor_stop = 1;
}

static int rp_monitor_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *a[RAWPROBE_A_MAX + 1];
	struct rp_probe_shown shown;
	struct rp_probe_info pi;
	char target[RP_TARGET_MAX];
	unsigned int event;

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, RAWPROBE_A_MAX, NULL) ||
	    !a[RAWPROBE_A_EVENT] || rp_probe_info_parse(a, &pi))
		return NL_SKIP;
	event = nla_get_u8(a[RAWPROBE_A_EVENT]);
	rp_probe_target(&pi, target, sizeof(target));
	if (rp_opts.json) {
		json_obj_open(&rp_json);
		json_kv_str(&rp_json, "event", rp_event_name(event));
		json_kv_u64(&rp_json, "id", pi.id);
		json_kv_str(&rp_json, "kind", rp_kind_name(pi.kind));
		json_kv_str(&rp_json, "target", target);
		json_kv_str(&rp_json, "state", rp_state_name(pi.state));
		json_obj_close(&rp_json);
		json_end_doc(&rp_json);
	} else {
		rp_probe_shown(&pi, &shown);
		printf("%-9s %4u %s:%s\n", rp_event_name(event), pi.id,
		       rp_kind_name(pi.kind), shown.target);
		fflush(stdout);
	}
	return NL_OK;
}

int rp_cmd_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = rp_monitor_signal };
	struct pollfd pfd = { .events = POLLIN };
	struct rp_nl nl;
	int rc, err;

	rc = rp_no_args(argc, argv, "Usage: rawprobectl monitor\n"
			       "Print probe state changes (added, removed, gone, "
			       "rearmed, enabled,\ndisabled) until interrupted.\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_nl_subscribe(&nl);
	if (err) {
		rc = rp_fail(&nl, "monitor", err);
		rp_nl_close(&nl);
		return rc;
	}
	/* No SA_RESTART: a signal ends the blocking receive. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	nl_socket_modify_cb(nl.sk, NL_CB_VALID, NL_CB_CUSTOM,
			    rp_monitor_event, NULL);
	/* libnl retries reads on EINTR: wait in poll(), which does not. */
	nl_socket_set_nonblocking(nl.sk);
	pfd.fd = nl_socket_get_fd(nl.sk);
	while (!rp_monitor_stop) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		err = nl_recvmsgs_default(nl.sk);
		if (err < 0 && err != -NLE_AGAIN)
			break;
	}
	rp_nl_close(&nl);
	return RP_EXIT_OK;
}
