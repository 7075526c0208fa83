/*
 * ssd-ftl: a flash drive with a page-mapped flash translation layer.
 *
 * The ssd model (ssd.c) writes a logical page to a fixed place, so random
 * writes cost what sequential ones do. Real flash cannot overwrite in place:
 * a page is programmed once, then the whole erase block it sits in must be
 * erased before it can be programmed again. An FTL therefore writes every
 * page to a fresh physical page, remaps the logical page there (a compact
 * array of uint32: logical page -> physical page, and the reverse), and
 * leaves the old copy invalid. When a die runs short of erased blocks it
 * garbage-collects: it picks the block with the fewest valid pages (greedy),
 * copies those pages into its open block (a copyback: array read, then
 * program, on the same die) and erases the victim. The spare area
 * (over-provisioning) is what keeps victims partly invalid. A full drive
 * under random writes thus programs more pages than the host wrote (write
 * amplification) and spends die time on copies and erases: the "write
 * cliff" between a fresh drive and its steady state. TRIM (a discard) drops
 * the mapping of whole pages, so their copies need not be saved.
 *
 * Layout: physical block b belongs to die b % dies (die d is way d % ways
 * of channel d / ways). Host writes are spread over the dies round-robin in
 * arrival order (dynamic striping), each die filling its own open block.
 * GC is foreground and per die: it runs when a die needs a new block and
 * has at most gc_reserve erased blocks left, and its time is charged to that
 * die before the page that triggered it is programmed.
 *
 * Timing around the flash is ssd.c's: a controller that spends
 * cmd_overhead per command, one at a time; a host bus; one page transfer at
 * a time per channel, one array operation at a time per die; an optional
 * DRAM write buffer whose slots free when their page is programmed. Reads
 * of a page never written (or trimmed) cost no flash time. A discard costs
 * the controller time only.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "core/builtin.h"

#define FTL_NONE UINT32_MAX

enum { FTL_BLK_USED = 0, FTL_BLK_FREE = 1, FTL_BLK_OPEN = 2 };

struct ftl {
	struct ios_dev dev;

	/* tunables */
	uint64_t capacity;
	int channels, ways;
	uint64_t page_bytes;
	int pages_per_block;
	int op_permille;
	int gc_reserve;
	int prefill;
	uint64_t t_read_ns, t_prog_ns, t_erase_ns;
	int channel_mbps, interface_mbps;
	uint64_t cmd_overhead_ns;
	uint64_t write_buffer_bytes;
	int queue_depth;

	/* derived */
	uint32_t nr_dies, ppb, blocks_per_die, nr_blocks;
	uint32_t nr_lpages;
	uint64_t page_xfer_ns, buf_pages;

	/* mapping */
	uint32_t *l2p;			/* logical page -> physical page, FTL_NONE */
	uint32_t *p2l;			/* physical page -> logical page, FTL_NONE */
	uint16_t *valid;		/* valid pages per block */
	uint8_t *bstate;		/* FTL_BLK_* */
	uint32_t *free_stack;		/* per die: blocks_per_die slots */
	uint32_t *nr_free;		/* per die */
	uint32_t *open_blk, *open_wp;	/* per die: open block and its next page */
	uint32_t next_die;

	/* timing state */
	uint64_t *die_free, *chan_free, *buf_slot;
	uint64_t buf_next, ctrl_free, bus_free, last_prog, now;
	unsigned outstanding;
	struct ios_list_head done;
	struct ios_dev_counters cnt;
	struct ios_dev_ftl_stats st;
};

static struct ftl *ftl_of(struct ios_dev *dev)
{
	return ios_container_of(dev, struct ftl, dev);
}

static const struct ftl *ftl_of_c(const struct ios_dev *dev)
{
	return ios_container_of(dev, const struct ftl, dev);
}

static uint64_t ftl_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t ftl_bus_ns(const struct ftl *s, uint64_t bytes)
{
	uint64_t mbps = (uint64_t)s->interface_mbps;

	return (bytes * 1000 + mbps - 1) / mbps;
}

static uint32_t ftl_die_of(const struct ftl *s, uint32_t ppn)
{
	return (ppn / s->ppb) % s->nr_dies;
}

