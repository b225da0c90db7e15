/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl's objects: one command function each, dispatched by main.c.
 * A command uses resolution (resolve/) and output (out/), which use the
 * library (lib/); never the other way (tools/ctl-layers.py checks it).
 */
#ifndef RAWPROBECTL_CMD_H
#define RAWPROBECTL_CMD_H

int rp_cmd_probe(int argc, char **argv);
int rp_cmd_stream(int argc, char **argv);
int rp_cmd_trace(int argc, char **argv);
int rp_cmd_hist(int argc, char **argv);
int rp_cmd_latency(int argc, char **argv);
int rp_cmd_stats(int argc, char **argv);
int rp_cmd_doctor(int argc, char **argv);
int rp_cmd_ring(int argc, char **argv);
int rp_cmd_version(int argc, char **argv);
int rp_cmd_monitor(int argc, char **argv);
int rp_cmd_btf(int argc, char **argv);
int rp_cmd_count(int argc, char **argv);
int rp_cmd_agg(int argc, char **argv);
int rp_cmd_inject(int argc, char **argv);
int rp_cmd_run(int argc, char **argv);
int rp_cmd_tool(int argc, char **argv);
int rp_cmd_flamegraph(int argc, char **argv);
int rp_cmd_serve(int argc, char **argv);

#endif
