#!/usr/bin/env bash
# The evidence store of the rebuild workflow: a private git repository that
# only ever grows (README, "The evidence store").
#
#   evidence-store.sh open DIR          clone the store into DIR; batches are in DIR/batches
#   evidence-store.sh open DIR manifests TREES
#                                       the publish job's open: no file of the store, only
#                                       which batches hold which files, listed in
#                                       DIR/batches/.listing, and the batch.json records.
#                                       TREES is a folder the job keeps between runs (a
#                                       cache): each batch's tree as listed once, so that
#                                       only a batch not seen before is fetched; every entry
#                                       is checked against the store's object id before use
#   evidence-store.sh fetch DIR FILE    fetch what FILE names, one a line (crawlsignals
#                                       evidence needs): BATCH, a batch whole, or
#                                       BATCH/SITE.json, one manifest; into a store opened so
#   evidence-store.sh artifacts DIR ARTIFACT...  into a store opened so, fetch the store's copy
#                                       of each batch the artifacts hold (none for a new
#                                       batch), so that the merge compares each file with it
#   evidence-store.sh keep DIR "NAMES"  add the files of batches NAMES under DIR/batches to
#                                       the store (a commit) and push it
#   evidence-store.sh vouched DIR       keep of the history records under DIR/batches/.derived
#                                       (restored from the Actions cache) only those the
#                                       publish job wrote: the sha256 of each is listed on the
#                                       store's branch records; any other file there is named
#                                       and removed, and its site folded again from evidence
#   evidence-store.sh vouch DIR TREES   list the sha256 of every file under
#                                       DIR/batches/.derived on the branch records (a commit
#                                       of its own, replacing the last) and push it; write the
#                                       commit of the store built on to TREES/built-on, which
#                                       the next publish job's open checks the store extends
#
# Environment: EVIDENCE_REPO (owner/name on GitHub) and KEY (the private half
# of a deploy key with write access to it). EVIDENCE_URL, when set, is used
# instead of GitHub (any git URL or path), and KEY is then optional.
#
# Evidence is never changed or deleted: keep refuses to commit a file that
# differs from one already in the store, and nothing here removes one.
#
# What a publish job fetches stays the same week after week: the store's
# commit, its root and batches/ trees (one line a batch), the tree of each
# batch it has not listed before, and the blobs it is asked for. Nothing here
# walks every batch's tree: keep writes the new commit's trees itself (git
# mktree) instead of through an index that would hold every file.
set -euo pipefail
shopt -s inherit_errexit

