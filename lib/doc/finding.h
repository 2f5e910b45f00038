/* The catalogue of finding codes (docs/findings.md): stable codes, their
 * severity, class, cause group and a generic fix, shared by netprobe,
 * ncclcheck and reports. Every row comes from findings.def. */
#ifndef NP_FINDING_H
#define NP_FINDING_H

#include <stdbool.h>
#include <stddef.h>

enum severity {
	SEV_INFO = 0,
	SEV_WARNING = 1,
	SEV_FAULT = 2,
};

/* One constant per row of findings.def: a producer names its code by this
 * enum, so a code missing from the table does not compile. */
enum finding_code {
#define FINDING(id, code, sev, stage, cls, cause, family, flags, title,      \
		detail, fix, symptom)                                        \
	FINDING_##id,
#include "doc/findings.def"
#undef FINDING
	FINDING_NCODES
};

/* The report's root-cause groups (reports/decide/decide_causes.c). */
enum finding_cause {
	CAUSE_NONE = 0,
	CAUSE_NAT,
	CAUSE_HOSTNAME,
	CAUSE_FIREWALL,
	CAUSE_MTU,
};

/* The checks that measure a code (findings.def's family column): what
 * explain asks instead of reading a code's name. */
enum finding_family {
	FAMILY_NONE = 0,
	/* one port or the port range (port-closed, port-range-narrow) */
	FAMILY_PORT,
	/* the RDMA checks (rdma-memlock, rdma-gid-index) */
	FAMILY_RDMA,
};

/* Flags of a code, read by the report's deciders. */
enum finding_flag {
	/* the finding is about the node that raised it, not a peer */
	FF_SELF = 1 << 0,
	/* a probe toward a peer failed: the peer's path is not clean */
	FF_PROBE = 1 << 1,
	/* a probe toward a node behind NAT fails whatever else is right */
	FF_BEHIND_NAT = 1 << 2,
	/* the fix changes how the node runs (container, WSL, a listener) */
	FF_CHANGE = 1 << 3,
	/* cited by the report's GLOO_SOCKET_IFNAME setting */
	FF_GLOO = 1 << 4,
	/* a guess from the node's layering a peer's measurement may refute */
	FF_GUESS = 1 << 5,
};

struct finding_def {
	enum finding_code id;
	const char *code;     /* kebab-case, never changes meaning */
	enum severity sev;    /* default severity */
	const char *stage;    /* the commands that raise it */
	const char *cls;      /* the report's check class (JUnit) */
	enum finding_cause cause;
	enum finding_family family;
	unsigned flags;       /* FF_* */
	const char *title;    /* one line: what it means */
	const char *detail;   /* when it is raised (the manual) */
	const char *fix;      /* generic fix when the producer has none better */
	const char *symptom;  /* what the frameworks print when it happens */
};

/* Returns the catalogue entry for code, or NULL when the code is unknown
 * (readers of JSON documents). */
const struct finding_def *finding_lookup(const char *code);

/* Returns the entry of a code; never NULL for a code below FINDING_NCODES,
 * NULL otherwise. */
const struct finding_def *finding_get(enum finding_code code);

/* The kebab-case name of a code, or "unknown" out of range. */
const char *finding_name(enum finding_code code);

/* True when code (a string from a document; NULL is none) is id's name:
 * how a reader compares a code, never by a string of its own. */
bool finding_is(const char *code, enum finding_code id);

/* True when code (a string from a document) is known and has every flag
 * of mask; false for an unknown code. */
bool finding_has_flag(const char *code, unsigned mask);

/* True when code (a string from a document) belongs to cause group c. */
bool finding_in_cause(const char *code, enum finding_cause c);

/* True when code (a string from a document) is known and its family is
 * f; false for an unknown code or NULL. */
bool finding_in_family(const char *code, enum finding_family f);

/* The family's name ("port", "rdma"), "" for FAMILY_NONE. */
const char *finding_family_name(enum finding_family f);

/* The cause group's name ("nat", "firewall"), "" for CAUSE_NONE. */
const char *finding_cause_name(enum finding_cause c);

/* Returns the whole catalogue and its length through *n. */
const struct finding_def *finding_all(size_t *n);

/* "info", "warning" or "fault". */
const char *severity_name(enum severity sev);

/* Parses a severity name. Returns 0, or -1 for an unknown name. */
int severity_parse(const char *s, enum severity *out);

#endif
