#!/usr/bin/env bash
# The entry of the `coalesce-lint` pre-commit hook (.pre-commit-hooks.yaml):
#
#   tools/pre-commit-hook.sh [coalesce-lint options] [--extra-arg=CLANG_ARG]... FILE.cu...
#
# pre-commit runs it with the hook's `args:` and then the staged CUDA files.
# It runs coalesce-lint on them, which prints the findings and exits 1 when an
# access is uncoalesced or bank-conflicted beyond the threshold (--min-ratio,
# or min-ratio in .coalesce-lint.yaml), so the commit fails; 2 on errors.
# --extra-arg=X passes X to clang (after `--`, which must follow the files).
#
# The binary: $COALESCE_LINT, else build/bin/coalesce-lint of the checkout
# this script is in (tools/bootstrap.sh builds it there), else coalesce-lint
# on PATH. pre-commit runs hooks from its own clone of the hook repository,
# which has no build/: there, put the built binary on PATH or set
# COALESCE_LINT.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -n ${COALESCE_LINT:-} ]]; then
  lint=$COALESCE_LINT
elif [[ -x $root/build/bin/coalesce-lint ]]; then
  lint=$root/build/bin/coalesce-lint
elif command -v coalesce-lint >/dev/null 2>&1; then
  lint=$(command -v coalesce-lint)
else
  echo "coalesce-lint pre-commit hook: cannot find coalesce-lint." >&2
  echo "Build it (tools/bootstrap.sh in a coalesce-lint checkout), then put its" >&2
  echo "build/bin on PATH or set COALESCE_LINT=/path/to/coalesce-lint." >&2
  exit 2
fi

args=() clang_args=()
for a in "$@"; do
  case $a in
    --extra-arg=*) clang_args+=("${a#--extra-arg=}") ;;
    *) args+=("$a") ;;
  esac
done
if ((${#clang_args[@]})); then
  exec "$lint" --color=never "${args[@]}" -- "${clang_args[@]}"
fi
exec "$lint" --color=never "${args[@]}"
