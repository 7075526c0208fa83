/*
 * The simulated host: a device model (src/dev/) under the request queue,
 * and the discrete-event loop as the clock.
 *
 * The device model is a pure function of its state and the commands it is
 * given: submit() takes a command, next_event() says when the device next
 * changes state, complete() hands back what has finished by a given time.
 * The host turns that into events with two re-armable timers on the loop
 * (sim.h): the device's timer fires at next_event() and completes what is
 * done, then re-arms; the queue's timer fires at the scheduler's wake-up.
 * Re-arming replaces the previous event instead of adding one, so the heap
 * holds at most one event per timer and nothing ever scans for work.
 *
 * Time is the loop's: run() jumps from one event to the next, so the clock
 * costs nothing while the disk seeks. The same seed gives the same device
 * (its internal randomness is seeded from the run's seed) and the same run.
 */
#include <inttypes.h>
#include <stdio.h>
#include "iosched/block.h"
#include "iosched/device.h"
#include "iosched/host.h"
#include "run_int.h"

struct host_sim {
	struct ios_dev *dev;
	struct ios_timer dev_timer;	/* the device's next state change */
};

static void host_sim_ev_dev(struct ios_sim *sim, void *arg, uint64_t data);

static void host_sim_dev_rearm(struct ios_host *h)
{
	struct host_sim *hs = h->priv;
	uint64_t when = hs->dev->type->ops.next_event(hs->dev);

	if (when != IOS_NO_WAKEUP && when < h->loop.now)
		when = h->loop.now;
	(void)ios_timer_arm(&h->loop, &hs->dev_timer, when, host_sim_ev_dev, h);
}

static void host_sim_ev_dev(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct ios_host *h = arg;
	struct host_sim *hs = h->priv;
	struct ios_request *rq;

	if (!ios_timer_fire(&hs->dev_timer, data))
		return;
	while ((rq = hs->dev->type->ops.complete(hs->dev, sim->now)) != NULL)
		ios_queue_complete(h->q, rq, sim->now, rq->error);
	host_sim_dev_rearm(h);
}

static void host_sim_issue(struct ios_host *h, struct ios_request *rq, uint64_t now_ns)
{
	struct host_sim *hs = h->priv;
	int ret;

	/* no discard support: the request fails at once (blkdev_issue_discard's EOPNOTSUPP) */
	if ((rq->flags & IOS_REQ_DISCARD) && !(ios_dev_caps(hs->dev) & IOS_DEV_DISCARD))
		ret = -EOPNOTSUPP;
	else
		ret = hs->dev->type->ops.submit(hs->dev, rq, now_ns);
	if (ret) {
		/* the device refused: complete at once with the error */
		rq->error = ret;
		ios_queue_complete(h->q, rq, now_ns, ret);
		return;
	}
	host_sim_dev_rearm(h);
}

static uint64_t host_sim_now(struct ios_host *h)
{
	return h->loop.now;
}

static int host_sim_run(struct ios_host *h)
{
	return ios_sim_run(&h->loop, h->run_until ? h->run_until : IOS_NO_WAKEUP);
}

static int host_sim_init(struct ios_host *h, const struct ios_host_config *cfg, struct ios_err *e)
{
	struct host_sim *hs = h->priv;
	const char *profile = cfg->device ? cfg->device : IOS_DEV_DEFAULT_PROFILE;

	ios_timer_init(&hs->dev_timer);
	/* the device's own random stream: the run's seed, salted with "device" */
	hs->dev = ios_dev_create(profile, cfg->settings,
				 ios_mix64(cfg->seed ^ 0x6465766963650000ULL), e);
	if (!hs->dev)
		return e && e->code ? e->code : -EINVAL;
	snprintf(h->disk.name, sizeof(h->disk.name), "%s", hs->dev->name[0] ? hs->dev->name : "sda");
	h->disk.profile = hs->dev->profile;
	h->disk.nr_sectors = hs->dev->nr_sectors;
	h->disk.depth = hs->dev->type->ops.queue_depth(hs->dev);
	h->disk.nr_hw_queues = ios_dev_nr_hw_queues(hs->dev);
	h->disk.hw_queue_depth = ios_dev_hw_queue_depth(hs->dev);
	h->disk.rotational = (ios_dev_caps(hs->dev) & IOS_DEV_ROTATIONAL) != 0;
	h->disk.write_cache = (ios_dev_caps(hs->dev) & IOS_DEV_WRITE_CACHE) != 0;
	if (ios_dev_caps(hs->dev) & IOS_DEV_ZONED) {
		struct ios_dev_zone_info zi;

		if (ios_dev_ctl(hs->dev, IOS_DEV_CTL_ZONE_INFO, &zi))
			return IOS_ERR(e, -EINVAL, "device %s: zoned but no zone information",
				       hs->dev->profile);
		h->disk.zoned = true;
		h->disk.zone_sectors = zi.zone_sectors;
		h->disk.nr_zones = zi.nr_zones;
		h->disk.max_open_zones = zi.max_open;
		h->disk.max_active_zones = zi.max_active;
	}
	h->disk.prio = (ios_dev_caps(hs->dev) & IOS_DEV_PRIO) != 0;
	return 0;
}

