"""TF1's SessionRunHook names under tf.estimator, and which of them estimator_bridge ships.

The one table both tools read: the codemod (`migrate/tables/estimator.py`: shipped names become
`estimator_bridge.X`, the others are reported as MIG304) and the compat runner
(`estimator_bridge/compat/namespace_table.py`: `tf.estimator.X` is the bridge's name, else TF's
`tf.compat.v1.train.X`). Pure data without imports, so the runner reads it without loading any
of migrate's codemods (pyproject.toml's import contracts allow exactly this one edge).
"""

# estimator_bridge.X: TF1's own classes re-exported, or the bridge's version of a hook that
# needs a Session (CheckpointSaverHook, ProfilerHook: same constructor arguments).
SHIPPED_BY_BRIDGE = (
    "SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
    "LoggingTensorHook", "StopAtStepHook", "CheckpointSaverHook", "NanTensorHook",
    "ProfilerHook", "CheckpointSaverListener",
)

# TF1 spelled these `tf.train.X` too, and TF 2's `tf.compat.v1.train.X` cannot even be
# constructed under eager execution (ProfilerHook opens a v1 FileWriter in __init__: "FileWriter is
# not compatible with eager execution"), so `tf.train.X` is the bridge's version as well, in both
# tools. Programs built their hook lists before deciding to use them (a 2018 slim fine-tuning
# trainer: `profile_hook = tf.train.ProfilerHook(...)`; `hooks = [...] if use_profile_hook else []`).
BRIDGE_UNDER_TF_TRAIN = ("ProfilerHook",)

# The rest of tf.estimator's hook names. The runner serves TF's tf.compat.v1.train class (its
# hook runner refuses, with the fix, those that need a Session, e.g. SummarySaverHook); the
# codemod reports them: the bridge writes StepCounterHook's and SummarySaverHook's summaries
# itself.
NOT_SHIPPED = (
    "StepCounterHook", "SummarySaverHook", "FinalOpsHook",
    "FeedFnHook", "GlobalStepWaiterHook", "SecondOrStepTimer",
)

# TF 1.x's early-stopping hooks: tf.estimator.experimental.X (TF 1.13-1.15) and
# tf.contrib.estimator.X (TF 1.10-1.12), both the bridge's estimator_bridge.compat.early_stopping.X.
EARLY_STOPPING_HOOKS = (
    "stop_if_no_decrease_hook", "stop_if_no_increase_hook", "stop_if_higher_hook",
    "stop_if_lower_hook", "make_early_stopping_hook",
)
