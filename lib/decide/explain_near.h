/* The endpoint near a line that names none: a bare errno line ("[Errno
 * 111] Connection refused", Python's innermost "TimeoutError: [Errno
 * 110]") says how a connect failed, and the line before it (the command
 * that dialled, the URL being fetched) or after it (the exception that
 * wraps it) says where. The reader keeps the last EXPLAIN_NEAR_LINES
 * lines and gives each such hit the nearest endpoint, so that it names
 * something to test (issue 42: blind42m c06, e11). Pure: no I/O. */
#ifndef NP_EXPLAIN_NEAR_H
#define NP_EXPLAIN_NEAR_H

#include <stddef.h>

#include "decide/explain.h"

#define EXPLAIN_NEAR_LINES 12 /* lines looked at each side */
#define EXPLAIN_NEAR_TEXT 256 /* bytes of each kept */

struct explain_near {
	char ring[EXPLAIN_NEAR_LINES][EXPLAIN_NEAR_TEXT];
	long ring_line[EXPLAIN_NEAR_LINES];
	size_t n, at;		   /* lines kept, the next slot */
	size_t pend_from, pend_to; /* hits still looking after them */
	int pend_left;		   /* lines they look at still */
};

/* Forgets every line: a new file's lines are not near the last one's. */
void explain_near_reset(struct explain_near *n);

/* After line lineno was matched (its hits are lg's from first on):
 * gives the hits that wait for one the endpoint this line names, gives
 * the new hits that need one the nearest before it (or makes them wait
 * for the lines after), and keeps the line. */
void explain_near_line(struct explain_near *n, struct explain_log *lg,
		       size_t first, long lineno, const char *line);

#endif
