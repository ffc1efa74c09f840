"""Exact replacements to name in findings, for names that are reported rather than rewritten.

Keys are canonical names (see aliases.py: `tensorflow.compat.v1.X` is `tensorflow.X`,
`tensorflow.keras` is `keras`); the longest matching prefix wins. A hint here says what to write
instead, or what the program loses when there is nothing to write; it never says "see the guide".
"""

from __future__ import annotations

from migrate.resolve import canonical, longest_prefix
from migrate.tables.contrib import UNSUPPORTED as _CONTRIB_UNSUPPORTED

_RNN = ("tf.keras.layers.LSTMCell / GRUCell / SimpleRNNCell in tf.keras.layers.RNN (other variable names: "
        "old checkpoints need a name map), or install tf_keras and set TF_USE_LEGACY_KERAS=1 to keep TF1 cells")

_EXPERIMENT = ("estimator_bridge.train_and_evaluate(estimator, estimator_bridge.TrainSpec(train_input_fn, "
               "max_steps=train_steps), estimator_bridge.EvalSpec(eval_input_fn, steps=eval_steps, throttle_secs=5, "
               "exporters=...)) (Experiment's train_and_evaluate schedule: an evaluation on each new checkpoint, "
               "at most every check_interval_secs=5, and one after training); learn_runner.run(experiment_fn, "
               "run_config, hparams=...) becomes a call of experiment_fn's body with an estimator_bridge.RunConfig "
               "followed by that train_and_evaluate (schedule 'train': estimator.train, 'evaluate': "
               "estimator.evaluate)")
_LEARN_RUN_CONFIG = ("estimator_bridge.RunConfig(model_dir=..., tf_random_seed=..., save_checkpoints_steps=..., "
                     "keep_checkpoint_max=..., session_config=...) (contrib.learn's num_cores and "
                     "gpu_memory_fraction go into session_config)")

