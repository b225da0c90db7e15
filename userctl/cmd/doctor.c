// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl doctor: can this machine run rawprobe, and if not, what to
 * do about it. Each check says ok, warn, fail or skip (could not tell),
 * what it found, and a fix for anything that is not ok.
 *
 * RAWPROBE_KCONFIG names the kernel config to read (default: /proc/config.gz,
 * /boot/config-RELEASE, /lib/modules/RELEASE/build/.config).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/symbols.h"

enum rp_status { RP_OK, RP_WARN, RP_FAIL, RP_SKIP };

static const char *const rp_status_names[] = {
	[RP_OK] = "ok", [RP_WARN] = "warn", [RP_FAIL] = "fail",
	[RP_SKIP] = "skip",
};

struct rp_doctor {
	struct utsname uts;
	bool module_loaded;	/* generic netlink family found */
	struct rp_module_info mi;
	int failed, warned;
	bool module_failed;
	enum { RP_LOCKDOWN_NONE, RP_LOCKDOWN_INTEGRITY,
	       RP_LOCKDOWN_CONFIDENTIALITY } lockdown;
};

struct rp_check {
	const char *name;
	int status;
	char detail[256];
	char fix[320];
};

static void rp_say(struct rp_check *c, int status, const char *fix,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void rp_say(struct rp_check *c, int status, const char *fix,
		   const char *fmt, ...)
{
	va_list ap;

	c->status = status;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	snprintf(c->fix, sizeof(c->fix), "%s", fix ? fix : "");
}

/* First line of a small file, without the newline; -errno on failure. */
static int rp_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* --- kernel configuration --- */

/* A stream of the kernel config, and its name; NULL if none is found. */
static FILE *rp_kconfig_open(const struct rp_doctor *d, char *name,
			     size_t len, bool *piped)
{
	const char *env = getenv("RAWPROBE_KCONFIG");
	char path[512];
	FILE *f;

	*piped = false;
	if (env && *env) {
		snprintf(name, len, "%s", env);
		return fopen(env, "r");
	}
	snprintf(path, sizeof(path), "/boot/config-%s", d->uts.release);
	if ((f = fopen(path, "r")) ||
	    (snprintf(path, sizeof(path), "/lib/modules/%s/build/.config",
		      d->uts.release), f = fopen(path, "r"))) {
		snprintf(name, len, "%s", path);
		return f;
	}
	if (access("/proc/config.gz", R_OK))
		return NULL;
	*piped = true;
	snprintf(name, len, "/proc/config.gz");
	return popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
}

/* 1: option=y or =m, 0: not set, -1: no config to read */
static int rp_kconfig(const struct rp_doctor *d, const char *opt,
		      char *src, size_t len)
{
	char line[256];
	size_t n = strlen(opt);
	bool piped;
	int found = 0;
	FILE *f = rp_kconfig_open(d, src, len, &piped);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, opt, n) && line[n] == '=' &&
		    (line[n + 1] == 'y' || line[n + 1] == 'm'))
			found = 1;
	if (piped)
		pclose(f);
	else
		fclose(f);
	return found;
}

/* CONFIG_X from the config, else from a symbol it brings (kallsyms). */
static void rp_check_config(struct rp_check *c, const struct rp_doctor *d,
			    const char *opt, const char *symbol)
{
	char src[512];
	int v = rp_kconfig(d, opt, src, sizeof(src));

	if (v < 0) {
		v = rp_ksym_exists(symbol);
		snprintf(src, sizeof(src), "%s%s in %s", v > 0 ? "" : "no ",
			 symbol, rp_kallsyms_path());
	}
	if (v > 0)
		rp_say(c, RP_OK, NULL, "%s=y (%s)", opt, src);
	else if (v == 0)
		rp_say(c, RP_FAIL, "boot a kernel built with CONFIG_KPROBES=y "
		       "and CONFIG_KRETPROBES=y (Debian's and most "
		       "distributions' kernels are)",
		       "%s is not set (%s)", opt, src);
	else
		rp_say(c, RP_SKIP, "make the kernel config readable "
		       "(/boot/config-$(uname -r) or /proc/config.gz)",
		       "no kernel config and no /proc/kallsyms to tell");
}

