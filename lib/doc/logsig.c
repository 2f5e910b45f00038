/* The signature table of netprobe explain (doc/logsig.h): the message
 * forms, read from each framework's own source at the tags named. One
 * array, so that a row is known by its index (explain's fact slots, the
 * matcher's order); its rows live in one file per framework (issue 46:
 * no source file over 900 lines), each a designated initializer. */
#include "doc/logsig.h"

/* NCCL prints a socket address as host<port> (ncclSocketToString), Gloo
 * and torch as [host]:port. */
#define NCCL_ADDR "([0-9A-Za-z:.%_-]+)<([0-9]+)>"
#define GLOO_ADDR "\\[([^]]+)\\]:([0-9]+)"
/* What keeps NCCL off RDMA, most precise first: the measurement here
 * proves one of them (decide/decide_rdma.c). */
#define RDMA_OPEN \
	"rdma-uverbs-missing,rdma-netns-exclusive,rdma-hca-missing," \
	"rdma-ib-fallback"
/* What NCCL's bare "unhandled system error" most often was in the
 * public threads (a peer cut off, a firewall, NCCL's own interface
 * choice, a container bridge, /dev/shm); NCCL_DEBUG=INFO decides. */
#define NCCL_SYSTEM_OPEN \
	"rank-unreachable,port-filtered,nccl-default-iface-unsafe," \
	"container-bridge-nat,shm-small"
#define CONNECT_NCCL "[Cc]onnect to " NCCL_ADDR " failed : "

static const struct logsig table[] = {
#include "doc/logsig_nccl.def"
#include "doc/logsig_nccl_ib.def"
#include "doc/logsig_gloo.def"
#include "doc/logsig_torch.def"
#include "doc/logsig_ray.def"
#include "doc/logsig_launch.def"
#include "doc/logsig_system.def"
#include "doc/logsig_ctl.def"
};

const struct logsig *logsig_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
