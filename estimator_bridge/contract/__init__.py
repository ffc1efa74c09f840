"""The contract of the old API: what TF 1.x's TPUEstimator promised user code, with no runtime.

How input_fn and model_fn are called (`calling`), their batch sizes (`batching`), the cluster
a process belongs to (`cluster`), and what eval_metrics / host_call receive (`metrics`). These modules decide *what*
the user's functions see; they never import `estimator_bridge.runtime` and never use
`tf.distribute` (pyproject.toml's import-linter contracts and tests/test_architecture.py check
both). See docs/architecture.md.
"""
