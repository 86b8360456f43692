# Every target creates and uses a local virtualenv, so each is the first and only command needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
GAME   ?= street-art
OPTIONS ?=
DEMO_LANG ?= en

PLAYERS ?= 3

.PHONY: play demo test test-slow test-postgres run sync lint bench arena clean messages lock audit image activity-sdk

# Installs pin every package to constraints.txt, so a new release cannot break a fresh clone.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)  ## your own table on http://127.0.0.1:8080 against AI seats (GAME=, PLAYERS=, LEARN=1)
	$(BIN)/python -m bot play --game $(GAME) --players $(PLAYERS) --options "$(OPTIONS)" $(if $(LEARN),--learn)

demo: $(STAMP)  ## a whole AI game offline: board PNGs and a log under out/demo/ (DEMO_LANG=pt_BR)
	$(BIN)/python -m bot demo --game $(GAME) --options "$(OPTIONS)" --lang $(DEMO_LANG)

# The suite over pytest-xdist's workers, one per core (TEST_JOBS=0: in this process alone).
# Slow soaks (-m slow) stay out; each worker has its own PostgreSQL schema (tests/conftest.py).
# worksteal: a worker that runs out takes tests queued on the other, so the minute-long
# property runs do not leave one core idle at the end.
TEST_JOBS ?= auto
TEST_DIST := $(if $(filter 0,$(TEST_JOBS)),,--dist worksteal)
test: $(STAMP)  ## the whole test suite (on every core)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) $(TEST_DIST)

test-slow: $(STAMP)  ## the slow tier: soaks, more whole games (Portuguese, browsers, courses)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) $(TEST_DIST) -m slow

test-postgres: $(STAMP)  ## every PostgreSQL run of the suite, on a throwaway server it starts
	CI=true .ci/with-postgres $(BIN)/python -m pytest -q -n $(TEST_JOBS) $(TEST_DIST) -k postgres

run: $(STAMP)  ## the real bot, from .env (needs DISCORD_TOKEN)
	$(BIN)/python -m bot run

sync: $(STAMP)  ## register the slash commands with Discord
	$(BIN)/python -m bot sync

lint: $(STAMP)  ## ruff, and mypy over every package (rules held to nearly --strict)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy rules images bot cogs web

bench: $(STAMP)  ## figures as ratios to this machine's own floor
	$(BIN)/python -m bench

arena: $(STAMP)  ## the AI league: every game and pair of levels, ARENA_GAMES each (10: ~1.5 h)
	$(BIN)/python -m bench.ai --arena --games $(or $(ARENA_GAMES),10)

# The catalogs: every _() / _n() / N_() sentence and every slash command string (names,
# descriptions, options, choices: an extractor walks the command tree) into
# locales/messages.pot (python -m locales.extract), each locales/<lang>/LC_MESSAGES/messages.po
# updated from it (new sentences come in untranslated: the catalog test lists them), then
# compiled to the .mo files the bot reads. Translate, run it again, commit all three.
LOCALES  := locales
messages: $(STAMP)  ## extract, update and compile the message catalogs (translate, then again)
	$(BIN)/python -m locales.extract
	$(BIN)/pybabel -q update -i $(LOCALES)/messages.pot -d $(LOCALES) -D messages \
		--ignore-obsolete --no-wrap
	$(BIN)/pybabel compile --statistics -d $(LOCALES) -D messages

# requirements.lock: the production dependencies (pyproject.toml's, at constraints.txt's
# versions) pinned with every wheel's hash, for every Python the project claims (3.11 and up,
# each platform): what the Containerfile and docs/deploy.md install with --require-hashes.
# Run it after changing either file, and commit the lock.
UV_VERSION := 0.13.9
lock: $(STAMP)  ## write requirements.lock (hashes) from pyproject.toml and constraints.txt
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
		--constraint constraints.txt --custom-compile-command "make lock" \
		--quiet -o requirements.lock

# The Discord Activity's SDK, bundled into web/static/discord-sdk.js from the npm registry at
# the version web/sdk/package.json pins (SDK_VERSION=x.y.z moves the pin); web/sdk/record.json
# says what it was made from. Needs npm; the tests and the bot never do. Commit all three.
activity-sdk:  ## refresh the vendored Discord Embedded App SDK (needs npm and the registry)
	web/sdk/build $(SDK_VERSION)

audit:  ## look the locked dependencies up in a vulnerability database (needs the network)
	.ci/audit

image:  ## build the container image and check it as CI does (root, podman, mmdebstrap)
	.ci/image

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis
