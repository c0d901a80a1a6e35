# Two commands for a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.test-installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test corpora install build bench bench-load bench-engine bench-cards bench-mutation bench-table bench-first-visit bench-ingest clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

# Installs keep compiled bytecode (pip compiles by default; never --no-compile):
# importing Whoosh from source costs several tenths of a second per process.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	$(BIN)/python -m compileall -q judgebook
	touch $@

install: $(STAMP)

$(TESTSTAMP): $(STAMP)
	$(BIN)/pip install -q -e '.[test]'
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "installing Debian chromium for the browser tests" >&2; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	fi
	touch $@

# Builds the index only when it is missing or older than its sources.
build: $(STAMP)
	$(BIN)/judgebook build --if-stale

run: build
	$(BIN)/judgebook serve --host $(HOST) --port $(PORT)

# ruff (pyproject's [tool.ruff]) and mypy (pyproject's [tool.mypy]), pinned in the test extra.
lint: $(TESTSTAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The real corpora first (tests/corpora.py, standard library only): without them, one line saying what to
# fetch and where it goes, and a non-zero exit before anything is installed or run.
corpora:
	$(eval CORPORA_PROBLEM := $(shell $(PY) tests/corpora.py 2>&1))
	$(if $(CORPORA_PROBLEM),$(error $(CORPORA_PROBLEM)))

test: corpora lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/search.py

# Open-loop load on `judgebook serve` (loopback, bounded); BEFORE=DIR adds an older checkout, ROUNDS=2
# runs before and now in turn twice (a shared machine weighs on both alike).
bench-load: build
	$(BIN)/python bench/load.py --index $(or $(JUDGEBOOK_INDEX),index) $(if $(BEFORE),--before $(BEFORE)) $(if $(ROUNDS),--rounds $(ROUNDS))

# The rebuilt engine against the old one, in one run (a table; bench/engine.py --json for figures).
bench-engine: $(STAMP)
	$(BIN)/python bench/engine.py

# Loading every card definition of the pool against the 86 of rules_source/cards/, fresh processes, one run.
bench-cards: $(STAMP)
	$(BIN)/python bench/cards.py

# Mutation testing of the Standard pool: single meaning-changing edits to each definition, replayed against every
# scenario naming the card; the share no scenario notices (ARGS="--sample 40", "--cards NAME", "--json").
bench-mutation: $(STAMP)
	$(BIN)/python tools/mutate_cards.py $(ARGS)

# The judge's table: server time per choice at /replay/play against the scripted replay page (issue 10).
bench-table: $(STAMP)
	$(BIN)/python bench/table.py

# The first visit of a rule page and of the builder's catalog, fresh processes (needs a built index).
bench-first-visit: build
	$(BIN)/python bench/first_visit.py --index $(or $(JUDGEBOOK_INDEX),index)

# Loading NetrunnerDB's cards against a plain json.loads of the same files.
bench-ingest: $(STAMP)
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) index/gen-* index/current
