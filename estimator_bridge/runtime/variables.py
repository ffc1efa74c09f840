"""A name-keyed variable cache and per-trace v1 collections: TF1 variables under tf.function.

Why: every trace of a tf.function (and every replica thread of MirroredStrategy) runs model_fn
again, and TF1 code creates its variables there (`get_variable`, v1 optimizer slots, the global
step, v1 metric locals). tf.function only accepts variables created once, on the first call, and
MirroredStrategy cannot lift initialisers created inside replica threads (docs/architecture.md,
"Variables before the first trace"). The cache answers every request by its TF1 name: the first
request creates the variable eagerly (in cross-replica context, so it becomes a distributed
variable), every later trace and replica gets the same object. Names stay the TF1 names
(`dense/kernel`, `global_step`, `dense/kernel/Momentum`), which keeps checkpoints interchangeable
with TF1.

`begin_trace()` gives each trace fresh v1 graph collections (the v1 variable store, variable
scope counts, UPDATE_OPS, LOSSES...), as a new TF1 graph did, and re-registers each returned
variable in the trace's GLOBAL_VARIABLES/TRAINABLE_VARIABLES/GLOBAL_STEP collections, so that
`minimize()` without var_list and `get_global_step()` work unchanged.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.ops import resource_variable_ops

from estimator_bridge.runtime import keras_names, keras_random, tf1_hashing  # noqa: F401 (keras_random: installs)
from estimator_bridge.runtime.variable_op import answer_op_name

GraphKeys = tf.compat.v1.GraphKeys

# Keyword arguments of a variable request that tf.Variable accepts when we re-create it eagerly.
# validate_shape=False: a variable whose shape changes (tf.contrib.metrics.streaming_concat's
# growing buffer); TF makes its shape unknown.
_CREATION_KWARGS = ("trainable", "name", "dtype", "constraint", "shape",
                    "synchronization", "aggregation", "validate_shape")


class VariableNotMaterializable(ValueError):
    """A variable's initial value depends on graph tensors and cannot be created eagerly."""


def begin_trace() -> None:
    """Start a trace: fresh v1 collections in the current (function) graph.

    A FuncGraph shares the process-global variable store and GLOBAL/TRAINABLE/LOCAL_VARIABLES
    collections with the eager default graph by reference; without this swap the second trace
    finds `global_step` already in the store ("Variable global_step already exists, disallowed").
    """
    graph = ops.get_default_graph()
    graph._collections = {}  # pylint: disable=protected-access  (no public API resets them)


def _initial_value_fn(name, initial_value):
    """A zero-argument function computing the initial value eagerly (raises if it cannot)."""
    if callable(initial_value):
        return initial_value
    if tf.is_tensor(initial_value) and not isinstance(initial_value, tf.Variable):
        if hasattr(initial_value, "numpy") and tf.executing_eagerly():
            value = initial_value.numpy()
        else:
            value = tf.get_static_value(initial_value)
        if value is None:
            raise VariableNotMaterializable(
                f"variable {name!r} is initialised from the graph tensor {initial_value.name}, "
                "which the bridge cannot compute before training (it creates every variable "
                "once, eagerly). Pass an initializer instead, e.g. tf.compat.v1.get_variable("
                f"{name!r}, shape, initializer=tf.compat.v1.constant_initializer(...)).")
        value = np.asarray(value)
        return lambda: value
    value = initial_value
    return lambda: value


def _needs_graph(initial_value) -> bool:
    """A graph tensor whose value is not static (e.g. `var.initialized_value()`)."""
    return (tf.is_tensor(initial_value) and not isinstance(initial_value, tf.Variable)
            and not hasattr(initial_value, "numpy")
            and tf.get_static_value(initial_value) is None)


class _BuildGraphSession:
    """A Session on the build graph computing initial values that read other variables."""

    def __init__(self, graph):
        self._graph = graph
        self._session = tf.compat.v1.Session(graph=graph)
        self._assigned = set()

    def value_of(self, tensor, graph_variables: dict, initial_values: dict):
        """`tensor`'s value once every earlier variable holds its bridge initial value."""
        for key, variable in graph_variables.items():
            if key in self._assigned or key not in initial_values:
                continue
            value = initial_values[key]()  # eagerly, outside the build graph
            value = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
            with self._graph.as_default():
                self._session.run(variable.initializer, {variable.initial_value: value})
            self._assigned.add(key)
        with self._graph.as_default():
            return np.asarray(self._session.run(tensor))

    def close(self):
        self._session.close()


