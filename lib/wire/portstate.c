/* Names of port states as they appear in JSON and text. */
#include "wire/portstate.h"

const char *port_state_name(enum port_state s)
{
	switch (s) {
	case PORT_OPEN:
		return "open";
	case PORT_CLOSED:
		return "closed";
	case PORT_FILTERED:
		return "filtered";
	case PORT_PROHIBITED:
		return "prohibited";
	case PORT_UNREACHABLE:
		return "unreachable";
	case PORT_RESOLVE:
		return "resolve-failed";
	case PORT_UNKNOWN:
		break;
	}
	return "unknown";
}
