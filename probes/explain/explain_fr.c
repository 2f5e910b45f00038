/* netprobe explain --fr-dumps DIR: reads the Flight Recorder dumps torch
 * wrote (TORCH_FR_DUMP_TEMP_FILE's prefix and the rank: one file a rank,
 * pickle by default, JSON from _dump_fr_trace_json), decides per process
 * group, and writes the verdict into the document and as text. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explain/explain_fr.h"
#include "explain/explain_int.h"

/* The rank a dump's name ends in (before .json, .pkl or .pickle), or -1
 * for a name that is no dump's. */
static int rank_of(const char *name, bool *json)
{
	size_t n = strlen(name), end = n;
	static const char *const ext[] = {".json", ".pkl", ".pickle"};
	long r = 0, mul = 1;

	*json = false;
	for (size_t i = 0; i < 3; i++) {
		size_t l = strlen(ext[i]);

		if (n > l && strcmp(name + n - l, ext[i]) == 0) {
			end = n - l;
			*json = i == 0;
			break;
		}
	}
	if (end == 0 || name[end - 1] < '0' || name[end - 1] > '9')
		return -1;
	for (size_t i = end; i > 0 && name[i - 1] >= '0' &&
	     name[i - 1] <= '9'; i--) {
		r += (name[i - 1] - '0') * mul;
		mul *= 10;
		if (r >= FR_MAX_RANKS || mul > 100000)
			return -1;
	}
	return (int)r;
}

/* The whole file (a regular file, at most FRP_MAX_BYTES), or NULL. */
static unsigned char *slurp(int dfd, const char *name, size_t *len,
			    char *why, size_t whylen)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	unsigned char *buf = NULL;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)FRP_MAX_BYTES) {
		snprintf(why, whylen, "%s", fd < 0 ? strerror(errno) :
			 "not a regular file of at most 64 MiB");
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf != NULL && got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (buf == NULL || got != (size_t)st.st_size) {
		snprintf(why, whylen, "%s", buf ? "cut short while read" :
			 "out of memory");
		free(buf);
		buf = NULL;
	}
	*len = got;
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

/* One candidate file a rank: the pickle where both forms are there. */
struct cand {
	int rank;
	bool json;
	char name[256];
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return x->rank != y->rank ? (x->rank > y->rank) - (x->rank < y->rank)
				  : (int)x->json - (int)y->json;
}

/* The folder's dump names, one a rank, sorted by rank. */
static struct cand *list(DIR *dp, size_t *n)
{
	struct cand *c = calloc(2 * FR_MAX_RANKS, sizeof(*c));
	struct dirent *de;
	size_t k = 0, out = 0;

	if (c == NULL)
		return NULL;
	while ((de = readdir(dp)) != NULL && k < 2 * FR_MAX_RANKS) {
		bool json;
		int r = rank_of(de->d_name, &json);

		if (r < 0 || de->d_name[0] == '.' ||
		    strlen(de->d_name) >= sizeof(c[0].name))
			continue;
		c[k].rank = r;
		c[k].json = json;
		snprintf(c[k].name, sizeof(c[k].name), "%s", de->d_name);
		k++;
	}
	qsort(c, k, sizeof(*c), cand_cmp);
	for (size_t i = 0; i < k; i++)
		if (out == 0 || c[out - 1].rank != c[i].rank)
			c[out++] = c[i];
	*n = out;
	return c;
}

/* The folder's dumps read by a few threads at once: parsing is what a
 * job of thousands of ranks spends its time on. */
struct pool {
	int dfd;
	const struct cand *c;
	struct fr_dump *d;
	char (*why)[256];
	bool *ok;
	size_t nc;
	atomic_size_t next;
};

/* Reads the dumps the pool hands out, one at a time, till none is left. */
static void *reader(void *arg)
{
	struct pool *p = arg;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->nc) {
		size_t len = 0;
		unsigned char *buf = slurp(p->dfd, p->c[i].name, &len,
					   p->why[i], sizeof(p->why[i]));

		p->d[i].rank = p->c[i].rank;
		p->ok[i] = buf != NULL &&
			   frdump_read_buf(buf, len, &p->d[i], p->why[i],
					   sizeof(p->why[i])) == 0;
		free(buf);
	}
	return NULL;
}

/* Runs reader on up to 16 threads (one a CPU), or on this one where no
 * thread starts. */
static void read_pool(struct pool *p)
{
	pthread_t t[16];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = 0, want = cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus;

	while (nt < want && (size_t)nt < p->nc &&
	       pthread_create(&t[nt], NULL, reader, p) == 0)
		nt++;
	reader(p); /* this thread too, and alone where none started */
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
}

