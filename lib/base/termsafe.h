/* Text for a terminal: control characters that came from the kernel or a
 * peer (an interface name holding ESC) are written escaped, so they can
 * neither move the cursor nor retitle the window. */
#ifndef NP_TERMSAFE_H
#define NP_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Escapes n bytes of in into out (at most cap-1 bytes, NUL-terminated):
 * every control byte but newline and tab becomes "\xHH"; with allow_sgr a
 * colour sequence (ESC [ digits and semicolons m) passes whole. Returns
 * the length the whole escape needs (as snprintf does). */
size_t termsafe_escape(const char *in, size_t n, bool allow_sgr, char *out,
		       size_t cap);

/* A stream that writes to under through termsafe_escape (a sequence split
 * across writes is held until it is whole); closing it flushes into under
 * and leaves under open. Returns the stream, or NULL with errno. */
FILE *termsafe_open(FILE *under, bool allow_sgr);

#endif
