/* Prometheus's text exposition format (version 0.0.4): metric families
 * with their HELP and TYPE lines, samples with escaped labels, histograms,
 * values as Prometheus reads them back, and the file node_exporter's
 * textfile collector reads, written whole or not at all, and removed. */
#ifndef NP_PROMTEXT_H
#define NP_PROMTEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The content type a scraper is told. */
#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* A growing text; oom sticks once an append failed, and bad once a name
 * broke the format's rules, so a caller checks once at the end. */
struct prom_buf {
	char *p;
	size_t len, cap;
	bool oom, bad;
};

/* An empty text. */
void prom_init(struct prom_buf *b);

/* Releases the text and empties b. */
void prom_free(struct prom_buf *b);

/* True when name is a valid metric name ([a-zA-Z_:][a-zA-Z0-9_:]*). */
bool prom_name_ok(const char *name);

/* True when name is a valid label name ([a-zA-Z_][a-zA-Z0-9_]*) that is
 * not reserved (a leading "__"). */
bool prom_label_ok(const char *name);

/* Starts a family: "# HELP name help" (backslash and newline escaped) and
 * "# TYPE name type" (counter, gauge, summary, histogram, untyped).
 * Returns 0, or -1 (b->oom or b->bad set). */
int prom_family(struct prom_buf *b, const char *name, const char *type,
                const char *help);

/* One sample: name{k="v",...} value. labels holds key, value pairs and
 * ends with NULL (NULL itself: no labels); a pair whose value is NULL is
 * left out. Values are escaped (backslash, double quote, newline).
 * Returns 0, or -1 (b->oom or b->bad set). */
int prom_sample(struct prom_buf *b, const char *name,
                const char *const *labels, double value);

/* A family of one sample: prom_family, then prom_sample(name, labels,
 * value), the shape of every gauge and counter without a series per
 * label. Returns 0, or -1 (b->oom or b->bad set). */
int prom_metric(struct prom_buf *b, const char *name, const char *type,
                const char *help, const char *const *labels, double value);

/* Most labels a histogram's series carries besides le. */
#define PROM_HIST_LABELS 8

/* One histogram series of family name (started with prom_family, type
 * "histogram"): name_bucket{labels,le="B"} for each of the n upper
 * bounds le[] (ascending, finite), with the observations up to it (counts
 * per bucket in count[], summed here), then le="+Inf" (total, which holds
 * the observations above the last bound too), name_sum and name_count.
 * labels as prom_sample's, at most PROM_HIST_LABELS pairs, no "le".
 * Returns 0, or -1 (b->oom, or b->bad for bad bounds, labels or a total
 * below the buckets' sum). */
int prom_histogram(struct prom_buf *b, const char *name,
                   const char *const *labels, const double *le,
                   const unsigned long long *count, size_t n, double sum,
                   unsigned long long total);

/* Writes the value as Prometheus parses it back: NaN, +Inf, -Inf, an
 * integer without a fraction, else the shortest text that reads back the
 * same. Returns buf. */
char *prom_value(double v, char *buf, size_t len);

/* Writes text into DIR/NAME (NAME should end in .prom) through a
 * temporary file in DIR of its own unique name (".NAME.XXXXXX", which the
 * collector ignores), created with O_EXCL and O_NOFOLLOW, given the
 * existing file's mode and owner (else 0644), synced, then rename(2): a
 * scrape reads the old file or the new one, never half of one, and two
 * writers never share a temporary file. The temporary file is removed on
 * every failure. Returns 0, or -1 with errno set and why filled. */
int prom_textfile_write(const char *dir, const char *name, const char *text,
                        size_t len, char *why, size_t whylen);

/* Removes DIR/NAME, the file prom_textfile_write wrote, so that the
 * collector stops serving figures nobody updates. A file already gone is
 * no error. Returns 0, or -1 with errno set and why filled. */
int prom_textfile_remove(const char *dir, const char *name, char *why,
                         size_t whylen);

#endif
