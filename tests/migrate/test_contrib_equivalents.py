"""tf.contrib names rewritten to a current spelling compute what TF 1.15 computed.

Fixture contrib/contrib_equivalents (from held-out real files: google-research/mixmatch
libml/layers.py's `tf.contrib.distributions.Categorical`/`kl_divergence`, google-research/morph-net
configurable_ops.py's `tf.contrib.framework.get_name_scope`, tensorflow/adanet improve_nas's
`tf.contrib.estimator.clip_gradients_by_norm` and `tf.contrib.opt.LazyAdamOptimizer`): its
`compute()` runs on TF 1.15 (oracle A) as written and on current TensorFlow migrated. The
distributions and the name scope are equal; three training steps of a Momentum optimizer wrapped
by clip_gradients_by_norm and of LazyAdam on an embedding table with a repeated index (sparse
updates: TF 1.15's RefVariable path against current TF's resource-variable path) agree within
rtol 1e-6 (measured 6.6e-7 on LazyAdam's second moment; float32 kernels of two TF versions).

Fixture contrib/same_object_in_compat_v1: contrib names TF 1.15 exported as tf.compat.v1's own
objects (contrib.signal through `from tensorflow.contrib import signal as contrib_signal`,
framework.sort/argsort/is_tensor, util, metrics.set_*, stateless, nn.conv1d_transpose,
eager.py_func): integer results equal, float results within rtol 1e-6 (measured: log-mel 7.6e-7,
MFCCs 5.2e-7, the rest 0). The waveform is uniform noise: with a pure sine, the log of near-empty
spectral bins differed by up to 7.3e-5 between TF 1.15's and TF 2.21's FFT kernels, which is the
kernels, not the rewrite (stft itself is the same tf.signal code).

Fixture contrib/contrib_lookup (heldout3: guillaumegenthial/tf_ner's vocabulary tables,
cloudml-samples movielens' index_to_string): tf.contrib.lookup's index tables from files and
lists, with out-of-vocabulary buckets and defaults, through estimator_bridge/compat/contrib_lookup.py:
every id and string equal.

Fixture contrib/contrib_reexports (heldout3: cloudml-samples tpu_rewrite's infeed/outfeed tuples and
tf.contrib.tpu.repeat, tpu_triplet_loss' projector, tensorflow/kfac's tpu_function/tpu_ops imports,
deepmind/scalable_agent's StagingArea), through estimator_bridge/compat/contrib_reexports.py: the
TPU ops' graph nodes (type, dtypes, shapes; a positional `name` of tpu_replicated_input stays the
name), the repeat loop's value, the shard context, the staged values and the projector_config.pbtxt
text are equal.

Fixture contrib/safe_embedding_lookup (heldout3: cloudml-samples movielens' rated-movie embeddings):
tf.contrib.layers.safe_embedding_lookup_sparse -> tf.compat.v1.nn's (the same code) under each
combiner, with invalid ids, non-positive weights, empty rows, default_id, a rank-3 id tensor and a
partitioned table with max_norm: within rtol 1e-6 of TF 1.15 (measured: equal).

Fixture contrib/softmax_xla_filter (heldout3: google/dopamine's tf.contrib.layers.softmax ->
tf.nn.softmax on 2-D and 3-D logits, tf.contrib.compiler.xla.compile -> tf.compat.v1.xla.experimental.compile
(the same object in TF 1.15), tensorflow/moonlight's filter_variables -> the bridge's own): probabilities
and the compiled product within rtol 1e-6, the filtered variable names and the static shape equal.

Fixture contrib/contrib_layers (tensorflow/tpu models/official/unet3d's conv3d, instance_norm,
max_pool3d, conv3d_transpose; conv2d under arg_scope with normalizer_fn, conv2d_transpose, pools,
fully_connected, dropout) through estimator_bridge/compat/contrib_layers.py: variable names,
MODEL_VARIABLES, variables_collections, output aliases and static shapes equal; seeded initial
values equal, unseeded ones within contrib's xavier bound; outputs within 1e-6 of 1.0 (FLOORS).

Fixture contrib/contrib_batch_norm (2018-2020 TPU ResNets' contrib.layers.batch_norm as conv2d's
normalizer_fn under arg_scope, is_training as bool and tensor, updates_collections=None, NCHW, rank 2,
fused=False, zero_debias_moving_mean, param_initializers, reuse; separable_conv2d incl. num_outputs=None,
bias_add, conv2d_in_plane, flatten, one_hot_encoding, repeat, stack) through compat/contrib_batch_norm.py
and contrib_layers.py: variable names, MODEL_VARIABLES, trainables, UPDATE_OPS count, collections,
aliases and static shapes equal; outputs and 3 training steps within 1e-6 of 1.0 (FLOORS).

Fixture contrib/tpu_low_level (heldout4: MLPerf v0.5/v0.6 TPU low-level runners' InfeedQueue,
_PartitionedInfeedQueue, device_assignment with TF 1.x's three-entry computation shapes,
split_compile_and_shard; ssd_main.py's wait_for_new_checkpoint): the infeed enqueue nodes (type,
name, device, dtypes, shapes, ordinal), every replica's host and ordinal for 1, 2 and 4 cores per
replica on an emulated 2-host slice (the runtime's topology as each version described it), the
sharded program's outputs and the checkpoint waits are equal. Without estimator_bridge/compat/
contrib_tpu.py (TF 2.21's device_assignment on [x, y, 1, cores]) replicas 1-3 of the 1- and 2-core
assignments landed on other hosts/ordinals.

Fixture contrib/slim_layers (heldout4: google-research/batch_rl's DQN torso through `slim =
tf.contrib.slim`, tensorflow/lucid's CPPN under slim.arg_scope with instance_norm): TF-Slim's layers
and arg_scope were contrib.layers' and contrib.framework's own objects, so they take their rewrites;
variable names/shapes and MODEL_VARIABLES equal, seeded initial values, Q-values and image within
rtol 1e-6.

Fixture contrib/slim_alias (heldout2/3: morph-net's slim train_image_classifier.py, youtube-8m's
train.py, self-attention-gan's eval_imagenet.py): `slim = tf.contrib.slim` and `from tensorflow.contrib
import slim` whose variable functions (get_model_variables, get_variables, get_trainable_variables,
get_local_variables) are tf-slim's, an alias nothing reads removed: every variable list equal, three
GradientDescent losses on slim.losses and the trained model variables within rtol 1e-6.

Fixture contrib/lars (heldout4: MLPerf v0.6's TPU ResNet lars_util.py): three steps of
tf.contrib.opt.LARSOptimizer under a polynomial-decay learning rate, on a kernel (trust ratio), a
bias in skip_list, a zero kernel (ratio 1) and a gathered table (sparse momentum), with and without
Nesterov, through estimator_bridge/compat/contrib_optimizers.py: within rtol 1e-6.

Fixture contrib/contrib_image (heldout4: tensorflow/lucid optvis/transform.py; heldout3:
tensorflow/moonlight glyph_patches.py): tf.contrib.image's rotate/translate/transform and transform
builders through estimator_bridge/compat/contrib_image.py on the core ImageProjectiveTransformV2 kernel:
values, uint8 glyphs, shapes and the gradient through a bilinear rotation within rtol 1e-6.

Fixture contrib/contrib_variables (tensorflow/tpu models/official/amoeba_net/network_utils.py's
batch_norm on contrib_framework.variable with its own collections; model_variable under arg_scope,
slim.variable/model_variable, local_variable, global_variable, add_model_variable) through
estimator_bridge/compat/contrib_variables.py: every collection's names, the variables' names and
shapes equal; seeded initial values, 3 GradientDescent losses and the trained values within 1e-6.

Fixture contrib/slim_framework_variables (heldout9: research/slim model_deploy_test.py's
tf.contrib.framework.get_variables_by_name, resnet_v2.py forks' slim.utils): contrib.framework's
variable helpers (TF-Slim's own objects in TF 1.15) and slim.utils (contrib.layers' utils module) through
tf-slim: every variable list, name, the collected outputs and the computed values equal.

Fixture contrib/contrib_tfprof (heldout9: research/slim train_image_classifier.py forks'
tf.contrib.tfprof.model_analyzer.print_model_analysis with TRAINABLE_VARS_PARAMS_STAT_OPTIONS and
`.total_parameters`; FLOAT_OPS_OPTIONS and PRINT_ALL_TIMING_MEMORY, positional and tfprof_cmd=): the
reports printed to stdout and the returned totals equal. TF 1.15's profiler printed "Parsing Inputs..."
to stdout before each report, TF 2.21's does not (the same profile() call in both: TF 1.15's
print_model_analysis called tf.profiler.profile); that line is dropped before comparing.

Fixture contrib/contrib_hash_table (heldout9: alexmomeni/DeepDerm visualization.py's label table):
tf.contrib.lookup.HashTable through estimator_bridge/compat/contrib_lookup.py: lookups, sizes, exports,
`init`, `name`, export op names and shapes, TABLE_INITIALIZERS and the tables' shared_name attributes
equal. TF 2.21's plain tf.compat.v1.lookup.StaticHashTable has no `init` and no shared_name=, names each
table "hash_table_<uuid>", its export op "<name>_Export/LookupTableExportV2" and leaves the exported
keys' rank unknown.

Fixture contrib/layers_slim_names (heldout10: cnn_mnist.py's tf.contrib.layers.optimize_loss):
contrib.layers' functions TF-Slim re-exported (apply_regularization, l1_l2_regularizer, maxout,
unit_norm, optimize_loss with clip_gradients= and summaries=) through tf-slim: three losses, the
trained weights, outputs, op names and the loss summary's nodes equal.

Fixture contrib/tf0_summaries (heldout9/10: TF 0.12's tf.scalar_summary & co., TF 1.15's
tf.contrib.deprecated.*) through estimator_bridge/compat/tf0_summaries.py: the merged Summary protos
(tags as given under a name scope, a tensor of tags, histogram counts, image sizes, audio rate), the
op names and the collections equal.

Fixture contrib/nadam (unet3d's default optimizer): three steps of tf.contrib.opt.NadamOptimizer on a
dense variable (ApplyAdam with use_nesterov) and on a gathered table (the sparse path) within 1e-6.
"""

