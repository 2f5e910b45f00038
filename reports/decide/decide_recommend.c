/* netprobe report, decide: the cluster-wide recommendation, put together.
 * The order of the calls is the order of the settings in the report: the
 * interface per node first (everything rests on it), NCCL's and Gloo's
 * names, the job's head, the scans' other variables; then ports, changes,
 * MTUs and notes. */
#include <string.h>

#include "report_decide.h"

/* The interface every node chose, or NULL when they differ or a node is
 * blocked. Drops the scan file each per_node entry carried for the
 * deciders. */
static const char *common_interface(json_t *per_node, const json_t *blocked)
{
	const char *common = NULL;
	size_t i;
	json_t *p;

	json_array_foreach(per_node, i, p) {
		if (i == 0)
			common = rj_str(p, "interface");
		else if (common != NULL &&
			 strcmp(common, rj_str(p, "interface")) != 0)
			common = NULL;
		json_object_del(p, "file");
	}
	return json_array_size(blocked) > 0 ? NULL : common;
}

json_t *rd_recommend(const struct rctx *c)
{
	json_t *per_node = json_array(), *blocked = json_array();
	json_t *conflicts = json_array(), *settings = json_array();
	json_t *nccl_conf = json_array(), *p;
	struct rd_head head;
	bool per_node_only;
	size_t i;

	rd_choice(c, per_node, blocked, conflicts);
	rd_nat_conflicts(c, per_node, conflicts);
	per_node_only = rd_ifname_cluster(c, per_node, blocked, settings);
	json_array_foreach(per_node, i, p) {
		rd_ifname_node(p, per_node_only, settings, nccl_conf);
		rd_gloo(c, p, settings);
	}
	if (rd_master(c, per_node, settings, &head))
		rd_ray(&head, settings);
	rd_other_env(c, per_node, settings);
	rd_mark_disputed(settings, conflicts);
	return json_pack("{s:o, s:{s:s?, s:o}, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o}",
			 "notes", rd_notes(c), "interface", "common",
			 common_interface(per_node, blocked), "per_node",
			 per_node, "settings", settings, "nccl_conf", nccl_conf,
			 "blocked", blocked, "conflicts", conflicts, "firewall",
			 rd_firewall(c), "changes", rd_changes(c), "mtu",
			 rd_mtu(c));
}
