"""The compat runner's Keras: Keras 2 from tf-keras, in the mode of the program's era.

`python -m estimator_bridge.run` starts TensorFlow with tf.keras routed to tf-keras
(estimator_bridge/runner_keras.py). At the program's first module-level `import tensorflow` or
`import keras`, `decide(frame)` reads the program's source from the stack (compat/program_era.py)
and:

  * TF 1.x code: `tf.keras` (and standalone `keras`, and `tensorflow.keras.*` imports) is TF 1.x's
    Keras API (`tf_keras.api._v1.keras`: its GRU without reset_after, its optimizers); a Keras
    program without an Estimator runs with TF 1.x behaviour (`tf.compat.v1.disable_v2_behavior()`,
    before the program runs a single op), so Keras trains it with the v1 Session loops TF 1.x had;
  * TF 2.x code: the TF 2.x API (`tf_keras.api._v2.keras`), eagerly, as TF 2.0-2.15 ran it.

Nothing of Keras is patched (tf-keras is the Keras these programs were written for), except where
tf-keras cannot run in graph mode: `.weights.h5` names (compat/tf_keras_graph_weights.py), where NumPy 2
differs from the NumPy 1.x TF 1.x ran on (the loss its loops return: float64, compat/tf_keras_tf1_float64.py), and one
measured exception for TF 1.x programs: tf-keras takes a sigmoid's or softmax's input as the logits of
any crossentropy, where TF 1.15 did so only for the loss's own activation (a sigmoid output under
`sparse_categorical_crossentropy` gave another loss from the first batch: 2.4267669 for TF 1.15's
2.3288105); TF 1.x programs get TF 1.15's rule (compat/tf_keras_tf1_logits.py). In a process
whose TensorFlow serves Keras 3 (the bridge as a library, `with compat.installed()` in a test),
`tf.keras` stays TensorFlow's own and no mode changes.
"""

from __future__ import annotations

import importlib
import linecache
import logging
import os
import sys

from estimator_bridge.compat.program_era import Era, era_of
from estimator_bridge.runner_keras import tensorflow_serves_tf_keras

_LOG = logging.getLogger("estimator_bridge")
API_PACKAGES = {False: "tf_keras.api._v1.keras", True: "tf_keras.api._v2.keras"}
_state: dict = {"runner": False, "era": None}
# Set where a TPU answers: estimator_bridge.tpu_emulation's cores, Colab's and Cloud TPU VMs' TPU.
TPU_VARIABLES = ("ESTIMATOR_BRIDGE_EMULATED_TPU_CORES", "COLAB_TPU_ADDR", "TPU_NAME")


def enable_for_runner() -> None:
    """Called by the runner (or another process that runs one legacy program) before the program
    starts: the program's era decides the Keras mode."""
    _state["runner"] = True


def keras_for_program(sources) -> None:
    """In a process that runs one legacy program without the runner (verify's swapped side, whose
    program imports the namespace itself): the runner's Keras mode, decided by the program's
    source texts `sources`. TF_USE_LEGACY_KERAS must have been set before TensorFlow loaded."""
    enable_for_runner()
    decide_for_sources(sources)


def era() -> Era | None:
    return _state["era"]


def _program_sources(frame):
    """The source texts of the legacy code on the stack (the script, a notebook's program)."""
    library_roots = tuple(os.path.dirname(os.path.dirname(module.__file__))
                          for module in (os, importlib) if getattr(module, "__file__", None))
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seen, sources = set(), []
    while frame is not None:
        filename = frame.f_code.co_filename
        if (filename not in seen and not filename.startswith("<")
                and not os.path.abspath(filename).startswith((package_root, *library_roots))
                and "site-packages" not in filename):
            seen.add(filename)
            lines = linecache.getlines(filename, frame.f_globals)
            if lines:
                sources.append("".join(lines))
        frame = frame.f_back
    return sources


def decide(frame) -> None:
    """At the program's first legacy TensorFlow/Keras import: its era, and graph mode if it is TF 1.x Keras."""
    if _state["era"] is not None or not _state["runner"] or not tensorflow_serves_tf_keras():
        return
    if frame.f_code.co_name != "<module>":
        # an import inside a function (a tool's hook such as verify's Keras recorder, called after the
        # program's first statements) is not where a program starts: its own module-level import decides
        return
    decide_for_sources(_program_sources(frame))


def decide_for_sources(sources) -> None:
    """The era of the program whose source texts are `sources`, and graph mode if it is TF 1.x Keras.

    (`decide` reads them from the stack; keras_for_program is given them.)
    """
    if _state["era"] is not None or not _state["runner"] or not tensorflow_serves_tf_keras():
        return
    chosen = era_of(sources, tpu_answers=any(os.environ.get(name) for name in TPU_VARIABLES))
    _state["era"] = chosen
    if not chosen.tf2:
        from estimator_bridge.compat import tf_keras_tf1_logits

        tf_keras_tf1_logits.install()
    if chosen.keras_graph_mode:
        import tensorflow as tf

        # TensorFlow's own switch: graph mode, v1 control flow and variables, and the TF 1.x names
        # Keras reads from it ('acc' for metrics=['accuracy'])
        tf.compat.v1.disable_v2_behavior()
        from estimator_bridge.compat import tf_keras_graph_weights, tf_keras_tf1_float64

        tf_keras_graph_weights.install()
        tf_keras_tf1_float64.install()
        _LOG.info("estimator_bridge: %s", chosen.reason)


def api_package() -> str | None:
    """The tf-keras API package legacy Keras imports get, or None when TensorFlow serves Keras 3."""
    if not tensorflow_serves_tf_keras():
        return None
    chosen = _state["era"]
    return API_PACKAGES[bool(chosen and chosen.tf2)]


def __getattr__(name):
    # `tf.keras` / `tf.keras.layers` of the TF1 namespace (namespace_table's fallbacks "compat:legacy_keras.*").
    if name in ("tf_keras", "tf_keras_layers"):
        package = api_package()
        if package is None:
            import tensorflow as tf

            module = tf.keras
        else:
            module = importlib.import_module(package)
        return module.layers if name == "tf_keras_layers" else module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def import_keras(name, globals_, locals_, fromlist, level, original_import):
    """`import keras...` / `import tensorflow.keras...` by legacy code: the same path in the era's tf-keras API.

    `name` is the path below the Keras root ('' for the root itself, 'layers.core', ...).
    Returns what `__import__` returns: the module named when there is a fromlist, else the API root.
    """
    package = api_package()
    root = importlib.import_module(package)
    if not name:
        return root
    try:
        module = original_import(f"{package}.{name}", globals_, locals_, ["__name__"], level)
    except ModuleNotFoundError:
        # standalone Keras 2.x's implementation modules (keras.layers.convolutional, keras.utils.np_utils,
        # keras.layers.advanced_activations) are tf-keras' own modules under tf_keras.src
        module = original_import(f"tf_keras.src.{STANDALONE_KERAS_MODULES.get(name, name)}",
                                 globals_, locals_, ["__name__"], level)
    return module if fromlist else root


# Standalone Keras 2.x modules tf-keras renamed: {Keras 2.x path: path under tf_keras.src}.
STANDALONE_KERAS_MODULES = {
    "layers.advanced_activations": "layers.activation",
    "engine.topology": "engine.functional",
}
