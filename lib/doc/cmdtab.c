/* The table of a program's commands, gathered at link time from each
 * command's CMD_COMMAND line (doc/cmdrun.h): the linker names the ends of
 * the section that holds a pointer to each. */
#include <string.h>

#include "doc/cmdrun.h"

/* weak: a program without commands has no such section, and gets NULL */
extern const struct cmd_command *const __start_cmd_commands[]
    __attribute__((weak));
extern const struct cmd_command *const __stop_cmd_commands[]
    __attribute__((weak));

/* True when a goes after b in the list: by order, then by name. */
static int cmd_after(const struct cmd_command *a, const struct cmd_command *b)
{
	if (a->order != b->order)
		return a->order > b->order;
	return strcmp(a->name, b->name) > 0;
}

size_t cmd_commands(const struct cmd_command **v, size_t cap)
{
	const struct cmd_command *const *p = __start_cmd_commands;
	size_t n = 0, total = 0;

	if (p == NULL || __stop_cmd_commands == NULL)
		return 0;
	/* insertion into v, which stays sorted; cap bounds it */
	for (; p < __stop_cmd_commands; p++, total++) {
		size_t j;

		if (*p == NULL)
			continue;
		if (n == cap && (n == 0 || !cmd_after(v[n - 1], *p)))
			continue;
		j = n < cap ? n++ : n - 1;
		while (j > 0 && cmd_after(v[j - 1], *p)) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = *p;
	}
	return total;
}
