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
	STOCKMAN_PYTHON="$$py" $(CARGO) test

ci:
	bash .ci/run

bench:
	$(CARGO) bench

clean:
	$(CARGO) clean
	rm -f $(BINARY)
