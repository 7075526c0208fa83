/*
 * cloud: a network block volume of the Amazon EBS kind, as its provider
 * documents it. It follows no kernel release; the driver numbers it offers
 * the host (NVMe on blk-mq, Xen blkfront on the 2.6-era layer) are Linux
 * 6.12's and 2.6's, cited in docs/devices.md with the vendor pages and the
 * dates they were read.
 *
 * A cloud volume is not a disk the host can see into. What the provider
 * publishes is a contract: a provisioned (or baseline) IOPS limit, a
 * throughput limit, for some volume types burst credits that let IOPS run
 * above the baseline while they last and refill at the baseline rate, and a
 * latency class ("single-digit millisecond" for gp3). Sequential and random
 * I/O cost the same on the SSD-backed types. So the model has no geometry
 * at all, only that contract:
 *
 *  - Each request is counted in the provider's I/O unit (io_unit, 256 KiB on
 *    EBS SSD volumes): a 1 MiB request is 4 I/Os, a 500 KiB one 2. A request
 *    of at least merge_min (32 KiB) that starts where the previous one of
 *    its direction ended fills that one's last, partial unit first, for
 *    free: eight sequential 32 KiB I/Os count as one. Smaller ones count as
 *    one each, sequential or not.
 *  - Three token buckets admit requests in arrival order: the IOPS limit
 *    (I/O units), the throughput limit (bytes), and, when the volume has
 *    burst credits, a credit bucket of burst_credits that every I/O draws
 *    from and that refills at the baseline IOPS. With credits the IOPS
 *    limit is burst_iops; once they are gone the credit bucket's refill,
 *    the baseline, is what passes. The limit buckets hold bucket_ms worth of
 *    tokens; a request is admitted once every bucket it draws on is not in
 *    debt, and then pays its whole cost (a large request may leave a bucket
 *    in debt, which the next request waits out).
 *  - An admitted request completes after latency (whatever the address or
 *    pattern) plus its bytes at the throughput limit's rate. Requests are
 *    served in parallel; only the buckets serialise them.
 *
 * All of it is integer arithmetic on the times passed in: no randomness.
 * The published numbers give no latency distribution, only a class and an
 * availability ("at least 90 % of provisioned IOPS 99 % of the time"), so
 * no jitter is drawn (docs/devices.md, "cloud"). A flush costs nothing: the
 * model has no volatile write cache, so every write is durable when it
 * completes, FUA or not. Discard is not offered.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "core/builtin.h"

#define CLOUD_NS_PER_SEC 1000000000ULL

/*
 * A token bucket in "empty-at" form: it holds min(depth, (t - E) x rate)
 * tokens at time t, less than zero (a debt) while t < E. E is kept exactly
 * as e_ns + e_rem / rate nanoseconds (0 <= e_rem < rate), so a rate of
 * 3000 per second (333333.3 ns a token) never drifts. rate 0: no bucket.
 */
struct cloud_bucket {
	uint64_t rate;		/* tokens per second */
	uint64_t depth;		/* tokens when full */
	int64_t e_ns;
	uint64_t e_rem;
};

struct cloud {
	struct ios_dev dev;

	/* tunables */
	uint64_t capacity;
	int iops;			/* provisioned or baseline IOPS */
	int throughput_mibps;
	int burst_iops;			/* 0: no burst */
	uint64_t burst_credits;		/* credit bucket size; 0: no burst */
	int burst_balance_pct;		/* credits at start, % of burst_credits */
	uint64_t io_unit_bytes;
	uint64_t merge_min_bytes;
	uint64_t latency_ns;
	uint64_t bucket_ns;		/* depth of the IOPS and throughput buckets, as time */
	int queue_depth;

	/* derived */
	uint64_t bps;			/* throughput limit, bytes per second */
	bool burst;

	/* state */
	struct cloud_bucket b_iops, b_bps, b_credit;
	uint64_t seq_end[IOS_DIR_COUNT];	/* sector after the last request, per direction */
	uint64_t seq_room[IOS_DIR_COUNT];	/* bytes left in its last, partial I/O unit */
	uint64_t last_admit;
	uint64_t now;
	unsigned outstanding;
	struct ios_list_head done;
	struct ios_dev_cloud_stats st;
	uint64_t busy_ns;
};

