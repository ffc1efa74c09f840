# One entry point for a fresh machine: `make demo` (main job) and `make test` (whole suite).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
ORACLE_A := .oracle/tf115
ORACLE_B := .oracle/tf215
export TF_CPP_MIN_LOG_LEVEL ?= 2

.PHONY: corpus corpus-audit env oracles oracle-a oracle-b demo test test-fast test-oracle test-audit bench bench-migrate bench-migrate-large test-slow goldens clean

env: $(VENV)/.done
$(VENV)/.done: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[cpu,dev]'
	touch $@

oracles: oracle-a oracle-b
oracle-a: $(ORACLE_A)/.done
$(ORACLE_A)/.done: oracle/requirements-tf115.txt
	rm -rf $(ORACLE_A)
	PYENV_VERSION=3.7.16 python3.7 -m venv $(ORACLE_A)
	$(ORACLE_A)/bin/python -m pip install -q --upgrade 'pip<24'
	$(ORACLE_A)/bin/python -m pip install -q -r oracle/requirements-tf115.txt
	$(ORACLE_A)/bin/python -c "import tensorflow as tf; assert tf.__version__ == '1.15.0', tf.__version__; tf.contrib.tpu.TPUEstimator"
	touch $@
oracle-b: $(ORACLE_B)/.done
$(ORACLE_B)/.done: oracle/requirements-tf215.txt
	rm -rf $(ORACLE_B)
	$(PYTHON) -m venv $(ORACLE_B)
	$(ORACLE_B)/bin/python -m pip install -q --upgrade pip
	$(ORACLE_B)/bin/python -m pip install -q -r oracle/requirements-tf215.txt
	$(ORACLE_B)/bin/python -m pip install -q --no-deps --force-reinstall tf-estimator-nightly==2.16.0.dev2024012409
	$(ORACLE_B)/bin/python -c "import tensorflow as tf; assert tf.__version__ == '2.15.1', tf.__version__; tf.compat.v1.estimator.tpu.TPUEstimator"
	touch $@

# Main job: migrate the shipped legacy examples and compare their numbers with the oracle goldens.
demo: env
	$(PY) -m legacy_examples.compare

# The whole suite, oracle tests included (they need the oracle environments).
test: env oracles
	$(PY) -m pytest -m "not audit" -q

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

bench-migrate: env
	$(PY) -m bench.migrate_bench

# The codemod over installed TF/Keras and TF 1.15 trees (thousands of files; slow).
bench-migrate-large: env oracles
	$(PY) -m bench.migrate_large_trees

# The codemod on the real-code corpus (bench/corpus/manifest.json): fetched snapshots under
# MIRROR are materialised into CORPUS (never committed), then audited (bench/results/corpus_audit.json).
MIRROR ?= /work/.mirror
CORPUS ?= /work/realcode/corpus
corpus:
	$(PY) -m bench.corpus.materialise $(CORPUS) --mirror $(MIRROR)

corpus-audit: env corpus
	$(PY) -m bench.corpus_audit $(CORPUS)

# Re-record every golden from the oracles (the oracle tests check the committed ones stay true).
goldens: env oracles
	$(PY) -m legacy_examples.record
	$(PY) -m tests.estimator_bridge.core_goldens.record

clean:
	rm -rf $(VENV) .oracle
