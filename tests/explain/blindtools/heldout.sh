#!/bin/sh
# Why: a blind case must come from a thread this project has never used, so
# every OWNER/REPO#N key (case-folded) named anywhere in the repository's
# tests/explain and docs, in any branch's history, and in every worktree's
# tests/explain (other collectors' parts) is listed once, for add.sh to
# refuse. One copy serves every blind set (blind42d..i each carried one).
# Usage: heldout.sh REPO_ROOT > keys.txt
set -eu
root=${1:-.}
ext() {
	# github.com/OWNER/REPO/(issues|pull|discussions)/N and OWNER/REPO#N forms
	grep -aoiE 'github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/(issues|pull|pulls|discussions)/[0-9]+|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+#[0-9]+' |
		sed -E 's#^github\.com/##I; s#/(issues|pull|pulls|discussions)/#\##I' |
		tr '[:upper:]' '[:lower:]'
}
{
	grep -rhoaE '.*' "$root/tests/explain" "$root/docs" 2>/dev/null | ext || true
	git -C "$root" log --all --format='%B' | ext || true
	sh "$(dirname "$0")/trees.sh" "$root" | while IFS= read -r wt; do
		grep -rhoaE '.*' "$wt/tests/explain" 2>/dev/null | ext || true
	done
	git -C "$root" for-each-ref --format='%(refname)' refs/heads | while IFS= read -r ref; do
		git -C "$root" grep -h -I -E 'github|#[0-9]' "$ref" 2>/dev/null | sed 's/^[^:]*://' | ext || true
	done
} | sort -u
