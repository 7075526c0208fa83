/*
 * ssd: a flash drive as channels x dies with a serial controller and bus.
 *
 * A request is cut into flash pages (page = byte offset / page_size), and
 * pages are striped by page number: channel = page % channels, die =
 * (page / channels) % ways. Each die does one array operation at a time and
 * each channel carries one page transfer at a time (spec section 1.9, the
 * MQSim / SimpleSSD vocabulary without the FTL):
 *
 *   read:  die reads the page (t_read), then the channel moves it out;
 *   write: the channel moves the page in, then the die programs it (t_prog).
 *
 * Around the flash sit a controller that spends cmd_overhead per command,
 * one command at a time (what caps a 2009 SATA SSD's random IOPS), and a
 * host bus at interface_mbps. With write_buffer > 0, non-FUA writes complete
 * once their data is in the DRAM buffer; a page's buffer slot is released
 * when its program finishes, so sustained writes fall back to flash speed.
 * A flush completes when every program issued so far has finished.
 *
 * Because dies, channels, controller and bus are all first-come first-served,
 * the whole schedule of a command is known when it is submitted: submit()
 * reserves the resources and computes the completion time, complete() hands
 * requests back in completion order. Parallelism comes from commands that
 * touch different dies, so IOPS grow with queue depth until the controller,
 * the bus or the flash saturates. No garbage collection, no mapping table:
 * the model is for scheduler experiments on a non-rotational device, not
 * for FTL studies.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "core/builtin.h"
#include "dev/zoned.h"

struct ssd {
	struct ios_dev dev;

	/* tunables */
	uint64_t capacity;
	int channels, ways;
	uint64_t page_bytes;
	uint64_t t_read_ns, t_prog_ns;
	int channel_mbps, interface_mbps;
	uint64_t cmd_overhead_ns;
	uint64_t write_buffer_bytes;
	int queue_depth;

	/* derived */
	uint32_t nr_dies;
	uint64_t page_xfer_ns;
	uint64_t buf_pages;

	/* state */
	uint64_t *die_free, *chan_free;
	uint64_t *buf_slot;		/* ring: when each buffer slot frees */
	uint64_t buf_next;
	uint64_t ctrl_free, bus_free, last_prog;
	uint64_t now;
	unsigned outstanding;
	struct ios_list_head done;
	struct ios_dev_counters cnt;
};

static struct ssd *ssd_of(struct ios_dev *dev)
{
	return ios_container_of(dev, struct ssd, dev);
}

static const struct ssd *ssd_of_c(const struct ios_dev *dev)
{
	return ios_container_of(dev, const struct ssd, dev);
}

static uint64_t ssd_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t ssd_bus_ns(const struct ssd *s, uint64_t bytes)
{
	uint64_t mbps = (uint64_t)s->interface_mbps;

	return (bytes * 1000 + mbps - 1) / mbps;
}

static void ssd_done_add(struct ssd *s, struct ios_request *rq, uint64_t t)
{
	struct ios_list_head *pos;

	rq->dev_ns = t;
	for (pos = s->done.prev; pos != &s->done; pos = pos->prev)
		if (ios_list_entry(pos, struct ios_request, dev_node)->dev_ns <= t)
			break;
	ios_list_add(&rq->dev_node, pos);
}

static void ssd_page_place(const struct ssd *s, uint64_t page, uint32_t *chan, uint32_t *die)
{
	*chan = (uint32_t)(page % (uint64_t)s->channels);
	*die = *chan * (uint32_t)s->ways +
	       (uint32_t)((page / (uint64_t)s->channels) % (uint64_t)s->ways);
}

