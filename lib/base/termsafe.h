/* Text for a terminal: control characters that came from the kernel, a
 * peer or a log (an interface name holding ESC, a pasted OSC title) are
 * written escaped, so they can neither move the cursor nor retitle the
 * window; bytes that are not UTF-8 are escaped too, so the text prints.
 * And text for a JSON document: bytes that are not UTF-8 replaced. */
#ifndef NP_TERMSAFE_H
#define NP_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Escapes n bytes of in into out (at most cap-1 bytes, NUL-terminated):
 * every C0 control byte but newline and tab, DEL, every C1 control (a raw
 * byte 0x80-0x9f or U+0080-U+009F in UTF-8) and every byte that is not
 * part of valid UTF-8 becomes "\xHH", so no ESC, CSI, OSC, DCS, SOS, PM
 * or APC sequence can start and BEL cannot ring; with allow_sgr a colour
 * sequence (ESC [ digits and semicolons m) passes whole. Returns the
 * length the whole escape needs (as snprintf does). */
size_t termsafe_escape(const char *in, size_t n, bool allow_sgr, char *out,
		       size_t cap);

/* A stream that writes to under through termsafe_escape (a sequence split
 * across writes is held until it is whole); closing it flushes into under
 * and leaves under open. Returns the stream, or NULL with errno. */
FILE *termsafe_open(FILE *under, bool allow_sgr);

/* Copies n bytes of in into out (at most cap-1 bytes, NUL-terminated)
 * with every byte that is not part of valid UTF-8 (a stray continuation,
 * an overlong form, a surrogate, a sequence cut short, a NUL) replaced by
 * U+FFFD; a copy that does not fit is cut between characters, never
 * inside one. Returns the length the whole copy needs. */
size_t termsafe_utf8(const char *in, size_t n, char *out, size_t cap);

/* The length of the well-formed UTF-8 character at p (n bytes left;
 * RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF), or 0
 * when p starts none; a NUL starts none, for C strings. */
size_t termsafe_char_len(const unsigned char *p, size_t n);

#endif
