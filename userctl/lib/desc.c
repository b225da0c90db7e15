// SPDX-License-Identifier: GPL-2.0
/*
 * A probe's description for its records' readers (lib/desc.h).
 */
#include <errno.h>
#include <string.h>
#include "lib/desc.h"
#include "lib/names.h"
#include "lib/escape.h"
#include "lib/path.h"

void rp_desc_name_ready(struct rp_probe_desc *d)
{
	static uint32_t last_key;
	char tmp[RP_ESCAPED_MAX(RP_PROBE_NAME_MAX)];
	size_t n = strnlen(d->name, sizeof(d->name));

	/* escaping only ever lengthens a string: the same length, the same bytes */
	d->name_plain_len = n < sizeof(d->name) &&
			    rp_put_escaped(tmp, d->name, n) == tmp + n ?
			    (unsigned char)n : 0;
	d->name_key = 0;
	while (d->name_plain_len && !d->name_key)	/* (0 is no key) */
		d->name_key = __atomic_add_fetch(&last_key, 1,
						 __ATOMIC_RELAXED);
}

unsigned char rp_desc_bool_args(const struct rp_probe_desc *d)
{
	unsigned char mask = 0;
	unsigned int i;

	for (i = 0; i < d->nargs && i < RAWPROBE_MAX_ARGS; i++)
		if (d->argtypes[i] == RAWPROBE_ARG_U32 ||
		    d->argtypes[i] == RAWPROBE_ARG_S32)
			mask |= 1U << i;
	return mask;
}

int rp_desc_set_names(struct rp_probe_desc *d, const char *names)
{
	size_t len = strnlen(names, sizeof(d->arg_names)), start = 0, i;
	size_t nlen, poff;
	unsigned int n = 0;

	memset(d->name_off, 0, sizeof(d->name_off));
	memset(d->name_len, 0, sizeof(d->name_len));
	memset(d->path_off, 0, sizeof(d->path_off));
	memset(d->path_len, 0, sizeof(d->path_len));
	d->arg_names[0] = '\0';
	if (!len)
		return 0;
	if (len == sizeof(d->arg_names) || d->nargs > RAWPROBE_MAX_ARGS)
		return -EINVAL;
	for (i = 0; i <= len; i++) {
		if (i < len && names[i] != ',')
			continue;
		if (n == d->nargs ||
		    !rp_arg_name_split(names + start, i - start, &nlen, &poff))
			return -EINVAL;
		d->name_off[n] = (uint16_t)start;
		d->name_len[n] = (uint16_t)nlen;
		d->path_off[n] = (uint16_t)(start + poff);
		d->path_len[n++] = (uint16_t)(i - start - poff);
		start = i + 1;
	}
	if (n != d->nargs)
		return -EINVAL;
	memcpy(d->arg_names, names, len + 1);
	return 0;
}
