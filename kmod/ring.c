// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU record rings, a set per session (session.h).
 *
 * Each possible CPU owns a control page and a power-of-two array of
 * 256-byte records. The pages are allocated one by one on the CPU's node,
 * vmapped for the writer and inserted page by page into the reader's
 * mapping by chardev.c. The lock-free writer algorithm lives in
 * ring_core.h, shared with the host unit tests, and the record writer
 * that every handler inlines in record.h; this file owns memory, geometry
 * and reader wakeups.
 *
 * A probe finds its rings through its own pointer (rawprobe_probe.rings),
 * so the writer pays one load: the session keeps a list of its probes
 * (rp_ring_attach_probe()) and a resize points them all at the new rings
 * under the session's lock. Writers run with preemption off, readers and
 * the flush timer look under RCU, so synchronize_rcu() after a swap is
 * enough before the old rings go.
 *
 * Memory follows use: insmod allocates nothing. The default session's
 * rings are allocated when first needed, by the first probe added or the
 * first reader's mmap(), and stay until rmmod (as ftrace's buffers do once
 * expanded), unless the first add is refused: it gives them back. Other
 * sessions allocate theirs when they are made and free them when they
 * end. The default size shrinks with the number of CPUs (see
 * rp_ring_auto_records()).
 *
 * Ring memory is charged to the memory cgroup of whoever asks for it,
 * fails rather than calling the OOM killer, stops when the caller is
 * killed, and is charged before it is allocated to the budget that rings,
 * kretprobe instances and aggregation tables share (budget.c).
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
#include "session.h"

static u32 rp_def_records;		/* the default session's, as loaded */
static u32 rp_watermark_cfg;		/* wakeup_records as loaded */
static unsigned int rp_flush_ms;	/* flush_ms, as loaded */

/*
 * Charged to the caller's memory cgroup; a failure is an error for the
 * caller, never the OOM killer's business, nor a warning in the log.
 */
#define RP_RING_GFP (GFP_KERNEL_ACCOUNT | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/* Bytes of the per-CPU rings (records and control pages) of n records. */
static u64 rp_rings_bytes(u32 n)
{
	return ((u64)n * RAWPROBE_RECORD_SIZE + PAGE_SIZE) * nr_cpu_ids;
}

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