def _default_replica_aggregation(creation: dict, strategy) -> None:
    """On several replicas, lets TF1 code assign model variables inside the replica function.

    A mirrored variable with aggregation NONE cannot be assigned in replica context ("You must
    specify an aggregation method to update a MirroredVariable in Replica Context"), yet TF1
    code does exactly that: BERT's hand-written optimizer (`param.assign(...)` after the
    gradients were all-reduced, so every replica assigns the same value) and moving averages in
    UPDATE_OPS. MEAN makes those assignments agree across replicas (identical values stay
    identical; per-replica batch statistics are averaged, as for a global batch). Variables
    updated by a v1 optimizer's own apply_gradients are unaffected (that path updates in
    cross-replica context). Integer variables use ONLY_FIRST_REPLICA, like the global step.
    """
    if strategy.num_replicas_in_sync <= 1:
        return
    aggregation = creation.get("aggregation", tf.VariableAggregation.NONE)
    synchronization = creation.get("synchronization", tf.VariableSynchronization.AUTO)
    if aggregation != tf.VariableAggregation.NONE or \
            synchronization == tf.VariableSynchronization.ON_READ:
        return
    dtype = tf.as_dtype(creation.get("dtype") or tf.float32)
    creation["aggregation"] = (tf.VariableAggregation.MEAN if dtype.is_floating
                               else tf.VariableAggregation.ONLY_FIRST_REPLICA)