static void ftl_done_add(struct ftl *s, struct ios_request *rq, uint64_t t)
{
	struct ios_list_head *pos;

	rq->dev_ns = t;
	for (pos = s->done.prev; pos != &s->done; pos = pos->prev)
		if (ios_list_entry(pos, struct ios_request, dev_node)->dev_ns <= t)
			break;
	ios_list_add(&rq->dev_node, pos);
}

/* ---- mapping ---- */

static void ftl_invalidate(struct ftl *s, uint32_t lpn)
{
	uint32_t ppn = s->l2p[lpn];

	if (ppn == FTL_NONE)
		return;
	s->p2l[ppn] = FTL_NONE;
	s->valid[ppn / s->ppb]--;
	s->l2p[lpn] = FTL_NONE;
}

/* Take an erased block of die @d as its open block; false if it has none. */
static bool ftl_open_block(struct ftl *s, uint32_t d)
{
	uint32_t b;

	if (!s->nr_free[d])
		return false;
	b = s->free_stack[(size_t)d * s->blocks_per_die + --s->nr_free[d]];
	if (s->open_blk[d] != FTL_NONE)
		s->bstate[s->open_blk[d]] = FTL_BLK_USED;
	s->bstate[b] = FTL_BLK_OPEN;
	s->open_blk[d] = b;
	s->open_wp[d] = 0;
	return true;
}

/* Next page of die @d's open block, opening a new block without GC. */
static uint32_t ftl_next_page(struct ftl *s, uint32_t d)
{
	if (s->open_blk[d] == FTL_NONE || s->open_wp[d] == s->ppb)
		if (!ftl_open_block(s, d))
			return FTL_NONE;
	return s->open_blk[d] * s->ppb + s->open_wp[d]++;
}

static void ftl_map(struct ftl *s, uint32_t lpn, uint32_t ppn)
{
	s->l2p[lpn] = ppn;
	s->p2l[ppn] = lpn;
	s->valid[ppn / s->ppb]++;
}

/* The used block of die @d with the fewest valid pages, or FTL_NONE. */
static uint32_t ftl_victim(const struct ftl *s, uint32_t d)
{
	uint32_t best = FTL_NONE, best_valid = UINT32_MAX;

	for (uint32_t i = 0; i < s->blocks_per_die; i++) {
		uint32_t b = i * s->nr_dies + d;

		if (s->bstate[b] != FTL_BLK_USED || s->valid[b] >= best_valid)
			continue;
		best = b;
		best_valid = s->valid[b];
	}
	return best;
}

/*
 * Greedy GC on die @d until it has more than gc_reserve erased blocks or
 * nothing is left to gain. Returns the die time spent.
 */
static uint64_t ftl_gc(struct ftl *s, uint32_t d)
{
	uint64_t spent = 0;

	while (s->nr_free[d] <= (uint32_t)s->gc_reserve) {
		uint32_t v = ftl_victim(s, d), copies = 0;

		if (v == FTL_NONE || s->valid[v] >= s->ppb)
			break;
		/* the copies must fit: the open block's rest plus the erased blocks */
		if (s->valid[v] > (s->ppb - s->open_wp[d]) + s->nr_free[d] * s->ppb)
			break;
		for (uint32_t p = v * s->ppb; p < (v + 1) * s->ppb; p++) {
			uint32_t lpn = s->p2l[p], np;

			if (lpn == FTL_NONE)
				continue;
			np = ftl_next_page(s, d);
			ftl_invalidate(s, lpn);
			ftl_map(s, lpn, np);
			copies++;
		}
		s->bstate[v] = FTL_BLK_FREE;
		s->free_stack[(size_t)d * s->blocks_per_die + s->nr_free[d]++] = v;
		s->st.gc_copies += copies;
		s->st.flash_pages_written += copies;
		s->st.erases++;
		spent += copies * (s->t_read_ns + s->t_prog_ns) + s->t_erase_ns;
	}
	return spent;
}

