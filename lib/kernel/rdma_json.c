/* The `rdma` object of netprobe-json(5): devices, ports, GIDs, the
 * uverbs files, RLIMIT_MEMLOCK, GPUDirect modules and GPU placement. */
#include "kernel/rdma.h"

/* A limit in bytes, null when unknown, -1 for unlimited. */
static json_t *limit_json(long long v)
{
	return v == -2 ? json_null() : json_integer(v);
}

/* One port with its GID table. */
static json_t *port_json(const struct rdma_port *p)
{
	json_t *gids = json_array();

	for (int i = 0; gids != NULL && i < p->ngids; i++) {
		const struct rdma_gid *g = &p->gids[i];

		json_array_append_new(
		    gids, json_pack("{s:i, s:s, s:s, s:s?}", "index", g->index,
		                    "gid", g->text, "type",
		                    rdma_gid_type_name(g->type), "netdev",
		                    g->ndev[0] ? g->ndev : NULL));
	}
	return json_pack(
	    "{s:i, s:i, s:s, s:i, s:s, s:s, s:s, s:i, s:o, s:s?, s:s?, s:b, "
	    "s:i, s:o}",
	    "port", (int)p->num, "state", p->state, "state_name", p->state_str,
	    "phys_state", p->phys_state, "phys_state_name", p->phys_str,
	    "link_layer", rdma_link_name(p->link), "rate", p->rate,
	    "rate_gbps", p->rate_gbps, "active_mtu",
	    p->active_mtu ? json_integer(p->active_mtu) : json_null(),
	    "active_mtu_from", p->mtu_from[0] ? p->mtu_from : NULL, "netdev",
	    p->netdev[0] ? p->netdev : NULL, "netdev_in_netns", p->netdev_here,
	    "gid_tbl_len", p->gid_tbl_len, "gids", gids);
}

/* One device, its ports and its PCIe distance to each GPU. */
static json_t *dev_json(const struct rdma_info *info, const struct rdma_dev *d)
{
	json_t *ports = json_array(), *gpus = json_object();

	for (int i = 0; ports != NULL && i < d->nports; i++)
		json_array_append_new(ports, port_json(&d->ports[i]));
	for (int i = 0; gpus != NULL && i < info->ngpus; i++)
		json_object_set_new(
		    gpus, info->gpus[i].pci,
		    json_string(rdma_path_name(rdma_pci_distance(
		        d->pci_path, d->numa, info->gpus[i].pci_path,
		        info->gpus[i].numa))));
	return json_pack("{s:s, s:s, s:s?, s:s?, s:i, s:b, s:o, s:o}", "name",
	                 d->name, "node_guid", d->node_guid, "pci",
	                 d->pci[0] ? d->pci : NULL, "pci_path",
	                 d->pci_path[0] ? d->pci_path : NULL, "numa_node",
	                 d->numa, "sriov_vf", d->vf, "ports", ports,
	                 "gpu_distance", gpus);
}

/* See netprobe-json(5), section rdma. */
json_t *rdma_to_json(const struct rdma_info *info)
{
	json_t *devs = json_array(), *uv = json_array(), *gpus = json_array();

	for (int i = 0; devs != NULL && i < info->ndevs; i++)
		json_array_append_new(devs, dev_json(info, &info->devs[i]));
	for (int i = 0; uv != NULL && i < info->nuverbs; i++)
		json_array_append_new(uv, json_string(info->uverbs[i]));
	for (int i = 0; gpus != NULL && i < info->ngpus; i++)
		json_array_append_new(
		    gpus, json_pack("{s:s, s:s, s:i}", "pci", info->gpus[i].pci,
		                    "pci_path", info->gpus[i].pci_path,
		                    "numa_node", info->gpus[i].numa));
	return json_pack(
	    "{s:o, s:s, s:s?, s:o, s:s?, s:o, s:o, s:o, s:b, s:s?, s:s, s:o, "
	    "s:i}",
	    "devices", devs, "source",
	    info->from_netlink ? "netlink+sysfs" : "sysfs", "netlink_error",
	    info->nl_error[0] ? info->nl_error : NULL, "netns_mode",
	    info->netns_mode < 0 ? json_null()
	                         : json_string(info->netns_mode ? "shared"
	                                                        : "exclusive"),
	    "netns_mode_from", info->netns_from[0] ? info->netns_from : NULL,
	    "uverbs", uv, "memlock_soft_bytes", limit_json(info->memlock_soft),
	    "memlock_hard_bytes", limit_json(info->memlock_hard),
	    "gpudirect_peermem", info->peermem, "gpudirect_peermem_from",
	    info->peermem_from[0] ? info->peermem_from : NULL, "kernel",
	    info->kernel, "gpus", gpus, "pci_rdma_functions",
	    info->pci_rdma_funcs);
}
