# The two commands of the README: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# Tests run against real PostgreSQL and Redis on 127.0.0.1 (ARCHITECTURE.md);
# override either variable to point elsewhere.
TEST_DATABASE_URL ?= postgres://takhteh:takhteh@127.0.0.1:5432/takhteh
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test faults venv messages migrate lint bench services browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# Compiling the catalogues needs no service: run it as the embedded default.
messages: $(STAMP)
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py compiletranslations

migrate: $(STAMP)
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py migrate --noinput

# Embedded default: SQLite, in-memory channel layer, in-process deadlines;
# DEBUG off with a secret generated once in db/ (`DEBUG=true make run` for the debug pages).
run: $(STAMP) messages migrate
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py vapid_keys
	env -u DATABASE_URL -u REDIS_URL $(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

services:
	bash scripts/ensure_services.sh

browser:
	@bash scripts/ensure_chromium.sh

# Three pytest-xdist workers by default (TEST_WORKERS=3; 0 runs one process): the
# browser tests wait on the page's own pacing more than on the two cores, so a
# third worker fills the idle CPU (docs/testing.md: 17:40 -> 14:31). Each
# test module one work unit, the longest first (tests/conftest.py), the browser
# modules on every worker, each worker its own test database, browser database,
# Daphne and prefixes (docs/testing.md).
TEST_WORKERS ?= 3

# The machine may ask Python not to write bytecode; every process of the suite
# (a hundred on-site scripts, the Daphnes, the workers) would then compile the
# project again: about 70 ms each (docs/testing.md).
unexport PYTHONDONTWRITEBYTECODE

test: $(STAMP) lint messages services browser
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_PREFIX=test-$$(date +%s%N) \
		CHANNEL_PREFIX=test-$$(date +%s%N) \
		$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# Fault tests (tests/faults, issue 14): each starts real services (Daphne, a
# Celery worker) and kills one during a live match. `make test` skips them.
faults: $(STAMP) services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CACHE_PREFIX=faults-$$(date +%s%N) \
		CHANNEL_PREFIX=faults-$$(date +%s%N) FAULTS=1 \
		$(VENV)/bin/pytest tests/faults $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
