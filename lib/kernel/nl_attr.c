/* The rtnetlink attribute walk every parser shares (links, addresses,
 * routes): libmnl's checks plus "no trailing bytes", so a truncated
 * message fails instead of being half read. */
#include "kernel/nl.h"

#include <errno.h>
#include <string.h>

/* mnl_attr_ok plus a type check per attribute, and no trailing bytes: a
 * truncated message fails here instead of being half read. */
int nl_attr_table(const void *buf, size_t len, const struct nlattr **tb,
                  unsigned max, const enum mnl_attr_data_type *types)
{
	const struct nlattr *a = buf;
	long rem = (long)len;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	while (rem >= (long)sizeof(struct nlattr)) {
		unsigned type;

		if (!mnl_attr_ok(a, (int)rem))
			goto bad;
		type = mnl_attr_get_type(a);
		if (type <= max) {
			if (types != NULL && types[type] != MNL_TYPE_UNSPEC &&
			    mnl_attr_validate(a, types[type]) < 0)
				goto bad;
			tb[type] = a;
		}
		rem -= (long)MNL_ALIGN(a->nla_len);
		a = (const struct nlattr *)((const char *)a +
		                            MNL_ALIGN(a->nla_len));
	}
	if (rem > 0)
		goto bad;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}
