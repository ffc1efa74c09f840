"""RunConfig(session_config=ConfigProto(...)): each field set is applied or refused.

TF1 applied a ConfigProto to the Session that ran the model. The bridge has no Session; the
fields with a process-wide TF2 equivalent are applied at RunConfig construction, the fields
that mean nothing different on TF2 are accepted, and any other field set raises
NotImplementedError naming it (docs/arguments.md). Real programs pass mostly
`ConfigProto(allow_soft_placement=True, log_device_placement=...)` and
`gpu_options.allow_growth`.
"""

from __future__ import annotations

import tensorflow as tf


def _refuse(field: str, value, why: str, fix: str):
    raise NotImplementedError(
        f"RunConfig(session_config=ConfigProto({field}={value!r})) is not supported by "
        f"estimator_bridge: {why}. To run: {fix}.")


def _soft_placement(value) -> None:
    """True is what TF2 functions do (an op without a kernel on its device runs on the CPU).

    False is proto3's default, so `ConfigProto(allow_soft_placement=False)` sets no field and
    never reaches here: TF2's soft placement is a documented difference (docs/arguments.md).
    """


def _log_placement(value) -> None:
    tf.debugging.set_log_device_placement(bool(value))


def _threads(field: str, getter, setter):
    def apply(value) -> None:
        if value == getter():
            return
        try:
            setter(value)
        except RuntimeError:
            _refuse(field, value,
                    f"TensorFlow already started with {getter()} threads and its thread pools "
                    "cannot be resized",
                    f"call tf.config.threading.set_{field}({value}) at the start of the program, "
                    "before anything runs a TensorFlow op")
    return apply


def _gpu_options(value) -> None:
    gpus = tf.config.list_physical_devices("GPU")
    for field, field_value in value.ListFields():
        name = field.name
        if not gpus:
            continue  # TF1 on a machine without GPUs ignored gpu_options too
        if name == "allow_growth":
            for gpu in gpus:
                try:
                    tf.config.experimental.set_memory_growth(gpu, bool(field_value))
                except RuntimeError:
                    _refuse("gpu_options.allow_growth", field_value,
                            "the GPUs were already initialised",
                            "call tf.config.experimental.set_memory_growth(gpu, True) for each "
                            "GPU at the start of the program")
        else:
            _refuse(f"gpu_options.{name}", field_value,
                    "only allow_growth has a TF2 equivalent the bridge applies",
                    "use tf.config.set_logical_device_configuration(gpu, "
                    "[tf.config.LogicalDeviceConfiguration(memory_limit=MB)]) at the start of "
                    "the program and drop the field")


# RewriterConfig (Grappler) fields TF2 applies process-wide with
# tf.config.optimizer.set_experimental_options: on/off toggles, booleans, the node threshold.
# Grappler rewrites graphs for speed; TF 1.15 programs switched passes off (tensorflow/tpu
# EfficientNet: disable_meta_optimizer=True), so the same switch is applied, not dropped.
_GRAPPLER_TOGGLES = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping",
                     "arithmetic_optimization", "dependency_optimization", "loop_optimization",
                     "function_optimization", "debug_stripper", "scoped_allocator_optimization",
                     "pin_to_host_optimization", "implementation_selector", "auto_mixed_precision")
_GRAPPLER_BOOLEANS = ("disable_model_pruning", "disable_meta_optimizer")
_TOGGLE_ON, _TOGGLE_OFF = 1, 2  # RewriterConfig.Toggle


def _rewrite_options(value) -> None:
    options = {}
    for field, field_value in value.ListFields():
        name = field.name
        if name in _GRAPPLER_TOGGLES and field_value in (_TOGGLE_ON, _TOGGLE_OFF):
            options[name] = field_value == _TOGGLE_ON
        elif name in _GRAPPLER_BOOLEANS:
            options[name] = bool(field_value)
        elif name == "min_graph_nodes":
            options[name] = int(field_value)
        else:
            _refuse(f"graph_options.rewrite_options.{name}", field_value,
                    "TF2 applies only the on/off Grappler switches, disable_meta_optimizer, "
                    "disable_model_pruning and min_graph_nodes process-wide",
                    "call tf.config.optimizer.set_experimental_options({...}) yourself, or drop "
                    "the field (it changes speed, not results)")
    tf.config.optimizer.set_experimental_options(options)


def _graph_options(value) -> None:
    for field, field_value in value.ListFields():
        if field.name == "rewrite_options":
            _rewrite_options(field_value)
        else:
            _refuse(f"graph_options.{field.name}", "...",
                    "only rewrite_options (Grappler) has a process-wide TF2 equivalent the bridge "
                    "applies",
                    "drop the field (for XLA: tf.config.optimizer.set_jit(True))")


_APPLY = {
    "allow_soft_placement": _soft_placement,
    "log_device_placement": _log_placement,
    "intra_op_parallelism_threads": _threads(
        "intra_op_parallelism_threads", tf.config.threading.get_intra_op_parallelism_threads,
        tf.config.threading.set_intra_op_parallelism_threads),
    "inter_op_parallelism_threads": _threads(
        "inter_op_parallelism_threads", tf.config.threading.get_inter_op_parallelism_threads,
        tf.config.threading.set_inter_op_parallelism_threads),
    "gpu_options": _gpu_options,
    "graph_options": _graph_options,
}


def apply(session_config) -> None:
    """Applies or refuses every field set in `session_config` (None: nothing)."""
    if session_config is None:
        return
    if not hasattr(session_config, "ListFields"):
        raise ValueError(f"RunConfig session_config must be a tf.compat.v1.ConfigProto, got "
                         f"{type(session_config).__name__}.")
    for field, value in session_config.ListFields():
        handler = _APPLY.get(field.name)
        if handler is None:
            _refuse(field.name, value if not hasattr(value, "ListFields") else "...",
                    "it configured the TF1 Session the model ran in, and the bridge runs the "
                    "model in tf.functions without a Session",
                    "drop the field from the ConfigProto")
        handler(value)
