/*
 * A minimal SVG 1.1 writer into an ios_buf: the elements a chart needs
 * (rectangles, lines, polylines, text, groups) and nothing more.
 *
 * Output is deterministic: coordinates are printed with one decimal (a
 * tenth of a pixel is below what any viewer shows), -0.0 is printed as 0,
 * and text is escaped for XML (& < > " ') with control characters and
 * invalid UTF-8 replaced by '?', so any job name gives a well-formed
 * document.
 */
#ifndef IOSCHED_REPORT_SVG_H
#define IOSCHED_REPORT_SVG_H

#include "iosched/stats.h"

/* Line style: colour ("#1f77b4"), width in px, dash pattern ("6 3") or NULL. */
struct ios_svg_stroke {
	const char *color;
	double width;
	const char *dash;
};

/* Text style: size in px, anchor "start" / "middle" / "end", bold, colour. */
struct ios_svg_font {
	double size;
	const char *anchor;
	bool bold;
	const char *color;
};

void ios_svg_begin(struct ios_buf *b, double width, double height, const char *title);
void ios_svg_end(struct ios_buf *b);
/* Append @s escaped for XML text or attribute values. */
void ios_svg_escape(struct ios_buf *b, const char *s);
void ios_svg_rect(struct ios_buf *b, double x, double y, double w, double h, const char *fill,
		  const struct ios_svg_stroke *stroke);
void ios_svg_line(struct ios_buf *b, double x1, double y1, double x2, double y2,
		  const struct ios_svg_stroke *stroke);
/* Text at (x, y) (y is the baseline); @rotate degrees about (x, y), 0 for none. */
void ios_svg_text(struct ios_buf *b, double x, double y, double rotate,
		  const struct ios_svg_font *f, const char *text);
/* A polyline: begin, points, end. */
void ios_svg_poly_begin(struct ios_buf *b, const struct ios_svg_stroke *stroke);
void ios_svg_poly_point(struct ios_buf *b, double x, double y);
void ios_svg_poly_end(struct ios_buf *b);
/* <g> with an optional id / class-like comment for readers of the file. */
void ios_svg_group_begin(struct ios_buf *b, const char *id);
void ios_svg_group_end(struct ios_buf *b);

#endif
