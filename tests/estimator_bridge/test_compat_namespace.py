"""The TF1-shaped namespace in process: `tf1_namespace()`, `estimator_bridge.compat.v1`,
`installed()`, and the alias tables themselves (every target must exist)."""

import builtins
import importlib
import types

import pytest
import tensorflow as tf

import estimator_bridge
from estimator_bridge import compat, layers
from estimator_bridge.compat import namespace, namespace_table

TF1 = compat.tf1_namespace()


def test_tf1_top_level_names_come_from_tf_compat_v1():
    assert TF1.train.AdamOptimizer is tf.compat.v1.train.AdamOptimizer
    assert TF1.placeholder is tf.compat.v1.placeholder
    assert TF1.variable_scope is tf.compat.v1.variable_scope
    assert TF1.get_variable is tf.compat.v1.get_variable
    assert TF1.parse_single_example is tf.compat.v1.parse_single_example
    assert TF1.FixedLenFeature is tf.compat.v1.FixedLenFeature
    assert TF1.losses.sparse_softmax_cross_entropy is tf.compat.v1.losses.sparse_softmax_cross_entropy
    assert TF1.metrics.accuracy is tf.compat.v1.metrics.accuracy
    assert TF1.logging.info is tf.compat.v1.logging.info
    assert TF1.gfile.GFile is tf.compat.v1.gfile.GFile
    assert TF1.flags.DEFINE_string is tf.compat.v1.flags.DEFINE_string
    assert TF1.app.run is tf.compat.v1.app.run
    assert TF1.__version__ == tf.__version__


def test_compat_v1_is_the_same_namespace_and_v2_is_current_tensorflow():
    assert TF1.compat.v1 is TF1
    assert TF1.compat.v2.summary is tf.summary and TF1.compat.v2.distribute is tf.distribute
    assert TF1.compat.v2.keras is TF1.keras  # the program's Keras 2, as under `tensorflow`
    assert TF1.compat.as_bytes is tf.compat.as_bytes


def test_compat_v2_keeps_enable_v2_behavior():
    """tensorflow/tpu's mnist_tf2_with_summary.py (2019-10, for TF 2.0): `import tensorflow.compat.v2
    as tf` then `tf.enable_v2_behavior()`; tf.compat.v2 was the bare current `tensorflow`, which
    has the switch only under tf.compat (AttributeError before)."""
    with compat.installed():
        scope = run_import("import tensorflow.compat.v2 as tf\ntf.enable_v2_behavior()\n"
                           "layer = tf.keras.layers.Layer\n", "legacy_model")
    assert scope["tf"] is TF1.compat.v2
    assert scope["layer"] is TF1.keras.layers.Layer
    assert tf.executing_eagerly()


def test_layers_point_at_estimator_bridge_layers():
    for name in namespace_table.LAYER_FUNCTIONS:
        assert getattr(TF1.layers, name) is getattr(layers, name)
    with pytest.raises(compat.UnsupportedName, match="tf.layers.separable_conv1d"):
        TF1.layers.separable_conv1d


def test_tpu_estimator_names_come_from_the_bridge_in_every_spelling():
    for module in (TF1.contrib.tpu, TF1.estimator.tpu, TF1.compat.v1.estimator.tpu):
        assert module.TPUEstimator is estimator_bridge.TPUEstimator
        assert module.TPUEstimatorSpec is estimator_bridge.TPUEstimatorSpec
        assert module.RunConfig is estimator_bridge.RunConfig
        assert module.TPUConfig is estimator_bridge.TPUConfig
        assert module.InputPipelineConfig is estimator_bridge.InputPipelineConfig
    assert TF1.contrib.tpu.CrossShardOptimizer is estimator_bridge.CrossShardOptimizer
    assert TF1.tpu.CrossShardOptimizer is estimator_bridge.CrossShardOptimizer
    assert TF1.estimator.Estimator is estimator_bridge.Estimator
    assert TF1.estimator.EstimatorSpec is estimator_bridge.EstimatorSpec
    assert TF1.estimator.ModeKeys is estimator_bridge.ModeKeys


def test_hooks_fall_back_to_tf_compat_v1_when_the_bridge_has_none():
    bridge_hook = getattr(estimator_bridge, "LoggingTensorHook", None)
    expected = bridge_hook or tf.compat.v1.train.LoggingTensorHook
    assert TF1.estimator.LoggingTensorHook is expected


