# tichu-analyze: the two commands of the quick start are `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test test-compiled compiled lint bench browser clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

## demo: install the fast engine (.venv-compiled), then check sample_logs/, build a dataset
## and an HTML report from it
demo: compiled
	@echo "== tichu-analyze check sample_logs/"
	@$(FAST)/bin/tichu-analyze check sample_logs/ || \
	  echo "(exit status 1: the hand-made sample logs contain deliberate violations)"
	$(FAST)/bin/tichu-analyze ingest sample_logs/ --out demo-out/dataset
	$(FAST)/bin/tichu-analyze report demo-out/dataset -o demo-out/report.html
	@echo "dataset in demo-out/dataset, report in demo-out/report.html"
	@echo "the tool: $(FAST)/bin/tichu-analyze (or activate it: . $(FAST)/bin/activate)"

## test: install (and Chromium for the browser tests), lint, type-check, run every test,
## then the engine's tests again against the mypyc-compiled build
test: install browser
	$(BIN)/ruff check tichu_analyze tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q
	$(MAKE) --no-print-directory test-compiled

## browser: the headless Chromium the report/audit tests open pages in (Debian package)
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; } || \
	  echo "note: Chromium could not be installed; the browser tests will be skipped"

## compiled: the users' environment, .venv-compiled: the tool with the dask extra and the
## hot path compiled by mypyc with the machine's C compiler (pure Python, with a note, when
## there is none or the build fails)
FAST    := .venv-compiled
compiled: $(FAST)/.installed

$(FAST)/.installed: pyproject.toml setup.py tichu_analyze/*.py
	$(PYTHON) -m venv $(FAST)
	$(FAST)/bin/python -m pip install --quiet --upgrade pip
	$(FAST)/bin/python -m pip install --quiet setuptools wheel mypy pytest hypothesis orjson
	$(FAST)/bin/python -m pip install --quiet '.[dask]'
	@if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then \
	  TICHU_ANALYZE_COMPILE=1 $(FAST)/bin/python -m pip install --quiet --no-build-isolation \
	    --force-reinstall --no-deps . || \
	  echo "note: the compiled engine could not be built: $(FAST) runs the pure-Python engine (about half as fast)"; \
	else \
	  echo "note: no C compiler (cc): $(FAST) runs the pure-Python engine (about half as fast)"; \
	fi
	touch $@

## test-compiled: the rule fixtures, property and CLI tests against the compiled build
test-compiled: compiled
	cd tests && TICHU_ANALYZE_EXPECT_COMPILED=1 ../$(FAST)/bin/python -m pytest -q -p no:cacheprovider --rootdir=.. \
	  test_compiled_build.py test_rules_fixtures.py test_properties.py test_cli.py test_sample_logs.py \
	  test_driver.py test_dask.py

## bench: check's speed, pure Python and compiled
bench: install compiled
	$(PY) benchmarks/bench_check.py
	$(FAST)/bin/python benchmarks/bench_check.py

clean:
	rm -rf $(VENV) $(FAST) build demo-out .pytest_cache .mypy_cache .ruff_cache
