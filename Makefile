# Every target creates and uses a local virtualenv, so each is the first and only command needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
GAME   ?= street-art
OPTIONS ?=

.PHONY: demo test test-postgres run sync lint bench arena clean

# Installs pin every package to constraints.txt, so a new release cannot break a fresh clone.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)  ## a whole AI game offline: board PNGs and a log under out/demo/
	$(BIN)/python -m bot demo --game $(GAME) --options "$(OPTIONS)"

test: $(STAMP)  ## the whole test suite
	$(BIN)/python -m pytest -q

test-postgres: $(STAMP)  ## every PostgreSQL run of the suite, on a throwaway server it starts
	CI=true .ci/with-postgres $(BIN)/python -m pytest -q -k postgres

run: $(STAMP)  ## the real bot, from .env (needs DISCORD_TOKEN)
	$(BIN)/python -m bot run

sync: $(STAMP)  ## register the slash commands with Discord
	$(BIN)/python -m bot sync

lint: $(STAMP)  ## ruff, and mypy over every package (rules held to nearly --strict)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy rules images bot cogs

bench: $(STAMP)  ## figures as ratios to this machine's own floor
	$(BIN)/python -m bench

arena: $(STAMP)  ## the AI league: every game and pair of levels, ARENA_GAMES each (10: ~1.5 h)
	$(BIN)/python -m bench.ai --arena --games $(or $(ARENA_GAMES),10)

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis
