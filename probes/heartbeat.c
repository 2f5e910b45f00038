/* netprobe heartbeat: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_heartbeat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe heartbeat: not implemented yet\n");
	return 2;
}
