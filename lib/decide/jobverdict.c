/* The joined verdict (decide/jobverdict.h). */
#include "decide/jobverdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doc/doc.h"

int jv_event(struct job_verdict *v, long long at_ms, const char *when,
	     const char *source, const char *host, const char *fmt, ...)
{
	struct jv_event *e;
	va_list ap;

	if (v->nevents >= JV_MAX_EVENTS)
		return -1;
	e = &v->events[v->nevents++];
	memset(e, 0, sizeof(*e));
	e->at_ms = at_ms;
	snprintf(e->when, sizeof(e->when), "%s", when ? when : "");
	snprintf(e->source, sizeof(e->source), "%s", source);
	snprintf(e->host, sizeof(e->host), "%s", host ? host : "");
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	doc_utf8_fix(e->when);
	doc_utf8_fix(e->host);
	doc_utf8_fix(e->text);
	return 0;
}

int jv_suspect(struct job_verdict *v, const struct jv_suspect *s)
{
	for (size_t i = 0; i < v->nsuspects; i++) {
		struct jv_suspect *o = &v->suspects[i];
		size_t l = strlen(o->what);

		/* a source that names no host (Flight Recorder dumps name
		 * ranks only) joins the suspect of its rank, whose host
		 * another source knows */
		if (o->rank != s->rank ||
		    (o->host[0] != '\0' && s->host[0] != '\0' &&
		     strcmp(o->host, s->host) != 0))
			continue;
		if (o->host[0] == '\0')
			snprintf(o->host, sizeof(o->host), "%s", s->host);
		if (strcmp(o->source, s->source) != 0)
			o->weight += s->weight; /* two sources agree */
		else if (s->weight > o->weight)
			o->weight = s->weight; /* the strongest fact counts */
		if (l + 3 < sizeof(o->what) && strstr(o->what, s->what) == NULL)
			snprintf(o->what + l, sizeof(o->what) - l, "; %.*s",
				 (int)(sizeof(o->what) - l - 3), s->what);
		return 0;
	}
	if (v->nsuspects >= JV_MAX_SUSPECTS)
		return -1;
	v->suspects[v->nsuspects] = *s;
	doc_utf8_fix(v->suspects[v->nsuspects].what);
	doc_utf8_fix(v->suspects[v->nsuspects].host);
	v->nsuspects++;
	return 0;
}

