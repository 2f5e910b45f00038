/* The scan's own JSON objects (man/netprobe-json.5, section scan):
 * hostname, nccl_default and peers. */
#ifndef NP_SCAN_JSON_H
#define NP_SCAN_JSON_H

#include <jansson.h>

#include "decide/decide.h"
#include "probe/peer.h"

/* {name, addresses[], loopback, bindable (null: not tried), resolved_by,
 * error}. New reference, NULL on no memory. */
json_t *hostname_to_json(const struct hostname_info *h);

/* {rule, interfaces [{name, address}], bootstrap, safe, why}. */
json_t *nccl_default_to_json(const struct nccl_default *nd);

/* One element of `peers`; unknown values are null. */
json_t *peer_verdict_to_json(const struct peer_verdict *p);

#endif
