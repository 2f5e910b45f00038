/* A client of torch's TCPStore, the key-value store torchrun's agent
 * serves on MASTER_ADDR:MASTER_PORT (TORCHELASTIC_USE_AGENT_STORE=True):
 * the port ncclcheck's rank 0 cannot bind, so it listens on an
 * ephemeral port and publishes where under a key. The protocol of torch
 * 2.x (a validation word first). No CUDA. */
#ifndef NC_TCPSTORE_H
#define NC_TCPSTORE_H

#include <stddef.h>

#define NC_STORE_MAGIC 0x3C85F7CEu /* torch's validationMagicNumber */

/* Sets key to len bytes of val. Returns 0, or -1 with err set. */
int nc_store_set(const char *host, int port, const char *key,
		 const void *val, size_t len, long long deadline_us,
		 char *err, size_t errlen);

/* Waits (polling, until deadline_us) for key and reads its value into
 * val (at most max bytes, NUL-terminated when room). Returns the length,
 * or -1 with err set. */
long nc_store_get(const char *host, int port, const char *key, void *val,
		  size_t max, long long deadline_us, char *err,
		  size_t errlen);

/* The key rank 0 publishes under: "ncclcheck/hub/RUN/RESTART" from
 * TORCHELASTIC_RUN_ID and TORCHELASTIC_RESTART_COUNT (either may be
 * NULL), so a restarted job never reads the last attempt's address. */
void nc_store_key(const char *run_id, const char *restart, char *buf,
		  size_t len);

#endif
