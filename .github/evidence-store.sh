#!/usr/bin/env bash
# The evidence store of the rebuild workflow: a private git repository that
# only ever grows (README, "The evidence store").
#
#   evidence-store.sh open DIR          clone the store into DIR; batches are in DIR/batches
#   evidence-store.sh open DIR manifests  the same, but a partial, sparse clone: the store's
#                                       trees, listed in DIR/batches/.listing (which batches
#                                       hold which sites), and the batch.json records; no
#                                       manifest, WARC or text
#   evidence-store.sh fetch DIR FILE    fetch what FILE names, one a line (crawlsignals
#                                       evidence needs): BATCH, a batch whole, or
#                                       BATCH/SITE.json, one manifest; into a store opened so
#   evidence-store.sh artifacts DIR ARTIFACT...  into a store opened so, fetch the store's copy
#                                       of each batch the artifacts hold (none for a new
#                                       batch), so that the merge compares each file with it
#   evidence-store.sh keep DIR "NAMES"  commit what is new under DIR/batches and push it
#
# Environment: EVIDENCE_REPO (owner/name on GitHub) and KEY (the private half
# of a deploy key with write access to it). EVIDENCE_URL, when set, is used
# instead of GitHub (any git URL or path), and KEY is then optional.
#
# Evidence is never changed or deleted: keep refuses to commit a change to a
# file already in the store, and nothing here removes one.
set -euo pipefail

usage() { echo "usage: $0 open DIR [manifests] | fetch DIR FILE | artifacts DIR ARTIFACT... | keep DIR NAMES" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1 dir=$2
url=${EVIDENCE_URL:-git@github.com:${EVIDENCE_REPO:?EVIDENCE_REPO is not set}.git}
branch=main

if [ -n "${KEY:-}" ]; then
  install -d -m 700 "$HOME/.ssh"
  (umask 077 && printf '%s\n' "$KEY" > "$HOME/.ssh/evidence_key")
  # GitHub's published host key, pinned rather than learnt on first use.
  echo 'github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl' > "$HOME/.ssh/evidence_known_hosts"
  export GIT_SSH_COMMAND="ssh -i $HOME/.ssh/evidence_key -o IdentitiesOnly=yes -o UserKnownHostsFile=$HOME/.ssh/evidence_known_hosts -o StrictHostKeyChecking=yes"
elif [ -z "${EVIDENCE_URL:-}" ]; then
  echo "::error::the EVIDENCE_DEPLOY_KEY secret is not set. Evidence (whole pages) is kept only in a private repository, never in this one; see the README, \"The evidence store\"." >&2
  exit 1
fi

# list_store DIR: every file of the store's newest commit under batches/,
# as the build reads it (signals.ListingFile); never kept as evidence.
list_store() {
  git -C "$1" ls-tree -r --name-only HEAD -- batches | sed 's|^batches/||' > "$1/batches/.listing.tmp"
  mv "$1/batches/.listing.tmp" "$1/batches/.listing"
}

case $cmd in
open)
  if git ls-remote --exit-code --heads "$url" "$branch" >/dev/null; then
    if [ "${3:-}" = manifests ]; then
      # The publish job: the trees, and the batch.json records (a batch's
      # kind: only an unsharded batch, such as a re-check, has one). The
      # tree says which batches hold which sites without fetching a blob;
      # the evidence a build needs comes with fetch, so the bytes fetched
      # stay those of one batch however many weeks the store holds.
      git clone --quiet --depth 1 --filter=blob:none --no-checkout --branch "$branch" "$url" "$dir"
      git -C "$dir" sparse-checkout set --no-cone '/batches/*/batch.json'
      git -C "$dir" checkout --quiet "$branch"
      mkdir -p "$dir/batches"
      list_store "$dir"
    else
      git clone --quiet --depth 1 --branch "$branch" "$url" "$dir"
    fi
  else
    # A new, empty store: the first batch starts it.
    git init --quiet -b "$branch" "$dir"
    git -C "$dir" remote add origin "$url"
  fi
  mkdir -p "$dir/batches"
  if [ -f "$dir/batches/.listing" ]; then
    echo "evidence store: $(cut -d/ -f1 "$dir/batches/.listing" | sort -u | wc -l) batches (listed; none fetched yet)"
  else
    echo "evidence store: $(find "$dir/batches" -mindepth 1 -maxdepth 1 -type d | wc -l) batches"
  fi
  ;;
artifacts)
  shift 2
  patterns=()
  if [ -f "$dir/batches/.listing" ]; then
    for a in "$@"; do
      for b in "$a"/*/; do
        b=$(basename "$b")
        [[ $b =~ ^[0-9]{8}T[0-9]{6}Z$ ]] || continue
        if grep -q "^$b/" "$dir/batches/.listing"; then patterns+=("/batches/$b/"); fi
      done
    done
  fi
  if [ "${#patterns[@]}" -gt 0 ]; then
    git -C "$dir" sparse-checkout add "${patterns[@]}"
  fi
  echo "evidence store: ${#patterns[@]} of the artifacts' batches were kept before; fetched to compare with"
  ;;
fetch)
  [ $# -eq 3 ] || usage
  patterns=() whole=0 manifests=0
  while read -r b; do
    [ -n "$b" ] || continue
    if [[ $b =~ ^[0-9]{8}T[0-9]{6}Z$ ]]; then
      patterns+=("/batches/$b/") whole=$((whole + 1))
    elif [[ $b =~ ^[0-9]{8}T[0-9]{6}Z/[A-Za-z0-9.-]+\.json$ ]]; then
      patterns+=("/batches/$b") manifests=$((manifests + 1))
    else
      echo "::error::$3: $b is neither a batch nor a batch's manifest" >&2
      exit 1
    fi
  done < "$3"
  # A store cloned whole (or new) has everything already.
  if [ "$(git -C "$dir" config --get core.sparseCheckout || true)" = true ] && [ "${#patterns[@]}" -gt 0 ]; then
    git -C "$dir" sparse-checkout add "${patterns[@]}"
  fi
  echo "evidence store: the $whole batches and $manifests manifests the build needs are here"
  ;;
keep)
  [ $# -eq 3 ] || usage
  cd "$dir"
  git config user.name "crawlsignals rebuild"
  git config user.email "crawler@crawlsignals.com"
  # Derived findings (BATCH/.derived/, and the history records in
  # batches/.derived/) are a cache, never evidence.
  # --sparse: the new batch lies outside what a manifests-only open checked
  # out; a kept file that is not checked out and is written again is still
  # compared (and refused below when its bytes differ).
  git add --sparse -- batches ':(exclude,glob)batches/*/.derived/**' ':(exclude)batches/.derived' ':(exclude)batches/.listing'
  if ! git diff --cached --quiet --diff-filter=DMRT; then
    echo "::error::refusing to change or delete evidence already kept:" >&2
    git diff --cached --name-status --diff-filter=DMRT >&2
    exit 1
  fi
  if git diff --cached --quiet; then
    echo "evidence store: nothing new to keep"
    exit 0
  fi
  git commit --quiet -m "Evidence of batch $3"
  git push --quiet origin "HEAD:refs/heads/$branch"
  # The listing of a store opened in part names what was just kept too.
  if [ -f batches/.listing ]; then list_store .; fi
  echo "evidence store: kept $3"
  ;;
*)
  usage
  ;;
esac
