/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format ctf: a CTF 1.8 trace directory, which babeltrace2 and Trace
 * Compass read: "metadata" (TSDL text) and one stream file per CPU,
 * "channel0_CPU", as LTTng lays out a channel. Each probe is an event
 * class named as text output names the probe.
 */
#ifndef RAWPROBECTL_CTF_H
#define RAWPROBECTL_CTF_H

#include "out/sink.h"

/*
 * Make dir ready before anything runs: create it, or empty it if it
 * holds a trace that rawprobectl wrote and nothing else. 0, or the exit
 * code after saying why not (RP_EXIT_USAGE: not a directory, or one
 * that holds something else).
 */
int rp_ctf_prepare(const char *dir);
/* The CTF sink, writing into dir (prepared). 0 or -errno. */
int rp_ctf_sink_init(struct rp_sink *s, const char *dir);

#endif
