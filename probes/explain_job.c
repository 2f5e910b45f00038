/* netprobe explain --job: the hung job's state from NCCL's RAS service
 * (NCCL 2.24+), and the nodes of the ranks it names as peers to probe. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain_int.h"
#include "probe/ras.h"

#define RAS_CONNECT_MS 2000

int explain_job(struct explain_run *r)
{
	const char *spec = r->o.ras ? r->o.ras : getenv("NCCL_RAS_ADDR");
	char host[96], port[16], self[256], *answer = NULL;

	r->ras_tried = true;
	if (ras_addr_split(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		snprintf(r->ras_why, sizeof(r->ras_why),
			 "invalid RAS address '%s'", spec);
		return -1;
	}
	snprintf(r->ras_addr, sizeof(r->ras_addr), "%s:%s", host, port);
	if (ras_query(host, port, RAS_CONNECT_MS, r->o.ras_timeout_s, &answer,
		      r->ras_why, sizeof(r->ras_why)) < 0)
		return -1;
	if (ras_parse(answer, &r->ras) < 0) {
		snprintf(r->ras_why, sizeof(r->ras_why), "%s answered, but not "
			 "with a RAS status", r->ras_addr);
		free(answer);
		return -1;
	}
	free(answer);
	r->ras_answered = true;
	if (gethostname(self, sizeof(self)) < 0)
		self[0] = '\0';
	self[sizeof(self) - 1] = '\0';
	for (size_t i = 0; i < r->ras.nprocs; i++) {
		const char *node = r->ras.procs[i].node;
		bool dup = node[0] == '\0' || strcmp(node, self) == 0 ||
			   strcmp(node, "localhost") == 0;

		for (int j = 0; j < r->njob_nodes && !dup; j++)
			dup = strcmp(r->job_nodes[j], node) == 0;
		if (!dup && r->njob_nodes < 4)
			snprintf(r->job_nodes[r->njob_nodes++],
				 sizeof(r->job_nodes[0]), "%s", node);
	}
	return 0;
}