/* Reads the dumps of dir into d (n of them); the unreadable into x. */
static struct fr_dump *read_all(const char *dir, struct explain_fr *x,
				size_t *n, char *why, size_t whylen)
{
	DIR *dp = opendir(dir);
	struct pool p = {0};
	struct cand *c = NULL;
	size_t nc = 0;

	*n = 0;
	if (dp == NULL) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	c = list(dp, &nc);
	if (c != NULL && nc > 0) {
		p.d = calloc(nc, sizeof(*p.d));
		p.why = calloc(nc, sizeof(*p.why));
		p.ok = calloc(nc, sizeof(*p.ok));
	}
	if (p.d && p.why && p.ok) {
		p.dfd = dirfd(dp);
		p.c = c;
		p.nc = nc;
		atomic_init(&p.next, 0);
		read_pool(&p);
	}
	for (size_t i = 0; p.d && p.why && p.ok && i < nc; i++) {
		snprintf(p.d[i].file, sizeof(p.d[i].file), "%s", c[i].name);
		explain_utf8(p.d[i].file, sizeof(p.d[i].file)); /* bytes */
		if (p.ok[i]) {
			p.d[(*n)++] = p.d[i];
			continue;
		}
		if (x->nbad < 8) {
			snprintf(x->bad[x->nbad], sizeof(x->bad[0]), "%s: %s",
				 p.d[i].file, p.why[i]);
			explain_utf8(x->bad[x->nbad], sizeof(x->bad[0]));
		}
		x->nbad++;
	}
	if (c == NULL || (nc > 0 && !(p.d && p.why && p.ok)))
		snprintf(why, whylen, "out of memory");
	else if (*n == 0)
		snprintf(why, whylen, "no Flight Recorder dump in it%s%s",
			 x->nbad ? ": " : " (a dump's name ends in its rank)",
			 x->nbad ? x->bad[0] : "");
	free(c);
	free(p.why);
	free(p.ok);
	closedir(dp);
	if (*n == 0 || p.why == NULL || p.ok == NULL) {
		for (size_t i = 0; i < *n; i++)
			frdump_free(&p.d[i]);
		*n = 0;
		free(p.d);
		return NULL;
	}
	return p.d;
}

struct explain_fr *explain_fr(const char *dir, struct doc *doc, char *why,
			      size_t whylen)
{
	struct explain_fr *x = calloc(1, sizeof(*x));
	struct fr_dump *d = NULL;
	size_t n = 0;
	json_t *j;
	char shown[1024]; /* dir made UTF-8 for the document */

	if (x == NULL) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	d = read_all(dir, x, &n, why, whylen);
	if (d == NULL)
		goto fail;
	x->nread = (int)n;
	snprintf(shown, sizeof(shown), "%s", dir);
	explain_utf8(shown, sizeof(shown));
	if (frdump_decide(d, n, &x->v) < 0 ||
	    frdump_findings(doc, &x->v, shown) < 0)
		goto oom;
	for (int i = 0; i < x->nbad && i < 8; i++)
		if (frdump_unreadable(doc, shown, x->bad[i]) < 0)
			goto oom;
	j = frdump_json(&x->v, shown);
	if (j == NULL || doc_set(doc, "flight_recorder", j) < 0)
		goto oom;
	for (size_t i = 0; i < n; i++)
		frdump_free(&d[i]);
	free(d);
	return x;
oom:
	snprintf(why, whylen, "out of memory");
fail:
	for (size_t i = 0; i < n; i++)
		frdump_free(&d[i]);
	free(d);
	explain_fr_free(x);
	return NULL;
}

