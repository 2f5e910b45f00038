/* Terminal escaping (base/termsafe.h) against what a log or a peer may
 * hold: BEL, OSC, DCS, SOS, PM and APC sequences, C1 controls as raw
 * bytes and in UTF-8, bytes that are not UTF-8; and the UTF-8 repair that
 * keeps a JSON document valid. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"

/* Escapes in with colour off (or on) into a static buffer. */
static const char *esc(const char *in, bool sgr)
{
	static char out[512];

	termsafe_escape(in, strlen(in), sgr, out, sizeof(out));
	return out;
}

/* No byte that can start or end a terminal sequence, ring the bell or
 * mislead a UTF-8 decoder reaches the output: every byte left is TAB,
 * NL, printable ASCII or part of a valid character that is no C1. */
static void assert_inert(const char *s)
{
	char back[512];

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		ck_assert_msg(*p == '\t' || *p == '\n' ||
			      (*p >= 0x20 && *p != 0x7f && *p != 0x9b &&
			       *p != 0x9d && *p != 0x90),
			      "byte 0x%02x in '%s'", *p, s);
	ck_assert_ptr_null(strstr(s, "\xc2\x9b"));
	ck_assert_ptr_null(strstr(s, "\xc2\x9d"));
	/* valid UTF-8: the repair changes nothing */
	termsafe_utf8(s, strlen(s), back, sizeof(back));
	ck_assert_str_eq(back, s);
}

START_TEST(c0_and_bel)
{
	ck_assert_str_eq(esc("a\x07" "b\r\x01\x7f\tc\n", false),
			 "a\\x07b\\x0d\\x01\\x7f\tc\n");
	ck_assert_str_eq(esc("a\x07" "b", true), "a\\x07b");
}
END_TEST

START_TEST(esc_sequences)
{
	static const char *const seqs[] = {
		"\x1b]0;owned\x07",	     /* OSC ended by BEL */
		"\x1b]8;;http://x/\x1b\\", /* OSC hyperlink ended by ST */
		"\x1bP+q544e\x1b\\",	     /* DCS */
		"\x1bXsos\x1b\\",	     /* SOS */
		"\x1b^pm\x1b\\",	     /* PM */
		"\x1b_apc\x1b\\",	     /* APC */
		"\x1b[2J\x1b[H",	     /* CSI that is no colour */
		"\x1b[?1049h",
	};

	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		assert_inert(esc(seqs[i], false));
		assert_inert(esc(seqs[i], true));
	}
	ck_assert_str_eq(esc("\x1b]0;owned\x07x", true),
			 "\\x1b]0;owned\\x07x");
	ck_assert_str_eq(esc("\x1b_apc\x1b\\", true), "\\x1b_apc\\x1b\\");
	/* a colour still passes where colour is on, and only there */
	ck_assert_str_eq(esc("\x1b[1;31mred\x1b[0m", true),
			 "\x1b[1;31mred\x1b[0m");
	ck_assert_str_eq(esc("\x1b[31m", false), "\\x1b[31m");
}
END_TEST

START_TEST(c1_controls)
{
	/* raw 8-bit CSI, OSC, DCS, and the same as U+009B, U+009D */
	ck_assert_str_eq(esc("a\x9b" "2Jb\x9d" "0;t\x07\x90q", false),
			 "a\\x9b2Jb\\x9d0;t\\x07\\x90q");
	ck_assert_str_eq(esc("a\xc2\x9b" "2J\xc2\x9d" "0;t\x07", true),
			 "a\\xc2\\x9b2J\\xc2\\x9d0;t\\x07");
	assert_inert(esc("\xc2\x80\xc2\x9f\x80\x9f", false));
	/* U+00A0 and beyond are text */
	ck_assert_str_eq(esc("caf\xc3\xa9 \xc2\xa0 \xe2\x80\xba \xf0\x9f\x98"
			     "\x80", false),
			 "caf\xc3\xa9 \xc2\xa0 \xe2\x80\xba \xf0\x9f\x98\x80");
}
END_TEST

START_TEST(not_utf8)
{
	/* a lone byte, a stray continuation, an overlong NUL, a surrogate,
	 * a character cut short, at the end too */
	ck_assert_str_eq(esc("\xff", false), "\\xff");
	ck_assert_str_eq(esc("a\xbf" "b\xc0\x80" "c", false),
			 "a\\xbfb\\xc0\\x80c");
	ck_assert_str_eq(esc("\xed\xa0\x80", false), "\\xed\\xa0\\x80");
	ck_assert_str_eq(esc("\xe2\x80" "x\xe2", false), "\\xe2\\x80x\\xe2");
	/* a cut character before an ESC: both escaped */
	ck_assert_str_eq(esc("\xe2\x1b[31mx", true), "\\xe2\x1b[31mx");
	assert_inert(esc("\xf8\x88\x80\x80\x80\xfe\xf4\x90\x80\x80", false));
}
END_TEST

START_TEST(stream_holds_split_characters)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *fp;

	ck_assert_ptr_nonnull(mem);
	fp = termsafe_open(mem, false);
	ck_assert_ptr_nonnull(fp);
	setvbuf(fp, NULL, _IONBF, 0); /* every fputs a write of its own */
	fputs("caf\xc3", fp);
	fputs("\xa9 \xe2\x80", fp);
	fputs("\xba \xc2", fp);
	fputs("\x9b" "1m \xe2", fp);
	ck_assert_int_eq(fclose(fp), 0);
	fclose(mem);
	ck_assert_str_eq(buf, "caf\xc3\xa9 \xe2\x80\xba \\xc2\\x9b1m \\xe2");
	free(buf);
}
END_TEST

START_TEST(utf8_repair)
{
	char out[32];

	ck_assert_uint_eq(termsafe_utf8("a\xff" "b", 3, out, sizeof(out)), 5);
	ck_assert_str_eq(out, "a\xef\xbf\xbd" "b");
	termsafe_utf8("caf\xc3\xa9", 5, out, sizeof(out));
	ck_assert_str_eq(out, "caf\xc3\xa9");
	/* a NUL inside counted bytes, a surrogate, a cut character */
	termsafe_utf8("a\0b\xed\xa0\x80\xe2\x80", 8, out, sizeof(out));
	ck_assert_str_eq(out, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd"
			      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* cut between characters when it does not fit */
	ck_assert_uint_eq(termsafe_utf8("ab\xc3\xa9", 4, out, 4), 4);
	ck_assert_str_eq(out, "ab");
	ck_assert_uint_eq(termsafe_utf8("a\xff", 2, out, 4), 4);
	ck_assert_str_eq(out, "a");
	ck_assert_uint_eq(termsafe_utf8("abc", 3, out, 0), 3);
}
END_TEST

Suite *suite_termsafe(void)
{
	Suite *s = suite_create("termsafe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, c0_and_bel);
	tcase_add_test(tc, esc_sequences);
	tcase_add_test(tc, c1_controls);
	tcase_add_test(tc, not_utf8);
	tcase_add_test(tc, stream_holds_split_characters);
	tcase_add_test(tc, utf8_repair);
	suite_add_tcase(s, tc);
	return s;
}