static struct cloud *cloud_of(struct ios_dev *dev)
{
	return ios_container_of(dev, struct cloud, dev);
}

static const struct cloud *cloud_of_c(const struct ios_dev *dev)
{
	return ios_container_of(dev, const struct cloud, dev);
}

static uint64_t cloud_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Set up @b with @fill tokens at time 0: E = -fill / rate. */
static void cloud_bucket_init(struct cloud_bucket *b, uint64_t rate, uint64_t depth, uint64_t fill)
{
	uint64_t span;

	b->rate = rate;
	b->depth = depth;
	b->e_ns = 0;
	b->e_rem = 0;
	if (!rate || !fill)
		return;
	span = fill * CLOUD_NS_PER_SEC;		/* fill/rate s, in 1/rate ns */
	b->e_ns = -(int64_t)(span / rate);
	if (span % rate) {			/* keep 0 <= e_rem < rate */
		b->e_ns--;
		b->e_rem = rate - span % rate;
	}
}

/* The earliest time >= @now at which @b is not in debt. */
static uint64_t cloud_bucket_ready(const struct cloud_bucket *b, uint64_t now)
{
	int64_t e;

	if (!b->rate)
		return now;
	e = b->e_ns + (b->e_rem ? 1 : 0);
	return e > 0 && (uint64_t)e > now ? (uint64_t)e : now;
}

/*
 * Take @n tokens at @t (>= cloud_bucket_ready): first the tokens earned up
 * to t, capped at the depth (E moves up to t - depth/rate if it lagged),
 * then the cost (E moves on by n/rate).
 */
static void cloud_bucket_take(struct cloud_bucket *b, uint64_t t, uint64_t n)
{
	uint64_t span, l_rem;
	int64_t l_ns;

	if (!b->rate)
		return;
	span = b->depth * CLOUD_NS_PER_SEC;	/* depth/rate s, in 1/rate ns */
	l_ns = (int64_t)t - (int64_t)(span / b->rate);
	l_rem = 0;
	if (span % b->rate) {
		l_ns--;
		l_rem = b->rate - span % b->rate;
	}
	if (l_ns > b->e_ns || (l_ns == b->e_ns && l_rem > b->e_rem)) {
		b->e_ns = l_ns;
		b->e_rem = l_rem;
	}
	span = b->e_rem + n * CLOUD_NS_PER_SEC;
	b->e_ns += (int64_t)(span / b->rate);
	b->e_rem = span % b->rate;
}

/* Tokens held at @t (0 while in debt). */
static uint64_t cloud_bucket_level(const struct cloud_bucket *b, uint64_t t)
{
	uint64_t dt, full_ns;

	if (!b->rate || (int64_t)t <= b->e_ns)
		return 0;
	dt = (uint64_t)((int64_t)t - b->e_ns);
	full_ns = b->depth * CLOUD_NS_PER_SEC / b->rate + 1;
	if (dt >= full_ns)
		return b->depth;
	/* (dt - e_rem/rate) ns x rate / 1e9; dt x rate <= depth x 1e9 + rate here */
	return (dt * b->rate - b->e_rem) / CLOUD_NS_PER_SEC;
}

/*
 * How many I/Os the provider counts for @rq (docs/devices.md, "cloud": the
 * EBS rules). Updates the per-direction sequential cursor.
 */
