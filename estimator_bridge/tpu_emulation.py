"""An emulated Cloud TPU for running TPU strategy code (Keras notebooks, migrated programs) on CPU.

Code written for a TPU takes its TPU branch only when a TPU answers:

    resolver = tf.distribute.cluster_resolver.TPUClusterResolver()   # raises without a TPU
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    strategy = tf.distribute.TPUStrategy(resolver)

`install(cores)` replaces exactly these four entry points (plus `tf.distribute.experimental.
TPUStrategy` and `estimator_bridge.TPUClusterResolver`, what migrated TF1 code calls) so that the same code runs its TPU branch on this machine: the resolver names an
emulated TPU, connecting and initialising do nothing, and the strategy is a `MirroredStrategy`
over `cores` logical CPUs, the emulation the bridge uses for `TPUConfig(num_shards=R)`
(`estimator_bridge.configure_logical_cpus`). The user's code is not edited and takes
the same path it takes on a TPU; what differs from a TPU is the device (XLA on TPU cores versus
CPU kernels), not the program's control flow, batch split or loss reduction.

    python -m estimator_bridge.tpu_emulation [--cores 8] (SCRIPT | -m MODULE) [ARGS...]

runs a program this way (as `python SCRIPT ARGS` would, exit code included). Nothing changes
unless it is called: importing this module patches nothing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import runpy
import sys

DEFAULT_CORES = 8
EMULATED_MASTER = "grpc://emulated-tpu:8470"
USAGE = "usage: python -m estimator_bridge.tpu_emulation [--cores N] (SCRIPT | -m MODULE) [ARGS...]"

logger = logging.getLogger("estimator_bridge")


def _emulated_classes(cores: int):
    import tensorflow as tf

    class EmulatedTPUClusterResolver(tf.distribute.cluster_resolver.ClusterResolver):
        """Stands in for TPUClusterResolver: accepts its arguments, names the emulated TPU."""

        def __init__(self, tpu=None, zone=None, project=None, job_name="worker", coordinator_name=None,
                     coordinator_address=None, credentials="default", service=None,
                     discovery_url=None):
            self.tpu = tpu
            self.task_type = job_name
            self.task_id = 0

        def master(self, task_type=None, task_id=None, rpc_layer=None):
            return EMULATED_MASTER

        def cluster_spec(self):
            # A TPU Node's resolver names its worker; the 2019 colabs print
            # `tpu.cluster_spec().as_dict()['worker']` first thing (KeyError on an empty spec).
            return tf.train.ClusterSpec({"worker": [EMULATED_MASTER[len("grpc://"):]]})

        def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
            return {"TPU": cores}

        def get_master(self):
            return EMULATED_MASTER

        def get_job_name(self):
            return self.task_type

        def get_tpu_system_metadata(self):
            return None

    class EmulatedTPUStrategy(tf.distribute.MirroredStrategy):
        """Stands in for TPUStrategy: MirroredStrategy over the emulated cores (logical CPUs)."""

        def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                     experimental_spmd_xla_partitioning=False, steps_per_run=None,
                     device_assignment=None):
            from estimator_bridge.runtime.distribute import configure_logical_cpus

            configure_logical_cpus(cores)
            devices = [device.name for device in tf.config.list_logical_devices("CPU")][:cores]
            super().__init__(devices)
            self.tpu_cluster_resolver = tpu_cluster_resolver

    return EmulatedTPUClusterResolver, EmulatedTPUStrategy


_PATCHED = (("distribute.cluster_resolver", "TPUClusterResolver"), ("config", "experimental_connect_to_cluster"),
            ("tpu.experimental", "initialize_tpu_system"), ("distribute", "TPUStrategy"),
            ("distribute.experimental", "TPUStrategy"))


def _module(tf, path: str):
    for part in path.split("."):
        tf = getattr(tf, part)
    return tf


@contextlib.contextmanager
def installed(cores: int = DEFAULT_CORES):
    """`install(cores)` for the duration of a `with` block (tests); the real entry points come back."""
    import tensorflow as tf

    import estimator_bridge

    saved = [(_module(tf, path), name, getattr(_module(tf, path), name)) for path, name in _PATCHED]
    saved.append((estimator_bridge, "TPUClusterResolver", estimator_bridge.TPUClusterResolver))
    owner = keras_compile_owner()
    saved.append((owner, "compile", owner.compile))
    previous = os.environ.get("ESTIMATOR_BRIDGE_EMULATED_TPU_CORES")
    install(cores)
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
        if previous is None:
            os.environ.pop("ESTIMATOR_BRIDGE_EMULATED_TPU_CORES", None)
        else:
            os.environ["ESTIMATOR_BRIDGE_EMULATED_TPU_CORES"] = previous


def install(cores: int = DEFAULT_CORES) -> None:
    """Make TensorFlow's TPU entry points emulate a `cores`-core TPU in this process.

    Call before the program creates its resolver (ideally before TensorFlow runs any op: the
    logical CPUs can only be configured then).
    """
    if cores < 1:
        raise ValueError(f"an emulated TPU needs at least one core, got cores={cores}")
    import tensorflow as tf

    from estimator_bridge.runtime.distribute import configure_logical_cpus

    configure_logical_cpus(cores)
    resolver_class, strategy_class = _emulated_classes(cores)

    def connect(cluster_spec_or_resolver=None, *args, **kwargs):
        """experimental_connect_to_cluster: nothing to connect to on the emulated TPU."""

    def initialize(cluster_resolver=None, *args, **kwargs):
        """initialize_tpu_system: the emulated cores need no initialisation."""

    tf.distribute.cluster_resolver.TPUClusterResolver = resolver_class
    import estimator_bridge

    # What estimator-migrate writes for TF1's tf.contrib.cluster_resolver.TPUClusterResolver.
    estimator_bridge.TPUClusterResolver = resolver_class
    tf.config.experimental_connect_to_cluster = connect
    tf.tpu.experimental.initialize_tpu_system = initialize
    tf.distribute.TPUStrategy = strategy_class
    tf.distribute.experimental.TPUStrategy = strategy_class
    if cores > 1:
        _one_step_per_execution()
    os.environ["ESTIMATOR_BRIDGE_EMULATED_TPU_CORES"] = str(cores)


def keras_compile_owner():
    """The Keras 3 class that defines `compile` (its Trainer), where a patch of compile must go.

    Keras compares a model class's compile with Trainer.compile to decide whether compile() is
    custom, and then skips compiling in clone_model / compile_from_config / model loading; a
    patch on keras.Model would look custom.
    """
    import keras

    return next(klass for klass in keras.Model.__mro__ if "compile" in vars(klass))


def _one_step_per_execution() -> None:
    """Keras `compile(steps_per_execution=N)` runs with N = 1 on the emulated cores (logged once).

    Keras 3 cannot run several steps per execution under a MirroredStrategy of several replicas
    (keras-team/keras#19246, open: a placeholder of its multi-step loop is not fed; the bridge's
    benchmark meets the same error, bench/core_bench.py). On a TPU the grouping only saves host
    round trips: the steps, their batches and the epoch's numbers are the same, so the emulation
    runs one step per execution instead of failing; per-batch callbacks then run every step.
    """
    owner = keras_compile_owner()
    original = owner.compile
    if getattr(original, "_emulated_tpu", False):
        return

    def compile(self, *args, **kwargs):
        if kwargs.get("steps_per_execution", 1) not in (1, None):
            logger.warning(
                "estimator_bridge.tpu_emulation: compile(steps_per_execution=%s) runs with 1 on the "
                "emulated TPU cores (Keras 3 cannot run several steps per execution under a "
                "MirroredStrategy, keras-team/keras#19246); the steps and their numbers are the "
                "same, per-batch callbacks run every step", kwargs["steps_per_execution"])
            kwargs["steps_per_execution"] = 1
        return original(self, *args, **kwargs)

    compile._emulated_tpu = True
    compile._original = original
    owner.compile = compile


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    cores = DEFAULT_CORES
    if argv[:1] == ["--cores"]:
        if len(argv) < 2 or not argv[1].isdigit():
            print(f"{USAGE}\nerror: --cores needs a whole number", file=sys.stderr)
            return 2
        cores, argv = int(argv[1]), argv[2:]
    elif argv and argv[0].startswith("--cores="):
        value = argv.pop(0).split("=", 1)[1]
        if not value.isdigit():
            print(f"{USAGE}\nerror: --cores needs a whole number, got {value!r}", file=sys.stderr)
            return 2
        cores = int(value)
    if not argv:
        print(f"{USAGE}\nerror: SCRIPT is required", file=sys.stderr)
        return 2
    if argv[0] == "-m":
        if len(argv) < 2:
            print(f"{USAGE}\nerror: -m needs a MODULE", file=sys.stderr)
            return 2
        sys.path.insert(0, os.getcwd())
        program_argv = argv[1:]
        run = lambda: runpy.run_module(argv[1], run_name="__main__", alter_sys=True)  # noqa: E731
    else:
        script = argv[0]
        if not os.path.isfile(script):
            print(f"{USAGE}\nerror: script {script!r} does not exist (or is not a file)", file=sys.stderr)
            return 2
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
        program_argv = argv
        run = lambda: runpy.run_path(script, run_name="__main__")  # noqa: E731
    install(cores)
    sys.argv = list(program_argv)
    try:
        run()
    except SystemExit as exit_request:
        code = exit_request.code
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