static void rp_check_kprobes(struct rp_check *c, struct rp_doctor *d)
{
	rp_check_config(c, d, "CONFIG_KPROBES", "register_kprobe");
}

static void rp_check_kretprobes(struct rp_check *c, struct rp_doctor *d)
{
	rp_check_config(c, d, "CONFIG_KRETPROBES", "register_kretprobe");
}

/* --- the machine --- */

static void rp_check_kernel(struct rp_check *c, struct rp_doctor *d)
{
	rp_say(c, RP_OK, NULL, "Linux %s (%s)", d->uts.release,
	       d->uts.machine);
}

static void rp_check_modules(struct rp_check *c, struct rp_doctor *d)
{
	(void)d;
	if (!access("/proc/modules", F_OK))
		rp_say(c, RP_OK, NULL, "loadable modules are supported");
	else
		rp_say(c, RP_FAIL, "boot a kernel with CONFIG_MODULES=y, or run "
		       "rawprobe in a VM (tests/vm/run)",
		       "this kernel cannot load modules (no /proc/modules)");
}

static void rp_check_headers(struct rp_check *c, struct rp_doctor *d)
{
	char path[512], fix[256];

	snprintf(path, sizeof(path), "/lib/modules/%s/build/Makefile",
		 d->uts.release);
	snprintf(fix, sizeof(fix), "apt-get install linux-headers-%s (or your "
		 "distribution's kernel-devel package), then make",
		 d->uts.release);
	if (!access(path, R_OK))
		rp_say(c, RP_OK, NULL, "/lib/modules/%s/build", d->uts.release);
	else
		rp_say(c, d->module_loaded ? RP_WARN : RP_FAIL, fix,
		       "no headers for %s: the module cannot be built here",
		       d->uts.release);
}

static void rp_check_kprobes_enabled(struct rp_check *c, struct rp_doctor *d)
{
	char v[16];

	(void)d;
	if (rp_read_line("/sys/kernel/debug/kprobes/enabled", v, sizeof(v)))
		rp_say(c, RP_SKIP, "mount -t debugfs none /sys/kernel/debug",
		       "debugfs is not mounted (or not readable): not checked");
	else if (v[0] == '1')
		rp_say(c, RP_OK, NULL, "kprobes are enabled");
	else
		rp_say(c, RP_FAIL, "echo 1 > /sys/kernel/debug/kprobes/enabled",
		       "kprobes are disabled system-wide");
}

/*
 * Lockdown's levels (man 7 kernel_lockdown): integrity refuses unsigned
 * modules (and debugfs); confidentiality also refuses kprobes and reads
 * of kernel memory, which is all rawprobe does. Neither can be lowered
 * without a reboot.
 */
static void rp_check_lockdown(struct rp_check *c, struct rp_doctor *d)
{
	char v[128];

	if (!rp_read_line("/sys/kernel/security/lockdown", v, sizeof(v))) {
		d->lockdown = strstr(v, "[none]") ? RP_LOCKDOWN_NONE :
			      strstr(v, "[integrity]") ? RP_LOCKDOWN_INTEGRITY :
			      RP_LOCKDOWN_CONFIDENTIALITY;
		if (d->lockdown == RP_LOCKDOWN_NONE)
			rp_say(c, RP_OK, NULL, "lockdown: none");
		else if (d->lockdown == RP_LOCKDOWN_INTEGRITY)
			rp_say(c, d->module_loaded ? RP_WARN : RP_FAIL,
			       "sign rawprobe.ko with a key the kernel trusts "
			       "(see module_signatures), or boot with "
			       "lockdown=none and Secure Boot off",
			       "lockdown: integrity: unsigned modules are "
			       "refused; a signed rawprobe may probe");
		else
			rp_say(c, RP_FAIL, "boot with lockdown=none (and "
			       "Secure Boot off): lockdown is never lowered "
			       "at run time", "lockdown: confidentiality: the "
			       "kernel refuses kprobes, reads of its memory "
			       "and unsigned modules; rawprobe cannot work");
	} else if (!access("/sys/kernel/security/lsm", F_OK)) {
		rp_say(c, RP_OK, NULL, "no lockdown LSM in this kernel");
	} else {
		rp_say(c, RP_SKIP, "mount -t securityfs securityfs "
		       "/sys/kernel/security", "securityfs is not mounted: "
		       "not checked");
	}
}

