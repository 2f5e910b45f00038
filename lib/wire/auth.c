/* HMAC-SHA256 challenge and response through OpenSSL's libcrypto, and the
 * token file reader. */
#include "wire/auth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "wire/proto_msg.h"

#define AUTH_LABEL "netprobe-auth-1"

/* First line of the file, trailing blanks and newline dropped. */
int auth_load(const char *path, struct auth_key *k)
{
	char line[AUTH_KEY_MAX + 2];
	FILE *fp = fopen(path, "re");
	size_t n;
	int rc = -1;

	memset(k, 0, sizeof(*k));
	if (!fp)
		return -1;
	if (!fgets(line, sizeof(line), fp)) {
		errno = ferror(fp) ? EIO : EINVAL;
		goto out;
	}
	n = strcspn(line, "\r\n");
	if (line[n] == '\0' && !feof(fp) && n == sizeof(line) - 1) {
		errno = EINVAL; /* longer than AUTH_KEY_MAX */
		goto out;
	}
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	if (n < 8 || n > AUTH_KEY_MAX) {
		errno = EINVAL;
		goto out;
	}
	memcpy(k->key, line, n);
	k->len = n;
	rc = 0;
out:
	explicit_bzero(line, sizeof(line));
	fclose(fp);
	return rc;
}

/* getrandom(2), retried on EINTR and short reads. */
int auth_nonce(uint8_t *nonce)
{
	size_t got = 0;

	while (got < PROTO_NONCE_LEN) {
		ssize_t r = getrandom(nonce + got, PROTO_NONCE_LEN - got, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

/* HMAC-SHA256 over the label and the nonce. */
int auth_mac(const struct auth_key *k, const uint8_t *nonce, uint8_t *mac)
{
	uint8_t msg[sizeof(AUTH_LABEL) - 1 + PROTO_NONCE_LEN];
	unsigned int len = 0;

	memcpy(msg, AUTH_LABEL, sizeof(AUTH_LABEL) - 1);
	memcpy(msg + sizeof(AUTH_LABEL) - 1, nonce, PROTO_NONCE_LEN);
	if (!HMAC(EVP_sha256(), k->key, (int)k->len, msg, sizeof(msg), mac,
	          &len) ||
	    len != PROTO_MAC_LEN) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* CRYPTO_memcmp: no timing leak of how many bytes matched. */
bool auth_mac_equal(const uint8_t *a, const uint8_t *b)
{
	return CRYPTO_memcmp(a, b, PROTO_MAC_LEN) == 0;
}
