/* The bus factors' vocabulary (enum nc_busf): its value, which busbw is
 * computed with, and its words, which -C list prints, in one place. */
#include "nc.h"

/* nccl-tests' bus factors (its *_GetBw functions). */
double nc_busf_value(enum nc_busf f, int nranks)
{
	if (nranks <= 0)
		return 0;
	switch (f) {
	case NC_BUSF_1:
		return 1;
	case NC_BUSF_N1_N:
		return (double)(nranks - 1) / nranks;
	case NC_BUSF_2N1_N:
		return 2.0 * (nranks - 1) / nranks;
	}
	return 0;
}

/* The words -C list adds after a collective's about text. */
const char *nc_busf_text(enum nc_busf f)
{
	switch (f) {
	case NC_BUSF_1:
		return "1";
	case NC_BUSF_N1_N:
		return "(n-1)/n";
	case NC_BUSF_2N1_N:
		return "2(n-1)/n";
	}
	return "?";
}