import pytest

from tests.support.numbers import DEFAULT_FLOOR, assert_close
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "run_fixture_compute.py"
FIXTURES = REPO_ROOT / "tests" / "migrate" / "fixtures" / "contrib"
RTOL = 1e-6
# contrib_layers' outputs pass through instance_norm (O(1) values, some near 0): measured at most
# 3.6e-7 absolute apart (2 float32 ulps at 2.0, the conv/moments kernels of two TF versions), which
# is up to 2.4e-5 relative on elements near 0.01; so relative to 1.0 there (the default floor is 1e-3).
# contrib_batch_norm: 3 GradientDescent steps through 8 batch norms. Measured (2026-11-27): every
# number within 6.0e-7 absolute of TF 1.15 (values O(1)); relative differences above 1e-6 only on
# values far below 1: the betas (1e-3..1e-2 after 3 steps; gradients summed over the batch that
# largely cancel) up to 8.2e-6, sep/biases (a bias feeding batch_norm: zero gradient in exact
# arithmetic, so its 1e-9 values are rounding noise) 1.4e-5, and the eval outputs 1.3e-6 on
# elements near 0.1 (conv kernels of two TF versions); with TF_ENABLE_ONEDNN_OPTS=0 the same
# (1.1e-5 at most). So, as for contrib_layers, relative to 1.0 there.
FLOORS = {"contrib_layers": 1.0, "contrib_batch_norm": 1.0}


