// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU record rings.
 *
 * Each possible CPU owns a control page and a power-of-two array of
 * 256-byte records. The pages are allocated one by one on the CPU's node,
 * vmapped for the writer and inserted page by page into the reader's
 * mapping by chardev.c. The lock-free writer algorithm lives in
 * ring_core.h, shared with the host unit tests, and the record writer
 * that every handler inlines in record.h; this file owns memory, geometry
 * and reader wakeups.
 *
 * Writers find the rings through an RCU pointer: probe handlers run with
 * preemption disabled, so synchronize_rcu() after swapping the pointer
 * (ring resize) guarantees no handler still writes into the old rings.
 *
 * Memory follows use: insmod allocates nothing. The rings are allocated
 * when first needed, by the first probe added or the first reader's
 * mmap(), and stay until rmmod (as ftrace's buffers do once expanded),
 * unless the first add is refused: it gives them back;
 * `ring set` before that only changes what will be allocated. The default
 * size shrinks with the number of CPUs, so that all rings together stay
 * within RP_RING_AUTO_TOTAL (see rp_ring_auto_records()).
 *
 * Ring memory is charged to the memory cgroup of whoever asks for it
 * (the first probe's adder, the first reader, or `ring set`), fails
 * rather than calling the OOM killer, stops when the caller is killed,
 * and is bounded: the rings of all CPUs may take at most a quarter of RAM.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/log2.h>
#include <linux/poll.h>
#include "core.h"
#include "record.h"

struct rp_rings __rcu *rp_rings __read_mostly;
static DEFINE_MUTEX(rp_resize_lock);	/* one allocation at a time */
static DEFINE_MUTEX(rp_rings_lock);	/* the swap, readers, geometry */
/* What the next allocation uses: under both locks to write, either to read. */
static u32 rp_cfg_records, rp_cfg_mode;
static unsigned int rp_readers;		/* mmappers, under rp_rings_lock */
static u32 rp_watermark_cfg;		/* wakeup_records as loaded */
u32 rp_watermark __read_mostly;	/* the same, fitted to the ring */
/*
 * See rp_ring_poll(). Written by the reader at every poll(): a cache line
 * of its own, so that the read-mostly words every writer loads stay
 * shared.
 */
bool rp_reader_sleeping ____cacheline_aligned_in_smp;

static DECLARE_WAIT_QUEUE_HEAD(rp_waitq);
DEFINE_PER_CPU(struct irq_work, rp_wakeup_work);

/*
 * Charged to the caller's memory cgroup; a failure is an error for the
 * caller, never the OOM killer's business, nor a warning in the log.
 */
#define RP_RING_GFP (GFP_KERNEL_ACCOUNT | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

static void rp_ring_free_one(struct rp_ring *ring)
{
	unsigned int i;

	if (ring->core.recs)
		vunmap(ring->core.recs);
	for (i = 0; ring->data_pages && i < ring->nr_data_pages; i++)
		if (ring->data_pages[i])
			__free_page(ring->data_pages[i]);
	kvfree(ring->data_pages);
	if (ring->ctrl_page)
		__free_page(ring->ctrl_page);
}

static int rp_ring_alloc_one(struct rp_ring *ring, unsigned int cpu,
			     u32 nr_records, u32 mode)
{
	int node = cpu_possible(cpu) ? cpu_to_node(cpu) : NUMA_NO_NODE;
	struct rawprobe_record *recs;
	unsigned int i, n;

	n = DIV_ROUND_UP(nr_records * RAWPROBE_RECORD_SIZE, PAGE_SIZE);
	ring->data_pages = kvmalloc_node(array_size(n, sizeof(struct page *)),
					 RP_RING_GFP | __GFP_ZERO, node);
	if (!ring->data_pages)
		return -ENOMEM;
	ring->nr_data_pages = n;	/* rp_ring_free_one() walks these */

	ring->ctrl_page = alloc_pages_node(node, RP_RING_GFP | __GFP_ZERO, 0);
	if (!ring->ctrl_page)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* A big ring is seconds of work: the caller may give up. */
		if (fatal_signal_pending(current))
			return -EINTR;
		ring->data_pages[i] = alloc_pages_node(node,
						RP_RING_GFP | __GFP_ZERO, 0);
		if (!ring->data_pages[i])
			return -ENOMEM;
		cond_resched();
	}
	recs = vmap(ring->data_pages, n, VM_MAP, PAGE_KERNEL);
	if (!recs)
		return -ENOMEM;
	ring->core.recs = recs;

	rp_ring_core_init(&ring->core, page_address(ring->ctrl_page),
			  recs, nr_records, mode, cpu, 0);
	return 0;
}

static void rp_rings_free(struct rp_rings *rings)
{
	u32 i;

	if (!rings)
		return;
	for (i = 0; i < rings->nr_rings; i++)
		rp_ring_free_one(&rings->ring[i]);
	kfree(rings);
}

static struct rp_rings *rp_rings_alloc(u32 nr_records, u32 mode)
{
	struct rp_rings *rings;
	unsigned int cpu;
	int err;

	rings = kzalloc(struct_size(rings, ring, nr_cpu_ids), RP_RING_GFP);
	if (!rings)
		return ERR_PTR(-ENOMEM);
	rings->nr_rings = nr_cpu_ids;
	rings->nr_records = nr_records;
	rings->mode = mode;
	/*
	 * Every index below nr_cpu_ids gets a ring, possible CPU or not, so
	 * that the mapping and the readers never meet a hole.
	 */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		err = rp_ring_alloc_one(&rings->ring[cpu], cpu, nr_records,
					mode);
		if (err) {
			rp_rings_free(rings);
			return ERR_PTR(err);
		}
	}
	return rings;
}

