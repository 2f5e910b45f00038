/* ncclcheck's messages: one line with the rank prefix ("ncclcheck: rank 2
 * on gpu-b: ..."), as house style asks. No CUDA, no NCCL. */
#ifndef NC_SAY_H
#define NC_SAY_H

#include <stdarg.h>
#include <stdio.h>

/* Longest message text after the prefix; longer ones are cut. */
#define NC_SAY_MAX 1023

/* Writes "PREFIX: MESSAGE\n" to fp. */
void nc_say_to(FILE *fp, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nc_vsay_to(FILE *fp, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
