"""The runtime: TPUEstimator's contract executed on `tf.distribute` loops.

Deployment (`distribute`), input pipelines (`inputs`), the build pass and variables (`build`,
`variables`), traced steps and loops (`graph_step`, `bound_call`, `loops`, `predict`), the
controller between loops (`controller`, `step_rate`, `summaries`, `preemption`), checkpoints
and warm starts (`checkpoints`, `warm_start`). It may import `estimator_bridge.contract`, never
the facade (`estimator_bridge.estimator`). See docs/architecture.md.
"""
