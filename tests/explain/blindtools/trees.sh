#!/bin/sh
# Why: collectors work in separate worktrees of one repository, and a thread
# one of them took must be held out from the others before either commits;
# git knows every worktree, so no path outside the repository is named here.
# Usage: trees.sh REPO_ROOT   (prints each worktree's top folder)
set -eu
git -C "${1:-.}" worktree list --porcelain | sed -n 's/^worktree //p'
