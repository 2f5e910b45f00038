/* The Flight Recorder verdict as findings (fr-* codes) and as the
 * document's "flight_recorder" object: each group's ranks with the last
 * collective they entered and completed, and a timeline entry a finding. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "decide/frdump.h"

enum finding_code frdump_code(enum fr_kind k)
{
	switch (k) {
	case FR_NOT_ARRIVED: return FINDING_FR_RANK_NOT_ARRIVED;
	case FR_DESYNC: return FINDING_FR_DESYNC;
	case FR_NOT_FINISHED: return FINDING_FR_NOT_FINISHED;
	case FR_NO_DUMP: return FINDING_FR_RANK_NO_DUMP;
	case FR_LATE: return FINDING_FR_RANK_LATE;
	case FR_UNKNOWN_END: break;
	}
	return FINDING_FR_END_UNKNOWN;
}

void frdump_fix(const struct fr_finding *f, char *buf, size_t cap)
{
	switch (f->kind) {
	case FR_NOT_ARRIVED:
		snprintf(buf, cap, "look at rank %d: its Python stack "
			 "(py-spy dump --pid PID on its host) says what it "
			 "waits on instead of collective #%lld; then probe "
			 "its host (netprobe scan --peer HOST)", f->rank,
			 f->seq);
		return;
	case FR_DESYNC:
		snprintf(buf, cap, "a code bug, not the network: make rank "
			 "%d call the same collective as the others at "
			 "#%lld (the frames above say where each called "
			 "it)", f->rank, f->seq);
		return;
	case FR_NO_DUMP:
		snprintf(buf, cap, "find why rank %d ended (the launcher's "
			 "log, dmesg | grep -i 'killed process' on its "
			 "host), or copy its node's dumps into this folder",
			 f->rank);
		return;
	default:
		buf[0] = '\0';
	}
}

int frdump_findings(struct doc *doc, const struct fr_verdict *v,
		    const char *dir)
{
	char fix[512];

	for (int i = 0; i < v->nf; i++) {
		const struct fr_finding *f = &v->f[i];
		json_t *ev = NULL;

		for (int k = 0; k < f->nevidence; k++)
			if (evidence_add(&ev, "flight-recorder", "%s: %s", dir,
					 f->evidence[k]) < 0) {
				json_decref(ev);
				return -1;
			}
		frdump_fix(f, fix, sizeof(fix));
		if (doc_add_finding(doc, frdump_code(f->kind), -1, ev,
				    fix[0] ? fix : NULL, "%s", f->summary) < 0)
			return -1;
	}
	return 0;
}

int frdump_unreadable(struct doc *doc, const char *dir, const char *what)
{
	return doc_add_finding(doc, FINDING_FR_DUMP_UNREADABLE, -1, NULL, NULL,
			       "%s/%s", dir, what);
}

/* The ns time as RFC 3339 UTC with milliseconds ("" when unknown). */
static void utc(long long ns, char *buf, size_t cap)
{
	time_t s = (time_t)(ns / 1000000000LL);
	struct tm tm;

	buf[0] = '\0';
	if (ns <= 0 || gmtime_r(&s, &tm) == NULL)
		return;
	snprintf(buf, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
		 (tm.tm_year + 1900) % 10000, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (int)((ns / 1000000LL) % 1000));
}

static json_t *group_json(const struct fr_verdict *v, int g)
{
	const struct fr_group *grp = &v->groups[g];
	json_t *ranks = json_array();

	for (size_t i = 0; ranks && i < v->nrs; i++) {
		const struct fr_rankstate *s = &v->rs[i];

		if (s->group != g)
			continue;
		if (json_array_append_new(ranks, json_pack("{s:i,s:b,s:I,"
			"s:I,s:s,s:s}", "rank", s->rank, "dumped", s->dumped,
			"last_entered", (json_int_t)s->entered,
			"last_completed", (json_int_t)s->completed,
			"op", s->op, "frame", s->frame)) < 0) {
			json_decref(ranks);
			return NULL;
		}
	}
	return json_pack("{s:s,s:s,s:s,s:i,s:i,s:I,s:b,s:o*}", "name",
			 grp->name, "desc", grp->desc, "backend", grp->backend,
			 "members", grp->nmembers, "dumps", grp->ndumps,
			 "last_entered_max", (json_int_t)grp->last_entered_max,
			 "completion_recorded", grp->completion_known, "ranks",
			 ranks);
}

json_t *frdump_json(const struct fr_verdict *v, const char *dir)
{
	json_t *groups = json_array(), *tl = json_array();
	char at[64];

	for (int g = 0; groups && g < v->ngroups; g++)
		if (json_array_append_new(groups, group_json(v, g)) < 0)
			goto fail;
	for (int i = 0; tl && i < v->nf; i++) {
		const struct fr_finding *f = &v->f[i];

		utc(f->at_ns, at, sizeof(at));
		if (!at[0])
			continue;
		if (json_array_append_new(tl, json_pack("{s:s,s:s,s:s,s:s}",
			"at", at, "source", "flight-recorder", "code",
			finding_get(frdump_code(f->kind))->code, "what",
			f->summary)) < 0)
			goto fail;
	}
	return json_pack("{s:s,s:i,s:o,s:o}", "dir", dir, "dumps", v->ndumps,
			 "groups", groups, "timeline", tl);
fail:
	json_decref(groups);
	json_decref(tl);
	return NULL;
}