def test_tf_train_profiler_hook_is_the_bridge_s_and_can_be_built_eagerly(tmp_path):
    # A 2018 slim fine-tuning trainer built `tf.train.ProfilerHook(save_steps, output_dir)` for a
    # hook list it then left out; TF 2's tf.compat.v1.train.ProfilerHook raised in the constructor
    # ("v1.summary.FileWriter is not compatible with eager execution") before training started.
    for module in (TF1.train, TF1.compat.v1.train):
        assert module.ProfilerHook is estimator_bridge.ProfilerHook
        assert module.AdamOptimizer is tf.compat.v1.train.AdamOptimizer
        assert module.LoggingTensorHook is tf.compat.v1.train.LoggingTensorHook
    hook = TF1.train.ProfilerHook(save_steps=100, output_dir=str(tmp_path), show_dataflow=True,
                                  show_memory=True)
    assert isinstance(hook, TF1.train.SessionRunHook)
    with pytest.raises(RuntimeError, match="eager"):
        tf.compat.v1.train.ProfilerHook(save_steps=100, output_dir=str(tmp_path))


def test_cluster_resolvers_are_tf_distribute_s_with_tf115_s_tpu_cluster_resolver():
    # TF 1.15 read TPUClusterResolver('') as the local session; TF 2's class raises for it.
    for module in (TF1.contrib.cluster_resolver, TF1.distribute.cluster_resolver,
                   TF1.compat.v1.distribute.cluster_resolver):
        assert module.TPUClusterResolver is estimator_bridge.TPUClusterResolver
        assert module.TFConfigClusterResolver is \
            tf.distribute.cluster_resolver.TFConfigClusterResolver
    assert issubclass(estimator_bridge.TPUClusterResolver,
                      tf.distribute.cluster_resolver.TPUClusterResolver)
    assert TF1.distribute.MirroredStrategy is tf.compat.v1.distribute.MirroredStrategy


def test_a_missing_bridge_symbol_is_named_in_the_error():
    with pytest.raises(compat.MissingBridgeSymbol,
                       match=r"tf\.estimator\.Gone maps to estimator_bridge\.NoSuchSymbol"):
        namespace.resolve_target("bridge:NoSuchSymbol", "tf.estimator.Gone")
    assert issubclass(compat.MissingBridgeSymbol, AttributeError)  # hasattr() stays usable


def test_unsupported_names_explain_what_to_do():
    with pytest.raises(TypeError, match="TPUDistributionStrategy"):  # served since keras_to_tpu_model runs
        TF1.contrib.tpu.keras_to_tpu_model(object(), strategy=object())
    # tf.contrib.slim is the tf-slim package (its layers and arg_scope the codemod's helpers: test
    # below); a name slim never had is an AttributeError, so hasattr() stays usable
    import tf_slim
    assert TF1.contrib.slim.model_analyzer is tf_slim.model_analyzer
    assert not hasattr(TF1.contrib.slim, "no_such_name")
    with pytest.raises(compat.UnsupportedName, match="tf.contrib was removed in TF 2.0"):
        TF1.contrib.no_such_module  # never a TF 1.15 module
    with pytest.raises(NotImplementedError, match="canned estimators"):
        TF1.estimator.DNNClassifier(hidden_units=[3])


def test_the_v1_module_is_the_namespace():
    import estimator_bridge.compat.v1 as tf1_module

    assert tf1_module.contrib.tpu.TPUEstimator is estimator_bridge.TPUEstimator
    assert tf1_module.layers.dense is layers.dense
    assert tf1_module.train.GradientDescentOptimizer is tf.compat.v1.train.GradientDescentOptimizer
    assert "contrib" in dir(tf1_module)


def run_import(source, module_name):
    scope = {"__name__": module_name}
    exec(compile(source, f"<{module_name}>", "exec"), scope)
    return scope


def test_installed_serves_legacy_importers_and_leaves_libraries_alone():
    original_import = builtins.__import__
    with compat.installed():
        legacy = run_import("import tensorflow as tf\n"
                            "import tensorflow.compat.v1 as tf1\n"
                            "from tensorflow.contrib import tpu\n"
                            "from tensorflow.contrib.tpu.python.tpu import tpu_config\n"
                            "import tensorflow_estimator as tf_estimator\n"
                            "from tensorflow_estimator.python.estimator.tpu import tpu_estimator\n"
                            "from tensorflow.python.ops import init_ops\n", "legacy_model")
        library = run_import("import tensorflow as tf\n", "keras.src.backend")
    assert builtins.__import__ is original_import
    assert legacy["tf"] is TF1
    assert legacy["tf1"] is TF1
    assert legacy["tpu"].TPUEstimator is estimator_bridge.TPUEstimator
    assert legacy["tpu_config"].TPUConfig is estimator_bridge.TPUConfig
    assert legacy["tf_estimator"].estimator.tpu.TPUEstimator is estimator_bridge.TPUEstimator
    assert legacy["tpu_estimator"].TPUEstimatorSpec is estimator_bridge.TPUEstimatorSpec
    assert legacy["init_ops"].__name__ == "tensorflow.python.ops.init_ops"
    assert library["tf"] is tf