#define RP_EFI_SECUREBOOT "/sys/firmware/efi/efivars/" \
	"SecureBoot-8be4df61-93ca-11d2-aa0d-e39d5d8c6f2b"

static void rp_check_secure_boot(struct rp_check *c, struct rp_doctor *d)
{
	unsigned char v[5];
	ssize_t n;
	int fd;

	(void)d;
	if (access("/sys/firmware/efi", F_OK)) {
		rp_say(c, RP_OK, NULL, "not booted with EFI: no Secure Boot");
		return;
	}
	fd = open(RP_EFI_SECUREBOOT, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, v, sizeof(v));
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(v))
		rp_say(c, RP_SKIP, "mokutil --sb-state",
		       "EFI variables are not readable: not checked");
	else if (v[4] == 1)
		rp_say(c, RP_WARN, "sign rawprobe.ko with a key enrolled with "
		       "'mokutil --import' (scripts/sign-file), or turn Secure "
		       "Boot off", "Secure Boot is on: unsigned modules are "
		       "refused and the kernel may lock itself down");
	else
		rp_say(c, RP_OK, NULL, "Secure Boot is off");
}

static void rp_check_sig_enforce(struct rp_check *c, struct rp_doctor *d)
{
	char v[8];

	if (rp_read_line("/sys/module/module/parameters/sig_enforce", v,
			 sizeof(v)))
		rp_say(c, RP_OK, NULL, "no module signature support "
		       "(CONFIG_MODULE_SIG off)");
	else if (v[0] != 'Y')
		rp_say(c, RP_OK, NULL, "unsigned modules load (sig_enforce=N; "
		       "the kernel is tainted 'E')");
	else
		rp_say(c, d->module_loaded ? RP_OK : RP_FAIL,
		       "sign rawprobe.ko: scripts/sign-file sha256 KEY.priv "
		       "KEY.der rawprobe.ko, with the key enrolled (mokutil "
		       "--import KEY.der)", "only signed modules load "
		       "(sig_enforce=Y)");
}

/* --- the module --- */

/* Ask the module for its versions, if it is there. */
static void rp_doctor_probe_module(struct rp_doctor *d)
{
	struct rp_nl nl;

	if (rp_nl_open(&nl))
		return;
	d->module_loaded = !rp_module_info_get(&nl, &d->mi);
	rp_nl_close(&nl);
}

static bool rp_module_listed(void)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/modules", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "rawprobe ", 9);
	if (f)
		fclose(f);
	return found;
}

static void rp_check_module(struct rp_check *c, struct rp_doctor *d)
{
	if (d->module_loaded)
		rp_say(c, RP_OK, NULL, "rawprobe %s is loaded",
		       d->mi.version);
	else if (rp_module_listed())
		rp_say(c, RP_FAIL, "rmmod rawprobe, then load it again; see "
		       "dmesg", "rawprobe is in /proc/modules but its "
		       "netlink family \"%s\" is missing", RAWPROBE_GENL_NAME);
	else if (d->lockdown != RP_LOCKDOWN_NONE)
		rp_say(c, RP_FAIL, "see lockdown above", "the rawprobe module "
		       "is not loaded, and the locked-down kernel refuses it "
		       "unsigned");
	else if (rp_module_installed())
		rp_say(c, RP_FAIL, "sudo modprobe rawprobe",
		       "the rawprobe module is installed, not loaded");
	else
		rp_say(c, RP_FAIL, "make && sudo insmod rawprobe.ko",
		       "the rawprobe module is not loaded");
	d->module_failed = c->status == RP_FAIL;
}

