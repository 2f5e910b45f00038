/* netprobe layers: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_layers(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe layers: not implemented yet\n");
	return 2;
}
