/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A struct's or union's layout from BTF, computed as pahole computes it
 * from the same BTF (what 'rawprobectl btf show "struct NAME"' prints),
 * and finding types and functions by name or glob in vmlinux's and the
 * loaded modules' BTF. libbpf's types: for resolve/ and cmd/btf*.c only.
 */
#ifndef RAWPROBECTL_BTF_LAYOUT_H
#define RAWPROBECTL_BTF_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include "resolve/btf_int.h"

/*
 * One member. Its offset is pahole's: a bit field's is that of the unit
 * its type's size aligns, bit_offset the bits into it. The integer widths
 * are pahole's too, so that odd BTF wraps the same way.
 */
struct rp_btf_field {
	const char *name;	/* "": anonymous */
	uint32_t type;		/* as BTF has it, typedefs kept */
	uint32_t bits;		/* where it starts, as BTF says, in bits */
	uint32_t offset;	/* bytes, from the start of its struct */
	uint32_t size;		/* of its type, typedefs and modifiers skipped */
	uint32_t bit_offset;	/* a bit field's, in the unit at offset */
	uint32_t bit_size;	/* 0: not a bit field */
	uint16_t hole;		/* bytes not used after it (a struct's) */
	uint8_t bit_hole;	/* bits not used after it */
	uint16_t padding;	/* at the end of its type, if that is a struct */
	uint32_t align;		/* inferred __aligned__(N), or 0 */
	bool expand;		/* an anonymous struct, union or enum */
	uint32_t inner;		/* that one's id, past const and volatile */
	bool array;		/* of them: inner is the element */
};

struct rp_btf_layout {
	const struct btf *btf;
	uint32_t id;		/* the struct or union */
	bool is_union;		/* a union has no holes, as pahole sees it */
	uint32_t size;
	unsigned int nfields;
	struct rp_btf_field *fields;
	uint16_t pre_hole;	/* before the first member */
	uint8_t pre_bit_hole;
	uint16_t padding;	/* after the last */
	uint8_t bit_padding;
	/* pahole's summary: numbers of holes and sums */
	uint8_t nr_holes, nr_bit_holes;
	uint32_t sum_bytes, sum_bits, sum_holes, sum_bit_holes;
	uint32_t nr_paddings, sum_paddings;
	/* alignments pahole infers from offsets BTF does not explain */
	uint32_t align;		/* the type's own, or 0 */
	bool packed;		/* __packed__, as pahole infers it */
	uint32_t nr_forced, nr_forced_holes, sum_forced_holes;
};

/* id's layout (a struct or union): 0, or -EINVAL, -ENOMEM */
int rp_btf_layout_get(const struct btf *btf, uint32_t id,
		      struct rp_btf_layout *l);
void rp_btf_layout_free(struct rp_btf_layout *l);
/*
 * Does a struct member f of l (anonymous, shown in place) look packed to
 * pahole from where l puts it, whatever its own layout says?
 */
bool rp_btf_layout_packs(const struct rp_btf_layout *l,
			 const struct rp_btf_field *f);

/* "struct", "union", "enum", "typedef": what 'btf show KIND NAME' takes */
enum rp_btf_tkind {
	RP_TK_STRUCT,
	RP_TK_UNION,
	RP_TK_ENUM,
	RP_TK_TYPEDEF,
};

/* What a search looked at, for its error: vmlinux and n modules. */
struct rp_btf_found {
	const struct btf *btf;
	uint32_t id;
	char module[64];	/* "": vmlinux's */
	int nmods;		/* modules searched */
};

/*
 * KIND NAME in vmlinux's BTF, then each loaded module's, or module's
 * alone if it is not "": 0, -ENOENT (said, with the nearest names of
 * that kind) or another errno (no BTF: said).
 */
int rp_btf_type_find(enum rp_btf_tkind kind, const char *name,
		     const char *module, struct rp_btf_found *f);
const char *rp_btf_tkind_name(enum rp_btf_tkind kind);

/* A function BTF has, by name and module ("": vmlinux's) */
struct rp_btf_fname {
	const char *name;
	const char *module;
};

/*
 * The functions whose names match glob (fnmatch), each name once per
 * BTF: vmlinux's then each loaded module's in name order, or module's
 * alone if it is not "". Their number (0: none), *out to free(); or a
 * negative errno (no BTF: said). The names live as long as the BTF.
 */
int rp_btf_func_glob(const char *glob, const char *module,
		     struct rp_btf_fname **out, int *nmods);
/* Is pattern a glob ('*', '?', '[')? */
bool rp_btf_is_glob(const char *pattern);
/* A '[' that has no ']': where it is, or NULL */
const char *rp_btf_glob_unterminated(const char *pattern);

#endif