static uint64_t cloud_count(struct cloud *c, const struct ios_request *rq)
{
	uint64_t bytes = ios_rq_bytes(rq), unit = c->io_unit_bytes, ios, tail;
	int d = rq->dir == IOS_WRITE ? IOS_WRITE : IOS_READ;
	bool mergeable = bytes >= c->merge_min_bytes;

	if (mergeable && rq->sector == c->seq_end[d] && c->seq_room[d]) {
		/* the first bytes fill the previous request's last unit */
		uint64_t in = bytes < c->seq_room[d] ? bytes : c->seq_room[d];

		c->seq_room[d] -= in;
		bytes -= in;
		if (!bytes) {
			c->seq_end[d] = ios_rq_end(rq);
			c->st.merged++;
			return 0;
		}
	}
	ios = (bytes + unit - 1) / unit;
	tail = bytes % unit;
	c->seq_room[d] = mergeable && tail ? unit - tail : 0;
	c->seq_end[d] = ios_rq_end(rq);
	return ios;
}

static void cloud_done_add(struct cloud *c, struct ios_request *rq, uint64_t t)
{
	struct ios_list_head *pos;

	rq->dev_ns = t;
	for (pos = c->done.prev; pos != &c->done; pos = pos->prev)
		if (ios_list_entry(pos, struct ios_request, dev_node)->dev_ns <= t)
			break;
	ios_list_add(&rq->dev_node, pos);
}

static int cloud_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now)
{
	struct cloud *c = cloud_of(dev);
	uint64_t bytes = ios_rq_bytes(rq), ios, a0, a_iops, a_cred, a_bps, a, xfer;

	if (now < c->now)
		return -EINVAL;
	if ((!rq->nr_sectors && !(rq->flags & IOS_REQ_PREFLUSH)) || rq->sector > dev->nr_sectors ||
	    rq->nr_sectors > dev->nr_sectors - rq->sector)
		return -EINVAL;
	if (c->outstanding >= ios_dev_max_commands(dev))
		return -EBUSY;
	c->now = now;
	c->outstanding++;
	c->st.commands++;
	if (!rq->nr_sectors) {
		/* a flush: no volatile cache, nothing to do, nothing counted */
		cloud_done_add(c, rq, now);
		return 0;
	}
	ios = cloud_count(c, rq);
	/* admission in arrival order: a merged request does not overtake */
	a0 = cloud_max(now, c->last_admit);
	a_iops = ios ? cloud_bucket_ready(&c->b_iops, a0) : a0;
	a_cred = ios ? cloud_bucket_ready(&c->b_credit, a0) : a0;
	a_bps = cloud_bucket_ready(&c->b_bps, a0);
	a = cloud_max(cloud_max(a_iops, a_cred), a_bps);
	/* the wait goes to the limit that bound it (the first, on a tie) */
	if (a > a0) {
		if (a == a_cred)
			c->st.wait_credit_ns += a - a0;
		else if (a == a_iops)
			c->st.wait_iops_ns += a - a0;
		else
			c->st.wait_bps_ns += a - a0;
	}
	if (ios) {
		cloud_bucket_take(&c->b_iops, a, ios);
		cloud_bucket_take(&c->b_credit, a, ios);
	}
	cloud_bucket_take(&c->b_bps, a, bytes);
	c->last_admit = a;
	xfer = (bytes * CLOUD_NS_PER_SEC + c->bps - 1) / c->bps;
	c->st.ios_counted += ios;
	c->st.bytes += bytes;
	c->busy_ns += c->latency_ns + xfer;
	cloud_done_add(c, rq, a + c->latency_ns + xfer);
	return 0;
}

static uint64_t cloud_next_event(const struct ios_dev *dev)
{
	const struct cloud *c = cloud_of_c(dev);
	uint64_t d;

	if (ios_list_empty(&c->done))
		return IOS_NO_WAKEUP;
	d = ios_list_first_entry(&c->done, struct ios_request, dev_node)->dev_ns;
	return cloud_max(d, c->now);
}

static struct ios_request *cloud_complete(struct ios_dev *dev, uint64_t now)
{
	struct cloud *c = cloud_of(dev);
	struct ios_request *rq;

	if (now > c->now)
		c->now = now;
	if (ios_list_empty(&c->done))
		return NULL;
	rq = ios_list_first_entry(&c->done, struct ios_request, dev_node);
	if (rq->dev_ns > c->now)
		return NULL;
	ios_list_del(&rq->dev_node);
	c->outstanding--;
	return rq;
}

