/*
 * Description: the hdd positioning model follows Lee's three-point seek
 * curve and the write settle. On a one-surface, one-zone disk the cylinder
 * distance is proportional to the LBA distance, so a read that jumps a
 * fraction f of the disk must cost, on average over rotational positions,
 * overhead + t(f) + half a revolution, where t(f) is Lee's curve with
 * track-to-track, average and full-stroke seek as its three points:
 * t(f) ~ (-10 min + 15 avg - 5 max)/3 * sqrt(f) + (7 min - 15 avg + 8 max)/3 * f + min.
 * The same jump as a media write costs write_settle more.
 */
#include <math.h>
#include "harness.h"
#include "dev_rig.h"

/* Run one command alone at @t; returns its completion time or 0. */
static uint64_t one(struct ios_dev *dev, uint64_t sector, int dir, uint64_t t)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request rq;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = 8;
	rq.dir = (uint8_t)dir;
	if (o->submit(dev, &rq, t))
		return 0;
	for (;;) {
		uint64_t e = o->next_event(dev);
		struct ios_request *done;

		if (e == IOS_NO_WAKEUP)
			return 0;
		done = o->complete(dev, e);
		if (done)
			return done == &rq ? e : 0;
	}
}

/*
 * Mean latency (ms) of a command at distance @frac of the disk from the
 * previous one, arriving at a random rotational position.
 */
static uint64_t clock_ns;	/* the device's time only moves forward */

static double jump_ms(struct ios_dev *dev, double frac, int dir, unsigned n)
{
	const uint64_t rev = 8333333;	/* 7200 rpm */
	uint64_t nr = dev->nr_sectors, span = (uint64_t)((double)nr * frac), t = clock_ns, sum = 0;
	struct ios_rand r;

	ios_rand_seed(&r, 11, (uint64_t)(frac * 1e6) + (uint64_t)dir);
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = ios_rand_below(&r, nr - span - 16), b = a + span, done;

		if (b + 8 > nr)
			b = nr - 8;
		done = one(dev, a, IOS_READ, t);
		if (!done)
			return -1;
		t = done + ios_rand_below(&r, rev);
		done = one(dev, b, dir, t);
		if (!done)
			return -1;
		sum += done - t;
		t = done + 1000;
	}
	clock_ns = t;
	return (double)sum / n / 1e6;
}

static double lee(double mn, double av, double mx, double f)
{
	return (-10 * mn + 15 * av - 5 * mx) / 3 * sqrt(f) + (7 * mn - 15 * av + 8 * mx) / 3 * f + mn;
}

static int test_lee_curve(void)
{
	static const double fr[] = { 0.0001, 0.001, 0.01, 0.1, 1.0 / 3, 0.999 };
	struct ios_dev *dev = dev_new("hdd-2009", "device.heads=1", "device.zones=1",
				      "device.read_cache=0", "device.write_cache=0",
				      "device.cmd_overhead_ms=0.2", NULL);
	double prev = 0;

	T_ASSERT(dev);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(fr); i++) {
		double got = jump_ms(dev, fr[i], IOS_READ, 1500);
		/* overhead + seek + half a turn + 8 sectors of a ~2300-sector track */
		double want = 0.2 + lee(1.0, 8.5, 17.0, fr[i]) + 8.3333 / 2 + 0.03;

		printf("  jump %.4f of the disk: %.3f ms, Lee predicts %.3f ms\n", fr[i], got, want);
		T_ASSERT(got > prev);
		T_ASSERT_NEAR(got, want, 0.3);
		prev = got;
	}
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_write_settle(void)
{
	struct ios_dev *dev = dev_new("hdd-2004", "device.heads=1", "device.zones=1",
				      "device.read_cache=0", "device.write_cache=0", NULL);
	double rd, wr;

	T_ASSERT(dev);
	rd = jump_ms(dev, 1.0 / 3, IOS_READ, 1500);
	wr = jump_ms(dev, 1.0 / 3, IOS_WRITE, 1500);
	printf("  hdd-2004 jump of 1/3: read %.3f ms, write %.3f ms (settle 1.0)\n", rd, wr);
	T_ASSERT_NEAR(rd, 0.2 + lee(1.0, 8.5, 16.0, 1.0 / 3) + 8.3333 / 2 + 0.06, 0.3);
	T_ASSERT_NEAR(wr - rd, 1.0, 0.4);
	ios_dev_destroy(dev);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_lee_curve, test_write_settle);
}
