/*
 * Description: DiskSim's rms demerit (src/trace/validate.c, after DiskSim
 * 4.0's src/rms.c) on hand-made curves with answers worked out by hand: two
 * curves one shift apart give the shift; a curve against one three times
 * as wide gives 2 * sqrt(mean of (k/10000)^2, k = 1..10000); identical
 * curves give 0; malformed curves give NaN. And the binning into DiskSim's
 * access-time distribution (src/disksim_stat.c): 1-us buckets below 100 us,
 * 2-us buckets from 100 us, each point the fraction below its x, the curve
 * ending where the fraction first reaches 1.
 */
#include <math.h>
#include "harness.h"
#include "iosched/validate.h"

static struct ios_validate_curve curve(double *x, double *y, size_t n)
{
	return (struct ios_validate_curve){ x, y, n };
}

/* x(p) = 1 + 2p (pieces), the other 0.5 ms later everywhere: rms 0.5 */
static int test_shift(void)
{
	double ax[] = { 1, 2, 3 }, ay[] = { 0, 0.5, 1 };
	double bx[] = { 1.5, 2.5, 3.5 }, by[] = { 0, 0.5, 1 };
	struct ios_validate_curve a = curve(ax, ay, 3), b = curve(bx, by, 3);

	T_ASSERT(fabs(ios_validate_rms(&a, &b) - 0.5) < 1e-12);
	T_ASSERT(fabs(ios_validate_rms(&b, &a) - 0.5) < 1e-12);
	T_ASSERT(ios_validate_rms(&a, &a) == 0);
	return T_PASS;
}

/*
 * x_a(p) = p, x_b(p) = 3p: the difference 2p at p = k/10000, k = 1..10000
 * (rms's loop adds 0.0001 ten thousand times and stops below 1.0 + 0.0001);
 * mean of (k/N)^2 = (N+1)(2N+1)/(6N^2) = 66676667/200000000, so the rms is
 * 2 * sqrt(0.333383335) = 1.1547871405588...
 */
static int test_linear(void)
{
	double ax[] = { 0, 1 }, ay[] = { 0, 1 };
	double bx[] = { 0, 3 }, by[] = { 0, 1 };
	struct ios_validate_curve a = curve(ax, ay, 2), b = curve(bx, by, 2);

	T_ASSERT_MSG(fabs(ios_validate_rms(&a, &b) - 1.154787140558813) < 1e-9, "rms %.12f",
		     ios_validate_rms(&a, &b));
	return T_PASS;
}

/* a step inside a curve: the quantile is interpolated between its two points */
static int test_interpolation(void)
{
	/* half the times in 0..1 ms, half in 1..5 ms, both curves */
	double ax[] = { 0, 1, 5 }, ay[] = { 0, 0.5, 1 };
	double bx[] = { 0, 1, 5 }, by[] = { 0, 0.5, 1 };
	struct ios_validate_curve a = curve(ax, ay, 3), b = curve(bx, by, 3);
	double r;

	T_ASSERT(ios_validate_rms(&a, &b) == 0);
	/* b's second piece 1..3 instead of 1..5: difference 2 * (2p - 1) for p > 0.5 */
	bx[2] = 3;
	r = ios_validate_rms(&a, &b);
	/* the mean of (4p - 2)^2 over p in 0.5..1, weighted by half: the integral, 2/3 */
	T_ASSERT_MSG(fabs(r - sqrt(2.0 / 3.0)) < 1e-3, "rms %.6f", r);
	return T_PASS;
}

static int test_malformed(void)
{
	double ax[] = { 0, 1 }, ay[] = { 0, 1 }, bad_end[] = { 0, 0.9 }, bad_start[] = { 0.1, 1 };
	double down[] = { 0, 0.6, 0.5, 1 }, dx[] = { 0, 1, 2, 3 };
	struct ios_validate_curve a = curve(ax, ay, 2), b;

	b = curve(ax, bad_end, 2);
	T_ASSERT(isnan(ios_validate_rms(&a, &b)));
	b = curve(ax, bad_start, 2);
	T_ASSERT(isnan(ios_validate_rms(&a, &b)));
	b = curve(dx, down, 4);
	T_ASSERT(isnan(ios_validate_rms(&b, &a)));
	b = curve(ax, ay, 1);
	T_ASSERT(isnan(ios_validate_rms(&a, &b)));
	return T_PASS;
}

/* 0.5 us, 1.5 us twice, 3.5 us: buckets [0,1) [1,2) [3,4) us */
static int test_binning_small(void)
{
	const double ms[] = { 0.0005, 0.0015, 0.0015, 0.0035 };
	const double wx[] = { 0, 0.001, 0.002, 0.003, 0.004 };
	const double wy[] = { 0, 0.25, 0.75, 0.75, 1.0 };
	struct ios_validate_curve c;

	T_ASSERT_EQ(ios_validate_curve_make(ms, 4, &c), 0);
	T_ASSERT_EQ(c.n, 5);
	for (size_t i = 0; i < 5; i++) {
		T_ASSERT_MSG(c.x[i] == wx[i], "x[%zu] %.6f", i, c.x[i]);
		T_ASSERT_MSG(c.y[i] == wy[i], "y[%zu] %.6f", i, c.y[i]);
	}
	ios_validate_curve_free(&c);
	T_ASSERT(ios_validate_curve_make(ms, 0, &c) == -EINVAL);
	return T_PASS;
}

/*
 * Above 100 us the buckets grow by 1%: starts 100, 102, 104, ... 150, 152.
 * 150.5 us falls in [150, 152): the fraction is 0 at 0.150 ms and 1 at 0.152.
 */
static int test_binning_wide(void)
{
	const double ms[] = { 0.1505 };
	struct ios_validate_curve c;

	T_ASSERT_EQ(ios_validate_curve_make(ms, 1, &c), 0);
	T_ASSERT(c.y[c.n - 1] == 1.0 && c.x[c.n - 1] == 0.152);
	T_ASSERT(c.x[c.n - 2] == 0.150 && c.y[c.n - 2] == 0);
	T_ASSERT(c.x[101] == 0.102);	/* 0..100 one apart, then two */
	ios_validate_curve_free(&c);
	return T_PASS;
}

/* six-decimal rounding as rms reads it: 1/3 of the times below a point reads 0.333333 */
static int test_printed_fraction(void)
{
	const double ms[] = { 0.0005, 0.0015, 0.0025 };
	struct ios_validate_curve c;

	T_ASSERT_EQ(ios_validate_curve_make(ms, 3, &c), 0);
	T_ASSERT(c.y[1] == 0.333333);
	T_ASSERT(c.y[2] == 0.666667);
	T_ASSERT(c.y[3] == 1.0);
	ios_validate_curve_free(&c);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_shift, test_linear, test_interpolation, test_malformed,
		     test_binning_small, test_binning_wide, test_printed_fraction);
}
