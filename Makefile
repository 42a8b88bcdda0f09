# OpenBench-style build: `make EXE=stockman-dev` produces an optimised binary
# named by EXE next to this Makefile. `make test` runs the whole test suite.

EXE ?= stockman
CARGO ?= cargo
RUSTFLAGS_NATIVE ?= -C target-cpu=native

.PHONY: all build test ci bench clean

all: build

build:
	$(CARGO) rustc --release --bin stockman -- $(RUSTFLAGS_NATIVE) --emit link=$(EXE)

test:
	$(CARGO) test

ci:
	bash .ci/run

bench:
	$(CARGO) bench

clean:
	$(CARGO) clean
	rm -f $(EXE)