/*
 * A power of two, at least a page (the mapping hands out whole pages),
 * and all CPUs' rings together within a quarter of RAM: a typo must not
 * take the machine's memory (`ring set` needs CAP_SYS_ADMIN besides).
 */
static int rp_ring_check_size(u32 nr_records)
{
	u64 per_ring = (u64)nr_records * RAWPROBE_RECORD_SIZE + PAGE_SIZE;

	if (nr_records < RAWPROBE_RING_MIN || nr_records > RAWPROBE_RING_MAX ||
	    !is_power_of_2(nr_records) ||
	    nr_records * RAWPROBE_RECORD_SIZE < PAGE_SIZE)
		return -EINVAL;
	if (per_ring * nr_cpu_ids > ((u64)totalram_pages() << PAGE_SHIFT) / 4)
		return -E2BIG;
	return 0;
}

/*
 * The backlog that wakes a sleeping reader: wakeup_records, or by default
 * an eighth of the ring (at most 8 wakeups per lap, 7/8 of the ring left
 * to absorb the reader's wakeup latency), never more than half of it.
 */
static u32 rp_watermark_fit(u32 nr_records)
{
	u32 wm = rp_watermark_cfg ?: nr_records / 8;

	return clamp(wm, 1U, nr_records / 2);
}

static void rp_wakeup_fn(struct irq_work *work)
{
	wake_up_all(&rp_waitq);
}

/*
 * Trickle flush: the watermark batches wakeups under load; this timer,
 * armed only while a reader sleeps in poll(), delivers whatever is below
 * the watermark within rp_flush_ms.
 */
static unsigned int rp_flush_ms;		/* flush_ms, as loaded */
static void rp_flush_fn(struct timer_list *t);
static DEFINE_TIMER(rp_flush_timer, rp_flush_fn);

static void rp_flush_fn(struct timer_list *t)
{
	if (rp_ring_has_data()) {
		WRITE_ONCE(rp_reader_sleeping, false);
		wake_up_all(&rp_waitq);
	} else if (wq_has_sleeper(&rp_waitq))
		/* still nothing: look again while someone waits */
		mod_timer(&rp_flush_timer,
			  jiffies + msecs_to_jiffies(rp_flush_ms));
}

