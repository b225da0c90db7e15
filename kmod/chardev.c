// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rawprobe: the data plane's door.
 *
 *   ioctl(RAWPROBE_IOC_ATTACH) read this session, not the default one
 *   ioctl(RAWPROBE_IOC_INFO)  ring geometry and ABI version
 *   mmap                      control pages (rw) and record arrays (ro),
 *                             at the offsets the info ioctl reports
 *   poll                      readable when records wait; wakeups are
 *                             batched by a watermark and a flush timer
 *
 * A file reads one session (session.h), the default one unless it
 * attaches to another before its first mmap; it holds a reference on it
 * until it is released, so a session whose owner is gone keeps its rings
 * for the reader that still maps them. One open file at a time may map a
 * session's rings, since the consumer positions in the control pages
 * belong to a single reader. The file holds that reader reference from
 * its first successful mmap until it is released (every mapping holds
 * the file); a failed mmap leaves things as they were.
 *
 * Under kernel lockdown (confidentiality) the device does not open: the
 * records are kernel memory. Nor without CAP_PERFMON, whatever the node's
 * mode says: records hold other users' data and kernel pointers, and an
 * open file is what later mmaps are judged by (as perf_event_open).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include "core.h"
#include "compat.h"
#include "session.h"

struct rp_file {
	struct mutex lock;	/* mmaps and attaches of one file may race */
	struct rp_session *sess;	/* referenced; replaced only by
					 * ATTACH before the first mmap
					 */
	bool reader;		/* holds the ring reader reference */
	bool fixed;		/* has polled: sess is for good */
};

static int rp_open(struct inode *inode, struct file *file)
{
	struct rp_file *rf;

	if (rp_locked_down() || !perfmon_capable())
		return -EPERM;
	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf)
		return -ENOMEM;
	mutex_init(&rf->lock);
	rf->sess = rp_session_default();
	rp_session_get(rf->sess);
	file->private_data = rf;
	return nonseekable_open(inode, file);
}

static int rp_release(struct inode *inode, struct file *file)
{
	struct rp_file *rf = file->private_data;

	if (rf->reader)
		rp_ring_reader_put(rf->sess);
	rp_session_put(rf->sess);
	mutex_destroy(&rf->lock);
	kfree(rf);
	return 0;
}

/*
 * Read another session: its owner's or an administrator's, and only
 * before the file maps or polls anything (its mappings and wait queue
 * entries are of one session).
 */
static int rp_attach(struct rp_file *rf, u32 __user *uid)
{
	struct rp_session *s;
	u32 id;
	int err = 0;

	if (get_user(id, uid))
		return -EFAULT;
	s = rp_session_find(id, NULL, NULL);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (!rp_session_may_use(s, capable(CAP_SYS_ADMIN))) {
		rp_session_put(s);
		return -EPERM;
	}
	mutex_lock(&rf->lock);
	if (rf->reader || rf->fixed)
		err = -EBUSY;
	else
		swap(rf->sess, s);
	mutex_unlock(&rf->lock);
	rp_session_put(s);	/* the one not kept */
	return err;
}

static void rp_fill_info(struct rp_session *s, struct rawprobe_info *info)
{
	struct rp_ring_geometry geo;

	rp_ring_geometry(s, &geo);
	memset(info, 0, sizeof(*info));
	info->abi_version = RAWPROBE_ABI_VERSION;
	info->record_size = sizeof(struct rawprobe_record);
	info->nr_rings = geo.nr_rings;
	info->nr_records = geo.nr_records;
	info->page_size = PAGE_SIZE;
	info->mode = geo.mode;
	info->ring_bytes = (u64)geo.nr_records * RAWPROBE_RECORD_SIZE;
	info->ctrl_offset = 0;
	info->data_offset = (u64)geo.nr_rings * PAGE_SIZE;
	info->wakeup_watermark = geo.watermark;
	info->clock = rp_clock_get();
	info->tsc_khz = rp_clock_tsc_rate_khz();
	info->session = s->id;
}

