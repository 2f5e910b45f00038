/* The pre-flight's comparison of the ranks' IB settings: NCCL_IB_HCA,
 * NCCL_IB_GID_INDEX, NCCL_IB_DISABLE and NCCL_NET as each process saw
 * them (its environment; NCCL's configuration files are not read here).
 * No CUDA, no NCCL. */
#include "preflight/preflight.h"

#include <stdio.h>
#include <string.h>

#include "doc/finding.h"

/* "-" stands for unset, so "" (set but empty) stays distinct. */
void nc_ib_env_format(const char *hca, const char *gid, const char *disable,
		      const char *net, char *buf, size_t len)
{
	snprintf(buf, len, "HCA=%.40s;GID=%.8s;DISABLE=%.8s;NET=%.16s",
		 hca ? hca : "-", gid ? gid : "-", disable ? disable : "-",
		 net ? net : "-");
}

/* The value of field key ("HCA=") in an ib_env string into out. */
static void field(const char *env, const char *key, char *out, size_t len)
{
	const char *p = strstr(env, key), *end;
	size_t n;

	out[0] = '\0';
	if (p == NULL)
		return;
	p += strlen(key);
	end = strchr(p, ';');
	n = end != NULL ? (size_t)(end - p) : strlen(p);
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* One finding per field whose value differs between processes: the
 * first process's value against the first that differs. */
int nc_decide_ib_env(const struct nc_rankinfo *byproc, int nprocs,
		     struct nc_pf_finding *out, int max)
{
	static const char *const keys[] = {"DISABLE=", "NET=", "HCA=",
					   "GID="};
	static const char *const names[] = {"NCCL_IB_DISABLE", "NCCL_NET",
					    "NCCL_IB_HCA",
					    "NCCL_IB_GID_INDEX"};
	int n = 0;

	if (nprocs < 2 || byproc[0].ib_env[0] == '\0')
		return 0;
	for (int k = 0; k < 4 && n < max; k++) {
		char a[64], b[64];

		field(byproc[0].ib_env, keys[k], a, sizeof(a));
		for (int p = 1; p < nprocs; p++) {
			if (byproc[p].ib_env[0] == '\0')
				continue;
			field(byproc[p].ib_env, keys[k], b, sizeof(b));
			if (strcmp(a, b) == 0)
				continue;
			snprintf(out[n].code, sizeof(out[n].code), "%s",
			         finding_name(FINDING_RDMA_ENV_MISMATCH));
			out[n].severity = k < 2 ? SEV_FAULT : SEV_INFO;
			snprintf(out[n].summary, sizeof(out[n].summary),
				 "%s differs between ranks: '%s' on %s (rank "
				 "%d), '%s' on %s (rank %d)%s",
				 names[k], a, byproc[0].host, byproc[0].rank,
				 b, byproc[p].host, byproc[p].rank,
				 k < 2 ? ": some ranks would use NET/IB and "
					 "others NET/Socket, which cannot "
					 "connect"
				       : ": right only where the nodes' RDMA "
					 "devices differ (netprobe scan judges "
					 "each node's)");
			n++;
			break;
		}
	}
	return n;
}
