/* netprobe report: the change log of `netprobe mesh --watch` (the mesh
 * section's `watch` object) as a timeline: lines in text, a table and an
 * SVG plot of each pair's states in HTML. */
#ifndef NP_RENDER_WATCH_H
#define NP_RENDER_WATCH_H

#include <jansson.h>

#include "report_emit.h"

/* The watch in text: one line on the watch, one a change in time order,
 * then each pair that changed with how long it was not up. */
void text_watch(const struct out *o, const json_t *watch);

/* The watch in HTML: the same lines as a table, and a plot with one row
 * a pair that changed (class "watch-plot"). */
void html_watch(const struct out *o, const json_t *watch);

#endif
