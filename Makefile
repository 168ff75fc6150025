# Everything a fresh machine needs: `make demo` and `make test` create .venv
# and install the project into it when it is missing or pyproject.toml changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export SDL_VIDEODRIVER ?= dummy
export SDL_AUDIODRIVER ?= dummy
export PYGAME_HIDE_SUPPORT_PROMPT := 1

.PHONY: demo test bench lint train install-pi clean hooks reports

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/splendor-companion demo

test: $(STAMP) hooks
	$(BIN)/python -m pytest -q

# The analysis's full strength and calibration counts (hours):
# make bench ARGS="--games 200 --calib 500"
bench: $(STAMP)
	$(BIN)/python tests/bench/run_all.py $(ARGS)

# The accuracy reports in tests/reports/ (about 13 min on 2 idle cores): the reader on
# unseen Splendor and Duel tables and on the recorded scenes.  A test fails when one is
# older than the reader's code, models or params; tests/reports/README.md says more.
reports: $(STAMP)
	$(BIN)/python tests/reports/make_reports.py $(ARGS)

# Re-make the reader's networks from ../shared's design faces and rendered design tables
# (about 205 min on 2 cores; the table-trained networks' crops are cached in ~/.cache),
# then fit their temperatures (vision/learned/{models,params.toml}), the card decode's
# confidence model (vision/card_confidence.toml, ~3 min), the joins of network and decode
# (vision/{card,noble}_join.toml), then choose the readers' sure thresholds on design tables and score them on check tables
# (vision/sure.toml, ~40 min), and the read cache's threshold (vision/read_cache.toml, ~7 min).
train: $(STAMP)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev,train]'
	$(BIN)/python -m vision.training.train $(ARGS)
	$(BIN)/python -m vision.training.fit
	$(BIN)/python -m vision.training.confidence
	$(BIN)/python -m vision.training.join
	$(BIN)/python -m vision.training.join --nobles --tables 2400
	$(BIN)/python -m vision.training.sure
	$(BIN)/python -m vision.training.cache_fit

lint: $(STAMP) hooks
	$(BIN)/ruff check .
	$(BIN)/mypy

# Commit subjects of at most 72 characters: git runs .githooks/commit-msg once
# core.hooksPath names that folder.  Set only when this folder is the top of a git
# checkout (a tarball has no .git; a copy inside another repository is left alone).
hooks:
	@if command -v git >/dev/null 2>&1 \
	  && [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ] \
	  && [ "$$(git config core.hooksPath)" != .githooks ]; then \
	  git config core.hooksPath .githooks && echo "git hooks: .githooks (commit-msg)"; fi

# Set up a Raspberry Pi OS machine (apt packages, venv in /opt, user, config,
# systemd unit): `sudo make install-pi`; `make install-pi ARGS=--dry-run` shows
# the plan.  Deliberately not tied to .venv: it installs system-wide.
install-pi:
	bash systemd/install-pi.sh $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build *.egg-info
