"""input_fn -> a distributed dataset of (features, labels) batches, with TPUEstimator's batch sizes.

The batch sizes are TPUEstimator's (`contract/batching.py`, docs/semantics.md section 2); here
they become datasets: with PER_HOST_V1 each replica's model_fn sees a contiguous slice of the
global batch, with PER_HOST_V2 replica k gets the k-th consecutive batch. input_fn may return a Dataset (elements `features` or
`(features, labels)`), a `(features, labels)` tuple of tensors, or features alone (labels None
counts as none, as in TF 1.15). Tensors are what a TF1 session evaluated once per step: an input_fn
returning `dataset.make_one_shot_iterator().get_next()` gave the next batch every step and ended
with OutOfRange, a random op in it was re-drawn. Such input_fns are traced once more as a TF1
graph (`tf.compat.v1.wrap_function`) whose every call is one session.run of them; constant
tensors (no stateful op) stay one repeated batch.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import weakref

import tensorflow as tf

from estimator_bridge.contract import batching, calling
from estimator_bridge.config import InputPipelineConfig


@dataclasses.dataclass
class DistributedInput:
    """What the loops consume.

    Attributes:
      dataset: the distributed dataset; each element is `(features, labels)` per replica
        (labels None when input_fn gives none).
      has_labels: whether input_fn returned labels.
      steps_available: global steps before the data ends; None for an infinite dataset;
        UNKNOWN_STEPS when unknown (the loops then run one step per call and stop at
        OutOfRange).
      per_replica_batch_size: the batch size model_fn sees (None when unknown).
      element_spec: `(features, labels)` spec of what one replica's model_fn receives.
    """

    dataset: object
    has_labels: bool
    steps_available: int | None
    per_replica_batch_size: int | None
    element_spec: object = None


UNKNOWN_STEPS = -1


def _as_dataset(result, input_fn, call_again):
    if isinstance(result, tf.data.Dataset):
        return result
    if isinstance(result, tuple) and len(result) != 2:
        raise ValueError(
            f"input_fn ({getattr(input_fn, '__name__', input_fn)}) returned a tuple of "
            f"{len(result)} elements; return a Dataset, a (features, labels) pair or features.")
    return _tensors_as_dataset(_drop_none_labels(result), call_again)


def _drop_none_labels(result):
    """`(features, None)` is features alone, as TF 1.15's parse_input_fn_result read it."""
    if isinstance(result, tuple) and len(result) == 2 and result[1] is None:
        return result[0]
    return result


def _tensors_as_dataset(result, call_again):
    """Tensors input_fn returned, as the per-step batches a TF1 session gave (module doc).

    `call_again()` calls input_fn once more; inside `wrap_function` it builds TF1 graph ops
    (one-shot iterators, random ops) whose state lives with the wrapped function, so every call
    of it is one step's `session.run` of the returned tensors, and OutOfRange ends the data.
    """
    initializers, handles = [], []
    with _one_shot_iterators_initialised_by(initializers, handles):
        graph_fn = tf.compat.v1.wrap_function(lambda: _drop_none_labels(call_again()), signature=[])
    if not any(op.op_def.is_stateful for op in graph_fn.graph.get_operations()):
        return tf.data.Dataset.from_tensors(result).repeat()
    structure = graph_fn.structured_outputs
    signature = tf.nest.map_structure(tf.type_spec_from_value, structure)
    initialise = graph_fn.prune(feeds=[], fetches=initializers) if initializers else None
    iterator_handles = graph_fn.prune(feeds=[], fetches=handles) if handles else None

    def batches():
        if initialise is not None:
            initialise()
        while True:
            try:
                values = graph_fn()
            except tf.errors.OutOfRangeError:
                return
            yield tf.nest.pack_sequence_as(structure, tf.nest.flatten(values))

    dataset = tf.data.Dataset.from_generator(batches, output_signature=signature)
    if iterator_handles is not None:
        # The shared-name iterators outlive the wrapped function: they are released, with the
        # data they cached, when the dataset is (the call's input, input_release.py).
        weakref.finalize(dataset, _destroy_resources, iterator_handles)
    return dataset


def _destroy_resources(handles_fn):
    try:
        for handle in handles_fn():
            tf.raw_ops.DestroyResourceOp(resource=handle, ignore_lookup_error=True)
    except Exception:  # pylint: disable=broad-except  (interpreter shutdown: nothing to free)
        pass


_iterator_names = itertools.count()


@contextlib.contextmanager
def _one_shot_iterators_initialised_by(initializers, handles):
    """make_one_shot_iterator in the wrapped graph, as an iterator its first call initialises.

    TF2's graph-mode one-shot iterator refuses datasets holding a resource (`.cache()`, a
    shuffle seed generator: "Cannot capture a stateful node"), which TF 1.15 accepted; an
    initializable iterator takes any dataset. Its shared name keeps its position from one call
    of the wrapped function to the next.
    """
    from tensorflow.python.data.ops import dataset_ops

    def one_shot(dataset):
        iterator = tf.compat.v1.data.Iterator.from_structure(
            tf.compat.v1.data.get_output_types(dataset), tf.compat.v1.data.get_output_shapes(dataset),
            shared_name=f"estimator_bridge_input_{next(_iterator_names)}",
            output_classes=tf.compat.v1.data.get_output_classes(dataset))
        initializers.append(iterator.make_initializer(dataset))
        handles.append(iterator._iterator_resource)  # pylint: disable=protected-access
        return iterator

    original = dataset_ops.DatasetV1._make_one_shot_iterator
    dataset_ops.DatasetV1._make_one_shot_iterator = one_shot
    try:
        yield
    finally:
        dataset_ops.DatasetV1._make_one_shot_iterator = original