static void rp_ring_arm_flush(void)
{
	mod_timer(&rp_flush_timer, jiffies + msecs_to_jiffies(rp_flush_ms));
}

/* Bytes of the per-CPU rings (records and control pages) of n records. */
static u64 rp_rings_bytes(u32 n)
{
	return ((u64)n * RAWPROBE_RECORD_SIZE + PAGE_SIZE) * nr_cpu_ids;
}

/*
 * The default size: 16384 records (4 MiB) per CPU, halved until the
 * records of all possible CPUs fit in RP_RING_AUTO_TOTAL and in a
 * sixteenth of RAM, but not below RP_RING_AUTO_MIN records (256 KiB)
 * unless RAM is so small that even those would break
 * rp_ring_check_size()'s quarter. Up to 64 CPUs get 4 MiB each (with
 * 2 GiB of RAM, up to 32), 256 CPUs 1 MiB, 1024 CPUs or more 256 KiB.
 */
#define RP_RING_AUTO_MAX	16384U
#define RP_RING_AUTO_MIN	1024U
#define RP_RING_AUTO_TOTAL	(256ULL << 20)

static u32 rp_ring_auto_records(void)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	u64 budget = min(RP_RING_AUTO_TOTAL, ram / 16);
	u32 n = RP_RING_AUTO_MAX;

	while (n > RP_RING_AUTO_MIN &&
	       (u64)n * RAWPROBE_RECORD_SIZE * nr_cpu_ids > budget)
		n /= 2;
	while (n > RAWPROBE_RING_MIN && rp_ring_check_size(n) == -E2BIG)
		n /= 2;
	return n;
}

/* nr_records 0: rp_ring_auto_records(). Nothing is allocated here. */
int rp_ring_init(u32 nr_records, u32 mode, u32 watermark, u32 flush_ms)
{
	unsigned int cpu;
	int err;

	RAWPROBE_LAYOUT_ASSERTS();

	if (!nr_records)
		nr_records = rp_ring_auto_records();
	err = rp_ring_check_size(nr_records);
	if (err == -E2BIG) {
		pr_err("ring_records=%u: the rings of %u CPUs would take more than a quarter of RAM\n",
		       nr_records, nr_cpu_ids);
		return err;
	}
	if (err) {
		pr_err("ring_records must be 0 (automatic) or a power of two in [%u, %u]\n",
		       RAWPROBE_RING_MIN, RAWPROBE_RING_MAX);
		return err;
	}
	if (mode > RAWPROBE_RING_OVERWRITE)
		return -EINVAL;
	if (!flush_ms || flush_ms > 60000) {
		pr_err("flush_ms must be in [1, 60000]\n");
		return -EINVAL;
	}
	rp_flush_ms = flush_ms;
	rp_watermark_cfg = watermark;
	rp_watermark = rp_watermark_fit(nr_records);
	rp_cfg_records = nr_records;
	rp_cfg_mode = mode;

	for_each_possible_cpu(cpu)
		init_irq_work(per_cpu_ptr(&rp_wakeup_work, cpu), rp_wakeup_fn);
	return 0;
}

/*
 * Allocate the rings if nobody has yet: before a probe is armed and
 * before the first reader maps them. Sleeps; the caller's memory cgroup
 * pays.
 */
int rp_ring_ensure(void)
{
	struct rp_rings *rings;
	int err = 0;

	if (rcu_access_pointer(rp_rings))
		return 0;
	mutex_lock(&rp_resize_lock);
	if (rcu_access_pointer(rp_rings))
		goto out;
	rings = rp_rings_alloc(rp_cfg_records, rp_cfg_mode);
	err = PTR_ERR_OR_ZERO(rings);
	if (err)
		goto out;
	mutex_lock(&rp_rings_lock);
	WRITE_ONCE(rp_watermark, rp_watermark_fit(rings->nr_records));
	rcu_assign_pointer(rp_rings, rings);
	mutex_unlock(&rp_rings_lock);
	pr_debug("%u rings of %u records allocated (%llu KiB)\n",
		 rings->nr_rings, rings->nr_records,
		 rp_rings_bytes(rings->nr_records) >> 10);
out:
	mutex_unlock(&rp_resize_lock);
	return err;
}

