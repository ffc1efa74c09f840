# One entry point for a fresh machine: `make demo` (main job) and `make test` (whole suite).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
ORACLE_A := .oracle/tf115
ORACLE_B := .oracle/tf215
export TF_CPP_MIN_LOG_LEVEL ?= 2
# Fetched code and run outputs live outside the checkout, under the user's cache directory;
# override any of TESTBED_SOURCES, TESTBED_OUT, MIRROR, CORPUS on the command line.
CACHE_DIR := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/estimator-bridge

.PHONY: FORCE testbed testbed-sources corpus corpus-audit env oracles oracle-a oracle-b demo test test-fast test-oracle test-audit bench bench-migrate bench-migrate-large test-slow goldens clean

env: $(VENV)/.done
$(VENV)/.done: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[cpu,dev]'
	touch $@

oracles: oracle-a oracle-b
oracle-a: $(ORACLE_A)/.done
# One builder for the checkout's oracles and verify's cache (verify/oracles.py, pins in
# verify/requirements/): it rebuilds only when the recipe's fingerprint in .done changes.
$(ORACLE_A)/.done: FORCE
	$(PYTHON) -m verify.oracles ensure tf115 $(ORACLE_A)
oracle-b: $(ORACLE_B)/.done
$(ORACLE_B)/.done: FORCE
	$(PYTHON) -m verify.oracles ensure tf215 $(ORACLE_B)
FORCE:

# verify's real-world test bed (docs/verify.md): public programs, fetched into TESTBED_SOURCES
# (`make testbed-sources`: bare git clones in MIRROR; never committed), run tiny on generated
# data on both current-TF sides; writes TESTBED_OUT/results.md.
TESTBED_SOURCES ?= $(CACHE_DIR)/testbed/sources
TESTBED_OUT ?= $(CACHE_DIR)/testbed/out
testbed-sources:
	$(PY) -m testbed.materialise --mirror $(MIRROR) $(TESTBED_SOURCES)
testbed: env oracles
	$(PY) -m testbed.run --sources $(TESTBED_SOURCES) --out $(TESTBED_OUT)

# Main job: verify the shipped legacy examples (imports swapped, compat runner, after estimator-migrate)
# against their oracle goldens, with the engine `estimator-migrate verify` uses for any program.
demo: env
	$(PY) -m verify.shipped

# The whole suite, oracle tests included (they need the oracle environments).
test: env oracles
	$(PY) -m pytest -m "not audit" -q -n 2 --dist worksteal --durations=40

test-fast: env
	$(PY) -m pytest -q

test-slow: env oracles
	$(PY) -m pytest -m slow -q

test-oracle: env oracles
	$(PY) -m pytest -m oracle -q

# Whole-package sweeps (pre-filter vs full pipeline over Keras and generated modules, libcst vs
# CPython parsing over the four large trees): about 30 min, so not part of `make test`/CI.
test-audit: env oracles
	$(PY) -m pytest -m audit -q

# Benchmarks write bench/results/*.json and print a table.
bench: env oracles
	$(PY) -m bench.core_bench

# estimator-migrate vs tf_upgrade_v2 on the real-code corpus, paired, with the per-phase breakdown.
bench-migrate: env corpus
	$(PY) -m bench.migrate_bench --corpus $(CORPUS)

# The codemod over installed TF/Keras and TF 1.15 trees (thousands of files; slow).
bench-migrate-large: env oracles
	$(PY) -m bench.migrate_large_trees

# The codemod on the real-code corpus (bench/corpus/manifest.json): fetched snapshots under
# MIRROR are materialised into CORPUS (never committed), then audited (bench/results/corpus_audit.json).
MIRROR ?= $(CACHE_DIR)/mirror
CORPUS ?= $(CACHE_DIR)/corpus
corpus:
	$(PY) -m bench.corpus.materialise $(CORPUS) --mirror $(MIRROR)

corpus-audit: env corpus
	$(PY) -m bench.corpus_audit $(CORPUS)

# Re-record every golden from the oracles (the oracle tests check the committed ones stay true).
goldens: env oracles
	$(PY) -m verify.goldens
	$(PY) -m tests.estimator_bridge.core_goldens.record
	$(PY) -m tests.estimator_bridge.goldens.record

clean:
	rm -rf $(VENV) .oracle
