# Two commands do everything from a fresh clone:
#   make demo   install, serve the demo site on loopback, crawl it with cleaning on -> cleaned.jsonl
#   make test   install, run the whole test suite (ruff, mypy and the docs, then pytest: its
#               closing lines say what was skipped and how to bring it in)
#   make system-deps   the system packages some tests need (redis-server, chromium, java)
#   make fuzz   the mutation fuzzer, 10,000 pages
#   make docs   check the links of README.md and docs/ offline, build the docs (warnings are errors)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
OUT ?= cleaned.jsonl
DOCS_OUT ?= docs/_build/html

.PHONY: install demo test pytest lint docs fuzz clean system-deps

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python example_project/run_demo.py --out $(OUT)

# pytest comes last so that its closing lines (what passed, what was skipped and the one
# command that brings the skipped tests in) close the output. The system packages are
# installed when this user may (root, or sudo without a password); else their tests skip.
test: lint docs
	-@SUDO_FLAGS=-n bash .ci/system-deps 2>/dev/null || echo "make test: could not install the system packages (redis-server, chromium, java); their tests are skipped: run 'sudo make system-deps' to bring them in"
	$(MAKE) --no-print-directory pytest

pytest: $(STAMP)
	$(BIN)/python -m pytest

# Redis, Chromium and a CJK font, Java: what the state, report and Spark tests need.
system-deps:
	bash .ci/system-deps

# The mutation fuzzer over the demo pages: 10,000 pages (tests/fuzzing.py).
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzzing --pages 10000

lint: $(STAMP)
	$(BIN)/ruff check scrapy_webclean tests demo_site example_project benchmarks docs/conf.py docs/check_links.py docs/_ext
	$(BIN)/ruff format --check scrapy_webclean tests demo_site example_project benchmarks docs/conf.py docs/check_links.py docs/_ext
	$(BIN)/mypy

# The documentation site (Sphinx, MyST-Parser, furo) in $(DOCS_OUT). Offline: the links are
# checked by docs/check_links.py (files and anchors; nothing is fetched) and by MyST's
# cross-reference warnings, which -W makes errors.
docs: $(STAMP)
	$(BIN)/python docs/check_links.py
	$(BIN)/sphinx-build -W --keep-going -q -b html docs $(DOCS_OUT)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache cleaned.jsonl demo-crawl.log example_project/images docs/_build
