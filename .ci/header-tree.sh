#!/usr/bin/env bash
# Lay out the public headers of an rdma-core release as an include tree, to build the
# native tests (the fake libibverbs and the ABI probe) against another header than the
# installed one:
#
#   .ci/header-tree.sh <rdma-core checkout or git dir> [<tag or commit>] <output dir>
#   CPATH=<output dir>/include mvn -B -o -pl core -am verify
#
# The headers are the ones rdma-core's CMake installs: every file named in a
# publish_headers(<dest> ...) call of a CMakeLists.txt goes to include/<dest>/, and the
# kernel ABI headers of kernel-headers/ (publish_internal_headers(rdma ...)) to
# include/rdma/. With a tag or commit, files are read from git (a bare clone works);
# without one, from the checkout's work tree. Nothing is built or configured.
set -euo pipefail

usage() {
	echo "usage: $0 <rdma-core checkout or git dir> [<tag or commit>] <output dir>" >&2
	exit 2
}
(($# == 2 || $# == 3)) || usage
source=$1
if (($# == 3)); then
	ref=$2
	out=$3
else
	ref=
	out=$2
fi

if [[ -n $ref ]]; then
	git -C "$source" rev-parse --verify -q "$ref^{commit}" >/dev/null \
		|| { echo "$source has no commit $ref" >&2; exit 1; }
	list() { git -C "$source" ls-tree -r --name-only "$ref" -- "$@"; }
	cat_file() { git -C "$source" show "$ref:$1"; }
else
	[[ -f $source/libibverbs/verbs.h ]] || { echo "$source is not an rdma-core checkout (no libibverbs/verbs.h)" >&2; exit 1; }
	list() { (cd "$source" && for p in "$@"; do find "$p" -type f 2>/dev/null; done) | sed 's|^\./||'; }
	cat_file() { cat "$source/$1"; }
fi

# Print "<dest> <file relative to the repository>" for each header a CMakeLists.txt
# publishes with the given function (publish_headers or publish_internal_headers).
published() {
	local function=$1 cmake=$2 dir
	dir=$(dirname "$cmake")
	cat_file "$cmake" | awk -v fn="$function" -v dir="$dir" '
		{ sub(/#.*/, "") }
		!inside && $0 ~ "^[ \t]*" fn "[ \t]*\\(" {
			inside = 1
			sub("^[ \t]*" fn "[ \t]*\\(", "")
			dest = ""
		}
		inside {
			done = sub(/\).*/, "")
			for (i = 1; i <= NF; i++) {
				if (dest == "") dest = $i
				else print dest, dir "/" $i
			}
			if (done) inside = 0
		}'
}

rm -rf "$out/include"
mkdir -p "$out/include"
count=0
while read -r cmake; do
	while read -r dest file; do
		file=$(realpath -m --relative-to=/ "/$file") # providers/mlx5/../../kernel-headers/...
		mkdir -p "$out/include/$dest"
		cat_file "$file" >"$out/include/$dest/$(basename "$file")"
		count=$((count + 1))
	done < <(
		published publish_headers "$cmake"
		if [[ $cmake == kernel-headers/CMakeLists.txt ]]; then
			published publish_internal_headers "$cmake" | awk '$1 ~ /^rdma(\/|$)/'
		fi
	)
done < <(list . | grep -E '^([^/]+/)?CMakeLists\.txt$|^providers/[^/]+/CMakeLists\.txt$' | sort -u)

[[ -f $out/include/infiniband/verbs.h ]] || { echo "no infiniband/verbs.h was published" >&2; exit 1; }
echo "$count headers in $out/include (rdma-core ${ref:-work tree}); build against them with CPATH=$out/include"