def test_a_tf115_module_imports_and_fails_on_use_naming_the_symbol():
    """TF 1.15 imported every tf.contrib module: an import on a program's first lines must not
    kill a program that never uses it (issue 17); using a name raises, saying what to use."""
    with compat.installed():
        scope = run_import("import tensorflow.contrib.seq2seq as seq2seq\n"
                           "import tensorflow.contrib.slim as slim\n"
                           "from tensorflow.contrib.slim import nets\n"
                           "from tensorflow.contrib.tpu.python.tpu import tpu_sharding\n"
                           "import tensorflow.contrib.metrics\n", "legacy_model")
        assert isinstance(scope["seq2seq"], namespace.RemovedModule)
        # slim is the tf-slim package, its networks included; parallel_reader.get_data_files is the
        # bridge's (google-research/uda's input_fn)
        import tf_slim.nets
        assert scope["nets"].vgg is tf_slim.nets.vgg and scope["slim"].model_analyzer is tf_slim.model_analyzer
        assert callable(scope["slim"].parallel_reader.get_data_files)
        # slim's layers and arg_scope were contrib.layers' and contrib.framework's own objects
        assert scope["slim"].conv2d is importlib.import_module("estimator_bridge.compat.contrib_layers").conv2d
        with pytest.raises(compat.UnsupportedName, match="tf.contrib.tpu.python.tpu.tpu_sharding."
                                                         "ShardingPolicy is not available"):
            scope["tpu_sharding"].ShardingPolicy
        with pytest.raises(ImportError, match="tf.contrib.tpu.python.tpu.tpu_sharding.ShardingPolicy "
                                              "is not available"):
            run_import("from tensorflow.contrib.tpu.python.tpu.tpu_sharding import ShardingPolicy\n",
                       "legacy_model")
        with pytest.raises(ImportError, match="tf.contrib.no_such is not available: tf.contrib "
                                              "was removed in TF 2.0"):
            run_import("import tensorflow.contrib.no_such\n", "legacy_model")


def test_tensorflow_python_estimator_is_tensorflow_estimator_s_as_in_tf115():
    with compat.installed():
        scope = run_import("from tensorflow.python.estimator import estimator\n"
                           "from tensorflow.python.estimator.tpu import tpu_estimator\n"
                           "from tensorflow_estimator.python.estimator.canned import dnn\n",
                           "legacy_model")
    assert scope["estimator"].Estimator is estimator_bridge.Estimator
    assert scope["tpu_estimator"].TPUEstimator is estimator_bridge.TPUEstimator
    with pytest.raises(compat.UnsupportedName, match="canned estimators"):
        scope["dnn"].DNNClassifier


def test_dunder_import_without_globals_is_the_caller_s():
    with compat.installed():
        scope = run_import("module = __import__('tensorflow.contrib.metrics')\n", "legacy_model")
    assert scope["module"] is TF1


# ----------------------------------------------------------------------------- the tables


def all_targets():
    for module_name, module in namespace_table.MODULES.items():
        for attribute, target in module.entries.items():
            yield f"{module_name}.{attribute}", target
        for fallback in module.fallbacks:
            yield f"{module_name}.*", fallback


@pytest.mark.parametrize("legacy_name, target", list(all_targets()))
def test_every_table_target_exists(legacy_name, target):
    for alternative in target.split("|"):
        kind, _, path = alternative.partition(":")
        if kind == "module":
            assert path in namespace_table.MODULES, legacy_name
        elif kind == "tf":
            assert namespace._real_tf_attribute(path) is not None  # raises if missing
        elif kind == "compat":
            module_name, _, helper = path.rpartition(".")
            module = importlib.import_module(f"estimator_bridge.compat.{module_name}")
            value = getattr(module, helper)
            assert callable(value) or isinstance(value, types.ModuleType), legacy_name  # tf.keras: a module
        elif kind == "pymodule":
            module_name, _, attribute = path.partition(":")
            module = importlib.import_module(module_name)
            assert not attribute or callable(getattr(module, attribute)), legacy_name
        elif kind in ("unsupported", "unsupported-attribute"):
            assert path in namespace_table.UNSUPPORTED, legacy_name
        else:
            assert kind == "bridge", f"{legacy_name}: unknown target kind {kind!r}"


@pytest.mark.parametrize("symbol", ["TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig",
                                    "InputPipelineConfig", "CrossShardOptimizer", "Estimator",
                                    "EstimatorSpec", "ModeKeys", "layers"])
def test_the_core_bridge_symbols_the_namespace_needs_exist(symbol):
    assert hasattr(estimator_bridge, symbol)


def test_the_compat_package_itself_can_be_imported_as_tf():
    import estimator_bridge.compat as tf1_package

    assert tf1_package.contrib.tpu.TPUEstimator is estimator_bridge.TPUEstimator
    assert tf1_package.estimator.ModeKeys is estimator_bridge.ModeKeys
    assert tf1_package.layers.batch_normalization is layers.batch_normalization
    assert tf1_package.logging.info is tf.compat.v1.logging.info
    assert tf1_package.compat.v1 is TF1


def test_disable_eager_execution_keeps_eager_on_for_the_bridge(caplog):
    # The bridge runs model_fn in tf.function; Session scripts use `run --graph-mode` instead.
    assert TF1.disable_eager_execution is not tf.compat.v1.disable_eager_execution
    with caplog.at_level("WARNING", logger="tensorflow"):
        TF1.disable_eager_execution()
    assert tf.executing_eagerly()
    assert "--graph-mode" in caplog.text


def _codemod_rewrites_into_the_bridge():
    """(legacy dotted name, bridge target) for every tf.contrib name the codemod rewrites to
    `estimator_bridge.compat`: the runner must serve the same object under the legacy name."""
    from migrate.tables.contrib import CONTRIB
    from migrate.tables.entries import Replacement

    for legacy, entry in sorted(CONTRIB.items()):
        if isinstance(entry, Replacement) and entry.target.startswith("estimator_bridge.compat.") \
                and not (entry.rename_kwargs or entry.unsupported_kwargs or entry.default_args):
            yield legacy, entry.target


@pytest.mark.parametrize("legacy, target", list(_codemod_rewrites_into_the_bridge()))
def test_what_the_codemod_rewrites_into_the_bridge_the_runner_serves(legacy, target):
    # tf.contrib.lookup was rewritten by the codemod but refused by the runner (UnsupportedName):
    # the two tables drifted apart; this holds them together
    module_name, _, attribute = target.rpartition(".")
    expected = getattr(importlib.import_module(module_name), attribute)
    legacy_module, _, name = legacy.rpartition(".")
    with compat.installed():
        imported = run_import(f"from {legacy_module} import {name}\n", "legacy_model")[name]
        module = run_import(f"import {legacy_module} as module\n", "legacy_model")["module"]
    assert imported is expected, legacy
    # TF 1.15's contrib.framework.python.ops.arg_scope attribute is the function its star import
    # bound over the submodule (so is `import ...ops.arg_scope as m`); only `from` reaches the module
    if not legacy_module.endswith(".arg_scope"):
        assert getattr(module, name) is expected, legacy
        served = TF1
        for part in legacy.split(".")[1:]:
            served = getattr(served, part)
        assert served is expected, legacy


def _alias_spellings():
    """Helpers under the deeper contrib module paths the codemod reads as the same module."""
    from migrate.tables.contrib import CONTRIB

    for legacy in sorted(set(namespace_table.CODEMOD_HELPERS) - set(CONTRIB)):
        yield legacy


@pytest.mark.parametrize("legacy", list(_alias_spellings()))
def test_helpers_are_served_under_the_module_paths_the_codemod_aliases(legacy):
    # `from tensorflow.contrib.tpu.python.tpu import tpu_function; tpu_function.get_tpu_context`
    # (tensorflow/kfac ops/utils.py) was refused by the runner while the codemod rewrote it
    module_name, _, name = legacy.rpartition(".")
    with compat.installed():
        imported = run_import(f"from {module_name} import {name}\n", "legacy_model")[name]
    assert imported is namespace.resolve_target(namespace_table.CODEMOD_HELPERS[legacy], legacy)