void explain_fr_print(const struct explain_fr *x, const char *dir, FILE *fp)
{
	const struct fr_verdict *v = &x->v;

	fprintf(fp, "\nWhat the Flight Recorder dumps say (%s: %d read",
		dir, x->nread);
	if (x->nbad)
		fprintf(fp, ", %d not", x->nbad);
	fprintf(fp, ")\n");
	for (int g = 0; g < v->ngroups; g++) {
		const struct fr_group *grp = &v->groups[g];

		fprintf(fp, "  group %s%s%s%s, %s: %d members, %d dumps, "
			"furthest collective #%lld\n", grp->name,
			grp->desc[0] ? " (" : "", grp->desc,
			grp->desc[0] ? ")" : "", grp->backend[0] ?
			grp->backend : "?", grp->nmembers, grp->ndumps,
			grp->last_entered_max);
		for (size_t i = 0; i < v->nrs; i++) {
			const struct fr_rankstate *s = &v->rs[i];

			if (s->group != g)
				continue;
			if (!s->dumped) {
				fprintf(fp, "    rank %d: no dump\n", s->rank);
				continue;
			}
			fprintf(fp, "    rank %d: entered %s #%lld", s->rank,
				s->op[0] ? s->op : "nothing", s->entered);
			if (s->completed >= 0)
				fprintf(fp, ", completed #%lld", s->completed);
			fprintf(fp, "%s%s\n", s->frame[0] ? ", from " : "",
				s->frame);
		}
	}
	for (int i = 0; i < v->nf; i++) {
		const struct fr_finding *f = &v->f[i];

		const struct finding_def *fd =
			finding_get(frdump_code(f->kind));
		char fix[512];

		frdump_fix(f, fix, sizeof(fix));
		fprintf(fp, "  %s%s: %s\n", fd->code, f->kind == FR_DESYNC ?
			" (a code bug, not the network)" : "", f->summary);
		for (int k = 0; k < f->nevidence; k++)
			fprintf(fp, "    %s\n", f->evidence[k]);
		if (fd->sev != SEV_INFO)
			fprintf(fp, "    what to do: %s\n", fix[0] ? fix :
				fd->fix);
	}
	for (int i = 0; i < x->nbad && i < 8; i++)
		fprintf(fp, "  not read: %s\n", x->bad[i]);
	if (v->nf == 0)
		fprintf(fp, "  every rank finished its last collective: no "
			"hang in these dumps\n");
}

void explain_fr_free(struct explain_fr *x)
{
	if (x == NULL)
		return;
	frdump_verdict_free(&x->v);
	free(x);
}

/* The weight a dump's finding gives its rank in the joined verdict: a
 * rank that never arrived is as strong as a count that stopped; one that
 * wrote no dump or did not finish, as a rank that did not answer; a late
 * or desynchronised rank is no suspect. */
static int fr_weight(enum fr_kind k)
{
	switch (k) {
	case FR_NOT_ARRIVED:
		return JV_W_STOPPED;
	case FR_NOT_FINISHED:
	case FR_NO_DUMP:
		return JV_W_MISSING;
	default:
		return 0;
	}
}

/* A summary without its leading "rank N ", which the joined verdict
 * writes itself. */
static const char *skip_rank_word(const char *summary, int rank)
{
	char lead[32];
	size_t n = (size_t)snprintf(lead, sizeof(lead), "rank %d ", rank);

	return strncmp(summary, lead, n) == 0 ? summary + n : summary;
}

void explain_fr_join(const struct explain_fr *x, struct job_verdict *jv)
{
	bool ends_unknown = false, desync = false;
	char said[256];

	for (int i = 0; i < x->v.nf; i++) {
		const struct fr_finding *f = &x->v.f[i];
		struct jv_suspect s;

		desync = desync || f->kind == FR_DESYNC;
		(void)jv_event(jv, f->at_ns > 0 ? f->at_ns / 1000000 : 0,
			       "", "fr", "", "%.240s", f->summary);
		if (fr_weight(f->kind) == 0 || f->rank < 0)
			continue;
		memset(&s, 0, sizeof(s));
		snprintf(s.source, sizeof(s.source), "fr");
		s.rank = f->rank;
		s.pid = -1;
		s.weight = fr_weight(f->kind);
		snprintf(s.what, sizeof(s.what), "%.250s",
			 skip_rank_word(f->summary, f->rank));
		(void)jv_suspect(jv, &s);
	}
	for (int g = 0; g < x->v.ngroups; g++)
		ends_unknown = ends_unknown || !x->v.groups[g].completion_known;
	snprintf(said, sizeof(said), "%d dump(s) read, %d group(s), %d "
		 "finding(s)%s", x->nread, x->v.ngroups, x->v.nf,
		 desync ? "; the ranks ran different collectives (a desync: a "
		 "code bug, not the network)" : "");
	(void)jv_source(jv, "fr", x->nread > 0, said,
			ends_unknown ? "hosts (dumps name ranks only); whether "
			"Gloo's last collective finished (Gloo records no ends)" :
			"hosts (dumps name ranks only)");
}

void explain_fr_settle(const struct explain_fr *x, struct job_verdict *jv)
{
	for (int i = 0; i < x->v.nf && jv->nsuspects == 0; i++)
		if (x->v.f[i].kind == FR_DESYNC) {
			snprintf(jv->headline, sizeof(jv->headline), "the "
				 "ranks ran different collectives: a desync, "
				 "a code bug, not the network (%.900s)",
				 x->v.f[i].summary);
			snprintf(jv->action, sizeof(jv->action), "fix the "
				 "code path that the ranks took apart (the "
				 "Flight Recorder verdict names the op and "
				 "sequence number)");
			return;
		}
}