static void cloud_reset(struct ios_dev *dev)
{
	struct cloud *c = cloud_of(dev);
	uint64_t burst_rate = c->burst ? (uint64_t)c->burst_iops : (uint64_t)c->iops;
	/* a limit bucket holds bucket_ms of its rate, and at least one token */
	uint64_t d_iops = cloud_max(1, burst_rate * c->bucket_ns / CLOUD_NS_PER_SEC);
	uint64_t d_bps = cloud_max(1, c->bps / 1000 * (c->bucket_ns / 1000) / 1000);

	cloud_bucket_init(&c->b_iops, burst_rate, d_iops, d_iops);
	cloud_bucket_init(&c->b_bps, c->bps, d_bps, d_bps);
	if (c->burst)
		cloud_bucket_init(&c->b_credit, (uint64_t)c->iops, c->burst_credits,
				  c->burst_credits * (uint64_t)c->burst_balance_pct / 100);
	else
		cloud_bucket_init(&c->b_credit, 0, 0, 0);
	for (int d = 0; d < IOS_DIR_COUNT; d++)
		c->seq_end[d] = c->seq_room[d] = 0;
	c->last_admit = 0;
	c->now = 0;
	c->outstanding = 0;
	c->busy_ns = 0;
	ios_list_init(&c->done);
	memset(&c->st, 0, sizeof(c->st));
}

static void cloud_exit(struct ios_dev *dev)
{
	(void)dev;
}

static int cloud_init(struct ios_dev *dev, struct ios_err *e)
{
	struct cloud *c = cloud_of(dev);

	if (c->capacity % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "device.capacity=%llu bytes is not a multiple of 512",
			       (unsigned long long)c->capacity);
	if (c->io_unit_bytes % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "device.io_unit=%llu bytes is not a multiple of 512",
			       (unsigned long long)c->io_unit_bytes);
	/* burst needs all three: a rate above the baseline and credits to spend */
	if (c->burst_credits && c->burst_iops <= c->iops)
		return IOS_ERR(e, -EINVAL, "device.burst_credits=%llu needs device.burst_iops above "
			       "device.iops=%d (burst_iops=%d); set burst_credits=0 for a volume "
			       "without burst", (unsigned long long)c->burst_credits, c->iops,
			       c->burst_iops);
	if (c->burst_iops && !c->burst_credits)
		return IOS_ERR(e, -EINVAL, "device.burst_iops=%d needs device.burst_credits > 0 "
			       "(the credit bucket it spends); set burst_iops=0 for a volume "
			       "without burst", c->burst_iops);
	c->burst = c->burst_credits != 0;
	c->bps = (uint64_t)c->throughput_mibps << 20;
	dev->nr_sectors = c->capacity / IOS_SECTOR_SIZE;
	cloud_reset(dev);
	return 0;
}

static unsigned cloud_caps(const struct ios_dev *dev)
{
	(void)dev;
	return 0;	/* not rotational (queue/rotational 0 on an EBS NVMe device), no discard */
}

static unsigned cloud_queue_depth(const struct ios_dev *dev)
{
	return (unsigned)cloud_of_c(dev)->queue_depth;
}

static int cloud_ctl(struct ios_dev *dev, int op, void *arg)
{
	struct cloud *c = cloud_of(dev);

	switch (op) {
	case IOS_DEV_CTL_MEDIA_RATE: {
		struct ios_dev_rate_query *q = arg;

		if (q->sector >= dev->nr_sectors)
			return -EINVAL;
		q->bytes_per_sec = c->bps;	/* the same everywhere on the volume */
		return 0;
	}
	case IOS_DEV_CTL_COUNTERS: {
		struct ios_dev_counters *cnt = arg;

		memset(cnt, 0, sizeof(*cnt));
		cnt->commands = c->st.commands;
		cnt->media_ops = c->st.ios_counted;
		cnt->busy_ns = c->busy_ns;
		return 0;
	}
	case IOS_DEV_CTL_CLOUD_STATS: {
		struct ios_dev_cloud_stats *st = arg;

		*st = c->st;
		st->credits = c->burst ? cloud_bucket_level(&c->b_credit, c->now) : 0;
		st->credits_max = c->burst ? c->burst_credits : 0;
		return 0;
	}
	}
	return -ENOTSUP;
}