/*
 * Give back rings that nothing uses: those a refused first add allocated
 * (a typo must not keep megabytes a CPU until rmmod). The caller knows
 * that no probe is registered; a reader that has mapped them keeps them.
 */
void rp_ring_release_unused(void)
{
	struct rp_rings *old = NULL;

	mutex_lock(&rp_resize_lock);
	mutex_lock(&rp_rings_lock);
	if (!rp_readers)
		old = rcu_replace_pointer(rp_rings, NULL,
					  lockdep_is_held(&rp_rings_lock));
	mutex_unlock(&rp_rings_lock);
	mutex_unlock(&rp_resize_lock);
	if (!old)
		return;
	synchronize_rcu();	/* the flush timer may be looking at them */
	rp_rings_free(old);
}

bool rp_ring_allocated(void)
{
	return rcu_access_pointer(rp_rings);
}

void rp_ring_exit(void)
{
	struct rp_rings *rings;
	unsigned int cpu;

	del_timer_sync(&rp_flush_timer);
	rings = rcu_replace_pointer(rp_rings, NULL, true);
	synchronize_rcu();
	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&rp_wakeup_work, cpu));
	rp_rings_free(rings);
}

static bool rp_ring_has_reader(void)
{
	bool busy;

	mutex_lock(&rp_rings_lock);
	busy = rp_readers;
	mutex_unlock(&rp_rings_lock);
	return busy;
}

/* Swap in new rings unless a reader came meanwhile; returns the old. */
static struct rp_rings *rp_ring_swap(struct rp_rings *new)
{
	struct rp_rings *old = ERR_PTR(-EBUSY);

	mutex_lock(&rp_rings_lock);
	if (!rp_readers) {
		old = rcu_replace_pointer(rp_rings, new,
					  lockdep_is_held(&rp_rings_lock));
		WRITE_ONCE(rp_watermark, rp_watermark_fit(new->nr_records));
		rp_cfg_records = new->nr_records;
		rp_cfg_mode = new->mode;
	}
	mutex_unlock(&rp_rings_lock);
	return old;
}

/* Before the first use, change only what will be allocated. */
static void rp_ring_configure(u32 nr_records, u32 mode)
{
	mutex_lock(&rp_rings_lock);
	rp_cfg_records = nr_records;
	rp_cfg_mode = mode;
	WRITE_ONCE(rp_watermark, rp_watermark_fit(nr_records));
	mutex_unlock(&rp_rings_lock);
}

/*
 * Replace the rings; only while nobody has them mapped. The allocation,
 * which can take seconds, holds only rp_resize_lock: readers and the
 * geometry queries are not kept waiting, and two resizes never have
 * three sets of rings allocated at once. What the caller leaves as it is
 * (RP_RING_KEEP) is read under that lock, not before: two changes of
 * different fields at once both land, neither undoes the other.
 */
int rp_ring_resize(u32 nr_records, u32 mode)
{
	struct rp_rings *old, *new;
	int err;

	mutex_lock(&rp_resize_lock);
	if (nr_records == RP_RING_KEEP)
		nr_records = rp_cfg_records;
	if (mode == RP_RING_KEEP)
		mode = rp_cfg_mode;
	err = rp_ring_check_size(nr_records);
	if (!err && mode > RAWPROBE_RING_OVERWRITE)
		err = -EINVAL;
	if (err)
		goto out;
	err = -EBUSY;
	if (rp_ring_has_reader())
		goto out;
	err = 0;
	if (!rcu_access_pointer(rp_rings)) {
		rp_ring_configure(nr_records, mode);
		goto out;
	}
	new = rp_rings_alloc(nr_records, mode);
	err = PTR_ERR_OR_ZERO(new);
	if (err)
		goto out;
	old = rp_ring_swap(new);
	if (IS_ERR(old)) {
		err = PTR_ERR(old);
		rp_rings_free(new);
		goto out;
	}
	synchronize_rcu();
	rp_rings_free(old);
out:
	mutex_unlock(&rp_resize_lock);
	return err;
}

