/* NCCL RAS STATUS text to struct ras_state (decide/ras_parse.h); the line
 * forms are rasOutAppend's in NCCL's src/ras/client_support.cc. */
#include "decide/ras_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "doc/doc.h"

enum section { SEC_HEAD, SEC_DEAD, SEC_INCOMPLETE, SEC_COMM, SEC_MISMATCH,
	       SEC_OTHER };

/* The MISMATCH block being read: its operation and the count of the
 * group line before the ranks it lists. */
struct mism {
	char op[16];
	unsigned long long count;
	bool have_count;
};

static void add_count(struct ras_state *st, const char *op, int rank,
		      int nranks, long pid, const char *node, const char *gpu,
		      unsigned long long count)
{
	struct ras_count *c;

	if (st->ncounts >= RAS_MAX_COUNTS || st->ncomms == 0)
		return;
	c = &st->counts[st->ncounts++];
	memcpy(c->comm, st->comms[st->ncomms - 1].id, sizeof(c->comm));
	snprintf(c->op, sizeof(c->op), "%s", op);
	c->rank = rank;
	c->nranks = nranks;
	c->pid = pid;
	snprintf(c->node, sizeof(c->node), "%s", node);
	snprintf(c->gpu, sizeof(c->gpu), "%s", gpu);
	c->count = count;
	doc_utf8_fix(c->op);
	doc_utf8_fix(c->node);
	doc_utf8_fix(c->gpu);
}

/* A line of a MISMATCH block (rasClientRunComms): which operation's
 * counts differ, how many ranks launched up to which operation, and the
 * ranks it names. Returns true when the line was one of them. */
static bool parse_mismatch(const char *l, struct ras_state *st,
			   struct mism *m)
{
	char op[16], node[128], gpu[32];
	unsigned long long v;
	int n, rank;
	long pid;
	const char *dash = strstr(l, " -- GPU ");

	if (sscanf(l, " Communicator ranks have different %15s operation",
		   op) == 1) {
		snprintf(m->op, sizeof(m->op), "%s", op);
		m->have_count = false;
		return true;
	}
	if (m->op[0] == '\0')
		return false;
	if (sscanf(l, " %d ranks have launched up to operation %llu", &n,
		   &v) == 2 ||
	    (strstr(l, " ranks have not launched any operation") &&
	     sscanf(l, " %d ranks", &n) == 1 && (v = 0, true))) {
		add_count(st, m->op, -1, n, -1, "", "", v);
		m->count = v;
		m->have_count = true;
		return true;
	}
	if (dash == NULL || sscanf(dash, " -- GPU %31s managed by process %ld "
				   "on node %127s", gpu, &pid, node) != 3)
		return false;
	if (sscanf(l, " Rank %d has launched up to operation %llu", &rank,
		   &v) == 2 ||
	    (strstr(l, " has not launched any operation") &&
	     sscanf(l, " Rank %d", &rank) == 1 && (v = 0, true))) {
		add_count(st, m->op, rank, 1, pid, node, gpu, v);
		return true;
	}
	if (sscanf(l, " Rank %d --", &rank) == 1 && m->have_count) {
		/* a listed member of the group line before: that group's
		 * count holds one rank fewer unnamed */
		if (st->ncounts > 0 && st->counts[st->ncounts - 1].rank == -1)
			st->counts[st->ncounts - 1].nranks--;
		else
			for (size_t i = st->ncounts; i-- > 0;)
				if (st->counts[i].rank == -1) {
					st->counts[i].nranks--;
					break;
				}
		add_count(st, m->op, rank, 1, pid, node, gpu, m->count);
		return true;
	}
	return false;
}

static void add_proc(struct ras_state *st, enum ras_proc_kind kind,
		     int rank, long pid, const char *node, const char *gpu,
		     const char *comm)
{
	struct ras_proc *p;

	if (st->nprocs >= RAS_MAX_PROCS)
		return;
	p = &st->procs[st->nprocs++];
	p->kind = kind;
	p->rank = rank;
	p->pid = pid;
	snprintf(p->node, sizeof(p->node), "%s", node);
	snprintf(p->gpu, sizeof(p->gpu), "%s", gpu);
	snprintf(p->comm, sizeof(p->comm), "%s", comm ? comm : "");
	doc_utf8_fix(p->node); /* explain's document and findings name them */
	doc_utf8_fix(p->gpu);
}

/* The GPU list after "managing GPU " or "managing GPUs ". */
static int gpu_of(const char *l, char *gpu, size_t len)
{
	const char *p = strstr(l, " managing GPU");

	if (p == NULL)
		return -1;
	p += strlen(" managing GPU");
	if (*p == 's')
		p++;
	while (*p == ' ')
		p++;
	snprintf(gpu, len, "%.*s", (int)strcspn(p, " "), p);
	return 0;
}

