/* netprobe serve: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_serve(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe serve: not implemented yet\n");
	return 2;
}
