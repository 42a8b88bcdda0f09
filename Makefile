# OpenBench-style build: `make EXE=stockman-dev` produces an optimised binary
# named by EXE next to this Makefile; `EVALFILE=path` embeds that network instead
# of net/stockman.nnue. `make test` runs the whole test suite.

EXE ?= stockman
CARGO ?= cargo
RUSTFLAGS_NATIVE ?= -C target-cpu=native
EVALFILE ?=
# `FEATURES=spsa` builds the tuning binary (search constants as UCI options).
FEATURES ?=
# Windows needs the .exe that OpenBench's client then looks for.
ifeq ($(OS),Windows_NT)
	BINARY := $(EXE).exe
else
	BINARY := $(EXE)
endif

.PHONY: all build test ci bench clean

all: build

build:
	EVALFILE="$(if $(strip $(EVALFILE)),$(abspath $(EVALFILE)))" \
		$(CARGO) rustc --release --bin stockman $(if $(strip $(FEATURES)),--features $(FEATURES)) -- $(RUSTFLAGS_NATIVE) --emit link=$(BINARY)

# The whole test suite, installing what it needs first (python-chess).
test:
	python3 -c "import chess" 2>/dev/null \
		|| python3 -m pip install --quiet --disable-pip-version-check chess==1.11.2 \
		|| python3 -m pip install --quiet --disable-pip-version-check --break-system-packages chess==1.11.2
	$(CARGO) test

ci:
	bash .ci/run

bench:
	$(CARGO) bench

clean:
	$(CARGO) clean
	rm -f $(BINARY)