usage() { echo "usage: $0 open DIR [manifests TREES] | fetch DIR FILE | artifacts DIR ARTIFACT... | keep DIR NAMES | vouched DIR | vouch DIR TREES" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1 dir=$(realpath -m -- "$2")
url=${EVIDENCE_URL:-git@github.com:${EVIDENCE_REPO:?EVIDENCE_REPO is not set}.git}
branch=main
# The history records' digests (vouch): not evidence, replaced each week.
records_branch=records
batch_name='^[0-9]{8}T[0-9]{6}Z$'

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

# A store opened with `manifests` holds no file but what was asked for.
partial() { [ "$(git -C "$dir" config --get crawlsignals.partial || true)" = true ]; }

# fetch_objects: fetch the object ids on stdin, in one request: trees
# without what they name, blobs themselves.
fetch_objects() {
  local ids
  ids=$(sort -u)
  [ -n "$ids" ] || return 0
  printf '%s\n' "$ids" | git -C "$dir" -c fetch.negotiationAlgorithm=noop fetch --quiet --no-tags \
    --no-write-fetch-head --recurse-submodules=no --filter=tree:0 --stdin origin
}

# batch_trees: "TREE BATCH" for each batch of the store's newest commit.
batch_trees() {
  git -C "$dir" ls-tree "$branch:batches" 2>/dev/null | awk -F'\t' '$1 ~ / tree / {split($1, m, " "); print m[3], $2}'
}

# tree_of BATCH: the batch's tree in the store's newest commit, or "".
tree_of() { batch_trees | awk -v b="$1" '$2 == b {print $1}'; }

# list_store: every file of the store under batches/, as the build reads it
# (signals.ListingFile), from the batch trees; never kept as evidence.
list_store() {
  batch_trees | while read -r tree b; do
    git -C "$dir" ls-tree --name-only "$tree" | sed "s|^|$b/|"
  done > "$dir/batches/.listing.tmp"
  mv "$dir/batches/.listing.tmp" "$dir/batches/.listing"
}

# put: write the store's files named on stdin ("BATCH NAME", or "BATCH" for
# every file of it) into DIR/batches, fetching in one request every blob
# that is not here. A file already here must hold the store's bytes.
put() {
  local wanted missing=() b name tree
  declare -A trees=()
  while read -r tree b; do trees[$b]=$tree; done < <(batch_trees)
  wanted=$(while read -r b name; do
    [ -n "$b" ] || continue
    tree=${trees[$b]:-}
    if [ -z "$tree" ]; then
      echo "::error::$b is not a batch of the evidence store" >&2
      exit 1
    fi
    git -C "$dir" ls-tree "$tree" | awk -F'\t' -v b="$b" -v n="$name" '$1 ~ / blob / && (n == "" || $2 == n) {split($1, m, " "); print b, m[3], $2; found = 1}
      END {if (n != "" && !found) {print "::error::" b "/" n " is not in the evidence store" > "/dev/stderr"; exit 1}}'
  done)
  [ -n "$wanted" ] || return 0
  while read -r b id name; do
    local path=$dir/batches/$b/$name
    if [ -e "$path" ]; then
      if [ "$(git -C "$dir" hash-object "$path")" != "$id" ]; then
        echo "::error::batches/$b/$name here has other bytes than the store's" >&2
        exit 1
      fi
    else
      missing+=("$b $id $name")
    fi
  done <<< "$wanted"
  [ "${#missing[@]}" -gt 0 ] || return 0
  printf '%s\n' "${missing[@]}" | cut -d' ' -f2 | fetch_objects
  printf '%s\n' "${missing[@]}" | while read -r b id name; do
    mkdir -p "$dir/batches/$b"
    git -C "$dir" cat-file blob "$id" > "$dir/batches/$b/$name.tmp"
    mv "$dir/batches/$b/$name.tmp" "$dir/batches/$b/$name"
  done
}

# open_listing TREES: the publish job's open (see the head of this file).
open_listing() {
  local cache=$1 need=() tree b
  # The commit alone (tree:0), then its root and batches/ trees, each
  # without what it names.
  git clone --quiet --depth 1 --filter=tree:0 --no-checkout --branch "$branch" "$url" "$dir"
  git -C "$dir" config crawlsignals.partial true
  # Fetched objects stay in packs, so the packs are what was fetched.
  git -C "$dir" config fetch.unpackLimit 1
  git -C "$dir" cat-file commit "$branch" | sed -n "1s/^tree //p" | fetch_objects
  git -C "$dir" ls-tree "$branch" | awk -F'\t' '$2 == "batches" {split($1, m, " "); print m[3]}' | fetch_objects
  mkdir -p "$cache" "$dir/batches"
  extends_last "$cache"
  # A cached listing is used only when it makes the very tree the store
  # names (mktree writes that tree here, so nothing needs it fetched).
  while read -r tree b; do
    if [ ! -f "$cache/$tree" ] || [ "$(git -C "$dir" mktree --missing < "$cache/$tree")" != "$tree" ]; then
      need+=("$tree")
    fi
  done < <(batch_trees)
  printf '%s\n' "${need[@]}" | sed '/^$/d' | fetch_objects
  for tree in "${need[@]}"; do
    git -C "$dir" ls-tree "$tree" > "$cache/$tree"
  done
  list_store
  { grep '/batch\.json$' "$dir/batches/.listing" || true; } | tr / ' ' | put
  echo "evidence store: $(batch_trees | wc -l) batches listed (${#need[@]} trees fetched, the others from $cache); no evidence fetched yet"
}

# extends_last TREES: refuse a store whose history does not extend the
# commit the last publish job built on (TREES/built-on, written by vouch):
# that commit must be an ancestor of the store's, and every file of every
# batch it held must still be there with the same bytes. The store only
# ever grows; one rewritten (a force push) is named, file by file, and
# nothing is built from it.
extends_last() {
  local cache=$1 last head changed
  if [ ! -f "$cache/built-on" ]; then
    echo "evidence store: no commit built on before is known (a first run, or no cache); its history is not checked"
    return 0
  fi
  last=$(cat "$cache/built-on")
  [[ $last =~ ^[0-9a-f]{40}$ ]] || { echo "::error::$cache/built-on does not name a commit" >&2; exit 1; }
  head=$(git -C "$dir" rev-parse "$branch")
  [ "$last" != "$head" ] || return 0
  # Every commit of the branch (no tree, no file): a few hundred bytes a week.
  if [ "$(git -C "$dir" rev-parse --is-shallow-repository)" = true ]; then
    git -C "$dir" fetch --quiet --no-tags --filter=tree:0 --unshallow origin "$branch"
  fi
  if ! git -C "$dir" cat-file -e "$last^{commit}" 2>/dev/null || ! git -C "$dir" merge-base --is-ancestor "$last" "$head"; then
    echo "::error::the evidence store's history was rewritten: commit $last, which the last publish job built on, is not in the history of $branch ($head); nothing is built from it (README, \"The evidence store\")" >&2
    exit 1
  fi
  # The batches of that commit, each compared with the store's by tree id;
  # only a batch whose tree differs is listed file by file.
  local old_batches new_batches b old new
  git -C "$dir" cat-file commit "$last" | sed -n "1s/^tree //p" | fetch_objects
  old_batches=$(git -C "$dir" ls-tree "$last" | awk -F'\t' '$2 == "batches" {split($1, m, " "); print m[3]}')
  [ -z "$old_batches" ] || echo "$old_batches" | fetch_objects
  new_batches=$(batch_trees)
  changed=$( [ -z "$old_batches" ] || git -C "$dir" ls-tree "$old_batches" | awk -F'\t' '$1 ~ / tree / {split($1, m, " "); print m[3], $2}' | while read -r old b; do
    new=$(printf '%s\n' "$new_batches" | awk -v b="$b" '$2 == b {print $1}')
    if [ -z "$new" ]; then
      printf 'D\tbatches/%s/\n' "$b"
    elif [ "$new" != "$old" ]; then
      printf '%s\n%s\n' "$old" "$new" | fetch_objects
      awk -F'\t' -v b="$b" 'NR == FNR {split($1, m, " "); now[$2] = m[3]; next}
        {split($1, m, " "); if (!($2 in now)) print "D\tbatches/" b "/" $2; else if (now[$2] != m[3]) print "M\tbatches/" b "/" $2}' \
        <(git -C "$dir" ls-tree "$new") <(git -C "$dir" ls-tree "$old")
    fi
  done)
  if [ -n "$changed" ]; then
    echo "::error::the evidence store changed evidence it kept before: since commit $last, which the last publish job built on, these files of its batches were changed (M) or deleted (D); nothing is built from it:" >&2
    printf '%s\n' "$changed" >&2
    exit 1
  fi
  echo "evidence store: extends commit $last, which the last publish job built on; every batch it held is unchanged"
}

# keep_batches NAMES: one commit adding the files of batches NAMES that the
# store lacks, made from the trees (mktree), never from an index of the whole
# store; a file the store holds with other bytes is refused.
keep_batches() {
  local names=$1 b lines old new batches root refused="" changed=0 parent=()
  git -C "$dir" config user.name "crawlsignals rebuild"
  git -C "$dir" config user.email "crawler@crawlsignals.com"
  batches=$(git -C "$dir" ls-tree "$branch:batches" 2>/dev/null || true)
  for b in $names; do
    [[ $b =~ $batch_name ]] || { echo "::error::keep: $b is not a batch name" >&2; exit 1; }
    [ -d "$dir/batches/$b" ] || { echo "::error::keep: batches/$b is not here" >&2; exit 1; }
    # Derived findings (BATCH/.derived/) are a cache, never evidence; a
    # batch holds no other folder.
    lines=$(cd "$dir/batches/$b" && find . -mindepth 1 -maxdepth 1 ! -name .derived -printf '%P\n' | sort | while read -r name; do
      [ -f "$name" ] || { echo "::error::keep: batches/$b/$name is not a file" >&2; exit 1; }
      printf '100644 blob %s\t%s\n' "$(git hash-object -w "$name")" "$name"
    done)
    old=$(printf '%s\n' "$batches" | awk -F'\t' -v b="$b" '$2 == b {split($1, m, " "); print m[3]}')
    if [ -n "$old" ]; then
      # The store's entries, then the names it lacks; a name it holds
      # with another blob is refused.
      lines=$(awk -F'\t' 'NR == FNR {split($1, m, " "); kept[$2] = m[3]; print; next}
        NF {split($1, m, " "); if (!($2 in kept)) print; else if (kept[$2] != m[3]) print "REFUSE\t" $2}' \
        <(git -C "$dir" ls-tree "$old") <(printf '%s\n' "$lines"))
      refused+=$(printf '%s\n' "$lines" | awk -F'\t' -v b="$b" '$1 == "REFUSE" {print "M\tbatches/" b "/" $2}')
      lines=$(printf '%s\n' "$lines" | grep -v '^REFUSE' || true)
    fi
    [ -n "$lines" ] || continue
    new=$(printf '%s\n' "$lines" | git -C "$dir" mktree --missing)
    [ "$new" != "$old" ] || continue
    changed=1
    batches=$( { printf '%s\n' "$batches" | awk -F'\t' -v b="$b" 'NF && $2 != b'; printf '040000 tree %s\t%s\n' "$new" "$b"; } )
  done
  if [ -n "$refused" ]; then
    echo "::error::refusing to change or delete evidence already kept:" >&2
    printf '%s\n' "$refused" >&2
    exit 1
  fi
  if [ "$changed" -eq 0 ]; then
    echo "evidence store: nothing new to keep"
    exit 0
  fi
  new=$(printf '%s\n' "$batches" | git -C "$dir" mktree --missing)
  if git -C "$dir" rev-parse --quiet --verify "$branch^{commit}" > /dev/null; then
    parent=(-p "$branch")
    root=$( { git -C "$dir" ls-tree "$branch" | awk -F'\t' '$2 != "batches"'; printf '040000 tree %s\tbatches\n' "$new"; } | git -C "$dir" mktree --missing)
  else
    root=$(printf '040000 tree %s\tbatches\n' "$new" | git -C "$dir" mktree)
  fi
  new=$(git -C "$dir" commit-tree "${parent[@]}" -m "Evidence of batch $names" "$root")
  git -C "$dir" push --quiet origin "$new:refs/heads/$branch"
  git -C "$dir" update-ref "refs/heads/$branch" "$new"
  # The listing of a store opened in part names what was just kept too.
  if [ -f "$dir/batches/.listing" ]; then list_store; fi
  echo "evidence store: kept $names"
}

# The history records a build reads come from the Actions cache, which
# every workflow run of the repository can write; the evidence store only
# the publish job can. So the publish job lists the sha256 of each record
# it leaves (vouch), and the next one uses only records listed there
# (vouched): a record no publish job wrote is not history (issue 40).

# vouch_records: list the sha256 of each file under DIR/batches/.derived
# on the branch records, and push it.
vouch_records() {
  local d=$dir/batches/.derived list blob tree commit
  list=$(if [ -d "$d" ]; then cd "$d" && find . -mindepth 1 -maxdepth 1 -type f -printf '%P\n' | LC_ALL=C sort | while read -r name; do
    printf '%s  %s\n' "$(sha256sum < "$name" | cut -d' ' -f1)" "$name"
  done; fi)
  git -C "$dir" config user.name "crawlsignals rebuild"
  git -C "$dir" config user.email "crawler@crawlsignals.com"
  blob=$(printf '%s\n' "$list" | sed '/^$/d' | git -C "$dir" hash-object -w --stdin)
  tree=$(printf '100644 blob %s\trecords.sha256\n' "$blob" | git -C "$dir" mktree)
  commit=$(git -C "$dir" commit-tree -m "The history records the publish job wrote after $(git -C "$dir" rev-parse --short "$branch" 2>/dev/null || echo "no batch")" "$tree")
  git -C "$dir" push --quiet --force origin "$commit:refs/heads/$records_branch"
  echo "evidence store: vouched for $(printf '%s\n' "$list" | grep -c . || true) history files on the branch $records_branch"
}

# vouched_records: remove from DIR/batches/.derived every file whose
# sha256 the branch records does not list under its name.
vouched_records() {
  local d=$dir/batches/.derived list="" name sum kept=0 dropped=0
  [ -d "$d" ] || { echo "evidence store: no history records restored"; return 0; }
  if git -C "$dir" ls-remote --exit-code --heads "$url" "$records_branch" > /dev/null; then
    git -C "$dir" fetch --quiet --no-tags --depth 1 --filter=blob:none origin "refs/heads/$records_branch"
    list=$(git -C "$dir" cat-file blob FETCH_HEAD:records.sha256)
  fi
  while read -r name; do
    sum=""
    if [ -f "$d/$name" ] && [ ! -L "$d/$name" ]; then sum=$(sha256sum < "$d/$name" | cut -d' ' -f1); fi
    if [ -n "$sum" ] && grep -qxF "$sum  $name" <<< "$list"; then
      kept=$((kept + 1))
    else
      echo "::warning::batches/.derived/$name is not one the publish job wrote (no sha256 on the evidence store's branch $records_branch vouches for it): not used; its site's history is folded again from the evidence"
      rm -rf "${d:?}/$name"
      dropped=$((dropped + 1))
    fi
  done < <(find "$d" -mindepth 1 -maxdepth 1 -printf '%P\n' | LC_ALL=C sort)
  echo "evidence store: $kept history files vouched for, $dropped not used"
}

case $cmd in
vouch)
  [ $# -eq 3 ] || usage
  vouch_records
  mkdir -p "$3"
  git -C "$dir" rev-parse "$branch" > "$3/built-on"
  ;;
vouched)
  [ $# -eq 2 ] || usage
  vouched_records
  ;;
open)
  if git ls-remote --exit-code --heads "$url" "$branch" >/dev/null; then
    if [ "${3:-}" = manifests ]; then
      [ $# -eq 4 ] || usage
      open_listing "$4"
      exit 0
    fi
    git clone --quiet --depth 1 --branch "$branch" "$url" "$dir"
  else
    # A new, empty store: the first batch starts it.
    git init --quiet -b "$branch" "$dir"
    git -C "$dir" remote add origin "$url"
  fi
  mkdir -p "$dir/batches"
  echo "evidence store: $(find "$dir/batches" -mindepth 1 -maxdepth 1 -type d | wc -l) batches"
  ;;
artifacts)
  shift 2
  kept=""
  if partial; then
    for a in "$@"; do
      for b in "$a"/*/; do
        b=$(basename "$b")
        if [[ $b =~ $batch_name ]] && [ -n "$(tree_of "$b")" ]; then kept+="$b"$'\n'; fi
      done
    done
    kept=$(printf '%s' "$kept" | sort -u)
    printf '%s\n' "$kept" | put
  fi
  echo "evidence store: $(printf '%s' "$kept" | grep -c . || true) of the artifacts' batches were kept before; fetched to compare with"
  ;;
fetch)
  [ $# -eq 3 ] || usage
  whole=0 manifests=0
  while read -r b; do
    [ -n "$b" ] || continue
    if [[ $b =~ $batch_name ]]; then
      whole=$((whole + 1))
    elif [[ $b =~ ^[0-9]{8}T[0-9]{6}Z/[A-Za-z0-9.-]+\.json$ ]]; then
      manifests=$((manifests + 1))
    else
      echo "::error::$3: $b is neither a batch nor a batch's manifest" >&2
      exit 1
    fi
  done < "$3"
  # A store cloned whole (or new) has everything already.
  if partial; then
    tr / ' ' < "$3" | put
  fi
  echo "evidence store: the $whole batches and $manifests manifests the build needs are here"
  ;;
keep)
  [ $# -eq 3 ] || usage
  keep_batches "$3"
  ;;
*)
  usage
  ;;
esac
