/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The part of QEMU's TCG plugin API that libinsn.so uses, declared from
 * include/qemu/qemu-plugin.h of QEMU v7.2.0 (plugin API version 1; the
 * loader of 7.2 accepts versions 0 to 1), the header Debian 12's
 * qemu-system-x86 and qemu-user (7.2+dfsg) are built from but do not
 * ship. Types, enum values and prototypes are that header's; every
 * function here is exported by /usr/bin/qemu-system-x86_64 and
 * /usr/bin/qemu-x86_64 (nm -D). Do not add declarations from a newer
 * QEMU: later releases changed this API (the per-vCPU inline ops of 9.0
 * replaced the plain-pointer ones and the minimum version became 2).
 */
#ifndef RP_QEMU_PLUGIN_7_2_H
#define RP_QEMU_PLUGIN_7_2_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;

/* QEMU reads this symbol before calling qemu_plugin_install() */
extern QEMU_PLUGIN_EXPORT int qemu_plugin_version;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

/* argv stays valid while the plugin is loaded; !0 refuses the load */
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv);

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
/* called each time the translated block starts to execute */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
/* called before each execution of the instruction */
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
/* the handle is valid only during the translation callback */
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

/* "name=on|off|yes|no|true|false" into *ret; false if val is none of them */
bool qemu_plugin_bool_parse(const char *name, const char *val, bool *ret);

#endif /* RP_QEMU_PLUGIN_7_2_H */
