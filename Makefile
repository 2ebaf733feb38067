# Two commands do everything from a fresh clone:
#   make demo   install, serve the demo site on loopback, crawl it with cleaning on -> cleaned.jsonl
#   make test   install, run the whole test suite (pytest, then ruff and mypy)
#   make fuzz   the mutation fuzzer, 10,000 pages
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
OUT ?= cleaned.jsonl

.PHONY: install demo test pytest lint fuzz clean

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python example_project/run_demo.py --out $(OUT)

test: pytest lint

pytest: $(STAMP)
	$(BIN)/python -m pytest

# The mutation fuzzer over the demo pages: 10,000 pages (tests/fuzzing.py).
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzzing --pages 10000

lint: $(STAMP)
	$(BIN)/ruff check scrapy_webclean tests demo_site example_project benchmarks
	$(BIN)/ruff format --check scrapy_webclean tests demo_site example_project benchmarks
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache cleaned.jsonl demo-crawl.log example_project/images