static void rp_wakeup_fn(struct irq_work *work)
{
	struct rp_rings *rings = container_of(work, struct rp_rings, wakeup);

	wake_up_all(&rings->sess->waitq);
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

/*
 * After the last writer (no probe points at them, or a grace period has
 * passed since one did) and the last reader: what a writer queued may
 * still run.
 */
static void rp_rings_free(struct rp_rings *rings)
{
	u32 i;

	if (!rings)
		return;
	irq_work_sync(&rings->wakeup);
	for (i = 0; i < rings->nr_rings; i++)
		rp_ring_free_one(&rings->ring[i]);
	rp_budget_uncharge(rp_rings_bytes(rings->nr_records));
	kfree(rings);
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

static struct rp_rings *rp_rings_alloc(struct rp_session *s, u32 nr_records,
				       u32 mode)
{
	struct rp_rings *rings;
	unsigned int cpu;
	int err;

	if (!rp_budget_charge(rp_rings_bytes(nr_records)))
		return ERR_PTR(-E2BIG);
	rings = kzalloc(struct_size(rings, ring, nr_cpu_ids), RP_RING_GFP);
	if (!rings) {
		rp_budget_uncharge(rp_rings_bytes(nr_records));
		return ERR_PTR(-ENOMEM);
	}
	rings->nr_rings = nr_cpu_ids;
	rings->nr_records = nr_records;
	rings->mode = mode;
	rings->watermark = rp_watermark_fit(nr_records);
	rings->sess = s;
	init_irq_work(&rings->wakeup, rp_wakeup_fn);
	/*
	 * Every index below nr_cpu_ids gets a ring, possible CPU or not, so
	 * that the mapping and the readers never meet a hole.
	 */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		rings->ring[cpu].set = rings;
		rings->ring[cpu].wake_at = U64_MAX;	/* no reader asleep */
	}
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
 * A power of two, at least a page (the mapping hands out whole pages).
 * How much all rings may take is the budget's business (E2BIG there).
 */
int rp_ring_check_size(u32 nr_records)
{
	if (nr_records < RAWPROBE_RING_MIN || nr_records > RAWPROBE_RING_MAX ||
	    !is_power_of_2(nr_records) ||
	    nr_records * RAWPROBE_RECORD_SIZE < PAGE_SIZE)
		return -EINVAL;
	if (rp_rings_bytes(nr_records) > rp_budget_limit())
		return -E2BIG;
	return 0;
}

static bool rp_ring_has_data(struct rp_session *s)
{
	struct rp_rings *rings;
	bool ret = false;
	u32 i;

	rcu_read_lock();
	rings = rcu_dereference(s->rings);
	for (i = 0; rings && i < rings->nr_rings && !ret; i++) {
		struct rawprobe_ring_ctrl *c = rings->ring[i].core.ctrl;

		ret = READ_ONCE(c->head) != READ_ONCE(c->consumer);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * Wake the sleeping reader: a record reached its ring's wake_at. Out of
 * line: the reader sleeps once a batch. Any context, as writers: only
 * this ring's mark is cleared (a walk of every CPU's would be a loop in
 * an NMI); the woken reader's poll() clears the others, and a writer on
 * another CPU meanwhile finds the irq_work pending, or wakes a reader
 * that is awake already.
 */
void rp_record_wake(struct rp_ring *ring)
{
	WRITE_ONCE(ring->wake_at, U64_MAX);
	irq_work_queue(&ring->set->wakeup);
}
NOKPROBE_SYMBOL(rp_record_wake);

/*
 * Asleep: each ring wakes the reader at the record that brings its unread
 * backlog to the watermark. The consumer stays where the sleeping reader
 * left it; one moved by user space (the control page is writable) only
 * moves that record, and the flush timer delivers what is below it.
 */
static void rp_ring_set_sleeping(struct rp_session *s, bool sleeping)
{
	struct rp_rings *rings;
	struct rp_ring *ring;
	u32 i;

	rcu_read_lock();
	rings = rcu_dereference(s->rings);
	for (i = 0; rings && i < rings->nr_rings; i++) {
		ring = &rings->ring[i];
		WRITE_ONCE(ring->wake_at, !sleeping ? U64_MAX :
			   READ_ONCE(ring->core.ctrl->consumer) +
			   rings->watermark - 1);
	}
	rcu_read_unlock();
}

/*
 * Trickle flush: the watermark batches wakeups under load; this timer,
 * armed only while a reader sleeps in poll(), delivers whatever is below
 * the watermark within rp_flush_ms.
 */
static void rp_flush_fn(struct timer_list *t)
{
	struct rp_session *s = from_timer(s, t, flush);

	if (rp_ring_has_data(s)) {
		rp_ring_set_sleeping(s, false);
		wake_up_all(&s->waitq);
	} else if (wq_has_sleeper(&s->waitq))
		/* still nothing: look again while someone waits */
		mod_timer(&s->flush, jiffies + msecs_to_jiffies(rp_flush_ms));
}

/*
 * The default size: 16384 records (4 MiB) per CPU, halved until the
 * records of all possible CPUs fit in RP_RING_AUTO_TOTAL and in a quarter
 * of the budget (a sixteenth of RAM), so that several sessions fit, but
 * not below RP_RING_AUTO_MIN records (256 KiB) unless RAM is so small
 * that even those would not fit the budget. With 4 GiB of RAM, up to 16
 * CPUs get 4 MiB each and 64 CPUs 1 MiB; with 16 GiB or more, up to 64
 * CPUs get 4 MiB, 256 CPUs 1 MiB, 1024 CPUs or more 256 KiB.
 */
#define RP_RING_AUTO_MAX	16384U
#define RP_RING_AUTO_MIN	1024U
#define RP_RING_AUTO_TOTAL	(256ULL << 20)

static u32 rp_ring_auto_records(void)
{
	u64 budget = min(RP_RING_AUTO_TOTAL, rp_budget_limit() / 4);
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
	int err;

	RAWPROBE_LAYOUT_ASSERTS();

	if (!nr_records)
		nr_records = rp_ring_auto_records();
	err = rp_ring_check_size(nr_records);
	if (err == -E2BIG) {
		pr_err("ring_records=%u: the rings of %u CPUs would take more than the sixteenth of RAM all probes share\n",
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
	rp_def_records = nr_records;
	return 0;
}

u32 rp_ring_default_records(void)
{
	return rp_def_records;
}

void rp_ring_session_init(struct rp_session *s, u32 nr_records, u32 mode)
{
	mutex_init(&s->resize_lock);
	mutex_init(&s->lock);
	INIT_LIST_HEAD(&s->probes);
	init_waitqueue_head(&s->waitq);
	timer_setup(&s->flush, rp_flush_fn, 0);
	s->cfg_records = nr_records;
	s->cfg_mode = mode;
}

/* The last reference: no probe, no reader, no one to wake. */
void rp_ring_session_exit(struct rp_session *s)
{
	del_timer_sync(&s->flush);
	rp_rings_free(rcu_dereference_protected(s->rings, true));
	mutex_destroy(&s->lock);
	mutex_destroy(&s->resize_lock);
}

static struct rp_rings *rp_rings_locked(struct rp_session *s)
{
	return rcu_dereference_protected(s->rings, lockdep_is_held(&s->lock));
}

/*
 * Allocate the rings if nobody has yet: before a probe is armed and
 * before the first reader maps them. Sleeps; the caller's memory cgroup
 * pays. It holds no lock while it allocates (the registry's is held
 * around it): two first users at once may both allocate, and one gives
 * its rings back.
 */
int rp_ring_ensure(struct rp_session *s)
{
	struct rp_rings *rings;

	if (rcu_access_pointer(s->rings))
		return 0;
	rings = rp_rings_alloc(s, READ_ONCE(s->cfg_records),
			       READ_ONCE(s->cfg_mode));
	if (IS_ERR(rings))
		return PTR_ERR(rings);
	mutex_lock(&s->lock);
	if (!rp_rings_locked(s)) {
		rcu_assign_pointer(s->rings, rings);
		rings = NULL;
	}
	mutex_unlock(&s->lock);
	rp_rings_free(rings);	/* the other's came first */
	return 0;
}

bool rp_ring_allocated(struct rp_session *s)
{
	return rcu_access_pointer(s->rings);
}

/*
 * Give back rings that nothing uses: those a refused first add allocated
 * (a typo must not keep megabytes a CPU until rmmod). A reader that has
 * mapped them, or a probe that writes into them, keeps them.
 */
void rp_ring_release_unused(struct rp_session *s)
{
	struct rp_rings *old = NULL;

	mutex_lock(&s->lock);
	if (!s->readers && list_empty(&s->probes))
		old = rcu_replace_pointer(s->rings, NULL,
					  lockdep_is_held(&s->lock));
	mutex_unlock(&s->lock);
	if (!old)
		return;
	synchronize_rcu();	/* the flush timer may be looking at them */
	rp_rings_free(old);
}

/*
 * A probe about to be armed joins the session's writers: its rings are
 * the session's from now until rp_ring_detach_probe(), through resizes.
 * False when the session has none (rp_ring_ensure() first).
 */
bool rp_ring_attach_probe(struct rp_session *s, struct rawprobe_probe *p)
{
	struct rp_rings *rings;

	mutex_lock(&s->lock);
	rings = rp_rings_locked(s);
	if (rings) {
		rcu_assign_pointer(p->rings, rings);
		list_add_tail(&p->sess_node, &s->probes);
		s->nr_probes++;
	}
	mutex_unlock(&s->lock);
	return rings;
}

/* After the probe's last hit (unregistered, or never registered). */
void rp_ring_detach_probe(struct rp_session *s, struct rawprobe_probe *p)
{
	mutex_lock(&s->lock);
	list_del(&p->sess_node);
	s->nr_probes--;
	RCU_INIT_POINTER(p->rings, NULL);
	mutex_unlock(&s->lock);
}

/*
 * Swap in new rings unless a reader came meanwhile, and point the
 * session's probes at them; returns the old ones.
 */
static struct rp_rings *rp_ring_swap(struct rp_session *s,
				     struct rp_rings *new)
{
	struct rp_rings *old = ERR_PTR(-EBUSY);
	struct rawprobe_probe *p;

	mutex_lock(&s->lock);
	if (!s->readers) {
		old = rcu_replace_pointer(s->rings, new,
					  lockdep_is_held(&s->lock));
		list_for_each_entry(p, &s->probes, sess_node)
			rcu_assign_pointer(p->rings, new);
		s->cfg_records = new->nr_records;
		s->cfg_mode = new->mode;
	}
	mutex_unlock(&s->lock);
	return old;
}

/*
 * Before the first use, change only what will be allocated: unless the
 * rings came meanwhile (a reader's mmap; a probe's add), then -EAGAIN.
 */
static int rp_ring_configure(struct rp_session *s, u32 nr_records, u32 mode)
{
	int err = -EAGAIN;

	mutex_lock(&s->lock);
	if (!rp_rings_locked(s)) {
		s->cfg_records = nr_records;
		s->cfg_mode = mode;
		err = 0;
	}
	mutex_unlock(&s->lock);
	return err;
}

static bool rp_ring_has_reader(struct rp_session *s)
{
	bool busy;

	mutex_lock(&s->lock);
	busy = s->readers;
	mutex_unlock(&s->lock);
	return busy;
}

/*
 * Replace the rings; only while nobody has them mapped (records not read
 * yet go with the old rings). The allocation, which can take
 * seconds, holds only resize_lock: readers and the geometry queries are
 * not kept waiting, and two resizes never have three sets of rings
 * allocated at once. What the caller leaves as it is (RP_RING_KEEP) is
 * read under that lock, not before: two changes of different fields at
 * once both land, neither undoes the other.
 */
int rp_ring_resize(struct rp_session *s, u32 nr_records, u32 mode)
{
	struct rp_rings *old, *new;
	int err;

	mutex_lock(&s->resize_lock);
	if (nr_records == RP_RING_KEEP)
		nr_records = s->cfg_records;
	if (mode == RP_RING_KEEP)
		mode = s->cfg_mode;
	err = rp_ring_check_size(nr_records);
	if (!err && mode > RAWPROBE_RING_OVERWRITE)
		err = -EINVAL;
	if (err)
		goto out;
	err = -EBUSY;
	if (rp_ring_has_reader(s))
		goto out;
	if (!rcu_access_pointer(s->rings)) {
		err = rp_ring_configure(s, nr_records, mode);
		if (err != -EAGAIN)
			goto out;
	}
	new = rp_rings_alloc(s, nr_records, mode);
	err = PTR_ERR_OR_ZERO(new);
	if (err)
		goto out;
	old = rp_ring_swap(s, new);
	if (IS_ERR(old)) {
		err = PTR_ERR(old);
		rp_rings_free(new);
		goto out;
	}
	synchronize_rcu();	/* writers, and the flush timer's looks */
	rp_rings_free(old);
out:
	mutex_unlock(&s->resize_lock);
	return err;
}

/*
 * Only one file maps a session's rings: the consumer positions are its
 * own. Its mapping needs them allocated.
 */
int rp_ring_reader_get(struct rp_session *s)
{
	int err;

	for (;;) {
		err = rp_ring_ensure(s);
		if (err)
			return err;
		mutex_lock(&s->lock);
		/* A refused first add may have given them back meanwhile. */
		if (rp_rings_locked(s))
			break;
		mutex_unlock(&s->lock);
	}
	if (s->readers)
		err = -EBUSY;
	else
		s->readers++;
	mutex_unlock(&s->lock);
	return err;
}

void rp_ring_reader_put(struct rp_session *s)
{
	mutex_lock(&s->lock);
	s->readers--;
	mutex_unlock(&s->lock);
}

void rp_ring_geometry(struct rp_session *s, struct rp_ring_geometry *geo)
{
	struct rp_rings *rings;
	u32 i;

	mutex_lock(&s->lock);
	rings = rp_rings_locked(s);
	geo->nr_rings = nr_cpu_ids;
	geo->nr_records = s->cfg_records;
	geo->mode = s->cfg_mode;
	geo->watermark = rings ? rings->watermark :
			 rp_watermark_fit(s->cfg_records);
	geo->bytes = rings ? rp_rings_bytes(rings->nr_records) : 0;
	geo->lost = 0;
	for (i = 0; rings && i < rings->nr_rings; i++)
		geo->lost += READ_ONCE(rings->ring[i].core.ctrl->lost);
	geo->readers = s->readers;
	geo->nr_probes = s->nr_probes;
	mutex_unlock(&s->lock);
}

/*
 * Pages for the reader's mapping. Called with the reader reference held,
 * so the rings cannot be resized underneath.
 */
struct page *rp_ring_ctrl_page(struct rp_session *s, u32 idx)
{
	struct rp_rings *rings = rcu_dereference_protected(s->rings, true);

	if (idx >= rings->nr_rings)
		return NULL;
	return rings->ring[idx].ctrl_page;
}

struct page *rp_ring_data_page(struct rp_session *s, u32 idx,
			       unsigned long pgoff)
{
	struct rp_rings *rings = rcu_dereference_protected(s->rings, true);

	if (idx >= rings->nr_rings ||
	    pgoff >= rings->ring[idx].nr_data_pages)
		return NULL;
	return rings->ring[idx].data_pages[pgoff];
}

/*
 * poll() for the reader. Writers queue a wakeup only while the reader is
 * marked asleep, so a reader busy draining costs the traced CPUs no
 * interrupt at all. The flag is set before the last look at the rings
 * (the barrier orders the two); a writer that misses the flag anyway, its
 * store still in flight, leaves the wakeup to the next writer or, if
 * there is none, to the flush timer.
 */
__poll_t rp_ring_poll(struct rp_session *s, struct file *file,
		      poll_table *wait)
{
	poll_wait(file, &s->waitq, wait);
	rp_ring_set_sleeping(s, true);
	smp_mb();	/* flag before the data check, as writers commit then test it */
	if (rp_ring_has_data(s)) {
		rp_ring_set_sleeping(s, false);
		return EPOLLIN | EPOLLRDNORM;
	}
	mod_timer(&s->flush, jiffies + msecs_to_jiffies(rp_flush_ms));
	return 0;
}
