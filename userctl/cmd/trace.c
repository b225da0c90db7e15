// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl trace KIND:TARGET...: one-shot tracing, stream with
 * probes of its own (out/stream.c): their records only, the probes
 * removed at exit.
 */
#include <stddef.h>
#include "cmd/cmd.h"
#include "out/stream.h"

int rp_cmd_trace(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_TRACE, argc, argv, NULL);
}
