/* Frame headers of the responder protocol; payloads live in proto_*.c. */
#include "wire/proto.h"

#include <arpa/inet.h>
#include <string.h>

void proto_hdr_encode(uint8_t *buf, uint8_t type, uint16_t flags,
		      uint32_t length)
{
	uint32_t magic = htonl(PROTO_MAGIC), len = htonl(length);
	uint16_t fl = htons(flags);

	memcpy(buf, &magic, 4);
	buf[4] = PROTO_FRAME_VERSION;
	buf[5] = type;
	memcpy(buf + 6, &fl, 2);
	memcpy(buf + 8, &len, 4);
}

int proto_hdr_decode(const uint8_t *buf, size_t len, struct proto_hdr *h,
		     const char **why)
{
	uint32_t v32;
	uint16_t v16;

	if (len < PROTO_HDR_LEN) {
		*why = "truncated header";
		return -1;
	}
	memcpy(&v32, buf, 4);
	h->magic = ntohl(v32);
	h->version = buf[4];
	h->type = buf[5];
	memcpy(&v16, buf + 6, 2);
	h->flags = ntohs(v16);
	memcpy(&v32, buf + 8, 4);
	h->length = ntohl(v32);
	if (h->magic != PROTO_MAGIC) {
		*why = "bad magic";
		return -1;
	}
	if (h->version != PROTO_FRAME_VERSION) {
		*why = "unsupported version";
		return -1;
	}
	if (h->length > PROTO_MAX_PAYLOAD) {
		*why = "payload too large";
		return -1;
	}
	if (h->type < PROTO_HELLO || h->type > PROTO_TYPE_MAX) {
		*why = "unknown type";
		return -1;
	}
	*why = NULL;
	return 0;
}
