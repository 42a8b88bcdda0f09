# OpenBench-style build: `make EXE=stockman-dev` produces an optimised binary
# named by EXE next to this Makefile, tuned for this machine's CPU
# (-C target-cpu=native); `EVALFILE=path` embeds that network instead of
# net/stockman.nnue. `make release` builds portable binaries, one per x86-64
# level. `make test` runs the whole test suite, the engine's and the lab's.

EXE ?= stockman
CARGO ?= cargo
RUSTFLAGS_NATIVE ?= -C target-cpu=native
EVALFILE ?=
# `FEATURES=spsa` builds the tuning binary (search constants as UCI options).
FEATURES ?=
# Windows needs the .exe that OpenBench's client then looks for.
ifeq ($(OS),Windows_NT)
	EXT := .exe
else
	EXT :=
endif
BINARY := $(EXE)$(EXT)

# The version of the engine package: the first `version =` of Cargo.toml.
VERSION = $(shell sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The x86-64 micro-architecture levels `make release` builds for: plain
# x86-64 runs on any 64-bit x86 CPU, v2 adds SSE4.2 and POPCNT, v3 AVX2, BMI2
# and FMA (most CPUs since 2015), v4 AVX-512.
RELEASE_LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4
RELEASE_BINARIES = $(foreach level,$(RELEASE_LEVELS),stockman-$(VERSION)-$(level)$(EXT))

.PHONY: all build release test ci bench clean

all: build

build:
	EVALFILE="$(if $(strip $(EVALFILE)),$(abspath $(EVALFILE)))" \
		$(CARGO) rustc --release --bin stockman $(if $(strip $(FEATURES)),--features $(FEATURES)) -- $(RUSTFLAGS_NATIVE) --emit link=$(BINARY)

# Portable binaries for a release, stockman-<version>-<level> next to this
# Makefile, one per level in RELEASE_LEVELS. The level goes to every crate
# through RUSTFLAGS (with `cargo rustc -- -C ...` only the last crate would
# get it), each level in a target directory of its own, target/release-LEVEL,
# so a later `make release` rebuilds nothing. They play the same moves: each
# prints the same `stockman bench` signature, only the speed differs. Pick
# the highest level the CPU supports (on Linux, `/lib64/ld-linux-x86-64.so.2
# --help` lists the levels it supports).
release:
	@set -e; for level in $(RELEASE_LEVELS); do \
		name="stockman-$(VERSION)-$$level$(EXT)"; \
		echo "make release: $$name (-C target-cpu=$$level)"; \
		EVALFILE="$(if $(strip $(EVALFILE)),$(abspath $(EVALFILE)))" RUSTFLAGS="-C target-cpu=$$level" \
			$(CARGO) build --release -p stockman --bin stockman --target-dir target/release-$$level; \
		cp target/release-$$level/release/stockman$(EXT) $$name.partial && mv $$name.partial $$name; \
	done

# The whole test suite, installing what it needs first: python-chess for the
# tests that use it as an oracle or a client. It takes the first that works:
# PYTHON with python-chess already; the virtual environment an earlier run
# made; pip installing into PYTHON (for the user, then past a distribution's
# "externally managed" guard); a new virtual environment, target/pyenv.
# The tests run the interpreter named by STOCKMAN_PYTHON.
PYTHON ?= python3
PYENV := target/pyenv
PYENV_PYTHON := $(PYENV)/bin/python
CHESS := chess==1.11.2
PIP_QUIET := --quiet --disable-pip-version-check

test:
	@if $(PYTHON) -c "import chess" 2>/dev/null; then \
		py="$(PYTHON)"; \
	elif $(PYENV_PYTHON) -c "import chess" 2>/dev/null; then \
		py="$(abspath $(PYENV_PYTHON))"; \
	elif $(PYTHON) -m pip install $(PIP_QUIET) $(CHESS) 2>/dev/null \
		|| $(PYTHON) -m pip install $(PIP_QUIET) --break-system-packages $(CHESS) 2>/dev/null; then \
		py="$(PYTHON)"; \
	elif echo "pip cannot install into $(PYTHON): making the virtual environment $(PYENV)" \
		&& $(PYTHON) -m venv $(PYENV) \
		&& $(PYENV_PYTHON) -m pip install $(PIP_QUIET) $(CHESS); then \
		py="$(abspath $(PYENV_PYTHON))"; \
	else \
		echo "make test: cannot install python-chess; install pip or venv for $(PYTHON) (e.g. apt-get install python3-pip python3-venv)" >&2; \
		exit 1; \
	fi; \
	echo "make test: python-chess from $$py"; \
	STOCKMAN_PYTHON="$$py" $(CARGO) test --workspace

ci:
	bash .ci/run

bench:
	$(CARGO) bench

clean:
	$(CARGO) clean
	rm -f $(BINARY) $(RELEASE_BINARIES)