/*
 * Place logical page @lpn on the next die that can take it, running GC
 * there first if it needs it (charged to the die from @t). Returns the
 * physical page, or FTL_NONE if no die has room (cannot happen with spare
 * blocks, checked anyway).
 */
static uint32_t ftl_place(struct ftl *s, uint32_t lpn, uint64_t t)
{
	for (uint32_t tries = 0; tries < s->nr_dies; tries++) {
		uint32_t d = s->next_die, ppn;

		s->next_die = (d + 1) % s->nr_dies;
		if (s->open_blk[d] == FTL_NONE || s->open_wp[d] == s->ppb) {
			uint64_t gc = s->nr_free[d] <= (uint32_t)s->gc_reserve ? ftl_gc(s, d) : 0;

			if (gc) {
				uint64_t st = ftl_max(t, s->die_free[d]);

				s->die_free[d] = st + gc;
				s->cnt.busy_ns += gc;
				s->st.gc_ns += gc;
			}
		}
		ppn = ftl_next_page(s, d);
		if (ppn == FTL_NONE)
			continue;
		ftl_invalidate(s, lpn);
		ftl_map(s, lpn, ppn);
		s->st.host_pages_written++;
		s->st.flash_pages_written++;
		return ppn;
	}
	return FTL_NONE;
}

/* ---- timing ---- */

static uint64_t ftl_read(struct ftl *s, uint64_t p0, uint64_t p1, uint64_t t, uint64_t bytes)
{
	uint64_t last = t, bs;

	for (uint64_t p = p0; p < p1; p++) {
		uint32_t ppn = s->l2p[p], d, c;
		uint64_t rs, xs;

		if (ppn == FTL_NONE)
			continue;	/* unmapped: the controller returns zeroes */
		d = ftl_die_of(s, ppn);
		c = d / (uint32_t)s->ways;
		rs = ftl_max(t, s->die_free[d]);
		xs = ftl_max(rs + s->t_read_ns, s->chan_free[c]);
		s->chan_free[c] = xs + s->page_xfer_ns;
		s->die_free[d] = s->chan_free[c];
		s->cnt.busy_ns += s->die_free[d] - rs;
		s->cnt.media_ops++;
		last = ftl_max(last, s->chan_free[c]);
	}
	bs = ftl_max(t, s->bus_free);
	s->bus_free = ftl_max(bs + ftl_bus_ns(s, bytes),
			      last + ftl_bus_ns(s, bytes < s->page_bytes ? bytes : s->page_bytes));
	return s->bus_free;
}

/* Program logical pages [p0, p1) whose data is on the drive at @t. */
static int ftl_program(struct ftl *s, uint64_t p0, uint64_t p1, uint64_t t, bool buffered,
		       uint64_t *end)
{
	uint64_t last = t;

	for (uint64_t p = p0; p < p1; p++) {
		uint32_t ppn = ftl_place(s, (uint32_t)p, t), d, c;
		uint64_t xs, pe;

		if (ppn == FTL_NONE)
			return -EIO;
		d = ftl_die_of(s, ppn);
		c = d / (uint32_t)s->ways;
		xs = ftl_max(ftl_max(t, s->chan_free[c]), s->die_free[d]);
		s->chan_free[c] = xs + s->page_xfer_ns;
		pe = s->chan_free[c] + s->t_prog_ns;
		s->die_free[d] = pe;
		s->cnt.busy_ns += pe - xs;
		s->cnt.media_ops++;
		if (buffered)
			s->buf_slot[s->buf_next++ % s->buf_pages] = pe;
		last = ftl_max(last, pe);
	}
	s->last_prog = ftl_max(s->last_prog, last);
	*end = last;
	return 0;
}

static int ftl_write(struct ftl *s, const struct ios_request *rq, uint64_t p0, uint64_t p1,
		     uint64_t t, uint64_t *end)
{
	bool buffered = s->buf_pages && !(rq->flags & IOS_REQ_FUA) && p1 - p0 <= s->buf_pages;
	uint64_t bs = ftl_max(t, s->bus_free), be;
	int ret;

	if (buffered)
		for (uint64_t i = 0; i < p1 - p0; i++)
			bs = ftl_max(bs, s->buf_slot[(s->buf_next + i) % s->buf_pages]);
	be = bs + ftl_bus_ns(s, ios_rq_bytes(rq));
	s->bus_free = be;
	ret = ftl_program(s, p0, p1, be, buffered, end);
	if (!ret && buffered) {
		s->cnt.cache_write_absorbed++;
		*end = be;
	}
	return ret;
}

