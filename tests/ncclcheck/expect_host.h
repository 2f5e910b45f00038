/* The CPU tests' view of a collective's expectation: every rank's input
 * as coll/expect.h defines it and the judge of an output, over host
 * buffers of doubles (exact for the generator's small integers). What
 * the check kernel does on a GPU, without the element type's storage. */
#ifndef NC_EXPECT_HOST_H
#define NC_EXPECT_HOST_H

#include "coll/coll.h"

/* Every rank's input (sendcount elements each), or NULL without memory;
 * free with eh_free. */
double **eh_inputs(const struct nc_shape *sh);
void eh_free(double **v, int n);
/* One array of recvcount elements per rank, poisoned (NaN) as the
 * sweep poisons its outputs; free with eh_free. */
double **eh_outputs(const struct nc_shape *sh);
/* Elements of rank's output (recvcount elements) that differ from its
 * expectation; -1 when the collective gives none or a piece lies outside
 * the buffer. */
long long eh_judge(const struct nc_shape *sh, int rank, const double *out);
/* Elements of rank's output that some piece judges (0 for a rank whose
 * output is not judged). */
unsigned long long eh_judged(const struct nc_shape *sh, int rank);

#endif