@pytest.mark.oracle
@pytest.mark.parametrize("case", ["contrib_equivalents", "same_object_in_compat_v1", "contrib_lookup",
                                  "contrib_reexports", "safe_embedding_lookup", "softmax_xla_filter",
                                  "contrib_layers", "nadam", "contrib_batch_norm", "tpu_low_level",
                                  "slim_layers", "slim_alias", "lars", "contrib_image",
                                  "contrib_variables", "slim_framework_variables", "contrib_tfprof",
                                  "contrib_hash_table", "layers_slim_names",
                                  "tf0_summaries"])
def test_migrated_contrib_equivalents_compute_what_tf_1_15_computed(case):
    fixture = FIXTURES / case
    expected = run_json(oracle_python("tf115"), PROGRAM, f"{fixture}.before.py", cwd=REPO_ROOT)
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, f"{fixture}.after.py", env=env, cwd=REPO_ROOT)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")) == ("1", "2")
    assert sorted(ours) == sorted(expected)
    if case == "contrib_tfprof":
        expected["program"] = [report.replace("Parsing Inputs...\n", "", 1) for report in expected["program"]]
    for key in ("scope", "clipped_name", "is_tensor", "static", "order", "draws", "difference", "size",
                "word_ids", "tag_ids", "tags", "listed", "named", "classes", "indices", "nodes", "shards",
                "staged", "written", "chosen", "matched", "deep_shape", "within_limit", "enqueue", "placements",
                "program", "queue", "waits", "model", "counter_name", "step_name"):
        assert ours.pop(key, None) == expected.pop(key, None), key
    for key, value in expected.items():
        assert_close(ours[key], value, rtol=RTOL, floor=FLOORS.get(case, DEFAULT_FLOOR), what=key)
