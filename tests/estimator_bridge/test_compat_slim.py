"""TF-Slim is the tf-slim package, made to run on TF 2.21 by `compat/slim_support.py`.

tensorflow/tpu's show_and_tell (models/experimental/show_and_tell, 2018: Inception v3 from
`tensorflow.contrib.slim.python.slim.nets.inception_v3` under `slim.arg_scope` with
`normalizer_fn=slim.batch_norm`) stopped at `inception_v3_base` on both sides. With tf-slim 1.1.0
and tf-keras 2.21 as they are, slim's batch_norm stops at "No module named
'tf_keras.legacy_tf_layers'" (TF 2.21's tensorflow.python.layers.normalization looks there; tf-keras
ships the module under `src`), and slim's gradient clipping at `ops.IndexedSlices` (moved out of
framework.ops in TF 2.14). Each test runs a fresh interpreter, since this one already imported
estimator_bridge.
"""

import subprocess
import sys

from tests.support.oracles import REPO_ROOT, oracle_env

NETWORK = """
import tensorflow.compat.v1 as tf
{setup}
import tf_slim as slim
from tf_slim.nets import inception_v3
tf.disable_eager_execution()
images = tf.placeholder(tf.float32, [2, 75, 75, 3])
with slim.arg_scope(inception_v3.inception_v3_arg_scope()):
    net, _ = inception_v3.inception_v3_base(images, final_endpoint="Mixed_5b")
grads = [(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([0])), tf.Variable(tf.ones([3, 2])))]
slim.training.clip_gradient_norms(grads, 1.0)
print(net.shape.as_list(), len(tf.global_variables()))
"""


def _run(program):
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env,
                          cwd=REPO_ROOT, timeout=600)


def test_slims_inception_v3_with_batch_norm_builds_once_estimator_bridge_is_imported():
    done = _run(NETWORK.format(setup="import estimator_bridge"))
    assert done.returncode == 0, done.stderr[-2000:]
    # Mixed_5b's 256 channels at 7x7; 12 convolutions with weights and 3 batch-norm variables each
    # (beta, moving mean and variance: slim's default has no gamma), plus the clipped gradient's
    # variable
    assert done.stdout.split("\n")[-2] == "[2, 7, 7, 256] 49"


def test_without_it_tf_slim_stops_where_show_and_tell_stopped():
    done = _run(NETWORK.format(setup=""))
    assert done.returncode != 0
    assert "No module named 'tf_keras.legacy_tf_layers'" in done.stderr


def test_the_runner_serves_slim_and_its_networks_under_tf_1_15s_module_paths(tmp_path):
    script = tmp_path / "uses_slim.py"
    script.write_text(
        "import tensorflow as tf\n"
        "from tensorflow.contrib import slim\n"
        "from tensorflow.contrib.slim.python.slim.nets.inception_v3 import inception_v3_base\n"
        "from tensorflow.contrib.slim.nets import resnet_v1\n"
        "from tensorflow.contrib import layers as contrib_layers\n"
        "import tf_slim\n"
        "print(inception_v3_base is tf_slim.nets.inception_v3.inception_v3_base,\n"
        "      resnet_v1 is tf_slim.nets.resnet_v1, slim.learning is tf_slim.learning,\n"
        "      tf.contrib.slim.nets.vgg is tf_slim.nets.vgg, slim.conv2d is contrib_layers.conv2d,\n"
        "      contrib_layers.summaries.summarize_activation is tf_slim.summarize_activation)\n")
    done = _run(f"import runpy, sys; sys.argv = ['-m', {str(script)!r}]; "
                "runpy.run_module('estimator_bridge.run', run_name='__main__')")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[-2] == "True True True True True True"


def test_the_runner_names_where_a_network_tf_slim_lacks_lives(tmp_path):
    """mobilenet_v1 is tensorflow/models' research/slim network, not tf_slim.nets': using it, or
    importing it by name, says where it lives instead of Python's bare "cannot import name"."""
    script = tmp_path / "uses_mobilenet.py"
    script.write_text(
        "import tensorflow as tf\n"
        "from tensorflow.contrib.slim.nets import vgg\n"
        "try:\n"
        "    tf.contrib.slim.nets.mobilenet_v1\n"
        "except AttributeError as error:\n"
        "    print(error)\n"
        "from tensorflow.contrib.slim.nets import mobilenet_v1\n")
    done = _run(f"import runpy, sys; sys.argv = ['-m', {str(script)!r}]; "
                "runpy.run_module('estimator_bridge.run', run_name='__main__')")
    assert done.returncode != 0
    printed = done.stdout.strip().split("\n")[-1]
    assert printed.startswith("tf.contrib.slim.nets.mobilenet_v1 is not available") and "research/slim" in printed
    # the import line says the same, not Python's bare "cannot import name"
    assert "ImportError: tf.contrib.slim.nets.mobilenet_v1 is not available" in done.stderr, done.stderr[-2000:]
