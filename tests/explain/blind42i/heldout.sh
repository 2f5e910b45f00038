#!/bin/sh
# Why: a blind case must come from a thread this project has never used, so
# every OWNER/REPO#N key (case-folded) named anywhere in the repository's
# tests/explain and docs, in any branch's history, and in the other
# worktrees' tests/explain is listed once, for add.sh to refuse.
# Usage: heldout.sh REPO_ROOT > keys.txt
set -eu
root=${1:-.}
ext() {
	# github.com/OWNER/REPO/(issues|pull|discussions)/N and OWNER/REPO#N forms
	grep -aoiE 'github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/(issues|pull|pulls|discussions)/[0-9]+|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+#[0-9]+' |
		sed -E 's#^github\.com/##I; s#/(issues|pull|pulls|discussions)/#\##I' |
		tr 'A-Z' 'a-z'
}
{
	grep -rhoaE '.*' "$root/tests/explain" "$root/docs" 2>/dev/null | ext || true
	git -C "$root" log --all --format='%B' | ext || true
	for wt in /work/wt/*/tests/explain /work/main/tests/explain; do
		[ -d "$wt" ] && { grep -rhoaE '.*' "$wt" | ext || true; }
	done
	git -C "$root" grep -h -I -E 'github|#[0-9]' $(git -C "$root" for-each-ref --format='%(refname)' refs/heads) 2>/dev/null |
		sed 's/^[^:]*://' | ext || true
} | sort -u
