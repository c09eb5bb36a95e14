# Two commands matter (see README.md): `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench bench-live bench-bots venv messages compilemessages

$(BIN)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# The strong bots' compiled hot loops: Topiary's playouts and Wizards' Garden's search
# (docs/decisions/0018-compiled-playouts.md, 0022-compiled-garden-search.md): Cython and gcc.
EXT_SUFFIX := $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
COMPILED := engine/topiary/_compiled$(EXT_SUFFIX) engine/wizards_garden/_compiled$(EXT_SUFFIX)
engine/%/_compiled$(EXT_SUFFIX): engine/%/_compiled.pyx $(BIN)/.installed
	$(BIN)/python -m engine.topiary.build_compiled $*

venv: $(BIN)/.installed $(COMPILED)

# The embedded default: SQLite, in-memory channel layer; the web process also runs the
# tasks and beat's schedule (topiary_site/embedded.py). The settings allow the HOST it
# binds (any host name for HOST=0.0.0.0, as DEBUG is on; README, "Start").
run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py load_puzzle_pool
	PATH="$(CURDIR)/$(BIN):$$PATH" HOST=$(HOST) PORT=$(PORT) $(BIN)/honcho start web

# Against PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set; see README.md.
test: venv
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: venv
	$(BIN)/python -m bench

# Live play under load (issue 12): the web process + workers + beat on PostgreSQL/Redis, production
# settings; see bench/live_load.py for BENCH_DATABASE_URL / BENCH_REDIS_URL.
bench-live: venv
	$(BIN)/python bench/live_load.py --games 10 50

# Bot moves per worker core at each level (issue 12's Capacity), through the Procfile's
# workers on PostgreSQL and Redis; same BENCH_DATABASE_URL / BENCH_REDIS_URL.
bench-bots: venv
	$(BIN)/python bench/bot_load.py --levels random greedy strong --concurrency 1 2

# Issue 17 (docs/I18N.md): gather every marked string into the German catalogues
# (locale/de/LC_MESSAGES/django.po for Python and templates, djangojs.po for the pages'
# scripts), then compile them. Needs GNU gettext (Debian's package gettext). The compiled
# .mo files are committed, so `make run` works without gettext.
MAKEMESSAGES = $(BIN)/python manage.py makemessages --locale de --no-obsolete \
	--add-location file --ignore '.venv/*' --ignore 'tests/*' --ignore 'bench/*' \
	--ignore 'staticfiles/*' --ignore 'var/*' --ignore 'docs/*'

messages: venv
	$(MAKEMESSAGES) --domain django
	$(MAKEMESSAGES) --domain djangojs
	$(MAKE) compilemessages

compilemessages: venv
	$(BIN)/python manage.py compilemessages --locale de --ignore '.venv/*'
