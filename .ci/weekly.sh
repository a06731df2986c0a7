#!/usr/bin/env bash
# The scheduled rebuild (.github/workflows/rebuild.yml), run on this machine
# against the fixture web as GitHub runs it: each job in a fresh working
# folder of its own, its steps the workflow's own lines (a test checks that
# every `run:` line of the workflow is here), the shards as separate
# processes writing separate folders (the artifacts), the evidence store a
# bare git repository. README, "Running it weekly".
#
#   weekly.sh DIR week            one scheduled run: the next week of the fixture web
#   weekly.sh DIR recheck HOST    the re-check job for HOST, then publish
#   weekly.sh DIR crawl           plan and crawl only (artifacts in DIR/run/artifacts)
#   weekly.sh DIR publish         the publish job, from the artifacts there
#   weekly.sh DIR resume BATCH i/n  continue shard i/n of BATCH, which a killed
#                                 runner left unfinished, from the store; then publish
#   weekly.sh DIR cost WEEKS      WEEKS scheduled runs; then the cost table (per week:
#                                 bytes the publish job's clone fetched and the derived
#                                 cache it restored, the store on disk, the new batch's
#                                 evidence, the publish job's time)
#
# DIR keeps the state between runs: DIR/store (the evidence store, a bare
# repository), DIR/public (the published site), DIR/cache (the derived
# cache, as the Actions cache keeps it), DIR/trees (the store's batch
# trees as the publish job listed them, another Actions cache), DIR/week
# (weeks run so far),
# DIR/cost.tsv (per run: week, batches, bytes the publish job fetched, the
# store on disk, bytes of evidence added, seconds of the publish job, bytes
# of derived cache restored, bytes of tree cache restored; each cache as the
# Actions cache moves it, compressed).
# Week k serves stage min(k, last) of the fixture web.
#
# Environment: BIN (the crawlsignals binary, default ./crawlsignals), SITES
# (the reviewed list, default testdata/demo/sites.toml), SHARDS (default 2),
# EVIDENCE_URL (default file://DIR/store), BASE_URL. For the fault tests:
# WEEKLY_KILL_SHARD=i kills shard i's crawl (SIGKILL) once it has begun a
# site's WARC, as a runner that dies mid-crawl; WEEKLY_FAIL_AFTER_KEEP=1
# ends the publish job right after the keep step, as a job that fails
# there (nothing published, no cache saved).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '9,14p' "$0" >&2; exit 2; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)
what=$2
bin=$(cd "$root" && realpath "${BIN:-./crawlsignals}")
sites=$(cd "$root" && realpath "${SITES:-testdata/demo/sites.toml}")
shards=${SHARDS:-2}
export EVIDENCE_URL=${EVIDENCE_URL:-file://$dir/store}
export BASE_URL=${BASE_URL:-http://127.0.0.1:8080/}
run=$dir/run

say() { echo "weekly: $*"; }

# packed DIR: the bytes of DIR as the Actions cache stores and restores it
# (a tar, compressed with zstd; gzip where zstd is missing).
packed() {
  local z=gzip
  command -v zstd > /dev/null && z="zstd -q"
  tar -C "$(dirname "$1")" -cf - "$(basename "$1")" | $z -c | wc -c
}

if [ ! -d "$dir/store" ] && [ "$EVIDENCE_URL" = "file://$dir/store" ]; then
  git init --quiet --bare -b main "$dir/store"
fi
# GitHub serves partial clones; a local bare repository only when asked.
if [ "$EVIDENCE_URL" = "file://$dir/store" ]; then
  git -C "$dir/store" config uploadpack.allowFilter true
fi

# job NAME: a fresh working folder, as a runner's checkout with the binary
# built, and the reviewed list as sites.toml.
job() {
  local d=$run/$1
  rm -rf "$d"
  mkdir -p "$d"
  ln -s "$bin" "$d/crawlsignals"
  cp "$sites" "$d/sites.toml"
  ln -s "$root/content" "$d/content"
  ln -s "$root/.github" "$d/.github"
  echo "$d"
}

fixture_pid=
stop_fixture() {
  if [ -n "$fixture_pid" ]; then
    kill "$fixture_pid" 2>/dev/null || true
    wait "$fixture_pid" 2>/dev/null || true
    fixture_pid=
  fi
}
trap stop_fixture EXIT

# start_fixture STAGE: the fixture web in a process of its own; the crawl
# flags it writes reach the crawl through FIXTURE_FLAGS.
start_fixture() {
  rm -rf "$run/fixture"
  "$bin" fixture -dir "$run/fixture" -stage "$1" -sites "$sites" &
  fixture_pid=$!
  for _ in $(seq 600); do
    [ -f "$run/fixture/crawl-flags" ] && break
    kill -0 "$fixture_pid" 2>/dev/null || { say "the fixture web did not start"; exit 1; }
    sleep 0.05
  done
  [ -f "$run/fixture/crawl-flags" ] || { say "the fixture web did not start in 30 s"; exit 1; }
  export FIXTURE_FLAGS=$run/fixture/crawl-flags
}

weeks_run() { cat "$dir/week" 2>/dev/null || echo 0; }


# plan RECHECK: the plan job; its outputs in $batch and $shard_list.
plan() {
  local d
  d=$(job plan)
  (cd "$d" && SHARDS=$shards RECHECK=$1 HAVE_STORE=true GITHUB_OUTPUT=$d/output .github/rebuild.sh plan)
  batch=$(sed -n 's/^batch=//p' "$d/output")
  shard_list=$(sed -n 's/^shards=\[\(.*\)\]$/\1/p' "$d/output" | tr , ' ')
}

# shard I: the crawl job of shard I; what it wrote is uploaded (copied to
# the artifacts) whatever happened, as the workflow's `if: !cancelled()`.
shard() {
  local i=$1 d status=0 pid
  d=$(job "shard-$i")
  (
    cd "$d"
    export BATCH=$batch SHARD=$i COUNT=$(echo "$shard_list" | wc -w)
    .github/rebuild.sh crawl "$BATCH" "$SHARD/$COUNT" > crawl.log 2>&1 &
    pid=$!
    if [ "${WEEKLY_KILL_SHARD:-}" = "$i" ]; then
      for _ in $(seq 6000); do
        if compgen -G "batches/$BATCH/*.warc.gz.open" > /dev/null; then
          kill -KILL "$pid"
          break
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
      done
    fi
    wait "$pid" && .github/rebuild.sh check "$BATCH" >> crawl.log 2>&1
  ) || status=$?
  if [ -d "$d/batches" ] && [ -n "$(ls -A "$d/batches")" ]; then
    mkdir -p "$run/artifacts/evidence-$i"
    cp -a "$d/batches/." "$run/artifacts/evidence-$i/"
  fi
  say "shard $i: exit $status ($(tail -n 1 "$d/crawl.log"))"
  return "$status"
}

crawl_week() {
  local week stage pids=() failed=() n
  rm -rf "$run"
  mkdir -p "$run/artifacts"
  week=$(($(weeks_run) + 1))
  stage=$week
  start_fixture "$stage"
  plan ""
  say "week $week: batch $batch, shards $shard_list"
  for i in $shard_list; do
    shard "$i" &
    pids+=($!)
  done
  n=$(echo "$shard_list" | wc -w)
  i=0
  for p in "${pids[@]}"; do
    wait "$p" || failed+=("$i/$n")
    i=$((i + 1))
  done
  stop_fixture
  echo "$week" > "$dir/week"
  echo "${failed[*]}" > "$run/failed-shards"
  # A failed shard still publishes what the others kept (fail-fast: false).
  [ "${#failed[@]}" -eq 0 ] || say "shard(s) ${failed[*]} failed; the publish job merges what every shard uploaded"
}

# The run fails, after publishing, when a shard failed: as on GitHub, where
# the run's conclusion is that of its worst job.
shards_ok() {
  local failed
  failed=$(cat "$run/failed-shards")
  if [ -n "$failed" ]; then
    for sh in $failed; do
      echo "::error::shard $sh of batch $batch failed; what it kept is in the store; continue it with: $0 $dir resume $batch $sh"
    done
    exit 1
  fi
}

# resume BATCH i/n: what README "Reading a failed run" asks of an operator
# when a shard was cut short. The batch comes from the store (where the
# publish job kept what the shard uploaded, unfinished WARCs included),
# into a folder of its own; crawl -resume continues it there, reusing every
# stored answer; the folder is then the artifact the publish job merges.
resume_job() {
  local b=$1 sh=$2 d status=0
  rm -rf "$run"
  mkdir -p "$run/artifacts"
  start_fixture "$(weeks_run)"
  d=$(job resume)
  (
    cd "$d" &&
      .github/evidence-store.sh open evidence-store &&
      mkdir -p batches &&
      cp -a "evidence-store/batches/$b" batches/ &&
      rm -rf "batches/$b/.derived" &&
      mapfile -t net < "$FIXTURE_FLAGS" &&
      ./crawlsignals crawl -sites sites.toml -batches batches -resume "$b" -shard "$sh" "${net[@]}"
  ) || status=$?
  stop_fixture
  say "resume $b $sh: exit $status"
  [ "$status" -eq 0 ] || exit "$status"
  mkdir -p "$run/artifacts/evidence-resume"
  cp -a "$d/batches/." "$run/artifacts/evidence-resume/"
}

recheck_job() {
  local host=$1 d status=0
  rm -rf "$run"
  mkdir -p "$run/artifacts"
  start_fixture "$(weeks_run)"
  plan "$host"
  d=$(job recheck)
  # && chains: set -e does not hold inside a subshell whose status is tested.
  (
    cd "$d" &&
      .github/evidence-store.sh open evidence-store &&
      export HOST=$host GITHUB_STEP_SUMMARY=$d/summary.md &&
      .github/rebuild.sh recheck "$HOST" &&
      .github/rebuild.sh recheck-line
  ) || status=$?
  if [ -d "$d/recheck-out" ] && [ -n "$(ls -A "$d/recheck-out")" ]; then
    mkdir -p "$run/artifacts/evidence-recheck"
    cp -a "$d/recheck-out/." "$run/artifacts/evidence-recheck/"
  fi
  stop_fixture
  say "recheck $host: exit $status"
}

# publish: the publish job. A failing step ends it (nothing after it runs,
# nothing is published); the merge continues on error as in the workflow.
publish() {
  local d merge=0 fetched stored added cached=0 trees=0 started=$SECONDS
  d=$(job publish)
  cd "$d"
  # actions/cache, restore: the batch trees listed by earlier runs.
  if [ -d "$dir/trees" ]; then
    trees=$(packed "$dir/trees")
    cp -a "$dir/trees" evidence-trees
  fi
  .github/evidence-store.sh open evidence-store manifests evidence-trees
  mkdir -p new-evidence
  cp -a "$run/artifacts/." new-evidence/
  shopt -s nullglob
  .github/evidence-store.sh artifacts evidence-store new-evidence/*
  ./crawlsignals evidence merge -batches evidence-store/batches -new new-batches.txt new-evidence/* || merge=$?
  shopt -u nullglob
  ./crawlsignals evidence verify -batches evidence-store/batches -from new-batches.txt
  .github/evidence-store.sh keep evidence-store "$(tr '\n' ' ' < new-batches.txt)"
  # A job that dies once the batch is kept: its cache is never saved.
  [ -z "${WEEKLY_FAIL_AFTER_KEEP:-}" ] || { echo "::error::the publish job stopped after keeping the evidence (WEEKLY_FAIL_AFTER_KEEP)"; exit 1; }
  # What this run added to the store: the new batches' evidence, before
  # the derived cache joins them.
  added=$(cd evidence-store/batches && du -scb --exclude=.derived $(cat ../../new-batches.txt) | tail -n 1 | cut -f1)
  # actions/cache, restore.
  if [ -d "$dir/cache" ]; then
    cached=$(packed "$dir/cache")
    cp -a "$dir/cache/." evidence-store/batches/
  fi
  .github/evidence-store.sh vouched evidence-store
  ./crawlsignals evidence needs -sites sites.toml -batches evidence-store/batches -content content > needs.txt
  .github/evidence-store.sh fetch evidence-store needs.txt
  # Bytes fetched: git keeps what it fetches in packs (the store's open
  # sets fetch.unpackLimit), and writes what this job made (the new
  # batch's objects, the trees rebuilt from the cache) loose.
  fetched=$(find evidence-store/.git/objects/pack -name '*.pack' -printf '%s\n' 2>/dev/null | awk '{n += $1} END {print n + 0}')
  ./crawlsignals build -sites sites.toml -batches evidence-store/batches -content content -out public -base-url "${BASE_URL%/}/"
  ./crawlsignals verify -sites sites.toml -batches evidence-store/batches -content content
  ./crawlsignals check-site -dir public -base-url "${BASE_URL%/}/"
  xargs .github/rebuild.sh changes public < new-batches.txt | sed 's/^/weekly: /'
  .github/evidence-store.sh vouch evidence-store evidence-trees
  # deploy-pages: the new site replaces the old one whole.
  rm -rf "$dir/public.old"
  if [ -d "$dir/public" ]; then mv "$dir/public" "$dir/public.old"; fi
  mv public "$dir/public"
  rm -rf "$dir/public.old"
  # actions/cache, save (after the job succeeded).
  rm -rf "$dir/cache.new"
  mkdir -p "$dir/cache.new"
  # Only the history records: one per site, all the next build needs
  # beside the new batch (README, "Derived findings").
  if [ -d evidence-store/batches/.derived ]; then
    cp -a evidence-store/batches/.derived "$dir/cache.new/"
  fi
  rm -rf "$dir/cache"
  mv "$dir/cache.new" "$dir/cache"
  if [ -d evidence-trees ]; then
    rm -rf "$dir/trees"
    cp -a evidence-trees "$dir/trees"
  fi
  stored=$(du -sb "$dir/store" 2>/dev/null | cut -f1 || echo 0)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(weeks_run)" "$(tr '\n' ' ' < new-batches.txt | sed 's/ $//')" "$fetched" "$stored" "$added" "$((SECONDS - started))" "$cached" "$trees" >> "$dir/cost.tsv"
  say "published $dir/public in $((SECONDS - started)) s; the publish job fetched $fetched bytes of the store, which holds $stored bytes on disk; this run added $added bytes of evidence"
  if [ "$merge" -ne 0 ]; then
    echo "::error::an artifact was refused by the merge (its log names the file); the others were kept and published"
    exit 1
  fi
}

case $what in
week)
  crawl_week
  (publish)
  shards_ok
  ;;
crawl)
  crawl_week
  ;;
publish)
  (publish)
  ;;
recheck)
  [ $# -eq 3 ] || { echo "usage: $0 DIR recheck HOST" >&2; exit 2; }
  recheck_job "$3"
  (publish)
  ;;
resume)
  [ $# -eq 4 ] || { echo "usage: $0 DIR resume BATCH i/n" >&2; exit 2; }
  resume_job "$3" "$4"
  (publish)
  ;;
cost)
  [ $# -eq 3 ] || { echo "usage: $0 DIR cost WEEKS" >&2; exit 2; }
  for _ in $(seq "$3"); do
    crawl_week > /dev/null
    # A process of its own: set -e holds in it whatever tests its status.
    "$0" "$dir" publish > "$dir/publish.log" 2>&1 || { cat "$dir/publish.log"; exit 1; }
    tail -n 1 "$dir/cost.tsv"
  done
  echo
  echo "week  fetched by publish  derived cache restored  tree cache restored  store on disk  evidence added  publish job"
  awk -F'\t' '{printf "%4d  %14.1f KB  %19.1f KB  %16.1f KB  %10.1f KB  %11.1f KB  %9d s\n", $1, $3/1000, $7/1000, $8/1000, $4/1000, $5/1000, $6}' "$dir/cost.tsv"
  # Loose objects are not delta-compressed; a packed store is what a host keeps.
  git --git-dir "$dir/store" gc --quiet
  echo "store after git gc: $(git --git-dir "$dir/store" count-objects -v | awk '/^size-pack:/ {print $2}') KiB packed"
  ;;
*)
  echo "usage: $0 DIR week | recheck HOST | crawl | publish | cost WEEKS" >&2
  exit 2
  ;;
esac
