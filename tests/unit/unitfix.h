/* Fixtures shared by the unit suites: a recorded file's text, and JSON
 * documents loaded into a report set as if read from files. */
#ifndef NP_TEST_UNITFIX_H
#define NP_TEST_UNITFIX_H

#include <jansson.h>
#include <stdbool.h>
#include <net/if.h>
#include <netinet/in.h>

#include "kernel/iface.h"

/* An interface that is up and has its carrier. */
#define UPRUN (IFF_UP | IFF_RUNNING)

struct report_set;
struct report_model;

/* The text of the file of the source tree that fmt names
 * ("tests/explain/ras/%s"), malloc'd and NUL-terminated (at most 1 MiB
 * of it); the test fails where it cannot be read. */
char *unitfix_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Loads doc (taken) into set as if read from file name; the test fails
 * where the set refuses it. */
void unitfix_load_doc(struct report_set *set, const char *name, json_t *doc);

/* The report of the recorded documents of tests/fixtures/report/dir,
 * loaded from there (the working directory stays there). */
struct report_model *unitfix_report_dir(struct report_set *set,
                                        const char *dir);

/* The shell commands of cause k's fix (an array; NULL where it has
 * none). */
json_t *unitfix_fix_shell(const json_t *k);

/* Shell command i of cause k's fix, or NULL. */
const char *unitfix_fix_cmd(const json_t *k, size_t i);

/* Fails the test unless the report of tests/fixtures/report/dir (as
 * unitfix_report_dir builds it) has no cause and no finding worse than
 * info: a recorded healthy cluster. */
void unitfix_healthy_dir(const char *dir);

struct doc;

/* The command of the first finding of code in d, or NULL. */
const char *unitfix_finding_cmd(const struct doc *d, const char *code);

/* The command of d's only finding, which must be code and a fault; the
 * test fails otherwise. */
const char *unitfix_only_fault_cmd(const struct doc *d, const char *code);

/* Adds an interface name of kind to l, its index its place (1 on), with
 * flags, a carrier when they hold IFF_RUNNING, and addr/plen unless addr
 * is NULL (scope host on loopback, link for fe80::); the test fails where
 * it cannot be added. */
struct iface *unitfix_iface(struct iface_list *l, const char *name,
                            enum iface_kind kind, unsigned flags,
                            const char *addr, unsigned plen);

/* Adds lo, up, with 127.0.0.1/8: the first row of most lists. */
void unitfix_lo(struct iface_list *l);

/* A TCP socket listening with backlog on a free port of 127.0.0.1; sa
 * gets its address (the port with it). The test fails where it cannot
 * listen. */
int unitfix_listen(int backlog, struct sockaddr_in *sa);

/* Explains n lines (n < 0: up to a NULL one) as one log from the log
 * alone, as netprobe explain --no-probe reads them: each line against
 * every row, line numbers from 1. */
struct explain_result;
void unitfix_explain(const char *const *lines, long n,
		     struct explain_result *r);

/* One line explained as a log of its own (unitfix_explain). */
void unitfix_explain_line(const char *line, struct explain_result *r);

/* A line and what explaining it alone must hold (want, if not NULL)
 * and must not (not, if not NULL), in unitfix_has's words. */
struct unitfix_line {
	const char *line, *want, *not;
};
/* Checks each of n rows, naming the line of one that fails. */
void unitfix_expect_lines(const struct unitfix_line *rows, size_t n);
/* unitfix_expect_lines over an array. */
#define UNITFIX_EXPECT(t) \
	unitfix_expect_lines((t), sizeof(t) / sizeof((t)[0]))

/* Whether r holds what: "cause CODE", "open CODE" (one code of an open
 * set), "symptom ID" or "other KIND". */
bool unitfix_has(const struct explain_result *r, const char *what);
/* The first cause of r that unitfix_has finds for what, or NULL. */
struct explain_cause;
const struct explain_cause *unitfix_cause(const struct explain_result *r,
					  const char *what);

/* Which text of a cause unitfix_expect_said reads. */
enum unitfix_text { UNITFIX_NEXT, UNITFIX_WHY };
/* Explains lines (up to a NULL one) and asserts that what (in
 * unitfix_has's words) is there and that its next command or its why
 * holds text. */
void unitfix_expect_said(const char *const *lines, const char *what,
			 enum unitfix_text which, const char *text);

#endif
