# tichu-analyze: the two commands of the quick start are `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

DEV_STAMP := $(VENV)/.installed-dev

.PHONY: install install-dev demo test test-compiled compiled lint bench bench-report browser fonts clean fuzz

## install: the tool and what it needs to run (what `make demo` uses); a plain install,
## redone when the sources change (an editable install from `make install-dev` serves too)
install: $(STAMP) fonts

## fonts: a font with Chinese, Japanese and Korean glyphs, so that player names in any
## script render in plots (Debian package; skipped with a note where apt-get is not usable)
fonts:
	@dpkg -s fonts-noto-cjk >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null) ; } || \
	  echo "note: fonts-noto-cjk could not be installed; names in Chinese, Japanese or Korean script are drawn as boxes in plots"

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml setup.py $(wildcard tichu_analyze/*.py tichu_analyze/*.json)
	@if [ -f $(DEV_STAMP) ]; then echo "(the editable development install in $(VENV) serves)"; \
	else $(PY) -m pip install --quiet .; fi
	touch $(STAMP)

## install-dev: the tool as an editable install, with the development tools (pytest,
## hypothesis, ruff, mypy, ...) that `make test` needs
install-dev: $(DEV_STAMP) fonts

$(DEV_STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

## demo: install, then check sample_logs/, build a dataset and an HTML report from it
demo: install
	@echo "== tichu-analyze check sample_logs/"
	@$(BIN)/tichu-analyze check sample_logs/ || \
	  echo "(exit status 1: the hand-made sample logs contain deliberate violations)"
	$(BIN)/tichu-analyze ingest sample_logs/ --out demo-out/dataset
	$(BIN)/tichu-analyze report demo-out/dataset -o demo-out/report.html
	$(BIN)/tichu-analyze report demo-out/dataset -o demo-out/site/
	@echo "dataset in demo-out/dataset, report in demo-out/report.html and demo-out/site/index.html"

## test: install-dev (and Chromium for the browser tests), lint, type-check, run every test,
## then the engine's tests again against the mypyc-compiled build
test: install-dev browser
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

## compiled: a second environment, .venv-compiled, with the hot path compiled by mypyc
FAST    := .venv-compiled
compiled: $(FAST)/.installed

$(FAST)/.installed: pyproject.toml setup.py tichu_analyze/*.py
	$(PYTHON) -m venv $(FAST)
	$(FAST)/bin/python -m pip install --quiet --upgrade pip
	$(FAST)/bin/python -m pip install --quiet "setuptools>=77" wheel mypy pytest hypothesis orjson
	$(FAST)/bin/python -m pip install --quiet .
	TICHU_ANALYZE_COMPILE=1 $(FAST)/bin/python -m pip install --quiet --no-build-isolation \
	  --force-reinstall --no-deps .
	touch $@

## test-compiled: the rule fixtures, property and CLI tests against the compiled build
test-compiled: compiled
	cd tests && TICHU_ANALYZE_EXPECT_COMPILED=1 ../$(FAST)/bin/python -m pytest -q -p no:cacheprovider --rootdir=.. \
	  test_compiled_build.py test_rules_fixtures.py test_properties.py test_cli.py test_sample_logs.py

## bench: check's speed, pure Python and compiled
bench: install-dev compiled
	$(PY) benchmarks/bench_check.py
	$(FAST)/bin/python benchmarks/bench_check.py

## bench-report: time and peak memory of 'report' at 10,000 and 100,000 simulated games
bench-report: install
	$(PY) benchmarks/bench_report.py

clean:
	rm -rf $(VENV) $(FAST) build demo-out .pytest_cache .mypy_cache .ruff_cache

## fuzz: a long mutation-fuzzing campaign over every reader and output (new seed each run;
## FUZZ_ITERATIONS inputs); crashes are saved in tests/fuzz/crashes/ as regression tests
FUZZ_ITERATIONS ?= 20000
fuzz: install
	$(PY) tests/fuzzer.py --iterations $(FUZZ_ITERATIONS)