static uint64_t ssd_read(struct ssd *s, uint64_t p0, uint64_t p1, uint64_t t, uint64_t bytes)
{
	uint64_t last = t, bs;

	for (uint64_t p = p0; p < p1; p++) {
		uint32_t c, d;
		uint64_t rs, xs;

		ssd_page_place(s, p, &c, &d);
		rs = ssd_max(t, s->die_free[d]);
		xs = ssd_max(rs + s->t_read_ns, s->chan_free[c]);
		s->chan_free[c] = xs + s->page_xfer_ns;
		s->die_free[d] = s->chan_free[c];	/* the page register is held until moved out */
		s->cnt.busy_ns += s->die_free[d] - rs;
		s->cnt.media_ops++;
		last = ssd_max(last, s->chan_free[c]);
	}
	/* the bus streams to the host as pages arrive; it ends after the last one */
	bs = ssd_max(t, s->bus_free);
	s->bus_free = ssd_max(bs + ssd_bus_ns(s, bytes),
			      last + ssd_bus_ns(s, bytes < s->page_bytes ? bytes : s->page_bytes));
	return s->bus_free;
}

/* Program pages [p0, p1) whose data is on the drive at @t; returns the last program end. */
static uint64_t ssd_program(struct ssd *s, uint64_t p0, uint64_t p1, uint64_t t, bool buffered)
{
	uint64_t last = t;

	for (uint64_t p = p0; p < p1; p++) {
		uint32_t c, d;
		uint64_t xs, pe;

		ssd_page_place(s, p, &c, &d);
		xs = ssd_max(ssd_max(t, s->chan_free[c]), s->die_free[d]);
		s->chan_free[c] = xs + s->page_xfer_ns;
		pe = s->chan_free[c] + s->t_prog_ns;
		s->die_free[d] = pe;
		s->cnt.busy_ns += pe - xs;
		s->cnt.media_ops++;
		if (buffered)
			s->buf_slot[s->buf_next++ % s->buf_pages] = pe;
		last = ssd_max(last, pe);
	}
	s->last_prog = ssd_max(s->last_prog, last);
	return last;
}

static uint64_t ssd_write(struct ssd *s, const struct ios_request *rq, uint64_t p0, uint64_t p1,
			  uint64_t t)
{
	bool buffered = s->buf_pages && !(rq->flags & IOS_REQ_FUA) && p1 - p0 <= s->buf_pages;
	uint64_t bs = ssd_max(t, s->bus_free), be, last;

	if (buffered) {
		/* wait until the slots these pages will take have been programmed */
		for (uint64_t i = 0; i < p1 - p0; i++)
			bs = ssd_max(bs, s->buf_slot[(s->buf_next + i) % s->buf_pages]);
	}
	be = bs + ssd_bus_ns(s, ios_rq_bytes(rq));
	s->bus_free = be;
	last = ssd_program(s, p0, p1, be, buffered);
	if (buffered) {
		s->cnt.cache_write_absorbed++;
		return be;
	}
	return last;
}

static int ssd_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now)
{
	struct ssd *s = ssd_of(dev);
	uint64_t t, p0, p1, end;

	if (now < s->now)
		return -EINVAL;
	if ((!rq->nr_sectors && !(rq->flags & IOS_REQ_PREFLUSH)) || rq->sector > dev->nr_sectors ||
	    rq->nr_sectors > dev->nr_sectors - rq->sector)
		return -EINVAL;
	if (s->outstanding >= ios_dev_max_commands(dev))
		return -EBUSY;
	s->now = now;
	t = ssd_max(now, s->ctrl_free) + s->cmd_overhead_ns;
	s->ctrl_free = t;
	if (rq->flags & IOS_REQ_PREFLUSH)
		t = ssd_max(t, s->last_prog);
	if (!rq->nr_sectors) {
		end = t;
	} else {
		p0 = rq->sector * IOS_SECTOR_SIZE / s->page_bytes;
		p1 = (ios_rq_end(rq) * IOS_SECTOR_SIZE + s->page_bytes - 1) / s->page_bytes;
		if (rq->dir == IOS_WRITE)
			end = ssd_write(s, rq, p0, p1, t);
		else
			end = ssd_read(s, p0, p1, t, ios_rq_bytes(rq));
	}
	s->outstanding++;
	s->cnt.commands++;
	ssd_done_add(s, rq, end);
	return 0;
}

