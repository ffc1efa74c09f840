"""Spellings of one TensorFlow API under several module paths, mapped to one canonical prefix.

Matching happens on canonical names: `tensorflow.compat.v1.train.X` and the internal modules
that TF1 repositories imported directly all hit the same table key. Longest prefix wins.
"""

CANONICAL_PREFIXES = {
    "tensorflow.compat.v1": "tensorflow",
    "tensorflow.compat.v2": "tensorflow",
    # TPUEstimator and friends, as imported from TF internals or tensorflow_estimator.
    "tensorflow.contrib.tpu.python.tpu.tpu_estimator": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.tpu_config": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.tpu_optimizer": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.tpu": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.bfloat16": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.async_checkpoint": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.ops.tpu_ops": "tensorflow.contrib.tpu",
    # TF 1.15 stubs over tensorflow/python/tpu (tf.contrib.tpu star-imported training_loop; tpu_function's
    # four names are served beside it: contrib_reexports.py)
    "tensorflow.contrib.tpu.python.tpu.training_loop": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.tpu_function": "tensorflow.contrib.tpu",
    # ... and over tpu_feed.py, device_assignment.py and topology.py (MLPerf's low-level runners, heldout4)
    "tensorflow.contrib.tpu.python.tpu.tpu_feed": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.device_assignment": "tensorflow.contrib.tpu",
    "tensorflow.contrib.tpu.python.tpu.topology": "tensorflow.contrib.tpu",
    # `from tensorflow.contrib.tpu.python.tpu import keras_support` then keras_support.TPUDistributionStrategy
    # (2018 Colab Keras TPU scripts: heldout5's koshian2 TPU-Benchmark, affinity-loss, NeuralStyleTransferTPU,
    # OctConv-TFKeras, ResNet-MultipleFramework): tf.contrib.tpu's names, for codemods/keras_tpu.py
    "tensorflow.contrib.tpu.python.tpu.keras_support": "tensorflow.contrib.tpu",
    "tensorflow.contrib.framework.python.ops": "tensorflow.contrib.framework",
    "tensorflow.contrib.layers.python.layers.layers": "tensorflow.contrib.layers",
    "tensorflow.contrib.layers.python.layers.initializers": "tensorflow.contrib.layers",
    "tensorflow.contrib.layers.python.layers.regularizers": "tensorflow.contrib.layers",
    "tensorflow.contrib.layers.python.layers": "tensorflow.contrib.layers",
    # TF-Slim star-imported contrib.layers' package, so its submodules were slim's attributes too:
    # `slim.layers.conv2d`, `slim.initializers.xavier_initializer`, `slim.regularizers.l2_regularizer`
    # (heldout5: davidsandberg/facenet, tensorpack's mnist-tfslim.py and mnist-embeddings.py)
    "tensorflow.contrib.slim.layers": "tensorflow.contrib.layers",
    "tensorflow.contrib.slim.initializers": "tensorflow.contrib.layers",
    "tensorflow.contrib.slim.regularizers": "tensorflow.contrib.layers",
    # slim's deep module paths (tensorflow/tpu show_and_tell's
    # `from tensorflow.contrib.slim.python.slim.nets.inception_v3 import inception_v3_base`)
    "tensorflow.contrib.slim.python.slim.nets": "tensorflow.contrib.slim.nets",
    "tensorflow.contrib.slim.python.slim.learning": "tensorflow.contrib.slim.learning",
    "tensorflow.contrib.layers.python.layers.summaries": "tensorflow.contrib.layers.summaries",
    "tensorflow.contrib.training.python.training.evaluation": "tensorflow.contrib.training",
    "tensorflow.contrib.training.python.training.hparam": "tensorflow.contrib.training",
    "tensorflow.contrib.training.python.training.training": "tensorflow.contrib.training",
    "tensorflow.python.tpu.tpu_estimator": "tensorflow.contrib.tpu",
    "tensorflow.python.tpu.tpu_config": "tensorflow.contrib.tpu",
    "tensorflow.python.tpu.tpu_optimizer": "tensorflow.contrib.tpu",
    "tensorflow_estimator.python.estimator.tpu.tpu_estimator": "tensorflow.contrib.tpu",
    "tensorflow_estimator.python.estimator.tpu.tpu_config": "tensorflow.contrib.tpu",
    "tensorflow_estimator.python.estimator.tpu": "tensorflow.contrib.tpu",
    "tensorflow.estimator.tpu": "tensorflow.contrib.tpu",
    "tensorflow_estimator.compat.v1.estimator": "tensorflow.estimator",
    "tensorflow_estimator.estimator": "tensorflow.estimator",
    "tensorflow_estimator": "tensorflow.estimator",
    "tensorflow.python.estimator.estimator": "tensorflow.estimator",
    "tensorflow.python.estimator.model_fn": "tensorflow.estimator",
    "tensorflow.python.estimator.run_config": "tensorflow.estimator",
    "tensorflow.python.estimator.export.export": "tensorflow.estimator.export",
    "tensorflow.python.estimator.export.export_output": "tensorflow.estimator.export",
    "tensorflow.python.estimator.export": "tensorflow.estimator.export",
    "tensorflow.python.estimator": "tensorflow.estimator",
    "tensorflow.contrib.cluster_resolver.python.training": "tensorflow.contrib.cluster_resolver",
    "tensorflow.python.distribute.cluster_resolver": "tensorflow.distribute.cluster_resolver",
    "tensorflow.keras": "keras",
    "tensorflow.python.keras": "keras",
}

# Modules that no longer import on current TensorFlow: an import of them that our rewrites
# leave unused is removed (a used one stays, with a finding at each remaining use).
DEAD_MODULES = (
    "tensorflow.contrib",
    "tensorflow.estimator",
    "tensorflow.compat.v1.estimator",
    "tensorflow_estimator",
    "tensorflow.python.estimator",
    "tensorflow.python.tpu.tpu_estimator",
    "tensorflow.python.tpu.tpu_config",
    "tensorflow.python.tpu.tpu_optimizer",
    "tensorflow.layers",
    "tensorflow.compat.v1.layers",
    # TF 1.x's tutorial helpers (input_data: estimator_bridge.compat.mnist_input_data), not shipped by TF 2
    "tensorflow.examples.tutorials",
)

# Live module namespaces whose members the tables still rewrite: a plain alias of one (`l =
# tf.keras.layers`, training-data-analyst's 2018 MNIST notebook) is followed like a dead module's,
# so `l.BatchNormalization(...)` gets the same rewrite as `tf.keras.layers.BatchNormalization(...)`
# (the alias assignment stays while other uses read it).
FOLLOWED_LIVE_MODULES = (
    "tensorflow.keras",
    "tensorflow.compat.v1.keras",
    "tensorflow.compat.v2.keras",
    "keras",
)

# Prefixes after which the rest of a name is TF2 code already (never moved to tf.compat.v1).
TF2_NAMESPACES = ("tensorflow.compat.v2",)
