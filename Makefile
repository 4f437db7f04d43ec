# tichu-analyze: the two commands of the quick start are `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
BIN    := $(VENV)/bin
FAST   := .venv-compiled
DEV_STAMP := $(VENV)/.installed-dev
# test processes (pytest-xdist): one per core
TEST_WORKERS ?= auto

.PHONY: install install-dev demo test test-compiled compiled lint bench bench-report browser fonts clean fuzz

## install: the tool as users run it, in .venv-compiled: the fast engine (the hot path
## compiled by mypyc where a C compiler is present, else pure Python with a note), with the
## Dask extra, and a font for names in any script; no development tools
install: compiled fonts

## compiled: .venv-compiled, redone when the sources change
compiled: $(FAST)/.installed

$(FAST)/.installed: pyproject.toml setup.py $(shell find tichu_analyze -name "*.py") tichu_analyze/*.json
	$(PYTHON) -m venv $(FAST)
	$(FAST)/bin/python -m pip install --quiet --upgrade pip
	$(FAST)/bin/python -m pip install --quiet "setuptools>=77" wheel mypy
	$(FAST)/bin/python -m pip install --quiet '.[dask]'
	@if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then \
	  TICHU_ANALYZE_COMPILE=1 $(FAST)/bin/python -m pip install --quiet --no-build-isolation \
	    --force-reinstall --no-deps . || \
	  echo "note: the compiled engine could not be built: $(FAST) runs the pure-Python engine (about half as fast)"; \
	else \
	  echo "note: no C compiler (cc): $(FAST) runs the pure-Python engine (about half as fast)"; \
	fi
	touch $@

## install-dev: .venv, an editable install with the development tools (pytest, hypothesis,
## ruff, mypy, ...) and the Dask extra, which `make test` needs
install-dev: $(DEV_STAMP) fonts

$(DEV_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,dask]'
	touch $(DEV_STAMP)

## fonts: a font with Chinese, Japanese and Korean glyphs, so that player names in any
## script render in plots (Debian package; skipped with a note where apt-get is not usable)
fonts:
	@dpkg -s fonts-noto-cjk >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null) ; } || \
	  echo "note: fonts-noto-cjk could not be installed; names in Chinese, Japanese or Korean script are drawn as boxes in plots"

## demo: install, then check sample_logs/, build a dataset, an HTML report and a report site
demo: install
	@echo "== tichu-analyze check sample_logs/"
	@$(FAST)/bin/tichu-analyze check sample_logs/ || \
	  echo "(exit status 1: the hand-made sample logs contain deliberate violations)"
	$(FAST)/bin/tichu-analyze ingest sample_logs/ --out demo-out/dataset
	$(FAST)/bin/tichu-analyze report demo-out/dataset -o demo-out/report.html
	$(FAST)/bin/tichu-analyze report demo-out/dataset -o demo-out/site/
	@echo "dataset in demo-out/dataset, report in demo-out/report.html and demo-out/site/index.html"
	@echo "the tool: $(FAST)/bin/tichu-analyze (or activate it: . $(FAST)/bin/activate)"

## test: install-dev (and Chromium for the browser tests), lint, type-check, run every test,
## in parallel (TEST_WORKERS, one per core), then the engine's tests again against the
## mypyc-compiled build
test: install-dev browser
	$(BIN)/ruff check tichu_analyze tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q -n $(TEST_WORKERS)
	$(MAKE) --no-print-directory test-compiled

## browser: the headless Chromium the report/audit tests open pages in (Debian package)
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; } || \
	  echo "note: Chromium could not be installed; the browser tests will be skipped"

## test-compiled: the tests marked `engine` (the fixture folders, properties, legality, the
## readers, the dataset rows: what the mypyc build compiles) against the compiled build (the
## test tools are added to .venv-compiled for this)
test-compiled: compiled
	$(FAST)/bin/python -m pip install --quiet pytest pytest-xdist hypothesis orjson duckdb jsonschema pyinstrument
	cd tests && TICHU_ANALYZE_EXPECT_COMPILED=1 ../$(FAST)/bin/python -m pytest -q -p no:cacheprovider \
	  --rootdir=.. -n $(TEST_WORKERS) -m engine .

## bench: check's speed, pure Python and compiled
bench: install-dev compiled
	$(PY) benchmarks/bench_check.py
	$(FAST)/bin/python benchmarks/bench_check.py

## bench-report: time and peak memory of 'report' at 10,000 and 100,000 simulated games
bench-report: install-dev
	$(PY) benchmarks/bench_report.py

## fuzz: a long mutation-fuzzing campaign over every reader and output (new seed each run;
## FUZZ_ITERATIONS inputs); crashes are saved in tests/fuzz/crashes/ as regression tests
FUZZ_ITERATIONS ?= 20000
fuzz: install-dev
	$(PY) tests/fuzzer.py --iterations $(FUZZ_ITERATIONS)

clean:
	rm -rf $(VENV) $(FAST) build demo-out .pytest_cache .mypy_cache .ruff_cache
