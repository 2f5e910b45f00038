/* netprobe ports: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_ports(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe ports: not implemented yet\n");
	return 2;
}
