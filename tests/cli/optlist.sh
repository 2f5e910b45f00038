#!/bin/sh
# Option lists, for tests/cli/run.sh: `help_opts` reads a --help text on
# stdin, `man_opts PAGE SECTION` the .It Fl entries of one section of an
# mdoc page ("netprobe ports": the .Ss of that name; "OPTIONS": the .Sh).
# Both print one option per line (-t, --timeout), sorted, without -h and
# --help, which every command has.

help_opts() {
	awk '/^  +-/ {
		for (i = 1; i <= NF; i++) {
			w = $i; sub(/,$/, "", w)
			if (w !~ /^-/) break
			sub(/=.*/, "", w)
			print w
		}
	}' | grep -Ev '^(-h|--help)$' | sort -u
}

man_opts() {
	awk -v sec="$2" '
		/^\.S[hs] / {
			t = $0; sub(/^\.S[hs] /, "", t)
			on = (t == sec)
			next
		}
		on && /^\.It Fl / {
			fl = 0
			for (i = 2; i <= NF; i++) {
				w = $i
				if (w == "Fl") { fl = 1; continue }
				if (w ~ /^[A-Z][a-z]$/) { fl = 0; continue }
				if (w == "," || w == "|") continue
				if (fl) {
					gsub(/\\-/, "-", w)
					print "-" w
				}
			}
		}' "$1" | grep -Ev '^(-h|--help)$' | sort -u
}
