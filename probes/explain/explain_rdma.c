/* netprobe explain's RDMA measurement: the scan's collector and decider
 * (kernel/rdma.h, decide/decide_rdma.h) into a scratch document, judged
 * with the NCCL_IB_* settings of the environment or, where it has none,
 * those the log echoes; its rdma-* findings are explain's measured
 * causes. A node without RDMA hardware proves nothing RDMA. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_rdma.h"
#include "decide/explain_rdma.h"
#include "doc/finding.h"
#include "explain/explain_int.h"
#include "kernel/jobenv.h"
#include "base/sysroot.h"

struct ib_src {
	struct explain_run *r;
	const struct env_record *rec; /* NULL: the live process */
};

/* ib_env_fill's getter: the environment first, then the log's echo
 * (noted, since the node is judged with the job's own value). */
static const char *ib_get(const char *name, void *ctx)
{
	struct ib_src *c = ctx;
	const char *env = c->rec ? env_record_get(c->rec, name) : getenv(name);
	const char *logv = explain_setting(&c->r->lg, name);
	bool from_log;
	const char *v = explain_ib_value(env, &c->r->lg, name, &from_log);

	if (from_log)
		explain_note(c->r, "%s=%s taken from the log for the RDMA "
			     "checks", name, v);
	else if (env != NULL && logv != NULL && strcmp(env, logv) != 0)
		explain_note(c->r, "%s is '%s' here but the log's job used "
			     "'%s'", name, env, logv);
	return v;
}

/* What the RDMA side is, in one note: the devices and NCCL's choice. */
static void rdma_note(struct explain_run *r, const struct rdma_info *info,
		      const struct rdma_verdict *v)
{
	char buf[256];

	if (explain_rdma_absent_note(info, buf, sizeof(buf)) == 0) {
		r->rdma_absent = true;
		explain_note(r, "%s", buf);
		return;
	}
	if (info->ndevs == 0)
		explain_note(r, "RDMA: no device visible, %d Mellanox PCI "
			     "function(s) on the bus", info->pci_rdma_funcs);
	else if (v->choice.fallback)
		explain_note(r, "RDMA: %d device(s); NCCL would fall back to "
			     "sockets: %.160s", info->ndevs, v->choice.why);
	else
		explain_note(r, "RDMA: %d device(s); NCCL would use %d "
			     "port(s)", info->ndevs, v->choice.n);
}

/* The scratch document's non-info findings become measured causes. */
static void take_findings(struct explain_run *r, const struct doc *d)
{
	size_t i;
	json_t *f;

	json_array_foreach(d->findings, i, f) {
		const char *code =
			json_string_value(json_object_get(f, "code"));
		const char *sum =
			json_string_value(json_object_get(f, "summary"));
		const char *sev =
			json_string_value(json_object_get(f, "severity"));
		const char *fix = json_string_value(json_object_get(f, "fix"));

		/* info: a deliberate choice (NCCL_IB_DISABLE), not a fault */
		if (finding_in_family(code, FAMILY_RDMA) && sev &&
		    strcmp(sev, "info") != 0)
			explain_found_fix(r, code, sum, fix);
	}
}

/* One collection and one judgement, as scan makes them: the findings
 * and their fixes are scan's, so explain and scan never disagree. */
void explain_rdma(struct explain_run *r, const struct sysroot *sr)
{
	struct rdma_info *info = calloc(1, sizeof(*info));
	struct rdma_verdict *v = calloc(1, sizeof(*v));
	struct env_record *rec = NULL;
	struct ib_src src = {.r = r};
	const char *codes[16];
	struct ib_env env;
	struct doc d;
	size_t n;

	if (info == NULL || v == NULL || doc_init(&d, "netprobe", "scan") < 0) {
		explain_note(r, "the RDMA checks could not run: out of memory");
		free(info);
		free(v);
		return;
	}
	if (!sysroot_is_live(sr)) {
		if ((rec = calloc(1, sizeof(*rec))) == NULL) {
			explain_note(r, "the RDMA checks could not run: out "
				     "of memory");
			goto out;
		}
		if (env_record_read(sr, rec) < 0)
			explain_note(r, "no recorded environment in the "
				     "sysroot: NCCL_IB_* from the log only");
		src.rec = rec;
	}
	rdma_collect(info, sr);
	ib_env_fill(&env, ib_get, &src);
	if (!r->have_container)
		explain_note(r, "container unknown (no layering): the RDMA "
			     "fixes are written for a host");
	if (decide_rdma(info, &env, r->container, v, &d) < 0) {
		explain_note(r, "the RDMA checks could not run: out of memory");
	} else {
		n = explain_rdma_checkable(info, codes,
					   sizeof(codes) / sizeof(codes[0]));
		for (size_t i = 0; i < n; i++)
			explain_checked(r, codes[i]);
		take_findings(r, &d);
		rdma_note(r, info, v);
	}
out:
	doc_free(&d);
	free(rec);
	free(info);
	free(v);
}
