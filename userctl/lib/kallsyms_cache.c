// SPDX-License-Identifier: GPL-2.0
/*
 * Copies of /proc/kallsyms, and of the lists a glob reads (ftrace's
 * available_filter_functions, kprobes' blacklist), for root, kept in
 * /run/rawprobe.
 *
 * Every probe add reads all of kallsyms (ambiguous names, near matches),
 * and so does every stream (addresses to names). The kernel prints its
 * 150,000 to 170,000 lines one symbol at a time, which took 1.3 s of a
 * 1.5 s `probe add` in a TCG guest, and longer under KASAN. Reading a
 * copy from tmpfs costs a small part of that. ftrace's list of 50,000
 * functions, which a glob reads, took 0.3 s of a 0.7 s glob expansion.
 *
 * The copy is valid for one boot (boot_id) and one set of loaded
 * modules (each module's name, size and address in /proc/modules):
 * vmlinux's symbols change with neither, a module's only with its load.
 * What the key cannot see are the entries for BPF programs and kprobe
 * instruction pages, which come and go: none is a function a probe can
 * name, so at worst a stale one names a frame of a stack. Only root
 * keeps a copy (the addresses are not for other users); the directory
 * is root's alone (0700), and a file that is not a regular one owned by
 * root is not read. Anything unexpected means no copy: /proc/kallsyms
 * itself, as before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/symbols.h"

#define RP_KSYMS_CACHE_DIR "/run/rawprobe"
/* the directory, a name and '-', a boot_id (36), '-' and the key (16) */
#define RP_KSYMS_PATH_MAX 160

const char *rp_kallsyms_path(void)
{
	const char *p = getenv("RAWPROBE_KALLSYMS");

	return p && *p ? p : "/proc/kallsyms";
}

/* FNV-1a, 64 bits: a key, not a defence (the directory is root's). */
static uint64_t rp_fnv(uint64_t h, const char *s, size_t n)
{
	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The modules' names, sizes and addresses (not their reference counts). */
static int rp_modules_key(uint64_t *key)
{
	char line[4096], name[256], size[32], addr[32];
	uint64_t h = 0xcbf29ce484222325ULL;
	FILE *f = fopen("/proc/modules", "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %*s %*s %*s %31s",
			   name, size, addr) != 3)
			continue;
		h = rp_fnv(h, name, strlen(name) + 1);
		h = rp_fnv(h, size, strlen(size) + 1);
		h = rp_fnv(h, addr, strlen(addr) + 1);
	}
	fclose(f);
	*key = h;
	return 0;
}

static int rp_boot_id(char *id, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(id, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	id[strcspn(id, "\n")] = '\0';
	return id[0] ? 0 : -EIO;
}

/* A copy of root's own, and nothing else, is read. */
static FILE *rp_cache_open(const char *path)
{
	struct stat st;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_uid ||
	    (st.st_mode & 077)) {
		fclose(f);
		return NULL;
	}
	return f;
}

/* Older copies of name (another boot, other modules) go. */
static void rp_cache_prune(const char *keep, const char *name)
{
	char old[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(RP_KSYMS_CACHE_DIR);
	size_t len = strlen(name);

	if (!d)
		return;
	while ((e = readdir(d))) {
		/* another writer's temporary (".XXXXXX") is not ours to remove */
		if (strncmp(e->d_name, name, len) || e->d_name[len] != '-' ||
		    strchr(e->d_name, '.'))
			continue;
		snprintf(old, sizeof(old), RP_KSYMS_CACHE_DIR "/%s", e->d_name);
		if (strcmp(old, keep))
			unlink(old);
	}
	closedir(d);
}

/* Copy src to path, atomically (a temporary, then rename). */
static int rp_cache_write(const char *path, const char *src,
			  const char *name)
{
	char tmp[RP_KSYMS_PATH_MAX + 8], buf[65536];
	FILE *in = NULL;
	size_t n;
	int fd, err = 0;

	if (mkdir(RP_KSYMS_CACHE_DIR, 0700) && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%.*s.XXXXXX",
			     RP_KSYMS_PATH_MAX - 1, path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);	/* 0600 */
	if (fd < 0)
		return -errno;
	in = fopen(src, "r");
	if (!in)
		err = -errno;
	while (!err && (n = fread(buf, 1, sizeof(buf), in)))
		if (write(fd, buf, n) != (ssize_t)n)
			err = -EIO;
	if (!err && ferror(in))
		err = -EIO;
	if (in)
		fclose(in);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	else
		rp_cache_prune(path, name);
	return err;
}

/*
 * Did a module load or go while the copy was read? /proc/kallsyms then
 * may have repeated or skipped a module's lines (its iterator restarts
 * at a position): such a copy is dropped, not kept for the key.
 */
static int rp_modules_changed(uint64_t key, const char *path)
{
	uint64_t now;

	if (!rp_modules_key(&now) && now == key)
		return 0;
	unlink(path);
	return 1;
}

/* A file cached, once looked for in this process */
struct rp_cached {
	const char *name;
	char path[RP_KSYMS_PATH_MAX];
	int state;	/* 0: not looked, 1: path holds a copy, -1: none */
};

static FILE *rp_cached_open(struct rp_cached *c, const char *src)
{
	char id[64];
	uint64_t key;
	FILE *f;

	if (c->state < 0 || geteuid())
		return fopen(src, "r");
	if (!c->state) {
		c->state = -1;
		if (rp_boot_id(id, sizeof(id)) || rp_modules_key(&key) ||
		    (size_t)snprintf(c->path, sizeof(c->path),
				     RP_KSYMS_CACHE_DIR "/%s-%s-%016" PRIx64,
				     c->name, id, key) >= sizeof(c->path))
			return fopen(src, "r");
		f = rp_cache_open(c->path);
		if (!f && !rp_cache_write(c->path, src, c->name) &&
		    !rp_modules_changed(key, c->path))
			f = rp_cache_open(c->path);
		if (!f)
			return fopen(src, "r");
		c->state = 1;
		return f;
	}
	return rp_cache_open(c->path) ?: fopen(src, "r");
}

FILE *rp_kallsyms_open(void)
{
	static struct rp_cached c = { .name = "kallsyms" };
	const char *env = getenv("RAWPROBE_KALLSYMS");

	if (env && *env)
		return fopen(env, "r");
	return rp_cached_open(&c, "/proc/kallsyms");
}

FILE *rp_glob_list_open(const char *src, bool blacklist)
{
	static struct rp_cached afl = { .name = "functions" };
	static struct rp_cached bl = { .name = "blacklist" };

	return rp_cached_open(blacklist ? &bl : &afl, src);
}
