# crawlsignals — the commands of the README. `make` alone lists them.
GO      ?= go
BIN     := ./crawlsignals
SITES   ?= sites.toml
BATCHES ?= batches
OUT     ?= public

.PHONY: help demo test site build bench serve vet fmt clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  make %-8s %s\n", $$1, $$2}'

$(BIN): FORCE
	$(GO) build -o $(BIN) ./cmd/crawlsignals

FORCE:

demo: $(BIN) ## crawl the embedded fixture web on loopback and build public/
	$(BIN) demo -out $(OUT)

test: ## gofmt, go vet and every test (offline)
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test ./...

site: $(BIN) ## crawl the real list (sites.toml) into batches/, then build public/
	$(BIN) crawl -sites $(SITES) -batches $(BATCHES)
	$(BIN) build -sites $(SITES) -batches $(BATCHES) -out $(OUT)

build: $(BIN) ## build public/ from the evidence already in batches/ (no network)
	$(BIN) build -sites $(SITES) -batches $(BATCHES) -out $(OUT)

bench: ## run the benchmarks and print their numbers
	$(GO) test -run '^$$' -bench . -benchmem ./...

serve: $(BIN) ## preview public/ at http://127.0.0.1:8080/
	$(BIN) serve -dir $(OUT)

clean: ## remove the binary and the built site (never evidence)
	rm -rf $(BIN) $(OUT) $(OUT).new $(OUT).old