class VariableCache:
    """Creates each TF1 variable once and hands the same object to every trace and replica.

    Args:
      strategy: the tf.distribute strategy the variables belong to, or None for a host cache
        (plain CPU variables, used for v1 metric locals that must not be distributed).
      local_cache: an optional host cache receiving LOCAL_VARIABLES/METRIC_VARIABLES requests
        (v1 metrics created inside model_fn through `eval_metric_ops`).
    """

    def __init__(self, strategy=None, local_cache: "VariableCache | None" = None):
        self._strategy = strategy
        self._local_cache = local_cache
        self._variables: dict[str, tf.Variable] = {}
        self._initial_values: dict[str, callable] = {}
        self._lock = threading.RLock()
        self._request_counts: dict[tuple, int] = {}
        self._recording: list | None = None
        self._recorded_variables: dict = {}  # key -> the build graph's variable (build pass)
        self._bypass = threading.local()
        self._trace = threading.local()  # .graph: the graph of the trace this thread builds
        # Build pass: graph name of a throwaway variable -> its TF1 key, where they differ (a
        # Keras layer's `kernel` is made under a graph-uniquified name scope); optimizer slots
        # requested after it ("<graph name>/Adam") are then keyed after the TF1 name.
        self._recorded_names: dict[str, str] = {}
        self._unsaved: set[str] = set()  # keys of variables kept out of checkpoints

    # ---- what the cache holds -------------------------------------------------------------
    @property
    def variables(self) -> dict:
        """TF1 name -> variable, in creation order: what checkpoints hold (Keras 3's random-number
        state, which TF1 never had, is left out: keras_names.is_rng_state_request)."""
        return {name: variable for name, variable in self._variables.items()
                if name not in self._unsaved}

    def name_of(self, variable) -> str:
        """The cache's name of a variable model_fn received (in the build pass or a trace).

        Raises:
          ValueError: the variable is not one the cache made (created outside model_fn).
        """
        for name, known in list(self._recorded_variables.items()) + list(self._variables.items()):
            if known is variable:
                return name
        raise ValueError(f"{variable!r} was not created by model_fn through the bridge's "
                         "variable cache; create every variable the model uses inside model_fn.")

    def __contains__(self, name):
        return name in self._variables

    def __getitem__(self, name):
        return self._variables[name]

    def reset_to_initial_values(self) -> None:
        """Assigns every variable its initial value again (v1 metrics: a new Session in TF1)."""
        for name, variable in self._variables.items():
            variable.assign(tf.cast(self._initial_values[name](), variable.dtype))

    def snapshot(self) -> dict:
        """Every variable's current value (restore() puts them back)."""
        return {name: tf.identity(variable.read_value()) for name, variable in self._variables.items()}

    def restore(self, values: dict) -> None:
        for name, value in values.items():
            self._variables[name].assign(value)

    # ---- scopes -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        """Routes variable creation in this thread/graph through the cache."""
        outer = getattr(self._trace, "graph", None)
        self._trace.graph = None if tf.executing_eagerly() else ops.get_default_graph()
        try:
            with tf.variable_creator_scope(self._creator), keras_names.tracing(), \
                    tf1_hashing.hashable_by_identity():
                if not tf.executing_eagerly():
                    tf1_hashing.identity_train_op_collection()
                yield
        finally:
            self._trace.graph = outer

    def begin_trace(self) -> None:
        """Per-trace reset: fresh v1 collections and fresh per-name request counters."""
        begin_trace()
        with self._lock:
            self._request_counts = {}
        keras_names.start_graph()
        if self._local_cache is not None:
            self._local_cache.begin_trace_counters()

    def begin_trace_counters(self) -> None:
        with self._lock:
            self._request_counts = {}
        keras_names.start_graph()

    # ---- build pass -------------------------------------------------------------------------
    @contextlib.contextmanager
    def recording(self):
        """Records variable requests (inside a throwaway graph) instead of creating them.

        Yields a list that receives `(key, kwargs, graph_variable)` per new request;
        `create_recorded()` then makes them all eagerly in cross-replica context.
        """
        recorded = []
        self._recording = recorded
        self.begin_trace_counters()
        try:
            with self.scope():
                yield recorded
        finally:
            self._recording = None

    def missing(self, recorded) -> dict:
        """{key: graph variable} of the recorded requests the cache does not hold yet."""
        return {key: variable for key, _, variable in recorded if key not in self._variables}

    def create_recorded(self, recorded, initial_values=None) -> None:
        """Creates the recorded variables eagerly (under the strategy's scope).

        Args:
          recorded: what `recording()` yielded.
          initial_values: {key: numpy value} computed in the build graph by TF1's init op
            (initial_values.py). A request without one whose initial value is a graph tensor
            reading other variables (`ExponentialMovingAverage`'s shadows, slots made from
            `var.initialized_value()`) gets the value TF1's initializers gave it: its build graph
            runs in a Session in which every variable created before it holds the bridge's
            initial value. The others are evaluated eagerly.
        """
        initial_values = initial_values or {}
        session = None
        try:
            for key, kwargs, graph_variable in recorded:
                if key in self._variables:
                    continue
                value = initial_values.get(key)
                if value is None and _needs_graph(kwargs.get("initial_value")):
                    if session is None:
                        session = _BuildGraphSession(kwargs["initial_value"].graph)
                    value = session.value_of(
                        kwargs["initial_value"], self._recorded_variables, self._initial_values)
                variable = self._create_eagerly(key, kwargs, value)
                # A part of a partitioned variable: the variable store set its slice of the
                # full variable on the graph variable after creation; checkpoints need it.
                slice_info = getattr(graph_variable, "_save_slice_info", None)
                if slice_info is not None and getattr(variable, "_save_slice_info", None) is None:
                    variable._set_save_slice_info(slice_info)  # pylint: disable=protected-access
        finally:
            if session is not None:
                session.close()

    # ---- the creator ------------------------------------------------------------------------
    def _key(self, kwargs) -> str:
        name = kwargs.get("name") or "Variable"
        if isinstance(name, bytes):
            name = name.decode()
        # Slots are requested as "dense/kernel/Adam/" (a name scope ending in "/" names the
        # op exactly); the variable, and TF1's checkpoint key, is "dense/kernel/Adam".
        requested = name.split(":")[0]
        name = keras_names.tf1_variable_name(requested.rstrip("/"))
        if name == requested and not self._is_local_request(kwargs):
            # A plain `tf.Variable(name=...)` / `variable_scope.variable` request (v1 optimizers'
            # `beta1_power`): TF1 prefixed the name scope it was made in (`unet/beta1_power` under
            # unet3d's variable_scope('unet')). get_variable requests arrive outside any name
            # scope (VariableScope.get_variable enters name_scope(None)), full names ending in
            # "/" are absolute, and Keras weights got their TF1 name above.
            scope = keras_names.name_scope_in_trace()
            if scope:
                name = f"{scope}/{name}"
        if self._recorded_names and "/" in name:
            primary, _, slot = name.rpartition("/")
            if primary in self._recorded_names:
                name = f"{self._recorded_names[primary]}/{slot}"
        with self._lock:
            count_key = (threading.get_ident(), name)
            count = self._request_counts.get(count_key, 0)
            self._request_counts[count_key] = count + 1
        key = name if count == 0 else f"{name}_{count}"
        if keras_names.is_rng_state_request():
            self._unsaved.add(key)
        return key

    def _is_local_request(self, kwargs) -> bool:
        collections = kwargs.get("collections") or ()
        return (GraphKeys.LOCAL_VARIABLES in collections
                or GraphKeys.METRIC_VARIABLES in collections)

    def _creator(self, next_creator, **kwargs):
        if getattr(self._bypass, "active", False):
            return next_creator(**kwargs)
        if self._recording is not None:
            # Build pass: v1 metric locals are host variables, made when evaluation traces.
            if self._is_local_request(kwargs):
                return next_creator(**kwargs)
            key = self._key(kwargs)
            requested = str(kwargs.get("name") or "").split(":")[0].rstrip("/")
            if requested and "/" not in requested and key != requested:
                # A Keras weight, requested as `kernel` inside Keras' name scope: the build
                # graph's variable carries its TF1 name, so model_fn code reading `v.op.name`
                # in this pass (EMA's variables_to_restore, assignment maps) sees TF1's.
                with ops.get_default_graph().name_scope(None):
                    variable = next_creator(**dict(kwargs, name=key))
            else:
                variable = next_creator(**kwargs)
            graph_name = getattr(variable, "_shared_name", key)
            if graph_name != key:
                self._recorded_names[graph_name] = key
            self._recording.append((key, dict(kwargs), variable))
            self._recorded_variables[key] = variable
            return variable
        if self._local_cache is not None and self._is_local_request(kwargs):
            return self._local_cache._creator(next_creator, **kwargs)
        key = self._key(kwargs)
        variable = self._variables.get(key)
        if variable is None:
            variable = self._create_eagerly(key, kwargs)
        self._register(variable, kwargs)
        return variable

    def _create_eagerly(self, key, kwargs, value=None):
        if value is not None:
            initial_value = lambda: value  # noqa: E731 (computed in the build graph)
        else:
            initial_value = _initial_value_fn(key, kwargs.get("initial_value"))
        creation = {k: kwargs[k] for k in _CREATION_KWARGS if kwargs.get(k) is not None}
        creation["name"] = key
        with self._lock, tf.init_scope():
            if self._strategy is None:
                # Plain CPU variable; constructing the subclass directly bypasses every
                # variable creator (strategies, tf.function lifting): host-only by design.
                with tf.device("/cpu:0"):
                    variable = resource_variable_ops.ResourceVariable(
                        initial_value=initial_value,
                        trainable=bool(creation.get("trainable", False)),
                        name=key, dtype=creation.get("dtype"),
                        shape=creation.get("shape"), constraint=creation.get("constraint"),
                        validate_shape=creation.get("validate_shape", True))
            else:
                _default_replica_aggregation(creation, self._strategy)
                with self._without_self(), self._strategy.scope():
                    variable = tf.Variable(initial_value=initial_value, **creation)
            answer_op_name(variable)  # `v.op.name` in a traced model_fn, as in TF1
            self._variables[key] = variable
            self._initial_values[key] = initial_value
        return variable

    @contextlib.contextmanager
    def _without_self(self):
        """Lets an eager creation in this thread pass through this cache's creator unchanged."""
        self._bypass.active = True
        try:
            yield
        finally:
            self._bypass.active = False

    def _register(self, variable, kwargs) -> None:
        """Adds a cached variable to the collections of the trace that asked for it.

        Keras 2 (tf-keras) builds a layer inside `tf.init_scope()` when called in a function: the
        request then arrives eagerly, but it belongs to the trace's graph all the same (TF 1.15's
        Keras put a model_fn's layer weights into TRAINABLE_VARIABLES, which `minimize` reads).
        """
        graph = getattr(self._trace, "graph", None)
        if tf.executing_eagerly() and graph is None:
            return
        graph = ops.get_default_graph() if not tf.executing_eagerly() else graph
        collections = list(kwargs.get("collections") or [GraphKeys.GLOBAL_VARIABLES])
        if getattr(variable, "trainable", False) and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        for collection in collections:
            existing = graph.get_collection_ref(collection)
            if not any(item is variable for item in existing):
                existing.append(variable)
