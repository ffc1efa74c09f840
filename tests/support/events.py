"""Read scalar summaries (e.g. the per-step `loss`) from a model_dir's TensorBoard event files.

The contract "the loss at step s": TF1's Estimator writes a scalar summary `loss` into
model_dir every `save_summary_steps` steps (its SummarySaverHook; measured on TF 1.15: at the
first step of each train() call and every N steps after it, so save_summary_steps=1 gives every
step), and evaluate() writes its metrics into model_dir/eval. estimator_bridge writes the same
tags at the same steps in the same format (`simple_value`). So the per-step losses of any run,
oracle or bridge, are read the same way:

    read_scalars(model_dir, "loss")          -> {1: 1.0986123, 2: 1.0877308, ...}
    read_scalars(model_dir + "/eval", "accuracy")

Only the event files directly in `logdir` are read (not its subfolders). When a step was written
twice (a resumed run writes its first step again) the value read last wins.
This file must stay importable by CPython 3.7 + TF 1.15 (the oracle programs use it).
"""

import glob
import os


def read_scalars(logdir, tag):
    """{step: value} of scalar summaries named `tag` in logdir's event files (sorted by name)."""
    import tensorflow as tf

    values = {}
    for path in sorted(glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag != tag:
                    continue
                if value.HasField("simple_value"):
                    values[int(event.step)] = float(value.simple_value)
                else:
                    values[int(event.step)] = float(tf.make_ndarray(value.tensor))
    return values


def read_tags(logdir):
    """{tag: [steps...]} of every summary in logdir's event files."""
    import tensorflow as tf

    tags = {}
    for path in sorted(glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                tags.setdefault(value.tag, []).append(int(event.step))
    return tags