/* Unmap the logical pages wholly inside the discarded range. */
static void ftl_trim(struct ftl *s, const struct ios_request *rq)
{
	uint64_t b0 = rq->sector * IOS_SECTOR_SIZE, b1 = ios_rq_end(rq) * IOS_SECTOR_SIZE;
	uint64_t p0 = (b0 + s->page_bytes - 1) / s->page_bytes, p1 = b1 / s->page_bytes;

	for (uint64_t p = p0; p < p1; p++) {
		if (s->l2p[p] != FTL_NONE)
			s->st.pages_trimmed++;
		ftl_invalidate(s, (uint32_t)p);
	}
}

static int ftl_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now)
{
	struct ftl *s = ftl_of(dev);
	uint64_t t, p0, p1, end;
	int ret = 0;

	if (now < s->now)
		return -EINVAL;
	if ((!rq->nr_sectors && !(rq->flags & IOS_REQ_PREFLUSH)) || rq->sector > dev->nr_sectors ||
	    rq->nr_sectors > dev->nr_sectors - rq->sector)
		return -EINVAL;
	if (s->outstanding >= ios_dev_max_commands(dev))
		return -EBUSY;
	s->now = now;
	t = ftl_max(now, s->ctrl_free) + s->cmd_overhead_ns;
	s->ctrl_free = t;
	if (rq->flags & IOS_REQ_PREFLUSH)
		t = ftl_max(t, s->last_prog);
	end = t;
	if (rq->nr_sectors && (rq->flags & IOS_REQ_DISCARD)) {
		ftl_trim(s, rq);
	} else if (rq->nr_sectors) {
		p0 = rq->sector * IOS_SECTOR_SIZE / s->page_bytes;
		p1 = (ios_rq_end(rq) * IOS_SECTOR_SIZE + s->page_bytes - 1) / s->page_bytes;
		if (rq->dir == IOS_WRITE)
			ret = ftl_write(s, rq, p0, p1, t, &end);
		else
			end = ftl_read(s, p0, p1, t, ios_rq_bytes(rq));
	}
	if (ret)
		return ret;
	s->outstanding++;
	s->cnt.commands++;
	ftl_done_add(s, rq, end);
	return 0;
}

static uint64_t ftl_next_event(const struct ios_dev *dev)
{
	const struct ftl *s = ftl_of_c(dev);
	uint64_t d;

	if (ios_list_empty(&s->done))
		return IOS_NO_WAKEUP;
	d = ios_list_first_entry(&s->done, struct ios_request, dev_node)->dev_ns;
	return ftl_max(d, s->now);
}

static struct ios_request *ftl_complete(struct ios_dev *dev, uint64_t now)
{
	struct ftl *s = ftl_of(dev);
	struct ios_request *rq;

	if (now > s->now)
		s->now = now;
	if (ios_list_empty(&s->done))
		return NULL;
	rq = ios_list_first_entry(&s->done, struct ios_request, dev_node);
	if (rq->dev_ns > s->now)
		return NULL;
	ios_list_del(&rq->dev_node);
	s->outstanding--;
	return rq;
}

/* ---- set-up ---- */

/* Erased flash, or (prefill=1) every logical page written once in order. */
static void ftl_format(struct ftl *s)
{
	memset(s->l2p, 0xff, (size_t)s->nr_lpages * sizeof(*s->l2p));
	memset(s->p2l, 0xff, (size_t)s->nr_blocks * s->ppb * sizeof(*s->p2l));
	memset(s->valid, 0, (size_t)s->nr_blocks * sizeof(*s->valid));
	for (uint32_t d = 0; d < s->nr_dies; d++) {
		s->nr_free[d] = 0;
		s->open_blk[d] = FTL_NONE;
		s->open_wp[d] = 0;
		/* pushed in reverse so the lowest block is taken first */
		for (uint32_t i = s->blocks_per_die; i-- > 0;) {
			uint32_t b = i * s->nr_dies + d;

			s->bstate[b] = FTL_BLK_FREE;
			s->free_stack[(size_t)d * s->blocks_per_die + s->nr_free[d]++] = b;
		}
	}
	s->next_die = 0;
	if (s->prefill)
		for (uint32_t l = 0; l < s->nr_lpages; l++)
			ftl_map(s, l, ftl_next_page(s, l % s->nr_dies));
}

