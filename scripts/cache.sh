# Sourced by the build scripts: a slow step's outputs kept in target/cache/ under a hash of its
# inputs, so that running the step again on the same bytes costs a copy instead of the step
# (wasm-opt --converge takes 10 to 60 s a module; a rebuild with no Rust change reruns it for
# nothing). The key is made of the inputs' contents, never their times: it stays right after a
# `git checkout` of another version, a `touch`, or a copy of the tree.
#
#   key=$(cache_key FILE_OR_DIR... -- TEXT...)   # the inputs' names and bytes, and the recipe's text
#   if ! cache_restore NAME "$key" OUTPUT...; then
#     ...the step, writing OUTPUT...
#     cache_save NAME "$key" OUTPUT...
#   fi
#
# NAME is the step's folder in target/cache/; it keeps the outputs of the last run only (their
# base names must differ). `make clean` (or deleting target/cache) empties it.

cache_root=target/cache

# The SHA-256 of the files (each folder's files, in name order; a missing one by its name) and of
# the texts after `--`.
cache_key() {
  {
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
      if [ -e "$1" ]; then
        find "$1" -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
      else
        echo "missing $1"
      fi
      shift
    done
    [ $# -gt 0 ] && shift
    printf '%s\n' "$@"
  } | sha256sum | cut -d' ' -f1
}

# Copies the outputs saved under NAME into place when they were made from KEY; fails otherwise.
cache_restore() {
  local dir=$cache_root/$1 key=$2 file
  shift 2
  [ -f "$dir/key" ] && [ "$(cat "$dir/key")" = "$key" ] || return 1
  for file in "$@"; do [ -f "$dir/$(basename "$file")" ] || return 1; done
  for file in "$@"; do cp "$dir/$(basename "$file")" "$file"; done
}

# Saves the outputs under NAME for KEY (the key is written last: an interrupted save is a miss).
cache_save() {
  local dir=$cache_root/$1 key=$2
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$@" "$dir/"
  printf '%s\n' "$key" >"$dir/key"
}
