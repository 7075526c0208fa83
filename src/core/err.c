/*
 * The first-error-wins error context; see include/iosched/err.h.
 */
#include <stdarg.h>
#include "iosched/err.h"

int ios_err_set(struct ios_err *e, int code, const char *file, int line,
		const char *func, const char *fmt, ...)
{
	va_list ap;

	if (!e || e->code)
		return code;
	e->code = code;
	e->src_file = file;
	e->src_line = line;
	e->func = func;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}