#define CLOUD_OFF(f) offsetof(struct cloud, f)
/*
 * The type defaults are the `cloud` profile's (AWS EBS gp3 at its baseline);
 * every profile spells its values out in dev/dev.c. Ranges: the widest any
 * EBS SSD volume type accepts (io2 Block Express: 64 TiB, 256,000 IOPS,
 * 4,000 MiB/s); sources in docs/devices.md.
 */
static const struct ios_tunable cloud_tunables[] = {
	{ "capacity", IOS_TUN_SIZE, CLOUD_OFF(capacity), 1, 65536, "100", "GiB",
	  "volume size; a multiple of 512 bytes (EBS: 1 GiB to 64 TiB)", 0, NULL },
	{ "iops", IOS_TUN_INT, CLOUD_OFF(iops), 1, 256000, "3000", "",
	  "provisioned IOPS, or the baseline that refills burst credits", 0, NULL },
	{ "throughput_mibps", IOS_TUN_INT, CLOUD_OFF(throughput_mibps), 1, 4000, "125", "MiB/s",
	  "throughput limit (2^20 bytes/s); also the per-request transfer rate", 0, NULL },
	{ "burst_iops", IOS_TUN_INT, CLOUD_OFF(burst_iops), 0, 256000, "0", "",
	  "IOPS limit while burst credits last; 0 = no burst (gp3)", 0, NULL },
	{ "burst_credits", IOS_TUN_U64, CLOUD_OFF(burst_credits), 0, 1000000000, "0", "",
	  "I/O credits the burst bucket holds (gp2: 5400000); refilled at iops; 0 = no burst",
	  0, NULL },
	{ "burst_balance_pct", IOS_TUN_INT, CLOUD_OFF(burst_balance_pct), 0, 100, "100", "%",
	  "credits at the start, percent of burst_credits (CloudWatch BurstBalance)", 0, NULL },
	{ "io_unit", IOS_TUN_SIZE, CLOUD_OFF(io_unit_bytes), 1, 4096, "256", "KiB",
	  "the most data the provider counts as one I/O; larger requests count more", 0, NULL },
	{ "merge_min", IOS_TUN_SIZE, CLOUD_OFF(merge_min_bytes), 0, 4096, "32", "KiB",
	  "sequential requests this large or larger fill the previous one's I/O unit "
	  "(smaller ones count one each); 0 = all sequential requests merge", 0, NULL },
	{ "latency_us", IOS_TUN_TIME, CLOUD_OFF(latency_ns), 0, 100000, "1000", "us",
	  "per-request latency, whatever the address or pattern", 0, NULL },
	{ "bucket_ms", IOS_TUN_TIME, CLOUD_OFF(bucket_ns), 0, 1000, "1", "ms",
	  "depth of the IOPS and throughput buckets, as time at their rate (0: one token)",
	  0, NULL },
	{ "queue_depth", IOS_TUN_INT, CLOUD_OFF(queue_depth), 1, 65536, "32", "",
	  "commands accepted at once on the single-queue layer (Xen blkfront ring: 32)", 0,
	  NULL },
	IOS_DEV_MQ_ROWS("1", "0"),
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};
#undef CLOUD_OFF

const struct ios_dev_type ios_dev_cloud = {
	.name = "cloud",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "network block volume (EBS kind): IOPS and throughput token buckets, burst "
		"credits, fixed latency, provider I/O counting; no geometry",
	.ops = {
		.init = cloud_init,
		.exit = cloud_exit,
		.caps = cloud_caps,
		.queue_depth = cloud_queue_depth,
		.submit = cloud_submit,
		.next_event = cloud_next_event,
		.complete = cloud_complete,
		.reset = cloud_reset,
		.ctl = cloud_ctl,
	},
	.tunables = cloud_tunables,
	.priv_size = sizeof(struct cloud),
};
