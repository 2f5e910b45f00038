/* netprobe report, decide: Ray. The head runs on the job's head node (the
 * node MASTER_ADDR names); workers join it there, each with its own
 * address, since Ray otherwise advertises whatever the hostname resolves
 * to. */
#include "report_decide.h"

#define RAY_HEAD_PORT 6379

void rd_ray(const struct rd_head *h, json_t *settings)
{
	char why[512], ray[300];

	snprintf(ray, sizeof(ray), "%s:%d", h->addr, RAY_HEAD_PORT);
	snprintf(why, sizeof(why),
		 "the Ray head on %s; start it with ray start --head "
		 "--node-ip-address=%s, workers with --address=%s and "
		 "their own --node-ip-address",
		 h->node, h->addr, ray);
	rd_add_setting(
		settings, "RAY_ADDRESS", ray, NULL, why,
		json_pack("[o]", rd_cite(h->node, "scan.recommendation")));
}