static void ftl_reset(struct ios_dev *dev)
{
	struct ftl *s = ftl_of(dev);

	memset(s->die_free, 0, s->nr_dies * sizeof(*s->die_free));
	memset(s->chan_free, 0, (size_t)s->channels * sizeof(*s->chan_free));
	if (s->buf_slot)
		memset(s->buf_slot, 0, s->buf_pages * sizeof(*s->buf_slot));
	s->buf_next = 0;
	s->ctrl_free = s->bus_free = s->last_prog = 0;
	s->now = 0;
	s->outstanding = 0;
	ios_list_init(&s->done);
	memset(&s->cnt, 0, sizeof(s->cnt));
	memset(&s->st, 0, sizeof(s->st));
	ftl_format(s);
}

static void ftl_exit(struct ios_dev *dev)
{
	struct ftl *s = ftl_of(dev);

	free(s->l2p);
	free(s->p2l);
	free(s->valid);
	free(s->bstate);
	free(s->free_stack);
	free(s->nr_free);
	free(s->open_blk);
	free(s->open_wp);
	free(s->die_free);
	free(s->chan_free);
	free(s->buf_slot);
	s->l2p = s->p2l = s->free_stack = s->nr_free = s->open_blk = s->open_wp = NULL;
	s->valid = NULL;
	s->bstate = NULL;
	s->die_free = s->chan_free = s->buf_slot = NULL;
}

static int ftl_geometry(struct ftl *s, struct ios_err *e)
{
	uint64_t lpages, ppages, blocks;

	if (s->capacity % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "device.capacity=%llu bytes is not a multiple of 512",
			       (unsigned long long)s->capacity);
	if (s->page_bytes < IOS_SECTOR_SIZE || (s->page_bytes & (s->page_bytes - 1)))
		return IOS_ERR(e, -EINVAL,
			       "device.page_size=%llu bytes is not a power of two of at least 512",
			       (unsigned long long)s->page_bytes);
	if (s->capacity % s->page_bytes)
		return IOS_ERR(e, -EINVAL, "device.capacity is not a whole number of pages");
	if (s->write_buffer_bytes && s->write_buffer_bytes < s->page_bytes)
		return IOS_ERR(e, -EINVAL,
			       "device.write_buffer is smaller than one page; use 0 to disable it");
	s->nr_dies = (uint32_t)(s->channels * s->ways);
	s->ppb = (uint32_t)s->pages_per_block;
	lpages = s->capacity / s->page_bytes;
	ppages = lpages + lpages * (uint64_t)s->op_permille / 1000;
	blocks = (ppages + s->ppb - 1) / s->ppb;
	s->blocks_per_die = (uint32_t)((blocks + s->nr_dies - 1) / s->nr_dies);
	/* each die needs its reserve plus an open block plus one to fill */
	if (s->blocks_per_die < (uint32_t)s->gc_reserve + 2 ||
	    (uint64_t)s->blocks_per_die * s->nr_dies * s->ppb - lpages <
		    (uint64_t)s->nr_dies * ((uint64_t)s->gc_reserve + 1) * s->ppb)
		return IOS_ERR(e, -EINVAL,
			       "device.over_provisioning=%d permille leaves fewer than gc_reserve=%d + 1 spare blocks per die (%u dies of %u blocks); raise capacity or over_provisioning",
			       s->op_permille, s->gc_reserve, s->nr_dies, s->blocks_per_die);
	if ((uint64_t)s->blocks_per_die * s->nr_dies * s->ppb >= FTL_NONE)
		return IOS_ERR(e, -EINVAL,
			       "device.capacity is too large for 32-bit page numbers; raise page_size");
	s->nr_blocks = s->blocks_per_die * s->nr_dies;
	s->nr_lpages = (uint32_t)lpages;
	return 0;
}