HINTS = {
    # modules that moved or went
    "tensorflow.gfile": "tf.io.gfile (exists, makedirs, glob, GFile: lower-case names) or tf.compat.v1.gfile.<Name>",
    "tensorflow.examples.tutorials.mnist": "tf.keras.datasets.mnist.load_data() (numpy arrays instead of the "
                                           "DataSet objects read_data_sets returned: batch them with tf.data)",
    "tensorflow.layers": "estimator_bridge.layers.<name> (dense, conv2d, batch_normalization, ... with TF1's "
                         "variable names)",
    "tensorflow.nn.rnn_cell": _RNN,
    "tensorflow.contrib.rnn": _RNN,
    "tensorflow.contrib.cudnn_rnn": _RNN,
    **{f"tensorflow.contrib.framework.get_{name}": (
        f"tf.compat.v1.{target}(scope) for a scope that is a string or None (rewritten when it is a "
        f"literal; a VariableScope: pass scope.name); suffix=s: tf.compat.v1.{target}((scope or '') + "
        f"'.*' + s + ':') (no ':' added when s holds one)")
       for name, target in (("variables", "global_variables"), ("trainable_variables", "trainable_variables"),
                            ("local_variables", "local_variables"), ("model_variables", "model_variables"))},
    # TF 0.12's SummaryWriter (its summary functions are rewritten: migrate/tables/contrib.py TF0_SUMMARIES)
    "tensorflow.train.SummaryWriter": "tf.compat.v1.summary.FileWriter(logdir, graph) (TF 1.0's rename)",
    "tensorflow.python.util.nest.is_sequence": "tf.nest.is_nested (the same check, renamed in TF 2)",
    "tensorflow.contrib.eager.num_gpus": "len(tf.config.list_physical_devices('GPU'))",
    "tensorflow.contrib.keras": "tf.keras (same names; Keras 3 behind it)",
    "tensorflow.contrib.saved_model.save_keras_model": (
        "export_dir = os.path.join(saved_model_path, str(int(time.time()))); model.export(export_dir) "
        "(TF 1.15 wrote a timestamped SavedModel below saved_model_path and returned its path; Keras 3's "
        "export writes the serving signature only, no train/eval graphs)"),
    "tensorflow.contrib.cloud.configure_gcs": "drop the call (TensorFlow 2 reads GCS credentials itself; on Colab "
                                              "call google.colab.auth.authenticate_user())",
    "tensorflow.contrib.opt.AdamWOptimizer": "tf.keras.optimizers.AdamW (Keras optimizer: not a drop-in for "
                                             "tf.compat.v1 train_ops), or keep this file on TensorFlow 1.15",
    "tensorflow.contrib.quantize": (
        "quantization-aware training is now tfmot.quantization.keras.quantize_model(keras_model) "
        "(tensorflow-model-optimization; Keras 2 models through tf-keras, not a TF1 graph); post-training "
        "8-bit quantization is tf.lite.TFLiteConverter.from_saved_model(export_dir) with "
        "optimizations=[tf.lite.Optimize.DEFAULT] and a representative_dataset. Dropping the calls trains "
        "and evaluates the model in float: no FakeQuant ops, no min/max variables in the checkpoint, and "
        "create_eval_graph's quantization-simulated evaluation numbers become float ones"),
    # TF 1.3 moved tfprof to tf.profiler (heldout9: research/slim train_image_classifier.py forks print the
    # parameter count with model_analyzer.print_model_analysis, which is rewritten: migrate/tables/contrib.py)
    "tensorflow.contrib.tfprof": (
        "tf.compat.v1.profiler: print_model_analysis is rewritten to tf.compat.v1.profiler.profile(graph, "
        "cmd=..., options=...) and its option constants to estimator_bridge.compat.contrib_tfprof's; for the rest, "
        "tf.compat.v1.profiler.advise(graph, run_meta, options), tf.compat.v1.profiler.Profiler, "
        "tf.compat.v1.profiler.write_op_log"),
    "tensorflow.contrib.model_pruning": "tfmot.sparsity.keras.prune_low_magnitude (tensorflow-model-optimization; "
                                        "Keras models only)",
    "tensorflow.contrib.seq2seq": "tfa.seq2seq (tensorflow-addons, TF <= 2.15) or a hand-written "
                                 "tf.while_loop decoder",
    "tensorflow.contrib.distributions": "tfp.distributions.<name> (tensorflow-probability; the core ones TF 1.15 "
                                        "shared with tf.distributions are rewritten to tf.compat.v1.distributions)",
    "tensorflow.estimator.inputs.numpy_input_fn": (
        "an input_fn returning tf.data.Dataset.from_tensor_slices((x, y)), shuffled, batched and repeated "
        "(numpy_input_fn fed a TF1 queue; calls with shuffle=False or shuffle=True on one thread are rewritten "
        "to estimator_bridge.inputs.numpy_input_fn, TF 1.15's batches and its shuffling; a shuffle held in a "
        "variable or several enqueue threads are not)"),
    "tensorflow.estimator.inputs.pandas_input_fn": (
        "an input_fn returning tf.data.Dataset.from_tensor_slices((dict(df), labels)), shuffled, batched and "
        "repeated (pandas_input_fn fed a TF1 queue: its shuffle order is not reproduced; calls with "
        "shuffle=False on one thread are rewritten to estimator_bridge.inputs.pandas_input_fn, TF 1.15's "
        "batches)"),
    "tensorflow.contrib.crf": "estimator_bridge.compat.contrib_crf (the bridge's CRF: tf.contrib.crf's public functions and cells)",
    "tensorflow.contrib.learn.python.learn.datasets.mnist": "tf.keras.datasets.mnist.load_data()",
    "tensorflow.contrib.learn.datasets": "tf.keras.datasets",
    # (heldout10: TF 1.0-1.2's iris tutorials read their CSVs with these; not tf.keras.datasets material)
    **{f"tensorflow.contrib.learn{deep}.datasets.base.{name}": (
        f"numpy: rows = np.genfromtxt(filename, delimiter=','{skip}); target = rows[:, target_column]"
        ".astype(target_dtype); data = np.delete(rows, target_column, axis=1).astype(features_dtype) "
        f"(TF 1.15 returned Dataset(data, target){note})")
       for deep in ("", ".python.learn")
       for name, skip, note in (
           ("load_csv_with_header", ", skip_header=1", "; the header row held n_samples, n_features"),
           ("load_csv", ", skip_header=1", "; has_header=False: no skip_header"),
           ("load_csv_without_header", "", ""))},
    "tensorflow.contrib.learn.datasets.load_dataset": (
        "load_dataset('mnist') is rewritten; 'iris': sklearn.datasets.load_iris(return_X_y=True) (Fisher's 150 "
        "samples, as TF 1.15's bundled iris.csv); 'boston': tf.keras.datasets.boston_housing.load_data() "
        "(the same 506 houses split 404/102; TF 1.15 returned them unsplit)"),
    "tensorflow.contrib.recurrent": _RNN,
    "tensorflow.contrib.recurrent.functional_rnn": (
        "tf.compat.v1.nn.dynamic_rnn(cell, inputs, sequence_length=..., initial_state=..., dtype=..., "
        "time_major=...) (functional_rnn had dynamic_rnn's interface and recurrence, built as a functional "
        "While loop; reverse=True: dynamic_rnn on tf.reverse_sequence(inputs, sequence_length, ...) and the "
        "outputs reversed back; use_tpu= has no counterpart)"),
    "tensorflow.contrib.distribute.AllReduceCrossDeviceOps": "tf.distribute.NcclAllReduce / "
                                                             "HierarchicalCopyAllReduce",
    # tf.contrib.learn (heldout3: cloudml-samples movielens, google/seq2seq bin/train.py)
    "tensorflow.contrib.learn": "estimator_bridge (Estimator, EstimatorSpec, RunConfig, train_and_evaluate) "
                                "replaces contrib.learn's estimator API; its canned models have no equivalent",
    "tensorflow.contrib.learn.Experiment": _EXPERIMENT,
    # its canned models (heldout10: wide_n_deep_tutorial.py forks, iris/boston tutorials)
    **{f"tensorflow.contrib.learn.{name}": (
        "no canned estimators in estimator_bridge: write the model_fn (tf.compat.v1.feature_column.input_layer "
        "or linear_model on tf.feature_column columns, estimator_bridge.layers.dense) returning "
        "estimator_bridge.EstimatorSpec and call train/evaluate/predict(input_fn) (contrib's fit(x=, y=) and "
        "SKCompat took arrays: estimator_bridge.inputs.numpy_input_fn); or build the network as a Keras "
        "model and use model.fit")
       for name in ("DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor",
                    "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor")},
    "tensorflow.contrib.learn.python.learn.learn_runner": _EXPERIMENT,
    "tensorflow.contrib.learn.ModelFnOps": "estimator_bridge.EstimatorSpec(mode, predictions=..., loss=..., "
                                           "train_op=..., eval_metric_ops=...) (the same fields)",
    "tensorflow.contrib.learn.Estimator": "estimator_bridge.Estimator(model_fn, model_dir, config) with a model_fn "
                                          "returning estimator_bridge.EstimatorSpec (contrib's fit/evaluate(x=, y=) "
                                          "become train/evaluate(input_fn))",
    "tensorflow.contrib.learn.python.learn.estimators.run_config.RunConfig": _LEARN_RUN_CONFIG,
    "tensorflow.contrib.learn.RunConfig": _LEARN_RUN_CONFIG,
    "tensorflow.contrib.learn.MetricSpec": "eval_metric_ops={name: tf.compat.v1.metrics.<metric>(labels, "
                                           "predictions[key])} in the EstimatorSpec (MetricSpec chose prediction_key "
                                           "and label_key from the model_fn's outputs)",
    **{f"tensorflow.contrib.learn.{path}MetricSpec": (
        "eval_metric_ops={name: tf.compat.v1.metrics.<metric>(labels, predictions[key])} in the EstimatorSpec "
        "(MetricSpec chose prediction_key and label_key from the model_fn's outputs)")
       for path in ("metric_spec.", "python.learn.metric_spec.")},
    **{f"tensorflow.contrib.learn.{path}PredictionKey": (
        "the string it held: CLASSES 'classes', PROBABILITIES 'probabilities', LOGITS 'logits', LOGISTIC "
        "'logistic', SCORES 'scores', TOP_K 'top_k', GENERIC 'output'")
       for path in ("prediction_key.", "python.learn.estimators.prediction_key.")},
    "tensorflow.contrib.learn.monitors.ValidationMonitor": (
        "estimator_bridge.train_and_evaluate(estimator, estimator_bridge.TrainSpec(input_fn, max_steps), "
        "estimator_bridge.EvalSpec(input_fn, steps, throttle_secs=...)) evaluates while training (the monitor "
        "evaluated every every_n_steps); its early_stopping_rounds: "
        "estimator_bridge.compat.early_stopping.stop_if_no_decrease_hook(estimator, metric_name, max_steps) "
        "in TrainSpec(hooks=)"),
    "tensorflow.contrib.learn.infer_real_valued_columns_from_input": (
        "[tf.feature_column.numeric_column('', shape=x.shape[1:], dtype=x.dtype)] (TF 1.15 returned one "
        "real-valued column keyed '' for an array x: feed the features as {'': x}, or name the key)"),
    "tensorflow.contrib.learn.PredictionKey": "the string it held: CLASSES 'classes', PROBABILITIES "
                                              "'probabilities', LOGITS 'logits', LOGISTIC 'logistic', SCORES "
                                              "'scores', TOP_K 'top_k', GENERIC 'output'",
    "tensorflow.contrib.learn.ProblemType": "nothing: it only chose contrib.learn's export signatures; export with "
                                            "estimator_bridge.export outputs (ClassificationOutput, PredictOutput)",
    "tensorflow.contrib.learn.utils.make_export_strategy": "estimator_bridge.LatestExporter(name, "
                                                           "serving_input_receiver_fn) in EvalSpec(exporters=...)",
    "tensorflow.contrib.learn.io.read_batch_features": (
        "tf.compat.v1.data.experimental.make_batched_features_dataset(file_pattern, batch_size, features) "
        "(a tf.data pipeline instead of TF1 queues: its order differs)"),
    # contrib.layers' feature columns (TF 1.x's first feature-column API)
    "tensorflow.contrib.layers.sparse_column_with_integerized_feature": (
        "tf.feature_column.categorical_column_with_identity(key, num_buckets=bucket_size) (contrib took the ids "
        "modulo bucket_size; identity needs them below num_buckets)"),
    "tensorflow.contrib.layers.weighted_sparse_column": (
        "tf.feature_column.weighted_categorical_column(categorical_column, weight_feature_key)"),
    "tensorflow.contrib.layers.real_valued_column": "tf.feature_column.numeric_column(key, shape=(dimension,))",
    # (heldout10: the wide_n_deep_tutorial.py / iris tutorials of TF 1.0-1.2 build their columns with these)
    "tensorflow.contrib.layers.sparse_column_with_keys": (
        "tf.feature_column.categorical_column_with_vocabulary_list(key, vocabulary_list=keys, default_value=-1)"),
    "tensorflow.contrib.layers.sparse_column_with_hash_bucket": (
        "tf.feature_column.categorical_column_with_hash_bucket(key, hash_bucket_size)"),
    "tensorflow.contrib.layers.sparse_column_with_vocabulary_file": (
        "tf.feature_column.categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=vocab_size, "
        "num_oov_buckets=num_oov_buckets)"),
    "tensorflow.contrib.layers.bucketized_column": "tf.feature_column.bucketized_column(source_column, boundaries)",
    "tensorflow.contrib.layers.crossed_column": "tf.feature_column.crossed_column(keys, hash_bucket_size)",
    "tensorflow.contrib.layers.embedding_column": (
        "tf.feature_column.embedding_column(categorical_column, dimension, combiner='mean')"),
    "tensorflow.contrib.layers.one_hot_column": "tf.feature_column.indicator_column(categorical_column)",
    "tensorflow.contrib.layers.create_feature_spec_for_parsing": "tf.feature_column.make_parse_example_spec(columns)",
    "tensorflow.contrib.layers.weighted_sum_from_feature_columns": (
        "tf.compat.v1.feature_column.linear_model(features, columns) (with tf.feature_column columns)"),
    # other contrib packages that became libraries (heldout3)
    "tensorflow.contrib.gan": (
        "tensorflow_gan (pip install tensorflow-gan; `import tensorflow_gan as tfgan`: TF-GAN, the library "
        "tf.contrib.gan became, same names: tfgan.gan_model, gan_loss, gan_train_ops, eval.image_grid, ...; "
        "not run on TF 2.21 here)"),
    "tensorflow.contrib.losses.metric_learning.triplet_semihard_loss": (
        "tfa.losses.triplet_semihard_loss(y_true=labels, y_pred=embeddings, margin=margin) (tensorflow-addons, "
        "TF <= 2.15)"),
    "tensorflow.contrib.predictor.from_estimator": (
        "estimator.export_saved_model(export_dir_base, serving_input_receiver_fn), then "
        "tf.saved_model.load(path).signatures['serving_default'] (from_estimator exported to a temporary "
        "directory and returned a callable taking a feed dict)"),
    "tensorflow.contrib.cloud.BigtableClient": (
        "tensorflow_io's tfio.bigtable.BigtableClient(project_id, instance_id) (pip install tensorflow-io; a "
        "different reading API: read_rows/parallel_read_rows instead of the contrib table's scan datasets)"),
    "tensorflow.contrib.training.evaluate_repeatedly": (
        "for path in tf.train.checkpoints_iterator(checkpoint_dir): "
        "estimator_bridge.compat.contrib_reexports.evaluate_once(path, eval_ops=..., final_ops=..., hooks=...) "
        "(TF 1.15's evaluate_once, what evaluate_repeatedly ran for each new checkpoint)"),
    "tensorflow.contrib.training.SummaryAtEndHook": (
        "run the summary op once after the evaluation and write it: tf.compat.v1.summary.FileWriter(log_dir)"
        ".add_summary(session.run(summary_op), global_step) (estimator_bridge's evaluate writes its metrics to "
        "eval_dir itself)"),
    # heldout5 (BERT-BiLSTM-CRF-NER, stylegan, tensorflow-without-a-phd, tensorflow_cookbook, BERT-as-service style
    # servers): names that had only "see the TF 2 migration guide"
    "tensorflow.contrib.data.Dataset": (
        "tf.data.Dataset (tf.contrib.data.Dataset became tf.data.Dataset in TF 1.4: the same constructors; "
        "map(num_threads=n) is map(num_parallel_calls=n), and batch/padded_batch/shuffle take the same arguments)"),
    "tensorflow.contrib.nccl": (
        "tensorflow.python.ops.nccl_ops (all_sum, reduce_sum, broadcast: the NCCL ops TF 2.21 still ships, the ones "
        "contrib.nccl exported), or a tf.distribute.MirroredStrategy with tf.distribute.NcclAllReduce()"),
    "tensorflow.contrib.memory_stats": (
        "tf.config.experimental.get_memory_info('GPU:0') ('current' and 'peak' bytes, read eagerly in Python; "
        "TF 2 has no op for it: MaxBytesInUse/BytesInUse were graph ops)"),
    "tensorflow.python.framework.graph_util.convert_variables_to_constants": (
        "tf.compat.v1.graph_util.convert_variables_to_constants (the same function; graph_util's functions moved "
        "to graph_util_impl)"),
    "tensorflow.python.framework.graph_util.extract_sub_graph": "tf.compat.v1.graph_util.extract_sub_graph",
    "tensorflow.python.framework.graph_util.remove_training_nodes": "tf.compat.v1.graph_util.remove_training_nodes",
    "tensorflow.contrib.legacy_seq2seq": (
        "no TF 2 equivalent: rnn_decoder was a Python loop calling the cell on each input (write it out with "
        "estimator_bridge.compat.rnn_cell's cells), sequence_loss_by_example / sequence_loss a per-step "
        "tf.nn.sparse_softmax_cross_entropy_with_logits weighted and summed; or keep this file on TensorFlow 1.15"),
    # NVIDIA/DeepLearningExamples (heldout3)
    "tensorflow.contrib.mixed_precision.LossScaleOptimizer": (
        "tf.compat.v1.mixed_precision.MixedPrecisionLossScaleOptimizer(opt, loss_scale) with loss_scale a "
        "tf.compat.v1.mixed_precision.FixedLossScale(s) or DynamicLossScale(initial_loss_scale, increment_period, "
        "multiplier)"),
    "tensorflow.contrib.mixed_precision.FixedLossScaleManager": "tf.compat.v1.mixed_precision.FixedLossScale(loss_scale)",
    "tensorflow.contrib.mixed_precision.ExponentialUpdateLossScaleManager": (
        "tf.compat.v1.mixed_precision.DynamicLossScale(initial_loss_scale=init_loss_scale, "
        "increment_period=incr_every_n_steps, multiplier=incr_ratio) (not the same schedule: it divides by the "
        "multiplier at the first non-finite step; contrib multiplied by decr_ratio (0.8) after "
        "decr_every_n_nan_or_inf (2) of them)"),
    # main corpus (google-research/bert-style fine-tuning, tensorflow/tpu): TF 1.15 contrib helpers.
    "tensorflow.contrib.opt.extend_with_decoupled_weight_decay": (
        "tfa.optimizers.extend_with_decoupled_weight_decay (tensorflow-addons, TF <= 2.15), or a Keras 3 "
        "optimizer's weight_decay= (keras.optimizers.AdamW): note Keras multiplies the decay by the learning rate, "
        "contrib subtracted weight_decay * var as given"),
    # heldout2: tensorflow/adanet core/summary.py reads tf.contrib.summary in version-compatible try blocks.
    "tensorflow.contrib.summary": "tf.summary: TF 2's summary API is contrib.summary's (tf.summary.create_file_writer, "
                                  "record_if, scalar/image/histogram/audio(name, data, step=...))",
    # main corpus (tensorflow/tpu-style model code): contrib.layers' output aliases.
    "tensorflow.contrib.layers.utils.collect_named_outputs": (
        "tf.compat.v1.add_to_collections(collections, outputs) and keep {alias: outputs} in a dict yourself "
        "(contrib also set outputs.aliases, which convert_collection_to_dict read back)"),
    "tensorflow.contrib.layers.utils.convert_collection_to_dict": (
        "the {alias: tensor} dict kept where the outputs were collected (contrib read tensor.aliases of "
        "tf.compat.v1.get_collection(collection))"),
    "tensorflow.contrib.graph_editor": (
        "nothing in TF 2: build the graph with the replacement tensors directly, or rewire a GraphDef with "
        "tf.compat.v1.import_graph_def(graph_def, input_map={name: tensor})"),
    "tensorflow.contrib.estimator.add_metrics": (
        "wrap the model_fn: call it, then return its EstimatorSpec with eval_metric_ops updated by "
        "metric_fn(labels, predictions) (what add_metrics did; estimator_bridge has no add_metrics)"),
    "tensorflow.estimator.add_metrics": (
        "wrap the model_fn: call it, then return its EstimatorSpec with eval_metric_ops updated by "
        "metric_fn(labels, predictions) (what add_metrics did; estimator_bridge has no add_metrics)"),
    # canned estimators (NVIDIA WideAndDeep, tensorflow/moonlight, tensorflow/hub's Kaggle colab: heldout3)
    **{f"tensorflow.estimator.{name}": (
        "no canned estimators in estimator_bridge: write the model_fn (estimator_bridge.layers.dense, or "
        "tf.compat.v1.feature_column.input_layer for the feature columns) returning estimator_bridge.EstimatorSpec, "
        "or build the same network as a Keras model and train it with model.fit; or pin TensorFlow <= 2.15 for it")
       for name in ("BaselineClassifier", "BaselineRegressor", "BaselineEstimator", "BoostedTreesClassifier",
                    "BoostedTreesRegressor", "DNNClassifier", "DNNRegressor", "DNNEstimator", "LinearClassifier",
                    "LinearRegressor", "LinearEstimator", "DNNLinearCombinedClassifier",
                    "DNNLinearCombinedRegressor", "DNNLinearCombinedEstimator")},
    "tensorflow.estimator.python.estimator.canned.prediction_keys.PredictionKeys": (
        "the string it held: CLASSES 'classes', CLASS_IDS 'class_ids', ALL_CLASSES 'all_classes', ALL_CLASS_IDS "
        "'all_class_ids', LOGISTIC 'logistic', LOGITS 'logits', PREDICTIONS 'predictions', PROBABILITIES "
        "'probabilities', TOP_K 'top_k'"),
    # (the MIG302 hint, also on an import line of slim: `from tensorflow.contrib import slim`, tf_cnn_benchmarks)
    "tensorflow.contrib.slim": _CONTRIB_UNSUPPORTED["tensorflow.contrib.slim"].hint,
    # (a network tf_slim.nets lacks: tensorflow/models research/slim's, e.g. mobilenet_v1)
    "tensorflow.contrib.slim.nets": _CONTRIB_UNSUPPORTED["tensorflow.contrib.slim.nets"].hint,
    "keras.estimator.model_to_estimator": (
        "estimator_bridge.model_to_estimator(keras_model=model, model_dir=..., config=...) takes the same "
        "arguments (a compiled functional or Sequential model, Keras 3 or tf-keras; input_fn's features keyed "
        "by the model's input names); a subclassed model or a stateful compiled metric (AUC, Precision) it "
        "refuses: for those train the model itself, estimator.train(input_fn, steps=N) -> "
        "model.fit(input_fn(), steps_per_epoch=N, epochs=1), estimator.evaluate(input_fn, steps=M) -> "
        "model.evaluate(input_fn(), steps=M, return_dict=True) (its loss weights each batch by its rows, the "
        "estimator's was the mean of the batch losses: they differ when a batch is short)"),
    # Keras 3 removed the global learning phase.
    "keras.backend.set_learning_phase": "Keras 3 has no global learning phase, so delete the call. What the program "
                                        "loses: Keras layers called without training= (Dropout, BatchNormalization) "
                                        "no longer follow it and run in inference mode; pass training=True/False "
                                        "where the model or layer is called",
    # heldout4: CyberZHG/keras-bert's 2019 TPU notebooks initialise variables through Keras' session.
    "keras.backend.get_session": "nothing in TF 2: Keras 3 runs eagerly and creates its variables initialised, so "
                                 "delete `sess = K.get_session()` and the `sess.run(...initializer...)` lines that "
                                 "follow it; TF1 graph code that still needs a session makes its own "
                                 "(`tf.compat.v1.Session()`)",
    # heldout4: openai/baselines acktr/kfac.py (tf.batch_svd: TF 0.12's name of the batched SVD).
    "tensorflow.batch_svd": "tf.linalg.svd(tensor): the same batched op (TF 1.0 renamed batch_svd to svd), "
                            "returning s, u, v in the same order; pass compute_uv / full_matrices by keyword "
                            "(batch_svd's second parameter was compute_uv, svd's is full_matrices)",
    "keras.backend.learning_phase": "pass training=True/False explicitly where the model is called "
                                    "(Keras 3 has no global learning phase)",
    "keras.layers.DenseFeatures": "tf.keras.layers.FeatureSpace or tf.compat.v1.feature_column.input_layer "
                                  "(DenseFeatures needs Keras 2: tf_keras)",
    # Keras 3 has no mixed_precision.experimental (TF 2.1-2.3 spellings; google-research/fixmatch imagenet)
    "keras.mixed_precision.experimental.Policy": (
        "tf.keras.mixed_precision.Policy(name) (Keras 3: no loss_scale argument; for float16 wrap the optimizer "
        "in tf.keras.mixed_precision.LossScaleOptimizer)"),
    "keras.mixed_precision.experimental.set_policy": "tf.keras.mixed_precision.set_global_policy(policy)",
    "keras.mixed_precision.experimental.global_policy": "tf.keras.mixed_precision.global_policy()",
    "keras.mixed_precision.experimental.LossScaleOptimizer": (
        "tf.keras.mixed_precision.LossScaleOptimizer(optimizer) (Keras 3: dynamic loss scaling only, "
        "initial_scale= instead of loss_scale=)"),
    # absl renamed it (google/youtube-8m train.py: `except flags.FlagsError`)
    "tensorflow.flags.FlagsError": "tf.compat.v1.flags.Error (absl.flags.Error: FlagsError was its old name)",
    # private members of Keras 2's optimizer (tensorflow/privacy dp_optimizer.py)
    **{f"{root}.Optimizer._compute_gradients": (
        "nothing in Keras 3: compute the gradients with tf.GradientTape, then call optimizer.apply_gradients")
       for root in ("keras.optimizers", "tensorflow.optimizers", "keras")},
    # private internals TF1 programs imported
    "tensorflow.python.ops.control_flow_ops.while_loop": "tf.compat.v1.while_loop",
    "tensorflow.python.ops.control_flow_ops.cond": "tf.compat.v1.cond",
    "tensorflow.python.ops.array_ops.stack": "tf.stack",
    "tensorflow.python.framework.ops.Tensor": "tf.Tensor",
    # (tensorflow/benchmarks tf_cnn_benchmarks, heldout3: internals that moved in TF 2.x)
    "tensorflow.python.framework.ops.IndexedSlices": "tf.IndexedSlices",
    "tensorflow.python.framework.ops.register_tensor_conversion_function": (
        "tf.register_tensor_conversion_function (the same arguments)"),
    "tensorflow.python.ops.variables.VariableV1": "tf.compat.v1.Variable",
    "tensorflow.python.layers": ("estimator_bridge.layers.<name> (tf.layers' layers with TF1's variable names; "
                                 "TF 2.21's tensorflow.python.layers needs tf_keras)"),
    "tensorflow.python.ops.resource_variable_ops._to_proto_fn": "nothing: TF 2 registers resource variables' "
                                                                "proto functions itself; delete the registration",
    "tensorflow.python.ops.resource_variable_ops._from_proto_fn": "nothing: TF 2 registers resource variables' "
                                                                  "proto functions itself; delete the registration",
    "tensorflow.estimator": "estimator_bridge (TPUEstimator, Estimator, EstimatorSpec, RunConfig, ModeKeys, "
                            "hooks, export outputs)",
}


# Arguments a rewrite target does not take (MIG201): what to write instead, keyed by the TF1 name
# and the argument.
ARGUMENT_HINTS = {
    # heldout4: mlperf/training_results_v0.5 mask_rcnn_main.py, TPUStrategy(resolver, steps_per_run=1).
    **{(name, "steps_per_run"): (
        "drop `steps_per_run=`: tf.distribute.TPUStrategy(resolver) runs what each call gives it; N steps per TPU "
        "execution are model.compile(steps_per_execution=N) in Keras, or N strategy.run(step_fn, ...) calls in a "
        "loop inside one tf.function in a custom loop (steps_per_run=1 needs nothing)")
        for name in ("tensorflow.contrib.distribute.TPUStrategy", "tensorflow.distribute.experimental.TPUStrategy")},
}


def argument_hint(name: str, arguments: list[str]) -> str:
    """What to write instead of the arguments `name`'s target lacks, or '' when none is recorded."""
    return "; ".join(hint for argument in arguments if (hint := ARGUMENT_HINTS.get((canonical(name), argument))))


def hint_for(name: str) -> str:
    """The exact replacement for `name` (any spelling), or '' when none is recorded."""
    match = longest_prefix(canonical(name), HINTS)
    return match.entry if match is not None else ""
