# sdgallery — `make run` and `make test` work on a fresh Debian machine (they install what is missing).
SWIFT      ?= swift
PREFIX     ?= /usr/local
CONFIG_REL := -c release
ARGS       ?= --demo

.PHONY: all setup setup-build setup-e2e build release run test e2e test-tsan test-asan bench fuzz clean install uninstall

all: build

setup:
	@scripts/setup

setup-build:
	@scripts/setup --build-only

setup-e2e:
	@scripts/setup --e2e

build: setup-build
	$(SWIFT) build

release: setup-build
	$(SWIFT) build $(CONFIG_REL) --product sdgallery

run: release
	@"$$($(SWIFT) build $(CONFIG_REL) --show-bin-path)/sdgallery" $(ARGS)

# `make test`: the unit and loopback tiers; `make e2e`: the end-to-end tier (the built sdgallery in
# tmux, xterm, mlterm, kitty, Konsole, foot, GNOME Terminal). scripts/run-tests picks a tier by the tests' `.endToEnd` tag.
test: setup
	$(SWIFT) build --build-tests
	@scripts/run-tests --tier fast

e2e: setup-e2e
	$(SWIFT) build --build-tests
	@scripts/run-tests --tier e2e

# Every tier under ThreadSanitizer / AddressSanitizer, each in its own scratch path so the
# normal build stays as it is (docs/sanitizers.md: commands, figures, last clean run).
test-tsan: setup
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	@TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 $${TSAN_OPTIONS:-}" scripts/run-tests --tier all --sanitize=thread --scratch-path .build-tsan

test-asan: setup
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	@ASAN_OPTIONS="detect_leaks=0" SDG_CHILD_ASAN_OPTIONS="detect_leaks=1" \
	  LSAN_OPTIONS="suppressions=$(CURDIR)/scripts/lsan.supp" scripts/run-tests --tier all --sanitize=address --scratch-path .build-asan

# `make bench`: the end-to-end benchmarks (scripts/bench, writes docs/benchmarks.md; BENCH_ARGS=--quick
# for a short run); `make bench BENCH=codecs` (or cache, render, downloader, …): one micro benchmark.
bench: setup
	@if [ -z "$(BENCH)" ]; then scripts/bench $(BENCH_ARGS); else \
	  $(SWIFT) build $(CONFIG_REL) --product sdgallery-bench && \
	  "$$($(SWIFT) build $(CONFIG_REL) --show-bin-path)/sdgallery-bench" $(BENCH); fi

# libFuzzer + ASan build in .build-fuzz; each target for FUZZ_SECONDS (FUZZ_TARGETS: all by default).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: setup-build
	SWIFT="$(SWIFT)" scripts/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/sdgallery/demo"
	install -m 0755 "$$($(SWIFT) build $(CONFIG_REL) --show-bin-path)/sdgallery" "$(DESTDIR)$(PREFIX)/bin/sdgallery"
	install -m 0644 man/sdgallery.1 "$(DESTDIR)$(PREFIX)/share/man/man1/sdgallery.1"
	install -m 0644 assets/demo/* "$(DESTDIR)$(PREFIX)/share/sdgallery/demo/"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/sdgallery" "$(DESTDIR)$(PREFIX)/share/man/man1/sdgallery.1"
	rm -rf "$(DESTDIR)$(PREFIX)/share/sdgallery"

clean:
	rm -rf .build