/*
 * The device's own account of the run, as notes of the run's result (not
 * on stderr): iosched run prints them there, iosched fio puts them into the
 * report, where a wrapper that fails on any stderr does not trip on them.
 */

/* A flash translation layer says what it did: write amplification is not in fio's output. */
static int host_sim_ftl_note(const struct ios_dev *dev, struct ios_run_result *out)
{
	struct ios_dev_ftl_stats st;

	if (ios_dev_ctl((struct ios_dev *)dev, IOS_DEV_CTL_FTL_STATS, &st) || !st.host_pages_written)
		return 0;
	return ios_run_warn(out,
		"%s (%s): host wrote %" PRIu64 " pages, flash programmed %" PRIu64
		" (write amplification %.2f); GC copied %" PRIu64 " pages, erased %" PRIu64
		" blocks, busy %.1f ms; trim unmapped %" PRIu64 " pages",
		dev->name, dev->profile, st.host_pages_written, st.flash_pages_written,
		(double)st.flash_pages_written / (double)st.host_pages_written, st.gc_copies,
		st.erases, (double)st.gc_ns / 1e6, st.pages_trimmed);
}

/*
 * A zoned device says how many writes its zone rules refused: the EIO a
 * job reports may come from a scheduler that reordered a zone's writes.
 */
static int host_sim_zone_note(const struct ios_dev *dev, struct ios_run_result *out)
{
	struct ios_dev_zone_info zi;

	if (ios_dev_ctl((struct ios_dev *)dev, IOS_DEV_CTL_ZONE_INFO, &zi) || !zi.write_errors)
		return 0;
	return ios_run_warn(out,
		"%s (%s): %" PRIu64 " writes refused by the zone rules (not at the write "
		"pointer, into a full zone, past the zone capacity, or no open-zone resource)",
		dev->name, dev->profile, zi.write_errors);
}

/*
 * A cloud volume says how the provider counted the run and which limit held
 * it back: fio's IOPS are requests, the volume's are I/O units (merges and
 * splits), and a throttled run looks like a slow disk otherwise.
 */
static int host_sim_cloud_note(const struct ios_dev *dev, struct ios_run_result *out)
{
	struct ios_dev_cloud_stats st;
	char burst[128] = "";

	if (ios_dev_ctl((struct ios_dev *)dev, IOS_DEV_CTL_CLOUD_STATS, &st) || !st.commands)
		return 0;
	if (st.credits_max)
		snprintf(burst, sizeof(burst), "; burst balance %.1f %% (%" PRIu64 " of %" PRIu64
			 " credits)", 100.0 * (double)st.credits / (double)st.credits_max,
			 st.credits, st.credits_max);
	return ios_run_warn(out,
		"%s (%s): %" PRIu64 " requests counted as %" PRIu64 " volume I/Os (%" PRIu64
		" merged into the one before); admission held %.1f ms by the IOPS limit, %.1f ms by "
		"the throughput limit, %.1f ms by burst credits%s",
		dev->name, dev->profile, st.commands, st.ios_counted, st.merged,
		(double)st.wait_iops_ns / 1e6, (double)st.wait_bps_ns / 1e6,
		(double)st.wait_credit_ns / 1e6, burst);
}

int ios_host_sim_notes(struct ios_host *h, struct ios_run_result *out)
{
	struct host_sim *hs;
	int ret;

	if (!h || h->ops != &ios_host_sim_ops || !(hs = h->priv)->dev)
		return 0;
	ret = host_sim_ftl_note(hs->dev, out);
	if (!ret)
		ret = host_sim_zone_note(hs->dev, out);
	if (!ret)
		ret = host_sim_cloud_note(hs->dev, out);
	return ret;
}

static int host_sim_dev_ctl(struct ios_host *h, int op, void *arg)
{
	struct host_sim *hs = h->priv;

	return hs->dev ? ios_dev_ctl(hs->dev, op, arg) : -ENOTSUP;
}

static void host_sim_destroy(struct ios_host *h)
{
	struct host_sim *hs = h->priv;

	if (hs->dev)
		ios_dev_destroy(hs->dev);
	hs->dev = NULL;
}

const struct ios_host_ops ios_host_sim_ops = {
	.name = "sim",
	.priv_size = sizeof(struct host_sim),
	.init = host_sim_init,
	.destroy = host_sim_destroy,
	.now = host_sim_now,
	.issue = host_sim_issue,
	.set_queue_timer = ios_host_loop_set_queue_timer,
	.run = host_sim_run,
	.dev_ctl = host_sim_dev_ctl,
};
