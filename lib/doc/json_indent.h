/* Compact JSON text indented the way doc_write writes a tree (two spaces
 * a level, ": " after a key, "{}" and "[]" when empty, every non-ASCII
 * character escaped, a newline at the end), without building the tree:
 * node 0 of a mesh keeps every member's document, which arrives compact,
 * and dumping a parsed tree back cost it a fifth of its CPU (issue 36).
 * The keys stay in the order they came (members send them sorted, as
 * doc_write sorts them). */
#ifndef NP_JSON_INDENT_H
#define NP_JSON_INDENT_H

#include <stddef.h>

/* The indented text of in[0..len), which must be one JSON object or
 * array already accepted by a parser, NUL-terminated and malloc'd, its
 * length in *outlen. NULL on no memory, or on text that is not JSON
 * after all (unbalanced, unterminated, nested past 512 levels, a byte
 * out of place): the caller then dumps the tree. */
char *json_indent(const char *in, size_t len, size_t *outlen);

/* json_indent, indented only flat_depth levels deep (0 to 512): a level
 * deeper is written compact, on its parent's line, as the compact text
 * had it. Pretty-printing costs two bytes a level on every line, so a
 * document nested thousands of levels deep came out thousands of times
 * its size; up to flat_depth the text is json_indent's, byte for byte
 * (netprobe report --format json, issue 45). NULL as for json_indent. */
char *json_indent_to(const char *in, size_t len, int flat_depth,
                     size_t *outlen);

#endif
