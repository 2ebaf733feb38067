# Two commands do everything from a fresh clone:
#   make demo   install, serve the demo site on loopback, crawl it with cleaning on -> cleaned.jsonl
#   make test   install, run the whole test suite (pytest, then ruff and mypy)
#   make fuzz   the mutation fuzzer, 10,000 pages
#   make docs   check the links of README.md and docs/ offline, build the docs (warnings are errors)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
OUT ?= cleaned.jsonl
DOCS_OUT ?= docs/_build/html

.PHONY: install demo test pytest lint docs fuzz clean

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python example_project/run_demo.py --out $(OUT)

test: pytest lint docs

pytest: $(STAMP)
	$(BIN)/python -m pytest

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
