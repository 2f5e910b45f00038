/* The responder's shared-secret check: a random nonce from the responder,
 * HMAC-SHA256 over it from the client, so the secret never crosses. */
#ifndef NP_AUTH_H
#define NP_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AUTH_KEY_MAX 256

struct auth_key {
	uint8_t key[AUTH_KEY_MAX];
	size_t len;
};

/* Reads a token file: its first line, at most AUTH_KEY_MAX bytes, at least
 * 8. Returns 0, or -1 with errno (EINVAL: empty, too short or too long). */
int auth_load(const char *path, struct auth_key *k);

/* Fills a PROTO_NONCE_LEN nonce from the kernel's random source. Returns 0,
 * or -1 with errno. */
int auth_nonce(uint8_t *nonce);

/* The MAC a client sends: HMAC-SHA256(key, "netprobe-auth-1" || nonce) into
 * mac (PROTO_MAC_LEN bytes). Returns 0, or -1 when the library failed. */
int auth_mac(const struct auth_key *k, const uint8_t *nonce, uint8_t *mac);

/* Constant-time comparison of two PROTO_MAC_LEN MACs. */
bool auth_mac_equal(const uint8_t *a, const uint8_t *b);

#endif
