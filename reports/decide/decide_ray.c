/* netprobe report, decide: Ray. The head runs on the job's head node (the
 * node MASTER_ADDR names); workers join it there, each with its own
 * address, since Ray otherwise advertises whatever the hostname resolves
 * to. */
#include "base/hostport.h"
#include "report_decide.h"

#define RAY_HEAD_PORT 6379

void rd_ray(const struct rd_head *h, json_t *settings)
{
	char why[512], ray[300];

	/* an IPv6 head in brackets, as Ray parses it: [fd84::1]:6379
	 * (issue 48); an address too long for ray[] cannot come from a
	 * scan, and then the setting is left out rather than cut */
	if (hostport_format(h->addr, RAY_HEAD_PORT, ray, sizeof(ray)) < 0)
		return;
	snprintf(why, sizeof(why),
		 "the Ray head on %s; start it with ray start --head "
		 "--node-ip-address=%s, workers with --address=%s and "
		 "their own --node-ip-address",
		 h->node, h->addr, ray);
	rd_add_setting(
		settings, "RAY_ADDRESS", ray, NULL, why,
		json_pack("[o]", rd_cite(h->node, "scan.recommendation")));
}
