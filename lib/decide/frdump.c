/* The Flight Recorder verdict (issue 43): per process group, the last
 * collective each rank entered and completed, and from that which ranks
 * never arrived, whether the ranks disagree on the op (a desync: a code
 * bug, not the network), or whether all arrived and one did not finish.
 * A rank that was late and finished is said (info), never a fault. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/frdump.h"

#define FR_LATE_NS 1000000000LL /* an arrival spread worth saying */
#define FR_PER_KIND 16          /* findings of one kind per group */

/* One rank's view of one group while deciding. */
struct view {
	int rank;
	const struct fr_dump *d; /* NULL: no dump */
	int pg;                  /* the group's index in d */
	const struct fr_entry *last, *done;
	const struct fr_entry **idx; /* the group's collectives by seq */
	size_t nidx;
};

static struct fr_finding *add(struct fr_verdict *v, enum fr_kind k, int g,
			      int rank, long long seq, long long at_ns,
			      const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* A finding, or NULL when the table is full (the rest are dropped). */
static struct fr_finding *add(struct fr_verdict *v, enum fr_kind k, int g,
			      int rank, long long seq, long long at_ns,
			      const char *fmt, ...)
{
	struct fr_finding *f;
	va_list ap;

	if (v->nf >= FR_MAX_FINDINGS)
		return NULL;
	f = &v->f[v->nf++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->pg = g;
	f->rank = rank;
	f->seq = seq;
	f->at_ns = at_ns;
	va_start(ap, fmt);
	vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
	va_end(ap);
	frdump_utf8_trim(f->summary);
	return f;
}

static void ev(struct fr_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One line of evidence on f (at most four). */
static void ev(struct fr_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (f == NULL || f->nevidence >= 4)
		return;
	va_start(ap, fmt);
	vsnprintf(f->evidence[f->nevidence], sizeof(f->evidence[0]), fmt,
		  ap);
	va_end(ap);
	frdump_utf8_trim(f->evidence[f->nevidence++]);
}

/* The group's index in dump d, or -1. */
static int pg_in(const struct fr_dump *d, const char *name)
{
	for (int i = 0; i < d->npgs; i++)
		if (strcmp(d->pgs[i].name, name) == 0)
			return i;
	return -1;
}

/* The rank's entry with collective number seq, or NULL: a binary search
 * of its index, so a verdict over thousands of ranks stays fast. */
static const struct fr_entry *at_seq(const struct view *w, long long seq)
{
	size_t lo = 0, hi = w->nidx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->idx[mid]->seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->nidx && w->idx[lo]->seq == seq ? w->idx[lo] : NULL;
}

static int by_seq(const void *a, const void *b)
{
	const struct fr_entry *x = *(const struct fr_entry *const *)a;
	const struct fr_entry *y = *(const struct fr_entry *const *)b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Ops whose every rank passes tensors of one shape: there, sizes that
 * differ are a desync too (gather, scatter, all_to_all may differ). */
static bool same_sizes_op(const char *op)
{
	static const char *const ops[] = {"all_reduce", "allreduce",
		"broadcast", "all_gather", "allgather", "reduce_scatter",
		"_reduce_scatter_base", "_allgather_base", "barrier"};
	const char *c = strchr(op, ':');

	c = c ? c + 1 : op;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strncmp(c, ops[i], strlen(ops[i])) == 0)
			return true;
	return false;
}

static const char *seqop(char *buf, size_t cap, const struct fr_entry *e)
{
	if (e == NULL)
		snprintf(buf, cap, "no collective");
	else
		snprintf(buf, cap, "%s #%lld", e->op, e->seq);
	return buf;
}

/* Member ranks of group name: those with a dump holding it, pg_config's,
 * and for the world group every rank up to the highest dumped one.
 * Fills in[] (a flag per rank); returns the count. */
static int members(const struct fr_dump *d, size_t n, const char *name,
		   const char *desc, unsigned char *in)
{
	int maxr = -1, cnt = 0;

	memset(in, 0, FR_MAX_RANKS);
	for (size_t i = 0; i < n; i++) {
		int p = pg_in(&d[i], name);

		if (d[i].rank < 0 || d[i].rank >= FR_MAX_RANKS)
			continue;
		if (d[i].rank > maxr)
			maxr = d[i].rank;
		if (d[i].world_hint - 1 > maxr)
			maxr = d[i].world_hint - 1;
		if (p < 0)
			continue;
		in[d[i].rank] = 1;
		for (int k = 0; k < d[i].pgs[p].nranks; k++)
			in[d[i].pgs[p].ranks[k]] = 1;
	}
	if (strcmp(desc, "default_pg") == 0 || strcmp(name, "0") == 0)
		for (int r = 0; r <= maxr; r++)
			in[r] = 1;
	for (int r = 0; r < FR_MAX_RANKS; r++)
		cnt += in[r];
	return cnt;
}

/* The ranks in the view, the last entry each entered and finished, and
 * its index of the group's collectives. Returns -1 when out of memory. */
static int look(const struct fr_dump *d, size_t n, const char *name,
		struct view *vw, int nv)
{
	for (int i = 0; i < nv; i++) {
		vw[i].d = NULL;
		vw[i].last = vw[i].done = NULL;
		for (size_t k = 0; k < n && vw[i].d == NULL; k++)
			if (d[k].rank == vw[i].rank) {
				vw[i].d = &d[k];
				vw[i].pg = pg_in(&d[k], name);
			}
		if (vw[i].d == NULL || vw[i].pg < 0)
			continue;
		vw[i].idx = malloc((vw[i].d->nentries + 1) *
				   sizeof(*vw[i].idx));
		if (vw[i].idx == NULL)
			return -1;
		for (size_t k = 0; k < vw[i].d->nentries; k++) {
			const struct fr_entry *e = &vw[i].d->entries[k];

			if (e->pg != vw[i].pg || e->p2p)
				continue;
			vw[i].idx[vw[i].nidx++] = e;
			if (vw[i].last == NULL || e->seq > vw[i].last->seq)
				vw[i].last = e;
			if (e->completed && (vw[i].done == NULL ||
					     e->seq > vw[i].done->seq))
				vw[i].done = e;
		}
		qsort(vw[i].idx, vw[i].nidx, sizeof(*vw[i].idx), by_seq);
	}
	return 0;
}

/* Ranks that entered max and ranks that stopped before it. */
static void not_arrived(struct fr_verdict *v, int g, struct view *vw, int nv,
			const struct view *ref, const char *gname)
{
	char a[80], b[80];
	int said = 0;

	for (int i = 0; i < nv; i++) {
		const struct view *w = &vw[i];
		struct fr_finding *f;

		if (w->d == NULL || (w->last && w->last->seq >= ref->last->seq))
			continue;
		/* the counter says it got there: its record lost the entry */
		if (w->pg >= 0 && w->d->pgs[w->pg].enqueued >= ref->last->seq)
			continue;
		if (said++ >= FR_PER_KIND)
			break;
		f = add(v, FR_NOT_ARRIVED, g, w->rank, ref->last->seq,
			ref->last->created_ns, "rank %d never arrived at %s of "
			"group %s: its last collective was %s", w->rank,
			seqop(a, sizeof(a), ref->last), gname,
			seqop(b, sizeof(b), w->last));
		ev(f, "rank %d (%s): entered %s, input %s %s, from %s",
		   ref->rank, ref->d->file, a, ref->last->in_sizes,
		   ref->last->dtypes, ref->last->frame[0] ?
		   ref->last->frame : "no Python frame in this form");
		ev(f, "rank %d (%s): last entered %s%s%s", w->rank, w->d->file,
		   b, w->last && w->last->frame[0] ? ", from " : "",
		   w->last ? w->last->frame : "");
	}
}

/* True when two ranks' entries under one number are not the same
 * collective: another op or, for an op of one shape, other sizes. */
static bool differ(const struct fr_entry *a, const struct fr_entry *b)
{
	if (strcmp(a->op, b->op) != 0)
		return true;
	return same_sizes_op(a->op) && (strcmp(a->in_sizes, b->in_sizes) ||
					strcmp(a->dtypes, b->dtypes));
}

/* Names the ranks that ran something else under number seq than most
 * ranks did (on a tie, than the lowest rank): the odd ones out. */
static void odd_ones(struct fr_verdict *v, int g, struct view *vw, int nv,
		     long long seq, const char *gname)
{
	const struct fr_entry *most = NULL, *odd = NULL;
	int best = 0, first = -1, nodd = 0;
	char ranks[128] = "", others[128] = "";
	struct fr_finding *f;

	for (int i = 0; i < nv; i++) {
		const struct fr_entry *e, *o;
		int cnt = 0;

		if (vw[i].last == NULL ||
		    (e = at_seq(&vw[i], seq)) == NULL)
			continue;
		for (int k = 0; k < nv; k++)
			cnt += vw[k].last && (o = at_seq(&vw[k], seq)) &&
			       !differ(e, o);
		if (cnt > best) {
			best = cnt;
			most = e;
		}
	}
	for (int i = 0; most && i < nv; i++) {
		const struct fr_entry *e;
		char *to;
		size_t len;

		if (vw[i].last == NULL ||
		    (e = at_seq(&vw[i], seq)) == NULL)
			continue;
		to = differ(e, most) ? ranks : others;
		len = strlen(to);
		if (to == ranks && nodd++ == 0) {
			first = i;
			odd = e;
		}
		if (len < 100)
			snprintf(to + len, 128 - len, "%s%d", len ? ", " : "",
				 vw[i].rank);
	}
	if (odd == NULL)
		return;
	f = add(v, FR_DESYNC, g, vw[first].rank, seq, odd->created_ns,
		"rank%s %s ran %s %s as collective #%lld of group %s, where "
		"rank%s %s ran %s %s: the ranks disagree", nodd > 1 ? "s" : "",
		ranks, odd->op, odd->in_sizes, seq, gname,
		strchr(others, ',') ? "s" : "", others, most->op,
		most->in_sizes);
	ev(f, "rank %d (%s): %s input %s %s, from %s", vw[first].rank,
	   vw[first].d->file, odd->op, odd->in_sizes, odd->dtypes,
	   odd->frame[0] ? odd->frame : "no frame in this form");
	for (int i = 0; i < nv; i++) {
		const struct fr_entry *e;

		if (vw[i].last == NULL ||
		    (e = at_seq(&vw[i], seq)) != most)
			continue;
		ev(f, "rank %d (%s): %s input %s %s, from %s", vw[i].rank,
		   vw[i].d->file, e->op, e->in_sizes, e->dtypes,
		   e->frame[0] ? e->frame : "no frame in this form");
	}
}

/* The first number under which two ranks that both recorded it ran
 * different collectives: a desync. */
static bool desync(struct fr_verdict *v, int g, struct view *vw, int nv,
		   const char *gname)
{
	const struct view *ref = NULL;

	for (int i = 0; i < nv && ref == NULL; i++)
		if (vw[i].last != NULL)
			ref = &vw[i];
	if (ref == NULL)
		return false;
	for (size_t k = 0; k < ref->d->nentries; k++) {
		const struct fr_entry *e = &ref->d->entries[k];

		if (e->pg != ref->pg || e->p2p)
			continue;
		for (int i = 0; i < nv; i++) {
			const struct fr_entry *o;

			if (vw[i].last == NULL || &vw[i] == ref ||
			    (o = at_seq(&vw[i], e->seq)) == NULL ||
			    !differ(e, o))
				continue;
			odd_ones(v, g, vw, nv, e->seq, gname);
			return true;
		}
	}
	return false;
}

/* The worst arrival spread over the collectives every dumped member
 * entered and got past (so each one finished): info, never a fault. */
static void late(struct fr_verdict *v, int g, struct view *vw, int nv,
		 const char *gname)
{
	const struct view *ref = NULL;
	long long worst = 0, seq = 0, at = 0;
	int who = -1, first = -1;
	const char *op = "";

	for (int i = 0; i < nv && ref == NULL; i++)
		if (vw[i].last != NULL)
			ref = &vw[i];
	for (size_t k = 0; ref && k < ref->d->nentries; k++) {
		const struct fr_entry *e = &ref->d->entries[k];
		long long lo = e->created_ns, hi = e->created_ns;
		int rlo = ref->rank, rhi = ref->rank;
		bool all = e->pg == ref->pg && !e->p2p && e->created_ns > 0;

		for (int i = 0; all && i < nv; i++) {
			const struct fr_entry *o;

			if (vw[i].d == NULL)
				continue;
			o = vw[i].last ? at_seq(&vw[i], e->seq) :
			    NULL;
			if (o == NULL || o->created_ns <= 0 ||
			    vw[i].last->seq <= e->seq) {
				all = false;
				break;
			}
			if (o->created_ns < lo) {
				lo = o->created_ns;
				rlo = vw[i].rank;
			}
			if (o->created_ns > hi) {
				hi = o->created_ns;
				rhi = vw[i].rank;
			}
		}
		if (all && hi - lo > worst) {
			worst = hi - lo;
			seq = e->seq;
			op = e->op;
			who = rhi;
			first = rlo;
			at = hi;
		}
	}
	if (worst >= FR_LATE_NS) {
		struct fr_finding *f = add(v, FR_LATE, g, who, seq, at,
			"rank %d entered %s #%lld of group %s %.1f s after "
			"rank %d, and it finished: a slow rank, not a hang",
			who, op, seq, gname, (double)worst / 1e9, first);

		ev(f, "each rank's time_created_ns for #%lld, by its own "
		   "clock; every rank entered a later collective", seq);
	}
}

/* All arrived at the furthest collective and agree: who did not finish
 * it, where the backend records ends, else that it cannot tell. */
static void ends(struct fr_verdict *v, int g, struct view *vw, int nv,
		 const struct view *ref, bool known, const char *gname)
{
	int notdone = 0, dumped = 0, said = 0;
	char a[80];

	seqop(a, sizeof(a), ref->last);
	/* a rank with no entry left of the group (its counter alone says
	 * it got there) cannot say whether it finished: left out */
	for (int i = 0; i < nv; i++)
		if (vw[i].d != NULL && vw[i].last != NULL) {
			dumped++;
			notdone += !(vw[i].done &&
				     vw[i].done->seq >= ref->last->seq);
		}
	if (!known) {
		struct fr_finding *f = add(v, FR_UNKNOWN_END, g, -1,
			ref->last->seq, ref->last->created_ns,
			"all %d ranks with a dump entered %s of group %s and "
			"agree on it; %s records do not say whether it "
			"finished", dumped, a, gname, ref->d->pgs[ref->pg]
			.backend[0] ? ref->d->pgs[ref->pg].backend : "these");

		ev(f, "the %s backend marks a collective retired whether it "
		   "finished or failed", ref->d->pgs[ref->pg].backend);
		return;
	}
	if (notdone == 0)
		return;
	if (notdone == dumped) {
		struct fr_finding *f = add(v, FR_NOT_FINISHED, g, -1,
			ref->last->seq, ref->last->created_ns, "all %d ranks "
			"entered %s of group %s and none finished it: stuck "
			"inside the collective", dumped, a, gname);

		ev(f, "rank %d (%s): %s state %s, from %s", ref->rank,
		   ref->d->file, a, ref->last->state, ref->last->frame);
		return;
	}
	for (int i = 0; i < nv && said < FR_PER_KIND; i++) {
		struct fr_finding *f;

		if (vw[i].d == NULL || vw[i].last == NULL || (vw[i].done &&
			vw[i].done->seq >= ref->last->seq))
			continue;
		said++;
		f = add(v, FR_NOT_FINISHED, g, vw[i].rank, ref->last->seq,
			ref->last->created_ns, "all ranks entered %s of group "
			"%s; rank %d did not finish it", a, gname, vw[i].rank);
		ev(f, "rank %d (%s): %s state %s", vw[i].rank, vw[i].d->file,
		   a, vw[i].last->state);
	}
}

/* The members of one group that wrote no dump. */
static void no_dump(struct fr_verdict *v, int g, struct view *vw, int nv,
		    const struct view *ref, const char *gname)
{
	char a[80];
	int said = 0;

	for (int i = 0; i < nv && said < FR_PER_KIND; i++) {
		struct fr_finding *f;

		if (vw[i].d != NULL)
			continue;
		said++;
		f = add(v, FR_NO_DUMP, g, vw[i].rank, ref ? ref->last->seq : 0,
			ref ? ref->last->created_ns : 0, "rank %d of group %s "
			"has no dump read: it died or was killed, its dump "
			"went elsewhere or could not be read; the others "
			"reached %s", vw[i].rank,
			gname, seqop(a, sizeof(a), ref ? ref->last : NULL));
		ev(f, "no file for rank %d among the dumps; group %s has "
		   "%d members", vw[i].rank, gname, nv);
	}
}

/* One group: its members' states, then its findings. */
static int decide_group(const struct fr_dump *d, size_t n, const char *name,
			const char *desc, const char *backend,
			struct fr_verdict *v, unsigned char *in)
{
	struct fr_group *grp = &v->groups[v->ngroups];
	struct view *vw;
	const struct view *ref = NULL;
	char gname[140];
	bool known;
	int nv = 0, g = v->ngroups;
	struct fr_rankstate *rs;

	snprintf(grp->name, sizeof(grp->name), "%s", name);
	snprintf(grp->desc, sizeof(grp->desc), "%s", desc);
	snprintf(grp->backend, sizeof(grp->backend), "%s", backend);
	snprintf(gname, sizeof(gname), "%s%s%s%s", name, desc[0] ? " (" : "",
		 desc, desc[0] ? ")" : "");
	grp->nmembers = members(d, n, name, desc, in);
	vw = calloc((size_t)grp->nmembers + 1, sizeof(*vw));
	rs = realloc(v->rs, (v->nrs + (size_t)grp->nmembers + 1) *
		     sizeof(*rs));
	if (vw == NULL || rs == NULL) {
		free(vw);
		if (rs != NULL)
			v->rs = rs;
		return -1;
	}
	v->rs = rs;
	v->ngroups++;
	for (int r = 0; r < FR_MAX_RANKS; r++)
		if (in[r])
			vw[nv++].rank = r;
	if (look(d, n, name, vw, nv) < 0) {
		for (int i = 0; i < nv; i++)
			free(vw[i].idx);
		free(vw);
		return -1;
	}
	known = strcmp(backend, "nccl") == 0;
	for (int i = 0; i < nv; i++) {
		const struct fr_entry *e = vw[i].last;

		grp->ndumps += vw[i].d != NULL;
		if (e != NULL && (ref == NULL || e->seq > ref->last->seq))
			ref = &vw[i];
		for (size_t k = 0; e && k < vw[i].d->nentries; k++)
			if (vw[i].d->entries[k].pg == vw[i].pg &&
			    strcmp(vw[i].d->entries[k].state, "scheduled"))
				known = true;
	}
	grp->completion_known = known;
	grp->last_entered_max = ref ? ref->last->seq : 0;
	for (int i = 0; i < nv; i++) {
		struct fr_rankstate *s = &v->rs[v->nrs++];

		memset(s, 0, sizeof(*s));
		s->group = g;
		s->rank = vw[i].rank;
		s->dumped = vw[i].d != NULL;
		s->entered = vw[i].last ? vw[i].last->seq : 0;
		s->completed = !known ? -1 : vw[i].done ? vw[i].done->seq : 0;
		if (vw[i].last) {
			snprintf(s->op, sizeof(s->op), "%s", vw[i].last->op);
			snprintf(s->frame, sizeof(s->frame), "%s",
				 vw[i].last->frame);
		}
	}
	no_dump(v, g, vw, nv, ref, gname);
	if (ref != NULL) {
		bool ds = desync(v, g, vw, nv, gname);
		int before = v->nf;

		not_arrived(v, g, vw, nv, ref, gname);
		if (!ds && v->nf == before)
			ends(v, g, vw, nv, ref, known, gname);
		late(v, g, vw, nv, gname);
	}
	for (int i = 0; i < nv; i++)
		free(vw[i].idx);
	free(vw);
	return 0;
}

int frdump_decide(const struct fr_dump *d, size_t n, struct fr_verdict *v)
{
	unsigned char *in = malloc(FR_MAX_RANKS);
	int rc = 0;

	memset(v, 0, sizeof(*v));
	if (in == NULL)
		return -1;
	v->ndumps = (int)n;
	for (size_t i = 0; i < n && rc == 0; i++) {
		for (size_t k = 0; k < d[i].nentries; k++) {
			long long t = d[i].entries[k].created_ns;

			if (t > 0 && (v->first_ns == 0 || t < v->first_ns))
				v->first_ns = t;
			if (t > v->last_ns)
				v->last_ns = t;
		}
		for (int p = 0; p < d[i].npgs && rc == 0; p++) {
			bool seen = false;

			for (int g = 0; g < v->ngroups && !seen; g++)
				seen = strcmp(v->groups[g].name,
					      d[i].pgs[p].name) == 0;
			if (seen || v->ngroups >= FR_MAX_PGS)
				continue;
			rc = decide_group(d, n, d[i].pgs[p].name,
					  d[i].pgs[p].desc,
					  d[i].pgs[p].backend, v, in);
		}
	}
	free(in);
	return rc;
}

void frdump_verdict_free(struct fr_verdict *v)
{
	free(v->rs);
	v->rs = NULL;
	v->nrs = 0;
}
