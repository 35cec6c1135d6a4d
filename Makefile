# tao — every entry point. Each target installs what it needs first (scripts/install.sh is
# idempotent and pinned), so `make demo` and `make test` work on a fresh machine.
PORT ?= 8000

.PHONY: demo build site dist example test test-native test-browser test-types test-e2e tools bench size parse-score fuzz install clean

## Build the page and serve it on 127.0.0.1 (the offline scripted model needs no key): the site
## as a static host would serve it, target/site (`make site`), cross-origin isolated
## (scripts/serve.py sends COOP and COEP, so the model in the tab may use threads).
## To edit www/ and reload, serve the repository root instead: `python3 -m http.server`.
demo: site
	@echo ""
	@echo "  tao is running at  http://127.0.0.1:$(PORT)/  (Ctrl-C to stop)"
	@echo ""
	exec python3 scripts/serve.py --directory target/site $(PORT)

## Build the wasm and its JS glue into pkg/ (and print their size). A rebuild with no Rust change
## takes seconds: wasm-opt and the minifier skip what they made before from the same bytes.
build:
	scripts/build.sh

## The demo site as a static host serves it, and as `make demo` and the end-to-end tests serve
## it: target/site (scripts/site.sh: index.html, www/ minified and bundled, pkg/).
site: build
	scripts/site.sh

## The package for other sites: dist/ (the entry tao.js, the wasm, <tao-agent>, its stylesheet,
## the types); `npm pack dist/` makes the npm package.
dist: build
	TAO_SKIP_BUILD=1 scripts/dist.sh

## The example tools (pkg/tools/*.wasm, wasm32-wasip1) alone: what the sandbox's native tests
## read, a few seconds to build, so `make test-native` need not wait for the release wasm.
tools:
	scripts/build-sandbox.sh tools

## The example documentation site (examples/docs-site) with <tao-agent>, built from dist/ into
## target/docs-site and served on 127.0.0.1:$(EXAMPLE_PORT).
EXAMPLE_PORT ?= 8001
example: dist
	node examples/docs-site/build.mjs target/docs-site
	@echo ""
	@echo "  the example site is at  http://127.0.0.1:$(EXAMPLE_PORT)/  (Ctrl-C to stop)"
	@echo ""
	exec python3 -m http.server $(EXAMPLE_PORT) --bind 127.0.0.1 --directory target/docs-site

## Every test layer: the native core, wasm in headless Chromium, the package's types, and the
## page end to end (against the scripted model and the mock OpenAI/Anthropic server). pkg/,
## target/site and dist/ are built once; no test file builds anything. The native tests need
## only the example tools, not the release wasm: they run beside the build, which spends much of
## its time on one core (wasm-opt, LTO); then the layers that use the build, one after another.
test: install
	$(MAKE) --no-print-directory -j2 --output-sync=target test-native site dist
	$(MAKE) --no-print-directory BUILT=1 test-browser test-types test-e2e
	@echo "make test: all layers passed"

# The build the layers below need, unless `make test` has just built it (BUILT=1).
needs = $(if $(BUILT),,$(1))

install:
	scripts/install.sh test

test-native: tools
	cargo test --all-targets
	cargo test --manifest-path sandbox/Cargo.toml

test-browser:
	scripts/test-browser.sh

## The package's declarations, the README's examples and the example site, under tsc --strict.
test-types: $(call needs,dist)
	node scripts/typecheck.mjs

## The mock servers' own tests, the sandbox in a browser, and the end-to-end files two at a time,
## each serving target/site or dist/ itself on a free port (tests/e2e/README.md); then the model
## in the tab alone (its engine takes a core: beside another file, the page's timer would wait
## for the CPU, not for the engine).
test-e2e: $(call needs,site dist)
	node --test tests/mock/
	node sandbox/tests/browser/sandbox.mjs
	node --test --test-concurrency=2 $(filter-out tests/e2e/in-tab.test.mjs,$(wildcard tests/e2e/*.test.mjs))
	node --test tests/e2e/in-tab.test.mjs

## Benchmarks: per-step overhead (native and wasm), streaming-parse throughput, sizes, tao
## beside the floor and the AI SDK in one run of ../shared/bench-peers (the ratios), and the
## model in the tab against native llama.cpp on the same file (bench/in-tab.mjs, about 3 minutes).
bench: build
	cargo bench --bench bench
	node bench/wasm_step.mjs
	node bench/stream_ondelta.mjs
	scripts/size.sh
	node scripts/bench-peers.mjs
	scripts/install.sh test
	node bench/in-tab.mjs

size:
	scripts/size.sh

## The parser against the shared corpus, scored by the corpus's own reference scorer.
CORPUS ?= ../shared/corpus
parse-score:
	cargo build --quiet --release --bin tao
	@for set in peer-suite real-outputs; do \
	  echo "$$set:"; \
	  target/release/tao parse --jsonl < $(CORPUS)/$$set.jsonl > target/$$set.verdicts.jsonl; \
	  python3 $(CORPUS)/score.py $(CORPUS)/$$set.jsonl target/$$set.verdicts.jsonl --by style; \
	done

## Fuzz the parser, the SSE decoder, the trajectory reader and the JSON reader (against
## serde_json's) for FUZZ_SECONDS per target (not part of `make test`): cargo-fuzz where a
## nightly toolchain is installed, else the stable driver (examples/fuzz.rs); FUZZ_ENGINE=driver
## or FUZZ_ENGINE=cargo-fuzz picks one.
FUZZ_SECONDS ?= 60
FUZZ_ENGINE ?= $(shell rustup toolchain list | grep -q '^nightly' && echo cargo-fuzz || echo driver)
fuzz:
	@if [ "$(FUZZ_ENGINE)" = cargo-fuzz ]; then \
	  scripts/install.sh fuzz && \
	  cargo run --quiet --profile fuzz --example fuzz -- --write-seeds fuzz/corpus && \
	  for t in parser sse trajectory json; do \
	    (cd fuzz && cargo +nightly fuzz run $$t corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) -timeout=2 -rss_limit_mb=2048) || exit 1; \
	  done; \
	else \
	  cargo run --profile fuzz --example fuzz -- --seconds $$((4 * $(FUZZ_SECONDS))); \
	fi

clean:
	rm -rf target pkg dist tests/e2e/out
