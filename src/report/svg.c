/*
 * The SVG writer (svg.h): a handful of elements printed into an ios_buf.
 *
 * Numbers go through one formatter so the same drawing always gives the
 * same bytes; text through one escaper so the document is well-formed
 * whatever a job is called. The file is UTF-8, which the escaper checks:
 * a byte that does not start a valid sequence becomes '?'.
 */
#include <math.h>
#include <string.h>
#include "report/svg.h"

/* One decimal, no "-0.0", trailing ".0" dropped. */
static void svg_num(struct ios_buf *b, double v)
{
	long long t = llround(v * 10.0);

	if (t < 0) {
		ios_buf_puts(b, "-");
		t = -t;
	}
	if (t % 10)
		ios_buf_printf(b, "%lld.%lld", t / 10, t % 10);
	else
		ios_buf_printf(b, "%lld", t / 10);
}

/* Length of the valid UTF-8 sequence at @p, or 0. */
static size_t svg_utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, and XML's U+FFFE/U+FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void ios_svg_escape(struct ios_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n;

		switch (*p) {
		case '&': ios_buf_puts(b, "&amp;"); p++; continue;
		case '<': ios_buf_puts(b, "&lt;"); p++; continue;
		case '>': ios_buf_puts(b, "&gt;"); p++; continue;
		case '"': ios_buf_puts(b, "&quot;"); p++; continue;
		case '\'': ios_buf_puts(b, "&apos;"); p++; continue;
		default: break;
		}
		/* XML 1.0 allows no control characters but tab and newlines */
		if (*p < 0x20) {
			ios_buf_puts(b, *p == '\t' ? " " : "?");
			p++;
			continue;
		}
		n = svg_utf8_len(p);
		if (!n) {
			ios_buf_puts(b, "?");
			p++;
			continue;
		}
		ios_buf_printf(b, "%.*s", (int)n, (const char *)p);
		p += n;
	}
}

static void svg_stroke(struct ios_buf *b, const struct ios_svg_stroke *s)
{
	if (!s) {
		ios_buf_puts(b, " stroke=\"none\"");
		return;
	}
	ios_buf_printf(b, " stroke=\"%s\" stroke-width=\"", s->color);
	svg_num(b, s->width);
	ios_buf_puts(b, "\"");
	if (s->dash)
		ios_buf_printf(b, " stroke-dasharray=\"%s\"", s->dash);
}

void ios_svg_begin(struct ios_buf *b, double width, double height, const char *title)
{
	ios_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
	svg_num(b, width);
	ios_buf_puts(b, "\" height=\"");
	svg_num(b, height);
	ios_buf_puts(b, "\" viewBox=\"0 0 ");
	svg_num(b, width);
	ios_buf_puts(b, " ");
	svg_num(b, height);
	ios_buf_puts(b, "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n");
	if (title) {
		ios_buf_puts(b, "<title>");
		ios_svg_escape(b, title);
		ios_buf_puts(b, "</title>\n");
	}
	/* an opaque background: viewers differ in what they put behind */
	ios_svg_rect(b, 0, 0, width, height, "#ffffff", NULL);
}

void ios_svg_end(struct ios_buf *b)
{
	ios_buf_puts(b, "</svg>\n");
}

void ios_svg_rect(struct ios_buf *b, double x, double y, double w, double h, const char *fill,
		  const struct ios_svg_stroke *stroke)
{
	ios_buf_puts(b, "<rect x=\"");
	svg_num(b, x);
	ios_buf_puts(b, "\" y=\"");
	svg_num(b, y);
	ios_buf_puts(b, "\" width=\"");
	svg_num(b, w);
	ios_buf_puts(b, "\" height=\"");
	svg_num(b, h);
	ios_buf_printf(b, "\" fill=\"%s\"", fill ? fill : "none");
	svg_stroke(b, stroke);
	ios_buf_puts(b, "/>\n");
}

void ios_svg_line(struct ios_buf *b, double x1, double y1, double x2, double y2,
		  const struct ios_svg_stroke *stroke)
{
	ios_buf_puts(b, "<line x1=\"");
	svg_num(b, x1);
	ios_buf_puts(b, "\" y1=\"");
	svg_num(b, y1);
	ios_buf_puts(b, "\" x2=\"");
	svg_num(b, x2);
	ios_buf_puts(b, "\" y2=\"");
	svg_num(b, y2);
	ios_buf_puts(b, "\"");
	svg_stroke(b, stroke);
	ios_buf_puts(b, "/>\n");
}

void ios_svg_text(struct ios_buf *b, double x, double y, double rotate,
		  const struct ios_svg_font *f, const char *text)
{
	ios_buf_puts(b, "<text x=\"");
	svg_num(b, x);
	ios_buf_puts(b, "\" y=\"");
	svg_num(b, y);
	ios_buf_puts(b, "\" font-size=\"");
	svg_num(b, f->size);
	ios_buf_printf(b, "\" text-anchor=\"%s\" fill=\"%s\"", f->anchor ? f->anchor : "start",
		       f->color ? f->color : "#000000");
	if (f->bold)
		ios_buf_puts(b, " font-weight=\"bold\"");
	if (rotate != 0.0) {
		ios_buf_puts(b, " transform=\"rotate(");
		svg_num(b, rotate);
		ios_buf_puts(b, " ");
		svg_num(b, x);
		ios_buf_puts(b, " ");
		svg_num(b, y);
		ios_buf_puts(b, ")\"");
	}
	ios_buf_puts(b, ">");
	ios_svg_escape(b, text);
	ios_buf_puts(b, "</text>\n");
}

void ios_svg_poly_begin(struct ios_buf *b, const struct ios_svg_stroke *stroke)
{
	ios_buf_puts(b, "<polyline fill=\"none\" stroke-linejoin=\"round\"");
	svg_stroke(b, stroke);
	ios_buf_puts(b, " points=\"");
}

void ios_svg_poly_point(struct ios_buf *b, double x, double y)
{
	svg_num(b, x);
	ios_buf_puts(b, ",");
	svg_num(b, y);
	ios_buf_puts(b, " ");
}

void ios_svg_poly_end(struct ios_buf *b)
{
	ios_buf_puts(b, "\"/>\n");
}

void ios_svg_group_begin(struct ios_buf *b, const char *id)
{
	if (id) {
		ios_buf_puts(b, "<g id=\"");
		ios_svg_escape(b, id);
		ios_buf_puts(b, "\">\n");
	} else {
		ios_buf_puts(b, "<g>\n");
	}
}

void ios_svg_group_end(struct ios_buf *b)
{
	ios_buf_puts(b, "</g>\n");
}
