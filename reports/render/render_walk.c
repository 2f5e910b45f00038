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

/* A section starts: the emitter's begin, then its fixed opening. */
static void enter(const struct report_emitter *e, void *o, enum rsec sec)
{
	CALL(e, begin, o, sec);
	if (e->opens != NULL)
		out_raw(((const struct out *)o)->fp, e->opens[sec]);
}

/* A section ends: its fixed closing, then the emitter's end. */
static void leave(const struct report_emitter *e, void *o, enum rsec sec)
{
	if (e->closes != NULL)
		out_raw(((const struct out *)o)->fp, e->closes[sec]);
	CALL(e, end, o, sec);
}

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
	enter(e, o, sec);
	json_array_foreach(arr, i, v)
		if (item != NULL)
			item(o, v);
	leave(e, o, sec);
}

/* A list of the model, one callback per item. */
static void items(const struct report_emitter *e, void *o, enum rsec sec,
		  const struct rm_list *l, void (*item)(void *, const json_t *))
{
	if (l->n == 0)
		return;
	enter(e, o, sec);
	for (size_t i = 0; i < l->n; i++)
		if (item != NULL)
			item(o, l->v[i]);
	leave(e, o, sec);
}

/* Firewall dialects in the order a fix shows them: one block each. */
static const char *const dialects[] = {"shell", "nftables", "iptables-legacy",
				       "ufw", "firewalld"};
#define NDIALECTS (sizeof(dialects) / sizeof(dialects[0]))

/* One dialect's block: its name (none for "shell"), then its command
 * lines. */
static void block(const struct report_emitter *e, void *o,
		  const char *dialect, const json_t *cmds)
{
	size_t j;
	json_t *c;

	if (strcmp(dialect, "shell") != 0)
		CALL(e, dialect, o, dialect);
	enter(e, o, RSEC_COMMANDS);
	json_array_foreach(cmds, j, c)
		CALL(e, command, o, json_string_value(c));
	leave(e, o, RSEC_COMMANDS);
}

/* Each dialect's commands of a commands object, one block each. */
static void blocks(const struct report_emitter *e, void *o,
		   const json_t *cmds)
{
	for (size_t d = 0; d < NDIALECTS; d++) {
		const json_t *v = rj_arr(cmds, dialects[d]);

		if (json_array_size(v) > 0)
			block(e, o, dialects[d], v);
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
		block(e, o, best, rj_arr(cmds, best));
		last = best;
	}
}

/* The root causes: each with its fix and, folded, its symptoms. */
static void causes(const struct report_model *m,
		   const struct report_emitter *e, void *o)
{
	if (m->ncauses == 0)
		return;
	enter(e, o, RSEC_CAUSES);
	for (size_t i = 0; i < m->ncauses; i++) {
		const struct rm_cause *k = &m->causes[i];

		enter(e, o, RSEC_CAUSE);
		CALL(e, cause, o, k);
		blocks(e, o,
		       json_object_get(json_object_get(k->cause, "fix"),
				       "commands"));
		items(e, o, RSEC_SYMPTOMS, &k->findings, e->symptom);
		leave(e, o, RSEC_CAUSE);
	}
	leave(e, o, RSEC_CAUSES);
}

/* The recommendation, in the order the deciders built it. */
static void recommendation(const struct report_model *m,
			   const struct report_emitter *e, void *o)
{
	size_t i;
	json_t *v;

	enter(e, o, RSEC_RECOMMENDATION);
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
	leave(e, o, RSEC_RECOMMENDATION);
}

/* Nodes, the mesh, connectivity, heartbeats, NCCL runs and the
 * inputs. */
static void details(const struct report_model *m,
		    const struct report_emitter *e, void *o)
{
	enter(e, o, RSEC_DETAILS);
	list(e, o, RSEC_NODES, m->nodes, e->node, true);
	if (m->mesh != NULL)
		CALL(e, mesh, o, m->mesh);
	if (m->has_matrix)
		CALL(e, matrix, o, &m->matrix);
	if (m->nhbs > 0) {
		enter(e, o, RSEC_HEARTBEATS);
		for (size_t i = 0; i < m->nhbs; i++)
			CALL(e, heartbeat, o, &m->hbs[i]);
		leave(e, o, RSEC_HEARTBEATS);
	}
	for (size_t i = 0; i < m->nnccl; i++)
		CALL(e, nccl, o, &m->nccl[i]);
	enter(e, o, RSEC_INPUTS);
	if (m->nskips > 0) {
		enter(e, o, RSEC_SKIPPED);
		for (size_t i = 0; i < m->nskips; i++)
			CALL(e, skipped, o, &m->skips[i]);
		leave(e, o, RSEC_SKIPPED);
	}
	leave(e, o, RSEC_INPUTS);
	leave(e, o, RSEC_DETAILS);
}

int report_walk(const struct report_model *m, const struct report_emitter *e,
		void *o, FILE *fp)
{
	enter(e, o, RSEC_REPORT);
	items(e, o, RSEC_OUTAGES, &m->outages, e->finding);
	causes(m, e, o);
	for (size_t g = 0; g < m->ngroups; g++) {
		const struct rm_group *gr = &m->groups[g];

		if (gr->findings.n == 0)
			continue;
		enter(e, o, gr->sec);
		for (size_t i = 0; i < gr->findings.n; i++)
			CALL(e, finding, o, gr->findings.v[i]);
		leave(e, o, gr->sec);
	}
	list(e, o, RSEC_CONFLICTS, m->conflicts, e->conflict, false);
	recommendation(m, e, o);
	details(m, e, o);
	leave(e, o, RSEC_REPORT);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
