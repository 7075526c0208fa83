/*
 * Progress lines (progress.h): what a long run shows on a terminal while
 * it works. No clock here; elapsed wall time comes from the caller.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iosched/progress.h"

void ios_progress_eta(char *buf, size_t len, double fraction, double elapsed_s)
{
	double left;
	unsigned long s;

	if (!(fraction > 0.0) || !(elapsed_s >= 0.0)) {
		snprintf(buf, len, "--:--");
		return;
	}
	if (fraction >= 1.0) {
		snprintf(buf, len, "0:00");
		return;
	}
	left = elapsed_s * (1.0 - fraction) / fraction;
	if (!(left < 99.0 * 3600.0)) {
		snprintf(buf, len, "--:--");
		return;
	}
	s = (unsigned long)lround(left);
	if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

static double pg_clamp(double f)
{
	return f > 1.0 ? 1.0 : f > 0.0 ? f : 0.0;
}

void ios_progress_format(char *buf, size_t len, unsigned width,
			 const struct ios_progress_item *items, size_t n, unsigned done,
			 unsigned total, double elapsed_s)
{
	char eta[32];
	double sum = done;
	size_t used = 0, cut;

	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		sum += pg_clamp(items[i].fraction);
	sum = total ? pg_clamp(sum / total) : 0.0;
	ios_progress_eta(eta, sizeof(eta), sum, elapsed_s);
#define PG_ADD(...)                                                            \
	do {                                                                   \
		if (used < len)                                                \
			used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__); \
	} while (0)
	if (total <= 1 && n == 1 && !(items[0].label && *items[0].label)) {
		PG_ADD("sim %.3f s  %.1f%%  ETA %s", (double)items[0].sim_ns / 1e9,
		       100.0 * pg_clamp(items[0].fraction), eta);
	} else {
		/* the totals first: a narrow terminal cuts the per-run details */
		PG_ADD("%u/%u done, %.1f%%  ETA %s", done, total, 100.0 * sum, eta);
		for (size_t i = 0; i < n; i++)
			PG_ADD("  %s: sim %.1f s %.0f%%", items[i].label ? items[i].label : "",
			       (double)items[i].sim_ns / 1e9, 100.0 * pg_clamp(items[i].fraction));
	}
#undef PG_ADD
	/* never wrap: a wrapped line cannot be redrawn in place with \r */
	cut = width > 1 ? width - 1 : 0;
	if (width && cut < len && strlen(buf) > cut)
		buf[cut] = '\0';
}
