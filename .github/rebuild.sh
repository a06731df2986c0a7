#!/usr/bin/env bash
# The steps of the rebuild workflow (.github/workflows/rebuild.yml) that
# are more than one command, so that the workflow on GitHub and `make
# weekly` on any machine run the same lines (README, "Running it weekly").
# Run from the job's working folder (the checkout, with ./crawlsignals built).
#
#   rebuild.sh plan                 check the setup, name the batch, list the shards
#                                   (env SHARDS, RECHECK, HAVE_STORE; writes to $GITHUB_OUTPUT)
#   rebuild.sh crawl BATCH i/n      crawl shard i of n into batches/BATCH
#   rebuild.sh check BATCH          verify batches/BATCH (a shard holding no sites wrote none)
#   rebuild.sh recheck HOST         re-check HOST against evidence-store/batches; the
#                                   new batch alone is copied to recheck-out/
#   rebuild.sh recheck-line         the line to add to sites.toml, to $GITHUB_STEP_SUMMARY
#   rebuild.sh changes PUBLIC BATCH...
#                                   the sites whose findings changed in the new BATCHes,
#                                   after the build, also to $GITHUB_STEP_SUMMARY
#
# FIXTURE_FLAGS, when set, names a file of extra crawl flags, one argument a
# line, that `crawlsignals fixture` writes to map every host to the fixture
# web on loopback. It is never set on GitHub, and crawl refuses its -ca and
# short -min-delay unless every host is mapped to loopback.
set -euo pipefail

usage() { echo "usage: $0 plan | crawl BATCH i/n | check BATCH | recheck HOST | recheck-line | changes PUBLIC BATCH..." >&2; exit 2; }
[ $# -ge 1 ] || usage

net=()
if [ -n "${FIXTURE_FLAGS:-}" ]; then
  mapfile -t net < "$FIXTURE_FLAGS"
fi

# changed_sites PUBLIC BATCH...: the sites whose findings the build found
# changed in one of the BATCHes (last_changed in PUBLIC/sites.json, which
# holds each site's "host" before its "last_changed").
changed_sites() {
  local public=$1
  shift
  { grep -o '"host":"[^"]*"\|"last_changed":"[^"]*"\|"last_changed":null' "$public/sites.json" || true; } |
    awk -F'"' -v batches=" $* " '
      $2 == "host" { host = $4 }
      $2 == "last_changed" && $4 != "" && index(batches, " " $4 " ") { print host }'
}

# say_changes PUBLIC BATCH...: which sites changed in the new batches, in
# the log and, on GitHub, in the run's summary (GITHUB_STEP_SUMMARY).
say_changes() {
  local public=$1 changed
  shift
  if [ $# -eq 0 ]; then
    echo "no new batch, so nothing changed"
    return
  fi
  changed=$(changed_sites "$public" "$@" | sort | paste -sd, - | sed "s/,/, /g")
  if [ -n "$changed" ]; then
    echo "findings changed in batch $*: $changed (changes/ lists what changed)"
  else
    echo "no site's findings changed in batch $*"
  fi
  {
    echo "### Sites whose findings changed in batch $*"
    echo
    if [ -n "$changed" ]; then
      changed_sites "$public" "$@" | sort | sed "s/^/- /"
      echo
      echo "The page changes/ lists what changed."
    else
      echo "None: no site's findings changed since its previous batch."
    fi
    echo
  } >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
}

case $1 in
plan)
  # No crawl without a place to keep its evidence privately.
  if [ "${HAVE_STORE:-}" != true ]; then
    echo "::error::the EVIDENCE_DEPLOY_KEY secret is not set; see the README, \"The evidence store\". Nothing was crawled."
    exit 1
  fi
  recheck=${RECHECK:-}
  if [ -n "$recheck" ] && ! printf '%s' "$recheck" | grep -Eq '^[A-Za-z0-9.-]+$'; then
    echo "::error::recheck: \"$recheck\" is not a host name"
    exit 1
  fi
  shards=${SHARDS:-4}
  if ! printf '%s' "$shards" | grep -Eq '^[1-9][0-9]?$'; then
    echo "::error::shards: \"$shards\" is not a number from 1 to 99"
    exit 1
  fi
  {
    echo "recheck=$recheck"
    echo "batch=$(date -u +%Y%m%dT%H%M%SZ)"
    echo "shards=[$(seq -s, 0 $((shards - 1)))]"
  } >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
  ;;
crawl)
  [ $# -eq 3 ] || usage
  # exec: the crawl is this process, so a signal to it reaches the crawl.
  exec ./crawlsignals crawl -sites sites.toml -batches batches -batch "$2" -shard "$3" "${net[@]}"
  ;;
check)
  [ $# -eq 2 ] || usage
  # This step runs only after the crawl succeeded, and a crawl that
  # succeeded without a folder had no site in its shard.
  if [ ! -d "batches/$2" ]; then
    echo "this shard holds no sites: no evidence to check"
    exit 0
  fi
  ./crawlsignals evidence verify -batches batches "$2"
  ;;
recheck)
  [ $# -eq 2 ] || usage
  ls evidence-store/batches > before.txt
  status=0
  ./crawlsignals recheck -sites sites.toml -batches evidence-store/batches -content content -out public "${net[@]}" "$2" > recheck.txt || status=$?
  cat recheck.txt
  # Only the new batch leaves this job, whatever the re-check's status
  # (evidence written is kept); the publish job merges it.
  mkdir -p recheck-out
  ls evidence-store/batches | comm -13 before.txt - | while read -r b; do
    cp -r "evidence-store/batches/$b" recheck-out/
  done
  exit "$status"
  ;;
recheck-line)
  line=$(grep 'rechecked = ' recheck.txt)
  echo "::notice::$line"
  {
    echo "### Re-check done"
    echo
    echo "Add the date to the site in \`sites.toml\` (and merge it), so the list keeps the record:"
    echo
    echo '```'
    echo "$line"
    echo '```'
  } >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
  ;;
changes)
  [ $# -ge 2 ] || usage
  public=$2
  shift 2
  say_changes "$public" "$@"
  ;;
*)
  usage
  ;;
esac