/* One line, in the section the previous headers opened. */
static void parse_line(const char *l, struct ras_state *st,
		       enum section *sec, bool *seen, struct mism *m)
{
	char node[128], gpu[32], id[48], what[16];
	int a, b, n, rank;
	long pid;
	unsigned long long hash;

	if (sscanf(l, "NCCL version %31s", st->nccl_version) == 1) {
		doc_utf8_fix(st->nccl_version);
		*seen = true;
		return;
	}
	if (strcmp(l, "Errors") == 0 || strcmp(l, "Warnings") == 0 ||
	    strncmp(l, "Job summary", 11) == 0) {
		*seen = true;
		*sec = SEC_OTHER;
		return;
	}
	if (strcmp(l, "DEAD") == 0) {
		*sec = SEC_DEAD;
		return;
	}
	if (strcmp(l, "INCOMPLETE") == 0) {
		*sec = SEC_INCOMPLETE;
		return;
	}
	if (sscanf(l, "#%d-%d (%llx) %15s", &a, &b, &hash, what) == 4) {
		*sec = SEC_OTHER;
		if (st->ncomms < RAS_MAX_COMMS) {
			struct ras_comm *c = &st->comms[st->ncomms++];

			snprintf(c->id, sizeof(c->id), "#%d-%d (%016llx)", a,
				 b, hash);
			snprintf(c->what, sizeof(c->what), "%s", what);
			doc_utf8_fix(c->what);
			c->nmissing = 0;
			if (strcmp(what, "INCOMPLETE") == 0)
				*sec = SEC_COMM;
			if (strcmp(what, "MISMATCH") == 0) {
				*sec = SEC_MISMATCH;
				memset(m, 0, sizeof(*m));
			}
		}
		return;
	}
	if (*sec == SEC_MISMATCH && parse_mismatch(l, st, m))
		return;
	if (sscanf(l, " Missing communicator data from %d rank", &n) == 1 &&
	    *sec == SEC_COMM && st->ncomms > 0) {
		st->comms[st->ncomms - 1].nmissing = n;
		return;
	}
	if (sscanf(l, " Missing communicator data from %d job process",
		   &n) == 1) {
		st->nmissing_procs = n;
		return;
	}
	if (sscanf(l, " %d job process", &n) == 1 && strstr(l, "dead")) {
		st->ndead = n;
		return;
	}
	if (sscanf(l, " Encountered %d communication timeout", &n) == 1) {
		st->timeouts = n;
		return;
	}
	if (sscanf(l, " Warning: missing data from %d process", &n) == 1) {
		if (st->nmissing_procs < n)
			st->nmissing_procs = n;
		*sec = SEC_HEAD;
		return;
	}
	if (sscanf(l, " Process %ld on node %127s managing", &pid, node) == 2 &&
	    gpu_of(l, gpu, sizeof(gpu)) == 0) {
		if (*sec == SEC_DEAD)
			add_proc(st, RAS_PROC_DEAD, -1, pid, node, gpu, NULL);
		else if (*sec == SEC_INCOMPLETE || *sec == SEC_HEAD) {
			for (size_t i = 0; i < st->nprocs; i++)
				if (st->procs[i].pid == pid &&
				    strcmp(st->procs[i].node, node) == 0)
					return;
			add_proc(st, RAS_PROC_UNRESPONSIVE, -1, pid, node, gpu,
				 NULL);
		}
		return;
	}
	if (*sec == SEC_COMM &&
	    sscanf(l, " Rank %d -- GPU %31s managed by process %ld on node "
		      "%127s", &rank, gpu, &pid, node) == 4) {
		snprintf(id, sizeof(id), "%s", st->comms[st->ncomms - 1].id);
		add_proc(st, RAS_PROC_MISSING_RANK, rank, pid, node, gpu, id);
		return;
	}
	if (*sec == SEC_COMM &&
	    sscanf(l, " Rank %d -- [process information not found", &rank) ==
		1)
		add_proc(st, RAS_PROC_MISSING_RANK, rank, -1, "", "",
			 st->comms[st->ncomms - 1].id);
}

int ras_parse(const char *text, struct ras_state *st)
{
	enum section sec = SEC_HEAD;
	struct mism m = {{0}, 0, false};
	bool seen = false;
	char line[512];

	memset(st, 0, sizeof(*st));
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s",
			 (int)(n < sizeof(line) - 1 ? n : sizeof(line) - 1),
			 p);
		if (n > 0 && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		parse_line(line, st, &sec, &seen, &m);
		p += n;
		if (*p == '\n')
			p++;
	}
	if (!seen) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
