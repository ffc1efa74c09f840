"""The benchmark's model and data: the probe program of docs/architecture.md (8-16-3, GD 0.1).

Shared by every current-TensorFlow workload so that only the execution machinery differs.
The TF 1.15 workload (`tf115_workload.py`, Python 3.7) builds the same model with the same data.
"""

import numpy as np

NUM_ROWS = 256
NUM_FEATURES = 8
NUM_CLASSES = 3
HIDDEN_UNITS = 16
LEARNING_RATE = 0.1
GLOBAL_BATCH_SIZE = 32


def probe_arrays():
    """Features (256, 8) float32 and labels (256,) int32, exactly as docs/architecture.md states."""
    features = np.random.RandomState(0).randn(NUM_ROWS, NUM_FEATURES).astype(np.float32)
    labels = ((features[:, 0] > 0).astype(np.int32) + (features[:, 1] > 1).astype(np.int32))
    return features, labels.astype(np.int32)