static struct rp_rings *rp_rings_locked(void)
{
	return rcu_dereference_protected(rp_rings,
					 lockdep_is_held(&rp_rings_lock));
}

/*
 * Only one process maps the rings: the consumer positions are its own.
 * Its mapping needs them allocated.
 */
int rp_ring_reader_get(void)
{
	int err;

	for (;;) {
		err = rp_ring_ensure();
		if (err)
			return err;
		mutex_lock(&rp_rings_lock);
		/* A refused first add may have given them back meanwhile. */
		if (rp_rings_locked())
			break;
		mutex_unlock(&rp_rings_lock);
	}
	if (rp_readers)
		err = -EBUSY;
	else
		rp_readers++;
	mutex_unlock(&rp_rings_lock);
	return err;
}

void rp_ring_reader_put(void)
{
	mutex_lock(&rp_rings_lock);
	rp_readers--;
	mutex_unlock(&rp_rings_lock);
}

void rp_ring_geometry(struct rp_ring_geometry *geo)
{
	struct rp_rings *rings;

	mutex_lock(&rp_rings_lock);
	rings = rp_rings_locked();
	geo->nr_rings = nr_cpu_ids;
	geo->nr_records = rp_cfg_records;
	geo->mode = rp_cfg_mode;
	geo->watermark = rp_watermark;
	geo->bytes = rings ? rp_rings_bytes(rings->nr_records) : 0;
	mutex_unlock(&rp_rings_lock);
}

/*
 * Pages for the reader's mapping. Called with the reader reference held,
 * so the rings cannot be resized underneath.
 */
struct page *rp_ring_ctrl_page(u32 idx)
{
	struct rp_rings *rings = rcu_dereference_protected(rp_rings, true);

	if (idx >= rings->nr_rings)
		return NULL;
	return rings->ring[idx].ctrl_page;
}

struct page *rp_ring_data_page(u32 idx, unsigned long pgoff)
{
	struct rp_rings *rings = rcu_dereference_protected(rp_rings, true);

	if (idx >= rings->nr_rings ||
	    pgoff >= rings->ring[idx].nr_data_pages)
		return NULL;
	return rings->ring[idx].data_pages[pgoff];
}

bool rp_ring_has_data(void)
{
	struct rp_rings *rings;
	bool ret = false;
	u32 i;

	rcu_read_lock();
	rings = rcu_dereference(rp_rings);
	for (i = 0; rings && i < rings->nr_rings && !ret; i++) {
		struct rawprobe_ring_ctrl *c = rings->ring[i].core.ctrl;

		ret = READ_ONCE(c->head) != READ_ONCE(c->consumer);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * poll() for the reader. Writers queue a wakeup only while the reader is
 * marked asleep, so a reader busy draining costs the traced CPUs no
 * interrupt at all. The flag is set before the last look at the rings
 * (the barrier orders the two); a writer that misses the flag anyway, its
 * store still in flight, leaves the wakeup to the next writer or, if
 * there is none, to the flush timer.
 */
__poll_t rp_ring_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &rp_waitq, wait);
	WRITE_ONCE(rp_reader_sleeping, true);
	smp_mb();	/* flag before the data check, as writers commit then test it */
	if (rp_ring_has_data()) {
		WRITE_ONCE(rp_reader_sleeping, false);
		return EPOLLIN | EPOLLRDNORM;
	}
	rp_ring_arm_flush();
	return 0;
}
