/* netprobe report: the one walk over the model. The order and grouping of
 * the sections live here, for every format: the verdict; findings under
 * their headings; conflicting evidence; the recommendation (notes, the
 * interfaces, settings, /etc/nccl.conf, ports to open, changes, MTUs);
 * the details (nodes, mesh, connectivity, heartbeats, NCCL, inputs). */
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

/* The recommendation, in the order the deciders built it. */
static void recommendation(const struct report_model *m,
			   const struct report_emitter *e, void *o)
{
	static const char *const dialects[] = {"nftables", "ufw", "firewalld"};
	size_t i;
	json_t *v;

	CALL(e, begin, o, RSEC_RECOMMENDATION);
	json_array_foreach(m->notes, i, v)
		CALL(e, note, o, json_string_value(v));
	CALL(e, interfaces, o, m);
	if (m->settings.all.n > 0)
		CALL(e, settings, o, &m->settings);
	list(e, o, RSEC_NCCL_CONF, m->nccl_conf, e->conf_line, false);
	json_array_foreach(m->firewall, i, v) {
		CALL(e, firewall, o, v);
		for (int d = 0; d < 3; d++) {
			json_t *cmds = rj_arr(json_object_get(v, "commands"),
					      dialects[d]);

			if (json_array_size(cmds) > 0)
				CALL(e, commands, o, dialects[d], cmds);
		}
	}
	list(e, o, RSEC_CHANGES, m->changes, e->change, false);
	list(e, o, RSEC_MTU, m->mtu, e->mtu, false);
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
