// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl stream: every probe's records as they arrive, or a
 * capture's, through the record path of out/stream.c.
 */
#include <stddef.h>
#include "cmd/cmd.h"
#include "out/stream.h"

int rp_cmd_stream(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_STREAM, argc, argv, NULL);
}
