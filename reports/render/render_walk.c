/* netprobe report: the one walk over the model. The order and grouping of
 * the sections live here, for every format: the verdict; the root causes,
 * each with its fix and its symptoms; the findings no cause owns under
 * their headings; conflicting evidence; the recommendation (notes, the
 * interfaces, settings, /etc/nccl.conf, ports to open, changes, MTUs);
 * the details (nodes, mesh, connectivity, heartbeats, NCCL, inputs). */
#include <string.h>

#include "report_emit.h"

#define CALL(e, fn, ...)                                                       \
	do {                                                                   \
		if ((e)->fn != NULL)                                           \
			(e)->fn(__VA_ARGS__);                                  \
	} while (0)

/* A section with a callback per item of arr (item may be NULL); nothing
 * when arr is empty, unless always. */
static void list(const struct report_emitter *e, void *o, enum rsec sec,
		 const json_t *arr, void (*item)(void *, const json_t *),
		 bool always)
{
	size_t i;
	json_t *v;

	if (json_array_size(arr) == 0 && !always)
		return;
	CALL(e, begin, o, sec);
	json_array_foreach(arr, i, v)
		if (item != NULL)
			item(o, v);
	CALL(e, end, o, sec);
}

/* A list of the model, one callback per item. */
static void items(const struct report_emitter *e, void *o, enum rsec sec,
		  const struct rm_list *l, void (*item)(void *, const json_t *))
{
	if (l->n == 0)
		return;
	CALL(e, begin, o, sec);
	for (size_t i = 0; i < l->n; i++)
		if (item != NULL)
			item(o, l->v[i]);
	CALL(e, end, o, sec);
}

/* Firewall dialects in the order a fix shows them: one block each. */
static const char *const dialects[] = {"shell", "nftables", "iptables-legacy",
				       "ufw", "firewalld"};
#define NDIALECTS (sizeof(dialects) / sizeof(dialects[0]))

/* Each dialect's commands of a commands object, one block each. */
static void blocks(const struct report_emitter *e, void *o,
		   const json_t *cmds)
{
	for (size_t d = 0; d < NDIALECTS; d++) {
		const json_t *v = rj_arr(cmds, dialects[d]);

		if (json_array_size(v) > 0)
			CALL(e, commands, o, dialects[d], v);
	}
	/* a hop's workaround: one block per node ("on NODE"), by name */
	const char *last = NULL;

	for (size_t n = 0; n < 4096; n++) {
		const char *key, *best = NULL;
		json_t *v;

		json_object_foreach((json_t *)cmds, key, v)
			if (strncmp(key, "on ", 3) == 0 &&
			    (last == NULL || strcmp(key, last) > 0) &&
			    (best == NULL || strcmp(key, best) < 0))
				best = key;
		if (best == NULL)
			break;
		CALL(e, commands, o, best, rj_arr(cmds, best));
		last = best;
	}
}

/* The root causes: each with its fix and, folded, its symptoms. */
static void causes(const struct report_model *m,
		   const struct report_emitter *e, void *o)
{
	if (m->ncauses == 0)
		return;
	CALL(e, begin, o, RSEC_CAUSES);
	for (size_t i = 0; i < m->ncauses; i++) {
		const struct rm_cause *k = &m->causes[i];

		CALL(e, begin, o, RSEC_CAUSE);
		CALL(e, cause, o, k);
		blocks(e, o,
		       json_object_get(json_object_get(k->cause, "fix"),
				       "commands"));
		items(e, o, RSEC_SYMPTOMS, &k->findings, e->finding);
		CALL(e, end, o, RSEC_CAUSE);
	}
	CALL(e, end, o, RSEC_CAUSES);
}

/* The recommendation, in the order the deciders built it. */
static void recommendation(const struct report_model *m,
			   const struct report_emitter *e, void *o)
{
	size_t i;
	json_t *v;

	CALL(e, begin, o, RSEC_RECOMMENDATION);
	json_array_foreach(m->notes, i, v)
		CALL(e, note, o, json_string_value(v));
	CALL(e, interfaces, o, m);
	if (m->settings.all.n > 0)
		CALL(e, settings, o, &m->settings);
	list(e, o, RSEC_NCCL_CONF, m->nccl_conf, e->conf_line, false);
	for (i = 0; i < m->firewall.n; i++) {
		CALL(e, firewall, o, m->firewall.v[i]);
		blocks(e, o, json_object_get(m->firewall.v[i], "commands"));
	}
	items(e, o, RSEC_CHANGES, &m->changes, e->change);
	items(e, o, RSEC_MTU, &m->mtu, e->mtu);
	CALL(e, end, o, RSEC_RECOMMENDATION);
}

/* Nodes, the mesh, connectivity, heartbeats, NCCL runs and the
 * inputs. */
static void details(const struct report_model *m,
		    const struct report_emitter *e, void *o)
{
	CALL(e, begin, o, RSEC_DETAILS);
	list(e, o, RSEC_NODES, m->nodes, e->node, true);
	if (m->mesh != NULL)
		CALL(e, mesh, o, m->mesh);
	if (m->has_matrix)
		CALL(e, matrix, o, &m->matrix);
	if (m->nhbs > 0) {
		CALL(e, begin, o, RSEC_HEARTBEATS);
		for (size_t i = 0; i < m->nhbs; i++)
			CALL(e, heartbeat, o, &m->hbs[i]);
		CALL(e, end, o, RSEC_HEARTBEATS);
	}
	for (size_t i = 0; i < m->nnccl; i++)
		CALL(e, nccl, o, &m->nccl[i]);
	CALL(e, begin, o, RSEC_INPUTS);
	if (m->nskips > 0) {
		CALL(e, begin, o, RSEC_SKIPPED);
		for (size_t i = 0; i < m->nskips; i++)
			CALL(e, skipped, o, &m->skips[i]);
		CALL(e, end, o, RSEC_SKIPPED);
	}
	CALL(e, end, o, RSEC_INPUTS);
	CALL(e, end, o, RSEC_DETAILS);
}

int report_walk(const struct report_model *m, const struct report_emitter *e,
		void *o, FILE *fp)
{
	CALL(e, begin, o, RSEC_REPORT);
	items(e, o, RSEC_OUTAGES, &m->outages, e->finding);
	causes(m, e, o);
	for (size_t g = 0; g < m->ngroups; g++) {
		const struct rm_group *gr = &m->groups[g];

		if (gr->findings.n == 0)
			continue;
		CALL(e, begin, o, gr->sec);
		for (size_t i = 0; i < gr->findings.n; i++)
			CALL(e, finding, o, gr->findings.v[i]);
		CALL(e, end, o, gr->sec);
	}
	list(e, o, RSEC_CONFLICTS, m->conflicts, e->conflict, false);
	recommendation(m, e, o);
	details(m, e, o);
	CALL(e, end, o, RSEC_REPORT);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