def _split_element(dataset):
    """Normalises elements to (features, labels) and says whether labels exist."""
    spec = dataset.element_spec
    if isinstance(spec, tuple) and len(spec) == 2:
        return dataset, True
    return dataset.map(lambda *element: (element[0] if len(element) == 1 else element, ())), False


def _check_static_shapes(dataset, input_fn):
    for spec in tf.nest.flatten(dataset.element_spec):
        if not spec.shape.is_fully_defined():
            raise ValueError(
                "The features to the model returned by input_fn must have static shape. Tensor: "
                f"{spec} (from {getattr(input_fn, '__name__', input_fn)}). TPU cores need "
                "fully defined shapes: batch with drop_remainder=True, e.g. "
                "dataset.batch(params['batch_size'], drop_remainder=True).")


def _check_sliced_evaluation(tpu_config, mode, deployment):
    """TPUConfig(eval_training_input_configuration=SLICED): TF 1.15 called the evaluation
    input_fn once with the global batch and split each tensor along axis 0 over the cores, which
    on one host is what PER_HOST_V1 does (the bridge's input here). Off the TPU it refused to
    call input_fn at all (tpu_estimator.py `_call_input_fn`); that refusal is kept, so such a
    program (SLICED, use_tpu=False) trains and then fails to evaluate, as in TF 1.15."""
    if (tpu_config.eval_training_input_configuration == InputPipelineConfig.SLICED
            and mode != "train"):
        if not deployment.tpu_semantics:
            raise ValueError("Invalid TPUConfig `eval_training_input_configuration` value. "
                             "SLICED mode only works on use_tpu = True.")
        if deployment.strategy.extended._in_multi_worker_mode():  # pylint: disable=protected-access
            raise NotImplementedError(
                "TPUConfig(eval_training_input_configuration=SLICED) on several hosts (one "
                "input_fn call sliced over every host's cores) is not supported by "
                "estimator_bridge; use the default InputPipelineConfig.PER_HOST_V1.")


def make_input(input_fn, *, mode, params, config, deployment, global_batch_size,
               require_params=True, pad_to_batch=None) -> DistributedInput:
    """Calls input_fn (eagerly, on the CPU) and distributes its batches over the replicas."""
    tpu_config = config.tpu_config
    deployment_mode = tpu_config.input_deployment
    num_replicas = deployment.num_replicas
    _check_sliced_evaluation(tpu_config, mode, deployment)
    if num_replicas > 1 and deployment_mode in (InputPipelineConfig.PER_SHARD_V1,
                                                InputPipelineConfig.BROADCAST):
        raise ValueError(
            f"TPUConfig(per_host_input_for_training={tpu_config.per_host_input_for_training!r}) "
            "is not supported by the bridge on several replicas; use True (PER_HOST_V1) or "
            "InputPipelineConfig.PER_HOST_V2.")
    input_batch, model_batch = batching.batch_sizes(
        global_batch_size=global_batch_size, num_replicas=num_replicas,
        tpu_semantics=deployment.tpu_semantics, deployment_mode=deployment_mode)
    input_params = dict(params)
    if input_batch is not None:
        input_params["batch_size"] = input_batch
    with tf.device("/cpu:0"):
        def call():
            return calling.call_input_fn(input_fn, mode=mode, params=input_params, config=config,
                                         require_params=require_params)

        dataset, has_labels = _split_element(_as_dataset(call(), input_fn, call))
    if pad_to_batch is not None:
        # predict() on TPU cores: short batches are padded to the global batch (a mask of the
        # real rows travels with them), as TPUEstimator's _PaddingSignals did.
        from estimator_bridge.runtime.predict import pad_batches
        dataset = pad_batches(dataset, pad_to_batch)
    elif deployment.tpu_semantics:
        _check_static_shapes(dataset, input_fn)
    cardinality = int(dataset.cardinality())
    strategy = deployment.strategy
    if deployment_mode == InputPipelineConfig.PER_HOST_V2 and num_replicas > 1:
        distributed = strategy.distribute_datasets_from_function(lambda context: dataset)
        steps = cardinality // num_replicas if cardinality >= 0 else cardinality
    else:
        distributed = strategy.experimental_distribute_dataset(dataset)
        steps = cardinality
    if steps == tf.data.INFINITE_CARDINALITY:
        steps = None
    elif steps < 0:
        steps = UNKNOWN_STEPS
    replica_spec = per_replica_spec(distributed.element_spec)
    if pad_to_batch is not None:
        replica_spec = replica_spec[0]  # ((features, labels), mask of the real rows)
    return DistributedInput(distributed, has_labels, steps, model_batch, replica_spec)


def per_replica_spec(distributed_spec):
    """The spec of what one replica's model_fn receives: TF 1.15's shape rules.

    TF 1.15 never forced a batch dimension onto features: model_fn saw the shapes input_fn
    produced (on the CPU path as they were; on TPU cores the per-host batch split along the
    first axis with PER_HOST_V1, and each core's own batch with PER_HOST_V2). That is what
    tf.distribute hands each replica, so programs whose batch axis is not first (TPU's
    transpose-input trick: images [H, W, C, N]) or with batch-less tensors keep their shapes.
    """
    def first_replica(spec):
        value_specs = getattr(spec, "_value_specs", None)  # PerReplicaSpec on R > 1 replicas
        return value_specs[0] if value_specs else spec

    return tf.nest.map_structure(first_replica, distributed_spec)