static int ftl_init(struct ios_dev *dev, struct ios_err *e)
{
	struct ftl *s = ftl_of(dev);
	uint64_t ch = (uint64_t)s->channel_mbps;
	size_t nd;
	int ret;

	s->l2p = s->p2l = s->free_stack = s->nr_free = s->open_blk = s->open_wp = NULL;
	s->valid = NULL;
	s->bstate = NULL;
	s->die_free = s->chan_free = s->buf_slot = NULL;
	ret = ftl_geometry(s, e);
	if (ret)
		return ret;
	nd = s->nr_dies;
	s->page_xfer_ns = (s->page_bytes * 1000 + ch - 1) / ch;
	s->buf_pages = s->write_buffer_bytes / s->page_bytes;
	s->l2p = malloc((size_t)s->nr_lpages * sizeof(*s->l2p));
	s->p2l = malloc((size_t)s->nr_blocks * s->ppb * sizeof(*s->p2l));
	s->valid = malloc((size_t)s->nr_blocks * sizeof(*s->valid));
	s->bstate = malloc(s->nr_blocks);
	s->free_stack = malloc((size_t)s->nr_blocks * sizeof(*s->free_stack));
	s->nr_free = calloc(nd, sizeof(*s->nr_free));
	s->open_blk = calloc(nd, sizeof(*s->open_blk));
	s->open_wp = calloc(nd, sizeof(*s->open_wp));
	s->die_free = calloc(nd, sizeof(*s->die_free));
	s->chan_free = calloc((size_t)s->channels, sizeof(*s->chan_free));
	if (s->buf_pages)
		s->buf_slot = calloc(s->buf_pages, sizeof(*s->buf_slot));
	if (!s->l2p || !s->p2l || !s->valid || !s->bstate || !s->free_stack || !s->nr_free ||
	    !s->open_blk || !s->open_wp || !s->die_free || !s->chan_free ||
	    (s->buf_pages && !s->buf_slot)) {
		ftl_exit(dev);
		return IOS_ERR(e, -ENOMEM, "out of memory for the FTL's page map");
	}
	dev->nr_sectors = s->capacity / IOS_SECTOR_SIZE;
	ftl_reset(dev);
	return 0;
}

static unsigned ftl_caps(const struct ios_dev *dev)
{
	(void)dev;
	return IOS_DEV_DISCARD;
}

static unsigned ftl_queue_depth(const struct ios_dev *dev)
{
	return (unsigned)ftl_of_c(dev)->queue_depth;
}

static int ftl_ctl(struct ios_dev *dev, int op, void *arg)
{
	struct ftl *s = ftl_of(dev);

	switch (op) {
	case IOS_DEV_CTL_MEDIA_RATE: {
		struct ios_dev_rate_query *q = arg;
		uint64_t flash = (uint64_t)s->channels * (uint64_t)s->channel_mbps * 1000000ULL;
		uint64_t bus = (uint64_t)s->interface_mbps * 1000000ULL;

		if (q->sector >= dev->nr_sectors)
			return -EINVAL;
		q->bytes_per_sec = flash < bus ? flash : bus;
		return 0;
	}
	case IOS_DEV_CTL_COUNTERS:
		*(struct ios_dev_counters *)arg = s->cnt;
		return 0;
	case IOS_DEV_CTL_FTL_STATS: {
		struct ios_dev_ftl_stats *st = arg;
		uint64_t free_blocks = 0;

		*st = s->st;
		for (uint32_t d = 0; d < s->nr_dies; d++)
			free_blocks += s->nr_free[d];
		st->free_blocks = free_blocks;
		return 0;
	}
	}
	return -ENOTSUP;
}

/*
 * Defaults: see docs/devices.md (ssd-ftl) for the sources. Capacity is
 * scaled down from an 80 GB drive so the page map (8 bytes per page) stays
 * near 35 MB.
 */