static void rp_check_abi(struct rp_check *c, struct rp_doctor *d)
{
	if (!d->module_loaded)
		rp_say(c, RP_SKIP, "load the module first",
		       "CLI ABI %u; module not loaded", RAWPROBE_ABI_VERSION);
	else if (d->mi.abi != RAWPROBE_ABI_VERSION)
		rp_say(c, RP_FAIL, "build the CLI and the module from one tree "
		       "(make), then rmmod rawprobe and insmod the new one",
		       "ABI mismatch: CLI %u, module %u",
		       RAWPROBE_ABI_VERSION, d->mi.abi);
	else if (strcmp(d->mi.kernel, d->uts.release))
		rp_say(c, RP_WARN, "rebuild the module for the running kernel",
		       "module built for %s, running %s", d->mi.kernel,
		       d->uts.release);
	else
		rp_say(c, RP_OK, NULL, "ABI %u on both sides",
		       RAWPROBE_ABI_VERSION);
}

static void rp_check_device(struct rp_check *c, struct rp_doctor *d)
{
	const char *dev = "/dev/" RAWPROBE_DEVICE_NAME;
	int fd;

	if (!d->module_loaded) {
		rp_say(c, RP_SKIP, "load the module first", "%s: module not "
		       "loaded", dev);
		return;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		rp_say(c, RP_OK, NULL, "%s opens", dev);
	} else if (errno == EACCES || errno == EPERM) {
		rp_say(c, RP_WARN, "run stream, trace and hist as root",
		       "%s: %s", dev, strerror(errno));
	} else {
		rp_say(c, RP_FAIL, "check dmesg; rmmod rawprobe; insmod "
		       "rawprobe.ko", "%s: %s", dev, strerror(errno));
	}
}

/*
 * The records' clock: the TSC where the kernel's clocksource is tsc (a
 * record costs about 50 instructions less), else CLOCK_MONOTONIC, the
 * fallback, with the reason.
 */
static void rp_check_clock(struct rp_check *c, struct rp_doctor *d)
{
	char cs[64] = "";

	if (!d->module_loaded) {
		rp_say(c, RP_SKIP, "load the module first", "module not loaded");
		return;
	}
	if (d->mi.clock == RAWPROBE_CLOCK_TSC) {
		rp_say(c, RP_OK, NULL, "tsc (%u.%03u MHz), converted to "
		       "CLOCK_MONOTONIC by readers", d->mi.tsc_khz / 1000,
		       d->mi.tsc_khz % 1000);
		return;
	}
	rp_read_line("/sys/devices/system/clocksource/clocksource0/"
		     "current_clocksource", cs, sizeof(cs));
	if (!d->mi.tsc_khz)
		rp_say(c, RP_OK, NULL, "mono (fallback): the kernel does not "
		       "trust the TSC (clocksource %s)", cs[0] ? cs : "unknown");
	else if (strcmp(cs, "tsc"))
		rp_say(c, RP_OK, NULL, "mono (fallback): the kernel's "
		       "clocksource is %s, not tsc", cs[0] ? cs : "unknown");
	else
		rp_say(c, RP_WARN, "rawprobectl ring set clock auto (with no "
		       "probe registered)", "mono, while the TSC would serve: "
		       "each record costs about 50 instructions more");
}

/* CAP_SYS_ADMIN (21) or CAP_PERFMON (38) in the effective set */
static void rp_check_privileges(struct rp_check *c, struct rp_doctor *d)
{
	unsigned long long caps = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	(void)d;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	if (caps & ((1ULL << 21) | (1ULL << 38)))
		rp_say(c, RP_OK, NULL, "may add probes (CAP_SYS_ADMIN or "
		       "CAP_PERFMON)");
	else
		rp_say(c, RP_WARN, "run as root (sudo rawprobectl ...), or "
		       "grant CAP_PERFMON", "not privileged: may list probes "
		       "but not add them or stream");
}