static long rp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct rp_file *rf = file->private_data;
	struct rawprobe_info info;

	switch (cmd) {
	case RAWPROBE_IOC_INFO:
		mutex_lock(&rf->lock);
		rp_fill_info(rf->sess, &info);
		mutex_unlock(&rf->lock);
		if (copy_to_user((void __user *)arg, &info, sizeof(info)))
			return -EFAULT;
		return 0;
	case RAWPROBE_IOC_ATTACH:
		return rp_attach(rf, (u32 __user *)arg);
	default:
		return -ENOTTY;
	}
}

/* Insert pages [first, first + count) of the flat page space into vma. */
static int rp_map_pages(struct rp_session *s, struct vm_area_struct *vma,
			unsigned long first, unsigned long count,
			const struct rawprobe_info *info)
{
	unsigned long ctrl_pages = info->nr_rings;
	unsigned long ring_pages = info->ring_bytes >> PAGE_SHIFT;
	unsigned long i, pg, addr = vma->vm_start;
	struct page *page;
	int err;

	for (i = 0; i < count; i++, addr += PAGE_SIZE) {
		pg = first + i;
		if (pg < ctrl_pages)
			page = rp_ring_ctrl_page(s, pg);
		else
			page = rp_ring_data_page(s, (pg - ctrl_pages) / ring_pages,
						 (pg - ctrl_pages) % ring_pages);
		if (!page)
			return -EINVAL;
		err = vm_insert_page(vma, addr, page);
		if (err)
			return err;
	}
	return 0;
}

/* With the reader reference held: the geometry cannot change. */
static int rp_mmap_rings(struct rp_session *s, struct vm_area_struct *vma)
{
	unsigned long count = vma_pages(vma), first = vma->vm_pgoff;
	unsigned long ctrl_pages, total;
	struct rawprobe_info info;
	bool in_ctrl;

	rp_fill_info(s, &info);
	ctrl_pages = info.nr_rings;
	total = ctrl_pages + info.nr_rings * (info.ring_bytes >> PAGE_SHIFT);
	if (first >= total || count > total - first)
		return -EINVAL;
	/* A mapping lies wholly in the control or the record area. */
	in_ctrl = first < ctrl_pages;
	if (in_ctrl && first + count > ctrl_pages)
		return -EINVAL;
	if (!in_ctrl) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;	/* records are read-only */
		rp_vm_flags_clear(vma, VM_MAYWRITE);
	}
	rp_vm_flags_clear(vma, VM_MAYEXEC);
	rp_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY);
	return rp_map_pages(s, vma, first, count, &info);
}

static int rp_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct rp_file *rf = file->private_data;
	bool took = false;
	int err;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;		/* a private copy would see nothing */
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;

	mutex_lock(&rf->lock);
	if (!rf->reader) {
		err = rp_ring_reader_get(rf->sess);
		if (err)
			goto out;	/* -EBUSY: another reader */
		rf->reader = took = true;
	}
	err = rp_mmap_rings(rf->sess, vma);
	/* A first mmap that failed must not keep the rings from resizing. */
	if (err && took) {
		rp_ring_reader_put(rf->sess);
		rf->reader = false;
	}
out:
	mutex_unlock(&rf->lock);
	return err;
}

/*
 * The session is the file's for good once it has polled it: an epoll
 * watch stays on the session's wait queue until the file is released.
 */
static __poll_t rp_poll(struct file *file, poll_table *wait)
{
	struct rp_file *rf = file->private_data;
	struct rp_session *s;

	mutex_lock(&rf->lock);
	rf->fixed = true;
	s = rf->sess;
	mutex_unlock(&rf->lock);
	return rp_ring_poll(s, file, wait);
}

static const struct file_operations rp_fops = {
	.owner		= THIS_MODULE,
	.open		= rp_open,
	.release	= rp_release,
	.unlocked_ioctl	= rp_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= rp_mmap,
	.poll		= rp_poll,
};

static struct miscdevice rp_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= RAWPROBE_DEVICE_NAME,
	.fops	= &rp_fops,
	.mode	= 0600,
};

int rp_chardev_init(void)
{
	return misc_register(&rp_miscdev);
}

void rp_chardev_exit(void)
{
	misc_deregister(&rp_miscdev);
}
