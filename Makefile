# crawlsignals — the commands of the README. `make` alone lists them.
GO      ?= go
BIN     := ./crawlsignals
SITES   ?= sites.toml
BATCHES ?= batches
OUT     ?= public

WEEKLY_DIR ?= weekly
SHARDS  ?= 2
WEEKS   ?= 52

.PHONY: help demo test eval site build weekly weekly-cost bench bench-go bench-render browser-test serve vet fmt clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  make %-13s %s\n", $$1, $$2}'

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/crawlsignals

FORCE:

demo: $(BIN) ## crawl the embedded fixture web on loopback in two batches (it changes in between) and build public/
	$(BIN) demo -out $(OUT)

test: ## gofmt, go vet and every test (offline)
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -timeout 45m ./...

eval: $(BIN) ## score the terms reader on the labelled real terms in ../shared/realweb/terms and terms-2, each and together (EVAL_DIRS="DIR ..." for others; V=1 lists misses, noise, decoys and false objections)
	$(BIN) eval $(if $(V),-v) $(EVAL_DIRS)

site: $(BIN) ## crawl the real list (sites.toml) into batches/, then build public/
	$(BIN) crawl -sites $(SITES) -batches $(BATCHES)
	$(BIN) build -sites $(SITES) -batches $(BATCHES) -out $(OUT)

weekly: $(BIN) ## the scheduled job on the fixture web, as GitHub runs it; state in WEEKLY_DIR (default weekly/), so a second run is the next week; RECHECK=HOST re-checks one site instead
	SHARDS=$(SHARDS) .ci/weekly.sh $(WEEKLY_DIR) $(if $(RECHECK),recheck $(RECHECK),week)

weekly-cost: $(BIN) ## WEEKS (default 52) scheduled runs in a fresh folder: per week, bytes the publish job fetched and the store's size
	dir=$$(mktemp -d) && SHARDS=$(SHARDS) .ci/weekly.sh $$dir cost $(WEEKS) && rm -rf $$dir

build: $(BIN) ## build public/ from the evidence already in batches/ (no network)
	$(BIN) build -sites $(SITES) -batches $(BATCHES) -out $(OUT)

bench: $(BIN) ## the user's commands, timed, on 2,000 loopback sites of real pages (../shared/realweb): crawl vs its floor (default flags), cold build vs Hugo writing the same site and vs the I/O floor, peak RSS, public/ per site, 8 earlier batches vs the newest alone; the load beside them
	CRAWLSIGNALS_BIN=$(abspath $(BIN)) $(GO) test -run '^$$' -bench '^BenchmarkScale$$' -benchtime 1x -timeout 120m ./bench/

bench-go: ## run every Go benchmark of every package and print their numbers
	$(GO) test -run '^$$' -bench . -benchmem ./...

bench-render: ## render a synthetic 10,000-site directory, and the same with Hugo: pages/s, peak RSS, time ratio
	$(GO) test -run '^$$' -bench BenchmarkBuild10k -benchtime 1x ./render/

browser-test: ## the demo site in headless Chromium at 360 and 1440 px, the Nu validator and axe-core; screenshots in screenshots/
	BROWSER_TEST_REQUIRED=1 SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -v -timeout 30m ./internal/browsertest/

serve: $(BIN) ## preview public/ at http://127.0.0.1:8080/
	$(BIN) serve -dir $(OUT)

clean: ## remove the binary and the built site (never evidence)
	rm -rf $(BIN) $(OUT) $(OUT).new $(OUT).old