int jv_source(struct job_verdict *v, const char *name, bool answered,
	      const char *said, const char *cannot)
{
	struct jv_source *s;

	if (v->nsources >= JV_MAX_SOURCES)
		return -1;
	s = &v->sources[v->nsources++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->answered = answered;
	snprintf(s->said, sizeof(s->said), "%s", said ? said : "");
	snprintf(s->cannot, sizeof(s->cannot), "%s", cannot ? cannot : "");
	doc_utf8_fix(s->said);
	doc_utf8_fix(s->cannot);
	return 0;
}

void jv_host(struct job_verdict *v, const char *host, bool changed,
	     const char *why)
{
	for (size_t i = 0; i < v->nsuspects; i++) {
		struct jv_suspect *s = &v->suspects[i];

		if (strcmp(s->host, host) != 0)
			continue;
		s->host_read = true;
		if (changed && s->host_why[0] == '\0') {
			s->weight += JV_W_LINK;
			snprintf(s->host_why, sizeof(s->host_why), "%s", why);
			doc_utf8_fix(s->host_why);
		}
	}
}

void jv_time(const struct jv_event *e, char *buf, size_t len)
{
	time_t t = (time_t)(e->at_ms / 1000);
	struct tm tm;

	if (e->at_ms > 0 && gmtime_r(&t, &tm) != NULL)
		snprintf(buf, len, "%02d:%02d:%02d.%03lldZ", tm.tm_hour,
			 tm.tm_min, tm.tm_sec, e->at_ms % 1000);
	else
		snprintf(buf, len, "%s", e->when[0] ? e->when : "when unknown");
}

void jv_probe(struct job_verdict *v, const char *host, bool answered,
	      const char *what)
{
	for (size_t i = 0; i < v->nsuspects; i++) {
		struct jv_suspect *s = &v->suspects[i];

		if (strcmp(s->host, host) != 0)
			continue;
		snprintf(s->probe, sizeof(s->probe), "%s %s (%.120s)", host,
			 answered ? "answers probes from here" :
			 "is not reachable from here", what);
		doc_utf8_fix(s->probe);
	}
}

static int by_weight(const void *a, const void *b)
{
	const struct jv_suspect *x = a, *y = b;

	if (x->weight != y->weight)
		return y->weight - x->weight;
	return x->rank - y->rank;
}

static int by_time(const void *a, const void *b)
{
	const struct jv_event *x = a, *y = b;

	if ((x->at_ms == 0) != (y->at_ms == 0))
		return x->at_ms == 0 ? 1 : -1;
	if (x->at_ms != y->at_ms)
		return x->at_ms < y->at_ms ? -1 : 1;
	return strcmp(x->when, y->when);
}

void jv_decide(struct job_verdict *v)
{
	const struct jv_suspect *s;
	char who[192];

	qsort(v->suspects, v->nsuspects, sizeof(v->suspects[0]), by_weight);
	qsort(v->events, v->nevents, sizeof(v->events[0]), by_time);
	v->headline[0] = v->action[0] = '\0';
	if (v->nsuspects == 0) {
		snprintf(v->headline, sizeof(v->headline), "no source names "
			 "a rank the job waits for");
		return;
	}
	s = &v->suspects[0];
	if (s->rank >= 0)
		snprintf(who, sizeof(who), "rank %d (host %.128s, GPU %.31s)",
			 s->rank, s->host[0] ? s->host : "?",
			 s->gpu[0] ? s->gpu : "?");
	else
		snprintf(who, sizeof(who), "process %ld on host %.128s",
			 s->pid,
			 s->host[0] ? s->host : "?");
	if (s->host_why[0])
		snprintf(v->headline, sizeof(v->headline), "%s %s; %s", who,
			 s->what, s->host_why);
	else if (s->host[0] == '\0')
		snprintf(v->headline, sizeof(v->headline), "%s %s; no source "
			 "named its host (RAS does: add --job on a node of the "
			 "running job)", who, s->what);
	else if (s->host_read)
		snprintf(v->headline, sizeof(v->headline), "%s %s; %s's "
			 "links showed no change while read", who, s->what,
			 s->host);
	else
		snprintf(v->headline, sizeof(v->headline), "%s %s; %s's "
			 "links were not read (run this command on it)", who,
			 s->what, s->host);
	if (s->probe[0]) {
		size_t l = strlen(v->headline);

		snprintf(v->headline + l, sizeof(v->headline) - l, "; %s",
			 s->probe);
	}
	if (s->host_why[0])
		snprintf(v->action, sizeof(v->action), "drain %s or reseat "
			 "the link", s->host);
	else if (s->probe[0] && strstr(s->probe, "not reachable") != NULL)
		snprintf(v->action, sizeof(v->action), "%s is unreachable "
			 "from here: check its links and its network on it "
			 "(netprobe explain --job --watch 10 there)", s->host);
	else if (s->pid >= 0)
		snprintf(v->action, sizeof(v->action), "look at process %ld "
			 "on %s (py-spy dump --pid %ld; nvidia-smi)", s->pid,
			 s->host, s->pid);
	else if (s->host[0] == '\0')
		snprintf(v->action, sizeof(v->action), "look at rank %d's "
			 "process on its node (py-spy dump --pid PID), then at "
			 "that node's links", s->rank);
	else
		snprintf(v->action, sizeof(v->action), "look at rank %d's "
			 "process on %s", s->rank, s->host);
	doc_utf8_fix(v->headline);
	doc_utf8_fix(v->action);
}
