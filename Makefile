# ginref: `make serve` runs the table page and the API on SQLite at http://127.0.0.1:5000 (HOST, PORT),
# `make test` runs the quick tier (every test not marked slow), `make check` every test and the linters.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
# make serve listens on HOST:PORT, e.g. `PORT=8080 make serve`.
PORT ?= 5000
# HOST=0.0.0.0 listens on the LAN, so that the phones at the table can open the page.
HOST ?= 127.0.0.1

# The browser tests (tests/test_page) need Chromium; without it they are skipped, and said so.
CHROMIUM ?= /usr/bin/chromium
BROWSER_CHECK = test -x $(CHROMIUM) || echo "\#\#\#\# SKIPPED: the browser tests (tests/test_page): no $(CHROMIUM) (apt-get install -y chromium) \#\#\#\#"

.PHONY: serve serve-prod test test-slow check lint fuzz-live bench openapi clean

$(BIN)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# Flask's development server on SQLite (instance/ginref.sqlite3), its schema created or upgraded first.
serve: $(BIN)/.installed
	$(BIN)/flask --app app init-db
	@$(BIN)/flask --app app address $(HOST):$(PORT)
	FLASK_LISTEN=$(HOST):$(PORT) $(BIN)/flask --app app run --host $(HOST) --port $(PORT)

# Production: gunicorn with several workers; DATABASE_URL for PostgreSQL and
# FLASK_RATELIMIT_STORAGE_URI=redis://... so that the workers share rate limits.
serve-prod: $(BIN)/.installed
	$(BIN)/flask --app app init-db
	@$(BIN)/flask --app app address "$${GINREF_BIND:-127.0.0.1:8000}"
	FLASK_LISTEN="$${GINREF_BIND:-127.0.0.1:8000}" $(BIN)/gunicorn -c gunicorn.conf.py 'app:create_app()'

# The quick tier: everything but the tests marked slow (long property and fuzz
# runs, live servers), which `make test-slow`, `make check` and CI run.
test: $(BIN)/.installed
	$(BIN)/python -m pytest -n 2 -q -m "not slow"
	@$(BROWSER_CHECK)
	@echo "make test: the quick tier ran; the slow tier (live servers, long property and fuzz runs, the browser tests beyond the smoke test) was not run: make test-slow or make check"

# The slow tier: the tests marked slow (live gunicorn servers, long property and fuzz runs,
# the browser tests of the page beyond tests/test_page/test_page_smoke.py).
test-slow: $(BIN)/.installed
	$(BIN)/python -m pytest -n 2 -q -m slow
	@$(BROWSER_CHECK)

# Every test (both tiers), then the linters, as CI does.
check: test test-slow lint

# ruff (check and format), mypy, and mypy --strict on the referee.
lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/mypy --strict referee

# schemathesis over the whole spec against a live gunicorn server (4 workers), each
# write with its key, ETag and Idempotency-Key; prints the 2xx/4xx/5xx answers of each
# operation and fails on any 5xx or a write that never got a 2xx. FUZZ_EXAMPLES per operation.
FUZZ_EXAMPLES ?= 100
fuzz-live: $(BIN)/.installed
	$(BIN)/python tests/fuzz_live.py $(FUZZ_EXAMPLES)

# Rewrite openapi.yaml from the schemas (tests/test_openapi.py fails when it drifts).
openapi: $(BIN)/.installed
	$(BIN)/flask --app app openapi write --format=yaml openapi.yaml

# The referee benchmarks (bench/run.py), with their own requirements.
bench: $(BIN)/.installed
	$(BIN)/python -m pip install --quiet -r bench/requirements.txt
	$(BIN)/python bench/run.py

# Remove the virtualenv and the SQLite databases in instance/.
clean:
	rm -rf $(VENV) instance/*.sqlite3