static uint64_t ssd_next_event(const struct ios_dev *dev)
{
	const struct ssd *s = ssd_of_c(dev);
	uint64_t d;

	if (ios_list_empty(&s->done))
		return IOS_NO_WAKEUP;
	d = ios_list_first_entry(&s->done, struct ios_request, dev_node)->dev_ns;
	return ssd_max(d, s->now);
}

static struct ios_request *ssd_complete(struct ios_dev *dev, uint64_t now)
{
	struct ssd *s = ssd_of(dev);
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

static void ssd_reset(struct ios_dev *dev)
{
	struct ssd *s = ssd_of(dev);

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
}

static void ssd_exit(struct ios_dev *dev)
{
	struct ssd *s = ssd_of(dev);

	free(s->die_free);
	free(s->chan_free);
	free(s->buf_slot);
	s->die_free = s->chan_free = s->buf_slot = NULL;
}

static int ssd_init(struct ios_dev *dev, struct ios_err *e)
{
	struct ssd *s = ssd_of(dev);
	uint64_t ch = (uint64_t)s->channel_mbps;

	s->die_free = s->chan_free = s->buf_slot = NULL;
	if (s->capacity % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "device.capacity=%llu bytes is not a multiple of 512",
			       (unsigned long long)s->capacity);
	if (s->page_bytes & (s->page_bytes - 1))
		return IOS_ERR(e, -EINVAL, "device.page_size=%llu bytes is not a power of two",
			       (unsigned long long)s->page_bytes);
	if (s->write_buffer_bytes && s->write_buffer_bytes < s->page_bytes)
		return IOS_ERR(e, -EINVAL,
			       "device.write_buffer=%llu KiB is smaller than one page (device.page_size=%llu KiB); use 0 to disable it",
			       (unsigned long long)(s->write_buffer_bytes >> 10),
			       (unsigned long long)(s->page_bytes >> 10));
	if (s->capacity < (uint64_t)s->channels * (uint64_t)s->ways * s->page_bytes)
		return IOS_ERR(e, -EINVAL,
			       "device.capacity is smaller than one page on each of channels=%d x ways=%d dies",
			       s->channels, s->ways);
	s->nr_dies = (uint32_t)(s->channels * s->ways);
	s->page_xfer_ns = (s->page_bytes * 1000 + ch - 1) / ch;
	s->buf_pages = s->write_buffer_bytes / s->page_bytes;
	s->die_free = calloc(s->nr_dies, sizeof(*s->die_free));
	s->chan_free = calloc((size_t)s->channels, sizeof(*s->chan_free));
	if (s->buf_pages)
		s->buf_slot = calloc(s->buf_pages, sizeof(*s->buf_slot));
	if (!s->die_free || !s->chan_free || (s->buf_pages && !s->buf_slot)) {
		ssd_exit(dev);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	dev->nr_sectors = s->capacity / IOS_SECTOR_SIZE;
	ssd_reset(dev);
	return 0;
}

static unsigned ssd_caps(const struct ios_dev *dev)
{
	(void)dev;
	return 0;	/* not rotational */
}

static unsigned ssd_queue_depth(const struct ios_dev *dev)
{
	return (unsigned)ssd_of_c(dev)->queue_depth;
}

static int ssd_ctl(struct ios_dev *dev, int op, void *arg)
{
	struct ssd *s = ssd_of(dev);

	switch (op) {
	case IOS_DEV_CTL_MEDIA_RATE: {
		/* no zones: the rate at which all channels can stream pages out */
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
	}
	return -ENOTSUP;
}

#define SSD_OFF(f) offsetof(struct ssd, f)
/* the rows, shared with the zoned type built on this one (struct offsets agree) */
#define SSD_ROWS \
	{ "capacity", IOS_TUN_SIZE, SSD_OFF(capacity), 1, 65536, "120034123776B", "GiB", \
	  "usable capacity; must be a multiple of 512 bytes", 0, NULL }, \
	{ "channels", IOS_TUN_INT, SSD_OFF(channels), 1, 256, "8", "", \
	  "flash channels (one page transfer at a time each)", 0, NULL }, \
	{ "ways", IOS_TUN_INT, SSD_OFF(ways), 1, 256, "4", "", \
	  "dies per channel (one array operation at a time each)", 0, NULL }, \
	{ "page_size", IOS_TUN_SIZE, SSD_OFF(page_bytes), 1, 1024, "4", "KiB", \
	  "flash page; the unit of reads, programs and striping", 0, NULL }, \
	{ "t_read_us", IOS_TUN_TIME, SSD_OFF(t_read_ns), 1, 100000, "50", "us", \
	  "array read time of a page (tR)", 0, NULL }, \
	{ "t_prog_us", IOS_TUN_TIME, SSD_OFF(t_prog_ns), 1, 100000, "900", "us", \
	  "page program time (tPROG)", 0, NULL }, \
	{ "channel_mbps", IOS_TUN_INT, SSD_OFF(channel_mbps), 1, 100000, "80", "MB/s", \
	  "flash channel transfer rate (10^6 bytes/s)", 0, NULL }, \
	{ "interface_mbps", IOS_TUN_INT, SSD_OFF(interface_mbps), 1, 100000, "300", "MB/s", \
	  "host bus rate (10^6 bytes/s)", 0, NULL }, \
	{ "cmd_overhead_us", IOS_TUN_TIME, SSD_OFF(cmd_overhead_ns), 0, 100000, "28", "us", \
	  "controller time per command; the controller handles one command at a time", 0, NULL }, \
	{ "write_buffer", IOS_TUN_SIZE, SSD_OFF(write_buffer_bytes), 0, 4194304, "16384", "KiB", \
	  "DRAM write buffer; non-FUA writes complete once buffered; 0 = none", 0, NULL }, \
	{ "queue_depth", IOS_TUN_INT, SSD_OFF(queue_depth), 1, 65536, "32", "", \
	  "commands accepted at once on the single-queue layer", 0, NULL }, \
	IOS_DEV_MQ_ROWS("1", "0")
static const struct ios_tunable ssd_tunables[] = {
	SSD_ROWS,
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_dev_type ios_dev_ssd = {
	.name = "ssd",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "flash drive: channels x dies, page striping, serial controller, DRAM write buffer",
	.ops = {
		.init = ssd_init,
		.exit = ssd_exit,
		.caps = ssd_caps,
		.queue_depth = ssd_queue_depth,
		.submit = ssd_submit,
		.next_event = ssd_next_event,
		.complete = ssd_complete,
		.reset = ssd_reset,
		.ctl = ssd_ctl,
	},
	.tunables = ssd_tunables,
	.priv_size = sizeof(struct ssd),
};

/*
 * zns: an NVMe zoned namespace. The flash timing is this file's; there is
 * no FTL and so no device garbage collection: the host resets whole zones.
 * The zone rules are src/dev/zoned.c's.
 */
struct ssd_zns {
	struct ssd s;		/* first: the ssd hooks and rows see a struct ssd */
	struct ios_zoned z;
};

static int ssd_zns_init(struct ios_dev *dev, struct ios_err *e)
{
	struct ssd_zns *n = ios_container_of(ssd_of(dev), struct ssd_zns, s);
	int ret = ssd_init(dev, e);

	return ret ? ret : ios_zoned_init(dev, &n->z, IOS_ZONED_ZNS, &ios_dev_ssd.ops, e);
}

#define ZNS_Z offsetof(struct ssd_zns, z)
static const struct ios_tunable ssd_zns_tunables[] = {
	SSD_ROWS,
	IOS_ZONED_ROWS(ZNS_Z, "2048", "1077", "0", "14", "14", "10", "3500"),
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};
#undef ZNS_Z
#undef SSD_ROWS
#undef SSD_OFF

const struct ios_dev_type ios_dev_zns = {
	.name = "zns",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "NVMe zoned namespace: the ssd model behind ZNS zone rules (zone capacity, "
		"open and active limits, no device GC)",
	.ops = IOS_ZONED_OPS(ssd_zns_init),
	.tunables = ssd_zns_tunables,
	.priv_size = sizeof(struct ssd_zns),
};
