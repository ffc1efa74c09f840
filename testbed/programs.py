"""The test-bed programs: which public files, how to make them tiny, what to feed them. Pure data.

Each entry names the repository and commit it was taken from, the files it needs (their sha256
is in manifest.json, written by `python -m testbed.manifest`), the generator that writes its
inputs, and the flags that make it a few steps long on CPU. ``{data}`` in the arguments is the
generator's output folder; ``{model_dir}`` and ``{steps}`` are verify's placeholders.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TestbedProgram:
    name: str
    repo: str
    commit: str
    committed: str  # date of that commit (the code's era)
    kind: str  # TPUEstimator script, tf.compat.v1.estimator.tpu code, notebook...
    script: str  # path in the repository
    files: tuple[str, ...]  # every file of the repository the program reads (manifest.json hashes them)
    generator: str  # module under testbed.generators
    args: tuple[str, ...]
    steps: int | None = None
    python_path: tuple[str, ...] = ()  # repository folders on PYTHONPATH
    source_root: str | None = None  # repository folder migrated as a whole (default: the script's)
    verify_options: tuple[str, ...] = ()
    notes: str = ""
    extra: dict = field(default_factory=dict)


BERT = "google-research/bert"
BERT_COMMIT = "eedf5716ce1268e56f0a50264a88cafad334ac61"
BERT_FILES = ("modeling.py", "optimization.py", "tokenization.py")
TPU = "tensorflow/tpu"
TPU_2019 = "b8182073dc360e9ea26efa76aae105ac2b3b036f"  # 2019-10-01, written for TF 1.15

TPU_RESNET_2019 = "be7a60ef428d1786ae883650cd7c26890d164a46"  # 2019-05-17, tf.contrib
TPU_RESNET_FILES = tuple("models/" + path for path in (
    "official/__init__.py", "official/resnet/__init__.py", "official/resnet/resnet_main.py",
    "official/resnet/imagenet_input.py", "official/resnet/resnet_model.py", "official/resnet/resnet_preprocessing.py",
    "official/resnet/lars_util.py", "official/resnet/configs/default.yaml", "common/__init__.py",
    "common/inference_warmup.py", "common/tpu_profiler_hook.py", "hyperparameters/__init__.py",
    "hyperparameters/common_hparams_flags.py", "hyperparameters/common_tpu_flags.py",
    "hyperparameters/hyperparameters.py"))
RESNET_HPARAMS = tuple(f"--hparams={pair}" for pair in (
    "use_tpu=false", "precision=float32", "resnet_depth=18", "image_size=32", "train_batch_size=4",
    "eval_batch_size=4", "num_train_images=64", "num_eval_images=8", "train_steps={steps}", "iterations_per_loop=2",
    "num_cores=1", "use_cache=false", "num_parallel_calls=1"))
ALBERT_ZH = "brightmart/albert_zh"
ALBERT_ZH_COMMIT = "52149e82faf3eddd02f31dc2942a4d06bc78c247"

PROGRAMS: tuple[TestbedProgram, ...] = (
    TestbedProgram(
        name="bert_run_classifier", repo=BERT, commit=BERT_COMMIT, committed="2020-03-11",
        kind="TPUEstimator script (tf.contrib.tpu), BERT fine-tuning",
        script="run_classifier.py", files=("run_classifier.py", *BERT_FILES), generator="text_pairs",
        args=("--task_name=MRPC", "--do_train=true", "--do_eval=true", "--do_predict=true",
              "--data_dir={data}/mrpc", "--vocab_file={data}/vocab.txt", "--bert_config_file={data}/bert_config.json",
              "--max_seq_length=32", "--train_batch_size=8", "--eval_batch_size=8", "--predict_batch_size=8",
              "--learning_rate=1e-3", "--num_train_epochs=2", "--save_checkpoints_steps=8",
              "--iterations_per_loop=4", "--output_dir={model_dir}"),
        notes="64 generated sentence pairs, 2 epochs of 8 = 16 steps; dropout 0.1 as released (unseeded)"),
    TestbedProgram(
        name="tpu_mnist", repo=TPU, commit=TPU_2019, committed="2019-10-01",
        kind="TPUEstimator script on tf.compat.v1 (TF 1.15 era)",
        script="models/official/mnist/mnist_tpu.py", files=("models/official/mnist/mnist_tpu.py",),
        generator="mnist_records",
        args=("--data_dir={data}", "--model_dir={model_dir}", "--use_tpu=false", "--batch_size=32",
              "--train_steps={steps}", "--eval_steps=4", "--iterations=10"),
        steps=20, verify_options=("--oracle", "tf115"),
        notes="unseeded shuffle and dropout 0.4: the oracle varies from run to run. Written for TF 1.15 "
              "(--oracle tf115): its 2022 version, on TF 2.15, stops at TPUClusterResolver('') without a TPU"),
)

PROGRAMS += (
    TestbedProgram(
        name="bert_run_pretraining", repo=BERT, commit=BERT_COMMIT, committed="2020-03-11",
        kind="TPUEstimator script (tf.contrib.tpu), BERT pre-training (masked LM + next sentence)",
        script="run_pretraining.py", files=("run_pretraining.py", "modeling.py", "optimization.py"),
        generator="pretraining_records",
        args=("--input_file={data}/pretrain.tfrecord", "--bert_config_file={data}/bert_config.json",
              "--output_dir={model_dir}", "--do_train=true", "--do_eval=true", "--train_batch_size=8",
              "--eval_batch_size=8", "--max_seq_length=32", "--max_predictions_per_seq=5",
              "--num_train_steps={steps}", "--num_warmup_steps=4", "--learning_rate=1e-3",
              "--save_checkpoints_steps=10", "--iterations_per_loop=5", "--max_eval_steps=4"),
        steps=20,
        notes="128 generated pre-training examples; dropout 0.1 as released (unseeded)"),
    TestbedProgram(
        name="bert_run_squad", repo=BERT, commit=BERT_COMMIT, committed="2020-03-11",
        kind="TPUEstimator script (tf.contrib.tpu), BERT SQuAD fine-tuning",
        script="run_squad.py", files=("run_squad.py", *BERT_FILES), generator="squad",
        args=("--vocab_file={data}/vocab.txt", "--bert_config_file={data}/bert_config.json",
              "--do_train=true", "--train_file={data}/train.json", "--do_predict=true",
              "--predict_file={data}/dev.json", "--train_batch_size=8", "--predict_batch_size=8",
              "--learning_rate=1e-3", "--num_train_epochs=2", "--max_seq_length=48", "--doc_stride=32",
              "--max_query_length=8", "--save_checkpoints_steps=6", "--iterations_per_loop=3",
              "--output_dir={model_dir}"),
        notes="48 generated questions, 2 epochs of 8 = 12 steps; predictions and n-best probabilities compared"),
    TestbedProgram(
        name="tpu_resnet_2019", repo=TPU, commit=TPU_RESNET_2019, committed="2019-05-17",
        kind="TPUEstimator script (tf.contrib.tpu): host_call summaries, transpose_input, YAML hparams",
        script="models/official/resnet/resnet_main.py", files=TPU_RESNET_FILES, generator="none",
        python_path=("models",), source_root="models",
        args=("--data_dir=", "--model_dir={model_dir}", "--mode=train_and_eval", *RESNET_HPARAMS),
        steps=6,
        verify_options=("--with", "pyyaml==5.4.1", "--current-with", "pyyaml==5.3.1",
                        "--exact-args=--data_dir= --model_dir={model_dir} --mode=eval --eval_timeout=5 "
                        + " ".join(RESNET_HPARAMS)),
        notes="null input (black images, label 0: data_dir empty, as the script allows); the exact phase "
              "evaluates with --mode=eval (train_and_eval only evaluates while training); PyYAML < 6 on both "
              "sides (the 2019 code calls yaml.load without a Loader)"),
    TestbedProgram(
        name="albert_zh_run_classifier", repo=ALBERT_ZH, commit=ALBERT_ZH_COMMIT, committed="2022-11-21 (code of 2019)",
        kind="TPUEstimator script (tf.contrib.tpu), ALBERT (Chinese) fine-tuning",
        script="run_classifier.py", files=("run_classifier.py", "modeling.py", "optimization_finetuning.py",
                                           "tokenization.py", "bert_utils.py"),
        generator="text_pairs",
        args=("--task_name=lcqmc_pair", "--do_train=true", "--do_eval=true", "--do_predict=true",
              "--data_dir={data}/lcqmc", "--vocab_file={data}/vocab.txt", "--bert_config_file={data}/bert_config.json",
              "--max_seq_length=32", "--train_batch_size=8", "--eval_batch_size=8", "--predict_batch_size=8",
              "--learning_rate=1e-3", "--num_train_epochs=2", "--save_checkpoints_steps=8",
              "--iterations_per_loop=4", "--output_dir={model_dir}"),
        notes="LCQMC layout (the first line is skipped as a header: 63 examples, 14 steps)"),
    TestbedProgram(
        name="albert_zh_run_pretraining", repo=ALBERT_ZH, commit=ALBERT_ZH_COMMIT,
        committed="2022-11-21 (code of 2019)",
        kind="TPUEstimator script (tf.contrib.tpu), ALBERT (Chinese) pre-training",
        script="run_pretraining.py", files=("run_pretraining.py", "modeling.py", "optimization.py", "bert_utils.py"),
        generator="pretraining_records",
        args=("--input_file={data}/pretrain.tfrecord", "--bert_config_file={data}/bert_config.json",
              "--output_dir={model_dir}", "--do_train=true", "--do_eval=true", "--train_batch_size=8",
              "--eval_batch_size=8", "--max_seq_length=32", "--max_predictions_per_seq=5",
              "--num_train_steps={steps}", "--num_warmup_steps=4", "--learning_rate=1e-3",
              "--save_checkpoints_steps=10", "--iterations_per_loop=5", "--max_eval_steps=4"),
        steps=20),
)

ELECTRA = "google-research/electra"
ELECTRA_COMMIT = "8a46635f32083ada044d7e9ad09604742600ee7b"
ELECTRA_FILES = ("run_pretraining.py", "configure_pretraining.py", "model/__init__.py", "model/modeling.py",
                 "model/optimization.py", "model/tokenization.py", "pretrain/__init__.py", "pretrain/pretrain_data.py",
                 "pretrain/pretrain_helpers.py", "util/__init__.py", "util/training_utils.py", "util/utils.py")
ELECTRA_HPARAMS = ('{"model_dir": "{model_dir}", "vocab_size": 65, "max_seq_length": 32, "train_batch_size": 8, '
                   '"eval_batch_size": 8, "num_train_steps": {steps}, "num_warmup_steps": 4, "learning_rate": 1e-3, '
                   '"iterations_per_loop": 5, "save_checkpoints_steps": 10, "num_eval_steps": 4, '
                   '"embedding_size": 16, "model_hparam_overrides": {"hidden_size": 32, "num_hidden_layers": 2, '
                   '"num_attention_heads": 2, "intermediate_size": 64}')

PROGRAMS += (
    TestbedProgram(
        name="electra_run_pretraining", repo=ELECTRA, commit=ELECTRA_COMMIT, committed="2021-03-31",
        kind="tf.compat.v1 TPUEstimator (tf.estimator.tpu) script with tf.contrib layers, ELECTRA pre-training",
        script="run_pretraining.py", files=ELECTRA_FILES, generator="electra_pretraining",
        args=("--data-dir={data}", "--model-name=tiny", "--hparams=" + ELECTRA_HPARAMS + ', "do_train": true}'),
        steps=20,
        verify_options=("--exact-args=--data-dir={data} --model-name=tiny '--hparams=" + ELECTRA_HPARAMS
                        + ', "do_train": false, "do_eval": true}\'',),
        notes="generator and discriminator trained jointly; unseeded shuffles and sloppy interleave (the "
              "oracle varies); the exact phase evaluates (do_eval) the oracle's final checkpoint"),
)

LANGUAGE = "google-research/language"
LANGUAGE_COMMIT = "865fae65f63ef7e6b2989d4ff8b47f61750415a8"
TXL = "kimiyoung/transformer-xl"
TXL_COMMIT = "44781ed21dbaec88b280f74d9ae2877f52b492a5"

PROGRAMS += (
    TestbedProgram(
        name="language_boolq_bert", repo=LANGUAGE, commit=LANGUAGE_COMMIT, committed="2024-10-17 (file of 2022-03-29)",
        kind="tf.compat.v1 + tf.contrib.tpu TPUEstimator script on the pip `bert` package (BoolQ)",
        script="language/boolq/run_bert_boolq.py", files=("language/boolq/run_bert_boolq.py",),
        generator="boolq_pairs",
        args=("--vocab_file={data}/vocab.txt", "--bert_config_file={data}/bert_config.json",
              "--output_dir={model_dir}", "--do_train=true", "--do_eval_dev=true",
              "--boolq_train_data_path={data}/boolq/train.jsonl", "--boolq_dev_data_path={data}/boolq/dev.jsonl",
              "--max_seq_length=32", "--train_batch_size=8", "--eval_batch_size=8", "--learning_rate=1e-3",
              "--num_train_epochs=2", "--save_checkpoints_steps=8", "--iterations_per_loop=4"),
        verify_options=("--with", "bert-tensorflow==1.0.1", "--current-with", "bert-tensorflow==1.0.1"),
        notes="its BERT comes from the pip package bert-tensorflow (TF1 code outside the program's folder)"),
    TestbedProgram(
        name="transformer_xl_tpu", repo=TXL, commit=TXL_COMMIT, committed="2019-04-10",
        kind="TPUEstimator script with its own copy of TF 1.12's tpu_estimator.py",
        script="tf/train.py", files=("tf/train.py", "tf/model.py", "tf/data_utils.py", "tf/vocabulary.py",
                                     "tf/tpu_estimator.py"),
        generator="transformer_xl_corpus",
        args=("--tpu=", "--data_dir={data}/tfrecords", "--record_info_dir={data}/tfrecords",
              "--corpus_info_path={data}/corpus-info.json", "--model_dir={model_dir}", "--use_tpu=false",
              "--num_core_per_host=1", "--train_batch_size=4", "--eval_batch_size=4", "--tgt_len=8", "--mem_len=8",
              "--n_layer=2", "--d_model=16", "--d_embed=16", "--n_head=2", "--d_head=8", "--d_inner=32",
              "--train_steps={steps}", "--iterations=5", "--save_steps=10", "--div_val=1"),
        steps=10,
        notes="records written by the repository's own data_utils.py (run in the TF 1.15 oracle) from a "
              "generated PTB-style corpus"),
)

TPU_EFFICIENTNET = "8f817a89d3645e12c772555a4e7c40474c8984c4"  # 2020-03-03, tf.compat.v1 + tf.contrib
EFFICIENTNET_FILES = tuple("models/official/efficientnet/" + path for path in (
    "__init__.py", "main.py", "imagenet_input.py", "preprocessing.py", "autoaugment.py", "utils.py",
    "model_builder_factory.py", "efficientnet_builder.py", "efficientnet_model.py",
    "condconv/__init__.py", "condconv/condconv_layers.py", "condconv/efficientnet_condconv_builder.py",
    "edgetpu/__init__.py", "edgetpu/efficientnet_edgetpu_builder.py", "lite/__init__.py",
    "lite/efficientnet_lite_builder.py", "tpu/__init__.py", "tpu/efficientnet_tpu_builder.py"))
EFFICIENTNET_FLAGS = ("--use_tpu=False", "--data_dir={data}", "--model_name=efficientnet-b0",
                      "--input_image_size=32", "--train_batch_size=4", "--eval_batch_size=4",
                      "--iterations_per_loop=2", "--skip_host_call=True", "--use_cache=False",
                      "--num_parallel_calls=1", "--num_train_images=64", "--num_eval_images=16",
                      "--model_dir={model_dir}")

PROGRAMS += (
    TestbedProgram(
        name="tpu_efficientnet", repo=TPU, commit=TPU_EFFICIENTNET, committed="2020-03-03",
        kind="TPUEstimator script (tf.compat.v1, tf.contrib): tf.keras.Model subclass with Keras and "
             "tf.layers layers, EMA weights evaluated through scaffold_fn's Saver, Grappler switched off",
        script="models/official/efficientnet/main.py", files=EFFICIENTNET_FILES, generator="imagenet_records",
        python_path=("models/official/efficientnet",), source_root="models/official/efficientnet",
        args=("--mode=train_and_eval", "--train_steps={steps}", "--steps_per_eval={steps}", *EFFICIENTNET_FLAGS),
        steps=4,
        verify_options=("--exact-args=--mode=eval --eval_timeout=5 " + " ".join(EFFICIENTNET_FLAGS),),
        notes="efficientnet-b0 on 32x32 crops of 64 generated 40x40 JPEG records; random crops and flips "
              "(unseeded) make the oracle vary; the exact phase evaluates the oracle's final checkpoint "
              "with --mode=eval (its EMA weights); evaluation reads all 16 validation records (4 batches), "
              "so its unseeded shuffle only reorders them"),
)

TPU_DCGAN_2019 = "d2694eacb1fdd698a7629271d43f99acf5e75b34"  # 2019-01-15, tf.contrib
DCGAN = "models/experimental/dcgan/"
PROGRAMS += (
    TestbedProgram(
        name="tpu_dcgan", repo=TPU, commit=TPU_DCGAN_2019, committed="2019-01-15",
        kind="TPUEstimator script (tf.contrib.tpu): GAN with two Adam optimizers and a manual step "
             "increment, input_fns returning one-shot-iterator tensors, predict on a second "
             "TPUEstimator, private _load_global_step_from_checkpoint_dir",
        script=DCGAN + "dcgan_main.py",
        files=tuple(DCGAN + name for name in ("dcgan_main.py", "mnist_input.py", "mnist_model.py",
                                              "cifar_input.py", "cifar_model.py")),
        generator="mnist_records",
        args=("--tpu=", "--use_tpu=false", "--batch_size=8", "--train_steps={steps}",
              "--train_steps_per_eval=3", "--iterations_per_loop=3", "--eval_loss=true",
              "--mnist_train_data_file={data}/train.tfrecords",
              "--mnist_test_data_file={data}/test.tfrecords", "--model_dir={model_dir}"),
        steps=6, verify_options=("--with", "pillow<10", "--no-exact"),
        notes="512 generated MNIST records; unseeded noise (tf.random_normal in input_fn) and shuffle make "
              "the oracle vary; evaluation (4 batches of the 32 test records) and predict run inside the "
              "training loop, so the exact phase has nothing of its own (--no-exact)"),
)

UDA = "google-research/uda"
UDA_COMMIT = "960684e363251772a5938451d4d2bc0f1da9e24b"  # 2020-02-08 (image/main.py of 2020-02-03)
UDA_FILES = tuple("image/" + name for name in (
    "main.py", "data.py", "utils.py", "randaugment/__init__.py", "randaugment/custom_ops.py",
    "randaugment/wrn.py", "randaugment/shake_drop.py", "randaugment/shake_shake.py"))
UDA_FLAGS = ("--data_dir={data}", "--task_name=cifar10", "--sup_size=64", "--unsup_ratio=1", "--aug_copy=1",
             "--tsa=linear_schedule", "--train_batch_size=8", "--eval_batch_size=8", "--iterations=2",
             "--save_steps=2", "--wrn_size=4", "--use_tpu=false", "--model_dir={model_dir}")
PROGRAMS += (
    TestbedProgram(
        name="uda_image", repo=UDA, commit=UDA_COMMIT, committed="2020-02-08",
        kind="TPUEstimator script (tf.contrib.tpu): UDA semi-supervised WideResNet (supervised + "
             "unsupervised consistency loss, TSA), arg_scope'd custom ops, EMA weights evaluated through "
             "scaffold_fn's Saver, slim's get_data_files",
        script="image/main.py", files=UDA_FILES, generator="uda_cifar_records",
        args=("--do_train=true", "--do_eval=true", "--train_steps={steps}", *UDA_FLAGS),
        steps=4,
        verify_options=("--exact-args=--do_train=false --do_eval=true " + " ".join(UDA_FLAGS),),
        notes="WRN-28 with wrn_size 4 on 64 labelled + 64 unlabelled generated 32x32 records; random flips "
              "and crops and shuffles (unseeded) make the oracle vary; the exact phase evaluates the oracle's "
              "final checkpoint (its EMA weights) on the 32 test records (the eval input ends after 4 steps)"),
)

SIMCLR = "google-research/simclr"
SIMCLR_COMMIT = "6bf69ce127ae33e181e1a6c5777c84570cb5d147"  # 2021-01-21 (TF1 code of 2020)
SIMCLR_FILES = ("run.py", "data.py", "data_util.py", "lars_optimizer.py", "model.py", "model_util.py",
                "objective.py", "resnet.py")
# SimCLR's requirements.txt (tensorflow 1.15, tensorflow-datasets 3.1.0, tensorflow-hub 0.8.0), with the
# oracle's own versions of what they share pinned so the extras folder shadows nothing of TF 1.15's
SIMCLR_ORACLE_WITH = ("tensorflow-datasets==3.1.0", "tensorflow-hub==0.8.0", "tensorflow-metadata==0.21.2",
                      "numpy==1.18.5", "protobuf==3.20.3", "wrapt==1.16.0", "absl-py==2.1.0", "six==1.17.0",
                      "termcolor==2.3.0")
# what a user of current TensorFlow installs for it: tfds 4.9 and tensorflow-hub 0.16 (with tf-keras,
# which hub 0.16 imports); --no-deps and tfds's own dependencies listed, so that pip does not install a
# second TensorFlow into the extras folder (tf-keras depends on it)
SIMCLR_CURRENT_WITH = ("--no-deps", "tensorflow-datasets==4.9.10", "tensorflow-hub==0.16.1", "tf-keras==2.21.0",
                       "array-record==0.8.6", "attrs==26.1.0", "dm-tree==0.1.10", "docstring-parser==0.18.0",
                       "einops==0.8.2", "etils==1.15.0", "fsspec==2026.9.0", "immutabledict==4.3.1", "promise==2.3",
                       "psutil==7.2.2", "simple-parsing==0.1.9", "tensorflow-metadata==1.21.0", "termcolor==3.3.0",
                       "toml==0.10.2", "tqdm==4.70.1", "zipp==4.1.2", "importlib-resources",
                       "googleapis-common-protos==1.76.0", "click")
PROGRAMS += (
    TestbedProgram(
        name="simclr_pretrain", repo=SIMCLR, commit=SIMCLR_COMMIT, committed="2021-01-21 (TF1 code of 2020)",
        kind="tf.compat.v1 TPUEstimator (tf.estimator.tpu) script for TF 1.15: SimCLR contrastive pre-training "
             "(ResNet with a BatchNormalization subclass, LARS, TF 2 summary writer inside model_fn, tfds input)",
        script="run.py", files=SIMCLR_FILES, generator="cifar10_tfds",
        args=("--use_tpu=False", "--dataset=cifar10", "--train_split=train", "--eval_split=test",
              "--data_dir={data}/tfds", "--image_size=32", "--resnet_depth=18", "--train_batch_size=8",
              "--eval_batch_size=8", "--train_steps={steps}", "--checkpoint_steps=2", "--train_summary_steps=1",
              "--mode=train", "--model_dir={model_dir}"),
        steps=4,
        verify_options=("--oracle", "tf115", *(f"--with={r}" for r in SIMCLR_ORACLE_WITH),
                        *(f"--current-with={r}" for r in SIMCLR_CURRENT_WITH), "--no-exact"),
        notes="ResNet-18 on 80 generated 32x32 CIFAR images prepared by tfds 3.1.0; random crops, colour "
              "distortion and blur (unseeded) make the oracle vary. --oracle tf115: TF 2.15 cannot run it "
              "(its BatchNormalization subclass's _moments lacks Keras 2.15's mask argument). --mode=train: "
              "evaluation ends in a TF1 hub module export (hub.create_module_spec), which tensorflow-hub 0.16 "
              "no longer has and 0.15 cannot import on TF 2.16+ (tf.compat.v1.estimator), so no exact phase"),
)

UNET3D = "models/official/unet3d/"
UNET3D_PARAMS = ("{input_image_size: [16, 16, 16], num_base_filters: 4, depth: 2, train_batch_size: 2, "
                 "eval_batch_size: 2, predict_batch_size: 2, use_bfloat16: false, init_learning_rate: 0.0001, "
                 "train_steps: {steps}, num_steps_per_eval: 2, eval_steps: 2}")
PROGRAMS += (
    TestbedProgram(
        name="tpu_unet3d", repo=TPU, commit=TPU_2019, committed="2019-10-01",
        kind="TPUEstimator script (tf.contrib): 3D UNet with tf.contrib.layers conv3d/instance_norm/"
             "conv3d_transpose, tf.layers.batch_normalization(axis=1), contrib NadamOptimizer, YAML "
             "--params_override, a plain EstimatorSpec with a LoggingTensorHook on CPU",
        script=UNET3D + "unet_main.py",
        files=tuple(UNET3D + name for name in ("unet_main.py", "input_reader.py", "params_dict.py",
                                               "tpu_executor.py", "unet_config.py", "unet_model.py",
                                               "metrics.py")),
        generator="liver_records", python_path=(UNET3D.rstrip("/"),), source_root=UNET3D.rstrip("/"),
        args=("--use_tpu=false", "--tpu=", "--num_cores=1", "--iterations_per_loop=2", "--mode=train",
              "--training_file_pattern={data}/train-*.tfrecord", "--eval_file_pattern={data}/eval-*.tfrecord",
              "--params_override=" + UNET3D_PARAMS, "--model_dir={model_dir}"),
        steps=4, verify_options=("--with", "pyyaml==5.4.1", "--current-with", "pyyaml==5.3.1", "--no-exact"),
        notes="16 generated 16^3 liver volumes; learning rate 1e-4 instead of the released 0.1: at 0.1 one Nadam "
              "step saturates the softmax on this data, TF 1.15's softmax then gives exactly 1.0 and vanishing "
              "gradients where TF 2.21's Eigen kernel gives 1 - 2^-24 and gradients near 1e-8, which Adam's "
              "normalisation turns into steps of the learning rate's size (docs/verify.md, unet3d); its own "
              "evaluation fails in TF 1.15 with use_tpu=False (EstimatorSpec(eval_metrics=...)), so --no-exact"),
)

TPU_RESNET_2020 = "95647b535084fe369bdc9c12bace726cb91970b4"  # 2020-05-06, tf.compat.v1, EvoNorms added
TPU_RESNET_2020_FILES = tuple("models/" + path for path in (
    "official/__init__.py", "official/resnet/__init__.py", "official/resnet/resnet_main.py",
    "official/resnet/imagenet_input.py", "official/resnet/resnet_model.py", "official/resnet/resnet_preprocessing.py",
    "official/resnet/lars_util.py", "official/resnet/configs/__init__.py", "official/resnet/configs/resnet_config.py",
    "common/__init__.py", "common/inference_warmup.py", "common/tpu_profiler_hook.py", "hyperparameters/__init__.py",
    "hyperparameters/common_hparams_flags.py", "hyperparameters/common_tpu_flags.py",
    "hyperparameters/flags_to_params.py", "hyperparameters/params_dict.py"))
RESNET_2020_PARAMS = ("{precision: float32, resnet_depth: 18, image_size: 32, train_batch_size: 4, eval_batch_size: 4, "
                      "num_train_images: 64, num_eval_images: 8, iterations_per_loop: 2, num_cores: 1, use_cache: false, "
                      "num_parallel_calls: 1")
PROGRAMS += (
    TestbedProgram(
        name="tpu_resnet_2020", repo=TPU, commit=TPU_RESNET_2020, committed="2020-05-06",
        kind="TPUEstimator script (tf.compat.v1, TF 1.15 era): TPUClusterResolver(''), TF 2 summaries in host_call "
             "(its own `loss`, so TF 1.15's Estimator loss summary is `loss_1`), Grappler off, YAML --params_override",
        script="models/official/resnet/resnet_main.py", files=TPU_RESNET_2020_FILES, generator="imagenet_records",
        python_path=("models",), source_root="models",
        args=("--use_tpu=false", "--data_dir={data}", "--mode=train_and_eval", "--train_steps={steps}",
              "--steps_per_eval=2", f"--params_override={RESNET_2020_PARAMS}}}", "--model_dir={model_dir}"),
        steps=4,
        verify_options=("--oracle", "tf115", "--with", "pyyaml==5.4.1", "--current-with", "pyyaml==5.3.1",
                        "--exact-args=--use_tpu=false --data_dir={data} --mode=eval --eval_timeout=5 "
                        f"'--params_override={RESNET_2020_PARAMS}, train_steps: 4}}' --model_dir={{model_dir}}"),
        notes="ResNet-18 on 32x32 crops of 64 generated 40x40 JPEG records; random crops and flips and an unseeded "
              "evaluation shuffle make the oracle vary (the exact phase is held to its own spread). --oracle tf115: "
              "TF 2.15's TPUClusterResolver('') refuses an empty name; PyYAML < 6 (yaml.load without a Loader)"),
)

# Keras notebooks (Colab, 2018-2020): no command line, so verify's notebook options make them tiny
# (--set after the notebook's own assignment, --skip-cell, --replace, --stub-module for display-only
# modules); verify records fit/evaluate/predict and starts every run from the oracle's initial
# weights (verify/keras_record.py). Dropout and the unseeded shuffles are switched off with
# --replace: the oracle then repeats itself and every number is held to the training rtol.
TDA = "GoogleCloudPlatform/training-data-analyst"
TDA_FLDS = "courses/fast-and-lean-data-science/"
TDA_MNIST_DATA = tuple(
    f"--set={name}='{{data}}/{file}'" for name, file in (
        ("training_images_file", "train-images-idx3-ubyte"), ("training_labels_file", "train-labels-idx1-ubyte"),
        ("validation_images_file", "t10k-images-idx3-ubyte"), ("validation_labels_file", "t10k-labels-idx1-ubyte")))
TDA_MNIST_SKIPS = tuple(f"--skip-cell={text}" for text in (
    "N = 24", "recognize digits from local fonts"))  # display cells (fonts, Session-based numpy dumps)
TDA_DETERMINISTIC = ("--replace", ".shuffle(5000, reshuffle_each_iteration=True)", "")
PROGRAMS += (
    TestbedProgram(
        name="tda_mnist_keras_to_tpu_2018", repo=TDA, commit="01b1de377856f2b1377e457109b0d43cdc33d898",
        committed="2018-12-17",
        kind="Colab Keras notebook (TF 1.x): tf.contrib.tpu.keras_to_tpu_model on a TPU, plain fit otherwise; "
             "batch norm through a module alias (l = tf.keras.layers), LearningRateScheduler, history['acc']",
        script=TDA_FLDS + "01_MNIST_TPU_Keras.ipynb", files=(TDA_FLDS + "01_MNIST_TPU_Keras.ipynb",),
        generator="mnist_idx", args=(),
        verify_options=(*TDA_MNIST_DATA, "--set=BATCH_SIZE=16", "--set=EPOCHS=3", "--set=steps_per_epoch=4",
                        *TDA_MNIST_SKIPS,
                        *(f"--skip-cell={text}" for text in (
                            "PROJECT = ", "class ServingInput", "if NEW_MODEL", "Deployment takes",
                            "prepare digits to send", "Request online predictions")),  # GCP deployment cells
                        *TDA_DETERMINISTIC, "--replace", "l.Dropout(0.5)", "l.Dropout(0.0)",
                        "--stub-module=matplotlib", "--stub-module=PIL"),
        notes="3 epochs of 4 steps at batch 16 on 512 generated digits, validation on one batch of 10000 (the "
              "notebook's own size); the oracle (TF 1.15, chosen from keras_to_tpu_model) runs the CPU branch"),
    TestbedProgram(
        name="tda_mnist_tpustrategy_tf20", repo=TDA, commit="909c685fd6fe60ca817144ea5df8abb4413c37c7",
        committed="2020-06-24",
        kind="Colab Keras notebook (TF 2.x): tf.distribute.experimental.TPUStrategy with a MirroredStrategy "
             "fallback, TensorBoard callback, LearningRateScheduler, model built in strategy.scope()",
        script=TDA_FLDS + "05K_MNIST_TF20Keras_Tensorboard_solution.ipynb",
        files=(TDA_FLDS + "05K_MNIST_TF20Keras_Tensorboard_solution.ipynb",),
        generator="mnist_idx", args=(),
        verify_options=(*TDA_MNIST_DATA, "--set=BATCH_SIZE=16", "--set=EPOCHS=3",
                        "--set=steps_per_epoch=4", "--set=BUCKET='{model_dir}/bucket'", *TDA_MNIST_SKIPS,
                        *TDA_DETERMINISTIC, "--replace", "tf.keras.layers.Dropout(0.5)", "tf.keras.layers.Dropout(0.0)",
                        "--stub-module=matplotlib", "--stub-module=PIL"),
        notes="oracle chosen from its code (plain `import tensorflow`, then `.numpy()` without eager execution "
              "turned on: TF 2.15); TensorBoard logs go to the run's own folder"),
    TestbedProgram(
        name="tda_flowers_tpustrategy_tf21", repo=TDA, commit="68ccb3f7a159876fe1d991c22f8dae55d18ece0f",
        committed="2020-01-16",
        kind="Colab Keras notebook (TF 2.1): TPUStrategy with a default-strategy fallback, squeezenet-style fire "
             "modules with batch norm, SGD nesterov, LearningRateScheduler, TFRecords of JPEGs, evaluate/predict",
        script=TDA_FLDS + "keras_flowers_gputputpupod_tf2.1.ipynb",
        files=(TDA_FLDS + "keras_flowers_gputputpupod_tf2.1.ipynb",),
        generator="flowers_tfrec", args=(),
        verify_options=("--set=EPOCHS=2", "--set=steps_per_epoch=2",  # oracle TF 2.15: its %tensorflow_version 2.x
                        "--set=GCS_PATTERN='{data}/*.tfrec'", "--set=IMAGE_SIZE=[32, 32]",
                        "--set=permutation=np.arange(len(some_flowers))",
                        "--replace", "dataset = dataset.shuffle(2048)", "pass",
                        "--replace", "opt.experimental_deterministic = False", "opt.experimental_deterministic = True",
                        "--replace", "image = tf.image.random_flip_left_right(image)", "pass",
                        "--replace", "image = tf.image.random_saturation(image, 0, 2)", "pass",
                        "--replace", "tf.keras.layers.Dropout(0.4)", "tf.keras.layers.Dropout(0.0)",
                        "--skip-cell=display_9_images_from_dataset(load_dataset",
                        "--skip-cell=display_9_images_with_predictions(some_flowers",
                        "--stub-module=matplotlib"),
        notes="2 epochs of 2 steps at batch 16 on 32x32 generated JPEGs (5 training files, 1 validation file of 16). "
              "The run amplifies kernel rounding (first-step losses 1.7e-6 apart with oneDNN on and off, 1.6e-3 one "
              "step later): the TF 2.15 oracle's spread runs alternate oneDNN, and most numbers are outside the "
              "oracle's own spread against itself, so the verdict says little beyond the series and structure"),
)

PROGRAMS += (
    TestbedProgram(
        name="tpu_colab_keras_mnist_2019", repo=TPU, commit="e2caf0a3d8b70a844f7a56e75895aa4ad9e75c8c",
        committed="2019-10-28",
        kind="Colab Keras notebook (TF 1.14/2.0): tf.distribute.experimental.TPUStrategy(tpu, steps_per_run=128) "
             "with MirroredStrategy/default-strategy fallbacks, model built and compiled in strategy.scope(), "
             "evaluate after fit, SavedModel export through a tf.keras.Model subclass (skipped: GCS)",
        script="tools/colab/keras_mnist_tpu.ipynb", files=("tools/colab/keras_mnist_tpu.ipynb",),
        generator="mnist_idx", args=(),
        verify_options=(*TDA_MNIST_DATA, "--set=BATCH_SIZE=16", "--set=EPOCHS=3", "--set=steps_per_epoch=4",
                        *TDA_MNIST_SKIPS,
                        *(f"--skip-cell={text}" for text in (
                            "PROJECT = ", "class ExportModel", "saved_model_cli show", "if NEW_MODEL",
                            "Deployment takes", "prepare digits to send", "Request online predictions")),
                        *TDA_DETERMINISTIC, "--replace", "tf.keras.layers.Dropout(0.4)",
                        "tf.keras.layers.Dropout(0.0)", "--stub-module=matplotlib", "--stub-module=PIL"),
        notes="tensorflow/tpu's copy of the fast-and-lean MNIST notebook (another repository, the TF 1.14/2.0 API); "
              "oracle chosen from its code (tf.compat.v1 use: TF 2.15)"),
)

PROGRAMS += (
    TestbedProgram(
        name="tpu_keras_shakespeare_lstm", repo=TPU, commit="45cf8b3bd59271716f88dcfc3a6030fb676cac60",
        committed="2020-01-16",
        kind="Keras script (tf.compat.v1 + contrib): keras_to_tpu_model behind --use_tpu, no model_dir flag, "
             "fit_generator with a TF1 RMSProp, save_weights to a .h5 path, a stateful prediction model that "
             "loads them and samples characters",
        script="models/experimental/keras_colab/shakespeare_lstm.py",
        files=("models/experimental/keras_colab/shakespeare_lstm.py",), generator="shakespeare_text",
        args=("--use_tpu=false",),
        verify_options=("--set=SHAKESPEARE_TXT='{data}/shakespeare.txt'", "--set=WEIGHTS_TXT='bard.h5'",
                        "--set=EMBEDDING_DIM=16", "--replace", "seq_len = 100", "seq_len = 12",
                        "--replace", "batch_size=1024", "batch_size=8",
                        "--replace", "steps_per_epoch=100", "steps_per_epoch=3", "--replace", "epochs=10", "epochs=2",
                        "--replace", "predict_len = 500", "predict_len = 4", "--after=np=np.random.seed(0)",
                        "--replace", "prediction_model.reset_states()",
                        "prediction_model.reset_states(); np.random.seed(1)",
                        "--replace", "chr(c) for c in p", "chr(np.asarray(c).item()) for c in p"),
        notes="run like a notebook in its own folder (no model_dir): fit/predict numbers and final weights "
              "recorded; the global numpy RNG seeded (its batches) and reseeded before sampling (fit prefetches "
              "a Keras-dependent count of batches); the weights file keeps the program's own `.h5` name, in the run's folder; the "
              "last print's `chr()` of a 1-element array (numpy 1.18 took it, numpy 2 refuses it) reads the element"),
)

# After every PROGRAMS += (...): `make testbed NAMES` selects by these names (tpu_unet3d was left out).

BY_NAME = {program.name: program for program in PROGRAMS}
