"""verify: prove that a migrated TF1 program reproduces the original TensorFlow's numbers.

`estimator-migrate verify SCRIPT -- ARGS` (verify/cli.py) runs a program in its oracle (TF 1.15 or
TF 2.15 + tf-estimator-nightly, verify/oracles.py) and on current TensorFlow (compat runner,
migrated copy), and compares what each wrote (docs/verify.md). The shipped examples go through
the same engine (`make demo`, verify/shipped.py). Stdlib-only at import: `make oracles` imports
verify.oracles before any dependency is installed.
"""
