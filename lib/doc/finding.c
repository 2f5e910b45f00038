/* The finding catalogue, made of findings.def (docs/findings.md). */
#include "doc/finding.h"

#include <string.h>

static const struct finding_def catalogue[] = {
#define FINDING(id, code, sev, stage, cls, cause, family, flags, title,      \
		detail, fix, symptom)                                        \
	{FINDING_##id, code, SEV_##sev, stage, cls, CAUSE_##cause,           \
	 FAMILY_##family, flags, title, detail, fix, symptom},
#include "doc/findings.def"
#undef FINDING
};

_Static_assert(sizeof(catalogue) / sizeof(catalogue[0]) == FINDING_NCODES,
	       "one catalogue row per finding code");

/* Linear search: the table is short and looked up rarely. */
const struct finding_def *finding_lookup(const char *code)
{
	for (size_t i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++)
		if (strcmp(catalogue[i].code, code) == 0)
			return &catalogue[i];
	return NULL;
}

/* See finding.h: the row's own string, so no copy of it exists. */
bool finding_is(const char *code, enum finding_code id)
{
	return code != NULL && (size_t)id < FINDING_NCODES &&
	       strcmp(code, catalogue[id].code) == 0;
}

/* The enum is the row's index. */
const struct finding_def *finding_get(enum finding_code code)
{
	return (size_t)code < FINDING_NCODES ? &catalogue[code] : NULL;
}

/* Codes index the table: the enum and the rows come from one file. */
const char *finding_name(enum finding_code code)
{
	return (size_t)code < FINDING_NCODES ? catalogue[code].code
					     : "unknown";
}

/* For the report's deciders, which read codes from documents. */
bool finding_has_flag(const char *code, unsigned mask)
{
	const struct finding_def *def;

	if (code == NULL || (def = finding_lookup(code)) == NULL)
		return false;
	return (def->flags & mask) == mask;
}

/* As finding_has_flag, for the cause column. */
bool finding_in_cause(const char *code, enum finding_cause c)
{
	const struct finding_def *def;

	if (code == NULL || (def = finding_lookup(code)) == NULL)
		return false;
	return def->cause == c;
}

/* As finding_in_cause, for the family column: explain sorts a scan's
 * findings by it. */
bool finding_in_family(const char *code, enum finding_family f)
{
	const struct finding_def *def;

	if (code == NULL || (def = finding_lookup(code)) == NULL)
		return false;
	return def->family == f;
}

/* Names as docs/findings.md writes them. */
const char *finding_family_name(enum finding_family f)
{
	switch (f) {
	case FAMILY_PORT:
		return "port";
	case FAMILY_RDMA:
		return "rdma";
	case FAMILY_NONE:
		break;
	}
	return "";
}

/* Names as the report's causes carry them in their "kind". */
const char *finding_cause_name(enum finding_cause c)
{
	switch (c) {
	case CAUSE_NAT:
		return "nat";
	case CAUSE_HOSTNAME:
		return "hostname";
	case CAUSE_FIREWALL:
		return "firewall";
	case CAUSE_MTU:
		return "mtu";
	case CAUSE_NONE:
		break;
	}
	return "";
}

/* For man-page checks and reports that list every code. */
const struct finding_def *finding_all(size_t *n)
{
	*n = sizeof(catalogue) / sizeof(catalogue[0]);
	return catalogue;
}

/* Names as they appear in JSON. */
const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEV_FAULT:
		return "fault";
	case SEV_WARNING:
		return "warning";
	case SEV_INFO:
		break;
	}
	return "info";
}

/* Inverse of severity_name. */
int severity_parse(const char *s, enum severity *out)
{
	if (strcmp(s, "fault") == 0)
		*out = SEV_FAULT;
	else if (strcmp(s, "warning") == 0)
		*out = SEV_WARNING;
	else if (strcmp(s, "info") == 0)
		*out = SEV_INFO;
	else
		return -1;
	return 0;
}
