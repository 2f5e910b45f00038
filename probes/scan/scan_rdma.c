/* netprobe scan's RDMA part: the devices and ports (kernel/rdma.h),
 * NCCL's IB choice (decide/ib_select.h), the rdma-* findings
 * (decide/decide_rdma.h), their JSON, text and export lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_rdma.h"
#include "scan/scan_int.h"

struct scan_rdma {
	struct rdma_info info;
	struct ib_env env;
	struct rdma_verdict v;
};

/* getenv in ib_env_fill's shape. */
static const char *live_get(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

/* env_record_get in ib_env_fill's shape. */
static const char *record_get(const char *name, void *ctx)
{
	return env_record_get(ctx, name);
}

/* Collected after the environment: the settings come from the same
 * place as the scan's other ones. Out of memory leaves it out. */
void scan_rdma_collect(struct scan *s)
{
	s->rdma = calloc(1, sizeof(*s->rdma));
	if (s->rdma == NULL) {
		doc_add_error(&s->run.doc, "rdma", "out of memory");
		return;
	}
	rdma_collect(&s->rdma->info, &s->sr);
	if (sysroot_is_live(&s->sr))
		ib_env_fill(&s->rdma->env, live_get, NULL);
	else
		ib_env_fill(&s->rdma->env, record_get, &s->envrec);
}

/* The findings, judged with the layering's container verdict. */
int scan_rdma_decide(struct scan *s)
{
	if (s->rdma == NULL)
		return 0;
	return decide_rdma(&s->rdma->info, &s->rdma->env,
	            s->have_layers ? s->ly.container : CONTAINER_NONE,
	            &s->rdma->v, &s->run.doc);
}

/* `rdma` and `nccl_ib`, with the export lines --export would print. */
int scan_rdma_doc(struct scan *s)
{
	json_t *ib;

	if (s->rdma == NULL)
		return doc_set(&s->run.doc, "rdma", json_null()) ||
		       doc_set(&s->run.doc, "nccl_ib", json_null());
	ib = ib_choice_to_json(&s->rdma->info, &s->rdma->v.choice);
	if (ib != NULL) {
		json_object_set_new(ib, "export_hca",
		                    s->rdma->v.export_hca[0]
		                        ? json_string(s->rdma->v.export_hca)
		                        : json_null());
		json_object_set_new(ib, "hca_verdict",
		                    s->rdma->v.hca_note[0]
		                        ? json_string(s->rdma->v.hca_note)
		                        : json_null());
		json_object_set_new(ib, "gid_index_verdict",
		                    s->rdma->v.gid_note[0]
		                        ? json_string(s->rdma->v.gid_note)
		                        : json_null());
		json_object_set_new(ib, "export_gid_index",
		                    s->rdma->v.export_gid_index >= 0
		                        ? json_integer(s->rdma->v.export_gid_index)
		                        : json_null());
	}
	return doc_set(&s->run.doc, "rdma", rdma_to_json(&s->rdma->info)) ||
	       doc_set(&s->run.doc, "nccl_ib", ib);
}

/* --export: NCCL_IB_HCA and NCCL_IB_GID_INDEX only where proven. */
void scan_rdma_export(const struct scan *s, const char *indent)
{
	const struct rdma_verdict *v;

	if (s->rdma == NULL || s->rdma->info.ndevs == 0)
		return;
	v = &s->rdma->v;
	if (v->export_hca[0] == '\0') {
		printf("%s# NCCL_IB_HCA not exported: %s\n", indent,
		       v->choice.fallback ? v->choice.why
		                          : "an rdma finding must be fixed first");
		return;
	}
	printf("%sexport NCCL_IB_HCA='%s'\n", indent, v->export_hca);
	if (v->export_gid_index >= 0)
		printf("%sexport NCCL_IB_GID_INDEX=%d\n", indent,
		       v->export_gid_index);
}

/* The `ibdev2netdev` map, the ports, the placement and NCCL's choice. */
void scan_rdma_text(const struct scan *s)
{
	const struct rdma_info *in;
	const struct ib_choice *c;

	if (s->rdma == NULL)
		return;
	in = &s->rdma->info;
	c = &s->rdma->v.choice;
	if (in->ndevs == 0 && in->pci_rdma_funcs == 0)
		return;
	printf("\nrdma (%s; netns mode %s)\n",
	       in->from_netlink ? "netlink+sysfs" : "sysfs",
	       in->netns_mode == 1   ? "shared"
	       : in->netns_mode == 0 ? "exclusive"
	                             : "unknown");
	for (int d = 0; d < in->ndevs; d++) {
		const struct rdma_dev *x = &in->devs[d];

		for (int i = 0; i < x->nports; i++) {
			const struct rdma_port *p = &x->ports[i];

			printf("  %s port %u ==> %s (%s) %s %s %s", x->name,
			       p->num, p->netdev[0] ? p->netdev : "-",
			       p->state_str[0] ? p->state_str : "?",
			       rdma_link_name(p->link),
			       p->rate[0] ? p->rate : "rate ?",
			       x->pci[0] ? x->pci : "pci ?");
			if (x->numa >= 0)
				printf(" numa %d", x->numa);
			if (p->active_mtu)
				printf(" mtu %d", p->active_mtu);
			if (p->netdev[0] && !p->netdev_here)
				printf(" (netdev in another netns)");
			putchar('\n');
		}
	}
	printf("  uverbs %d, memlock ", in->nuverbs);
	if (in->memlock_soft == -1)
		printf("unlimited");
	else if (in->memlock_soft >= 0)
		printf("%lld KiB", in->memlock_soft / 1024);
	else
		printf("?");
	printf(", nvidia-peermem %s, GPUs %d\n", in->peermem ? "yes" : "no",
	       in->ngpus);
	printf("\nnccl's IB choice\n");
	if (c->fallback) {
		printf("  NET/Socket: %s\n  NCCL says: %s\n", c->why,
		       c->nccl_says);
	} else {
		printf("  NET/IB : Using");
		for (int i = 0; i < c->n; i++) {
			const struct rdma_dev *x = &in->devs[c->v[i].dev];
			const struct rdma_port *p = &x->ports[c->v[i].port];

			printf(" [%d]%s:%u/%s", i, x->name, p->num,
			       p->link == RDMA_LINK_IB ? "IB" : "RoCE");
		}
		putchar('\n');
		for (int i = 0; i < c->n; i++) {
			const struct rdma_dev *x = &in->devs[c->v[i].dev];
			const struct rdma_port *p = &x->ports[c->v[i].port];

			if (p->link != RDMA_LINK_ETH)
				continue;
			printf("  %s:%u GID index %d%s", x->name, p->num,
			       c->v[i].gid_index,
			       c->v[i].gid_forced ? " (NCCL_IB_GID_INDEX)" : "");
			if (c->v[i].gid_index < p->ngids)
				printf(" %s %s",
				       p->gids[c->v[i].gid_index].text,
				       rdma_gid_type_name(
				           p->gids[c->v[i].gid_index].type));
			putchar('\n');
		}
	}
	for (int g = 0; g < in->ngpus; g++) {
		enum rdma_path best = RDMA_PATH_UNKNOWN;
		const char *nic = "-";

		for (int i = 0; i < c->n; i++) {
			const struct rdma_dev *x = &in->devs[c->v[i].dev];
			enum rdma_path p = rdma_pci_distance(
			    x->pci_path, x->numa, in->gpus[g].pci_path,
			    in->gpus[g].numa);

			if (p != RDMA_PATH_UNKNOWN &&
			    (best == RDMA_PATH_UNKNOWN || p < best)) {
				best = p;
				nic = x->name;
			}
		}
		printf("  GPU %s: nearest NIC %s (%s)\n", in->gpus[g].pci, nic,
		       rdma_path_name(best));
	}
	if (s->rdma->v.hca_note[0])
		printf("  %s\n", s->rdma->v.hca_note);
	if (s->rdma->v.gid_note[0])
		printf("  %s\n", s->rdma->v.gid_note);
	scan_rdma_export(s, "  ");
}

/* Frees the part. */
void scan_rdma_free(struct scan *s)
{
	free(s->rdma);
	s->rdma = NULL;
}