#define FTL_OFF(f) offsetof(struct ftl, f)
static const struct ios_tunable ftl_tunables[] = {
	{ "capacity", IOS_TUN_SIZE, FTL_OFF(capacity), 1, 16777216, "16GiB", "MiB",
	  "user-visible capacity (logical pages x page_size)", 0, NULL },
	{ "channels", IOS_TUN_INT, FTL_OFF(channels), 1, 256, "10", "",
	  "flash channels (one page transfer at a time each)", 0, NULL },
	{ "ways", IOS_TUN_INT, FTL_OFF(ways), 1, 256, "2", "",
	  "dies per channel (one array operation at a time each)", 0, NULL },
	{ "page_size", IOS_TUN_SIZE, FTL_OFF(page_bytes), 1, 1024, "4", "KiB",
	  "flash page: unit of programs, reads and of the mapping", 0, NULL },
	{ "pages_per_block", IOS_TUN_INT, FTL_OFF(pages_per_block), 2, 65535, "128", "",
	  "pages per erase block", 0, NULL },
	{ "over_provisioning", IOS_TUN_INT, FTL_OFF(op_permille), 1, 4000, "73", "permille",
	  "spare flash beyond the capacity, in 1/1000 of it (73: 80 GiB raw for 80 GB)", 0,
	  NULL },
	{ "gc_reserve", IOS_TUN_INT, FTL_OFF(gc_reserve), 1, 1000, "2", "blocks",
	  "a die collects garbage when it needs a block and has at most this many erased", 0,
	  NULL },
	{ "prefill", IOS_TUN_BOOL, FTL_OFF(prefill), 0, 1, "0", "",
	  "1: start with every logical page written once in order (a full drive)", 0, NULL },
	{ "t_read_us", IOS_TUN_TIME, FTL_OFF(t_read_ns), 1, 100000, "50", "us",
	  "array read time of a page (tR)", 0, NULL },
	{ "t_prog_us", IOS_TUN_TIME, FTL_OFF(t_prog_ns), 1, 100000, "900", "us",
	  "page program time (tPROG)", 0, NULL },
	{ "t_erase_ms", IOS_TUN_TIME, FTL_OFF(t_erase_ns), 1, 100000, "2", "ms",
	  "block erase time (tBERS)", 0, NULL },
	{ "channel_mbps", IOS_TUN_INT, FTL_OFF(channel_mbps), 1, 100000, "80", "MB/s",
	  "flash channel transfer rate (10^6 bytes/s)", 0, NULL },
	{ "interface_mbps", IOS_TUN_INT, FTL_OFF(interface_mbps), 1, 100000, "300", "MB/s",
	  "host bus rate (10^6 bytes/s)", 0, NULL },
	{ "cmd_overhead_us", IOS_TUN_TIME, FTL_OFF(cmd_overhead_ns), 0, 100000, "28", "us",
	  "controller time per command, one command at a time", 0, NULL },
	{ "write_buffer", IOS_TUN_SIZE, FTL_OFF(write_buffer_bytes), 0, 4194304, "16384", "KiB",
	  "DRAM write buffer; non-FUA writes complete once buffered; 0 = none", 0, NULL },
	{ "queue_depth", IOS_TUN_INT, FTL_OFF(queue_depth), 1, 65536, "32", "",
	  "commands accepted at once on the single-queue layer", 0, NULL },
	IOS_DEV_MQ_ROWS("1", "0"),
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};
#undef FTL_OFF

const struct ios_dev_type ios_dev_ssd_ftl = {
	.name = "ssd-ftl",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "flash drive with a page-mapped FTL: erase blocks, over-provisioning, greedy GC, TRIM",
	.ops = {
		.init = ftl_init,
		.exit = ftl_exit,
		.caps = ftl_caps,
		.queue_depth = ftl_queue_depth,
		.submit = ftl_submit,
		.next_event = ftl_next_event,
		.complete = ftl_complete,
		.reset = ftl_reset,
		.ctl = ftl_ctl,
	},
	.tunables = ftl_tunables,
	.priv_size = sizeof(struct ftl),
};