static const struct {
	const char *name;
	void (*fn)(struct rp_check *c, struct rp_doctor *d);
} rp_checks[] = {
	{ "kernel",		rp_check_kernel },
	{ "modules",		rp_check_modules },
	{ "kprobes",		rp_check_kprobes },
	{ "kretprobes",		rp_check_kretprobes },
	{ "kprobes_enabled",	rp_check_kprobes_enabled },
	{ "headers",		rp_check_headers },
	{ "lockdown",		rp_check_lockdown },
	{ "secure_boot",	rp_check_secure_boot },
	{ "module_signatures",	rp_check_sig_enforce },
	{ "module",		rp_check_module },
	{ "abi",		rp_check_abi },
	{ "device",		rp_check_device },
	{ "clock",		rp_check_clock },
	{ "privileges",		rp_check_privileges },
};

static void rp_check_out(const struct rp_check *c)
{
	struct json *j = &rp_json;

	if (!rp_opts.json) {
		printf("  %-5s %-18s %s\n", c->status == RP_OK ? "ok" :
		       c->status == RP_WARN ? "WARN" :
		       c->status == RP_FAIL ? "FAIL" : "skip", c->name,
		       c->detail);
		if (c->status != RP_OK && c->fix[0])
			printf("  %-5s %-18s fix: %s\n", "", "", c->fix);
		return;
	}
	json_obj_open(j);
	json_kv_str(j, "name", c->name);
	json_kv_str(j, "status", rp_status_names[c->status]);
	json_kv_str(j, "detail", c->detail);
	if (c->status != RP_OK && c->fix[0])
		json_kv_str(j, "fix", c->fix);
	json_obj_close(j);
}

static void rp_doctor_run(struct rp_doctor *d)
{
	struct rp_check c;
	size_t i;

	for (i = 0; i < sizeof(rp_checks) / sizeof(rp_checks[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.name = rp_checks[i].name;
		rp_checks[i].fn(&c, d);
		d->failed += c.status == RP_FAIL;
		d->warned += c.status == RP_WARN;
		rp_check_out(&c);
	}
}

int rp_cmd_doctor(int argc, char **argv)
{
	struct rp_doctor d = { 0 };
	int rc;

	rc = rp_no_args(argc, argv, "Usage: rawprobectl doctor\n"
			"Check what rawprobe needs on this machine: kprobes in the "
			"kernel,\nheaders for building, lockdown, Secure Boot and "
			"module signatures,\nthe module and its ABI, privileges. "
			"Each problem comes with a fix.\nExit: 0 nothing failed, "
			"3 the module is not loaded, 1 another check failed.\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	uname(&d.uts);
	rp_doctor_probe_module(&d);
	if (rp_opts.json) {
		json_obj_open(&rp_json);
		json_kv_str(&rp_json, "kernel", d.uts.release);
		json_key(&rp_json, "checks");
		json_arr_open(&rp_json);
	} else {
		printf("rawprobectl %s doctor on Linux %s\n", RAWPROBECTL_VERSION,
		       d.uts.release);
	}
	rp_doctor_run(&d);
	if (rp_opts.json) {
		json_arr_close(&rp_json);
		json_kv_u64(&rp_json, "failed", d.failed);
		json_kv_u64(&rp_json, "warnings", d.warned);
		json_kv_bool(&rp_json, "ok", !d.failed);
		json_obj_close(&rp_json);
		json_end_doc(&rp_json);
	} else {
		printf("%d failed, %d warnings: %s\n", d.failed, d.warned,
		       d.failed ? "fix the FAIL lines above" :
		       "rawprobe can run here");
	}
	if (!d.failed)
		return RP_EXIT_OK;
	return d.module_failed ? RP_EXIT_NOMOD : RP_EXIT_FAIL;
}
