/* libFuzzer target for the responder protocol decoder: whole frames
 * through proto_frame_check, and raw payloads through every decoder,
 * the mesh rendezvous's (version 2) included. */
#include <stddef.h>
#include <stdint.h>

#include "wire/proto_mesh.h"
#include "wire/proto_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct proto_listen l;
	static struct proto_listen_reply lr;
	static struct proto_connect_back cb;
	static struct proto_connect_back_reply cbr;
	static struct proto_join j;
	static struct proto_member members[64];
	struct proto_mesh_start ms;
	struct proto_result res;
	struct proto_verdict v;
	uint32_t first;
	size_t nm;
	struct proto_hello h;
	struct proto_reflect_reply rr;
	struct proto_mtu_reply mr;
	struct proto_error e;
	struct proto_echo_stamp st;
	const char *why;
	uint32_t seq;
	uint8_t raw[PROTO_MAC_LEN];
	char shown[48];

	if (size > PROTO_HDR_LEN + PROTO_MAX_PAYLOAD)
		return 0;
	proto_frame_check(data, size, &why);
	proto_printable(data, size, shown, sizeof(shown));
	if (size == 0)
		return 0;
	/* the first byte picks a decoder for the rest */
	const uint8_t *p = data + 1;
	size_t n = size - 1;

	switch (data[0] % 15) {
	case 0:
		proto_hello_decode(p, n, &h, &why);
		break;
	case 1:
		proto_reflect_reply_decode(p, n, &rr, &why);
		break;
	case 2:
		proto_listen_decode(p, n, &l, &why);
		break;
	case 3:
		proto_listen_reply_decode(p, n, &lr, &why);
		break;
	case 4:
		proto_connect_back_decode(p, n, &cb, &why);
		break;
	case 5:
		proto_connect_back_reply_decode(p, n, &cbr, &why);
		break;
	case 6:
		proto_mtu_reply_decode(p, n, &mr, &why);
		proto_mtu_probe_decode(p, n, &seq, &why);
		break;
	case 7:
		proto_error_decode(p, n, &e, &why);
		break;
	case 8:
		proto_echo_stamp_decode(p, n, &st, &why);
		break;
	case 10:
		proto_join_decode(p, n, &j, &why);
		break;
	case 11:
		proto_mesh_start_decode(p, n, &ms, &why);
		break;
	case 12:
		proto_members_decode(p, n, &first, members, 64, &nm, &why);
		break;
	case 13:
		proto_result_decode(p, n, &res, &why);
		break;
	case 14:
		proto_verdict_decode(p, n, &v, &why);
		break;
	default:
		proto_fixed_decode(p, n, PROTO_MAC_LEN, raw, &why);
		break;
	}
	return 0;
}
