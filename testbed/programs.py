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

BY_NAME = {program.name: program for program in PROGRAMS}
