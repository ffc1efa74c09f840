"""Record what TF1 layers compute, on TF 1.15 (`tf.layers`) or current TF (`estimator_bridge.layers`).

One program, three flavours, so that the numbers can only differ by the TensorFlow and the layer
implementation underneath (the program itself runs on CPython 3.7 and 3.11):
  * ``tf115``           oracle A: TF 1.15 ``tf.layers`` in a Graph + Session;
  * ``bridge-graph``    current TF: ``estimator_bridge.layers`` in a ``tf.compat.v1`` Graph + Session;
  * ``bridge-function`` current TF: the same cases traced by ``tf.function(autograph=False)``.

Each case builds layers on fixed numpy inputs with numpy-seeded constant initializers, then
records: variable names and shapes, the forward outputs, the regularization losses, the number of
UPDATE_OPS, every variable after one gradient-descent step run under
``control_dependencies(UPDATE_OPS)``, and tensors built after that step (e.g. batch norm in
inference mode). Usage: ``python layers_recorder.py FLAVOUR [--tf1-behavior] [CASE ...]`` -> one JSON line on
stdout (``--tf1-behavior``: bridge flavours under the compat runner's TF 1.15 switches).
The golden ``layers_tf115.json`` beside this file is recorded from two identical oracle A runs
by ``python -m tests.estimator_bridge.goldens.record layers``.
"""

import json
import sys

import numpy as np

LEARNING_RATE = 0.1

import tensorflow as tf  # noqa: E402

# The TF1 namespace and the layers under test; chosen by `select_flavour` (main) or by a test.
tf1 = tf.compat.v1 if hasattr(tf, "compat") and hasattr(tf.compat, "v1") else tf
layers = None


def select_flavour(flavour):
    """Point `tf1`/`layers` at TF 1.15's tf.layers or at estimator_bridge.layers."""
    global tf1, layers
    if flavour == "tf115":
        tf1 = tf
        layers = tf.layers
    elif flavour in ("bridge-graph", "bridge-function"):
        from estimator_bridge import layers as bridge_layers

        tf1 = tf.compat.v1
        layers = bridge_layers
    else:
        raise SystemExit(
            "unknown flavour %r: expected tf115, bridge-graph or bridge-function" % flavour)


def array(seed, *shape):
    """Deterministic float32 values in [-1, 1) (numpy only, identical on every TensorFlow)."""
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape).astype(np.float32)


def init(seed, *shape):
    return tf1.constant_initializer(array(seed, *shape))


def l2(scale):
    def regularizer(weights):
        return scale * tf1.reduce_sum(tf1.square(weights))
    return regularizer


# Each case: build(tf1, layers) -> (outputs: dict name -> tensor, after: callable -> dict).
# Cases must create variables only through `layers` so that names are the layers' own.

def case_dense(tf1, layers):
    x = tf1.constant(array(1, 4, 5))
    hidden = layers.dense(x, 3, activation=tf1.nn.relu, kernel_initializer=init(2, 5, 3),
                          bias_initializer=init(3, 3), kernel_regularizer=l2(0.01))
    logits = layers.dense(hidden, 2, kernel_initializer=init(4, 3, 2), bias_regularizer=l2(0.5),
                          bias_initializer=init(5, 2))
    no_bias = layers.dense(x, 2, use_bias=False, kernel_initializer=init(6, 5, 2))
    return {"hidden": hidden, "logits": logits, "no_bias": no_bias}, None


def case_dense_rank3(tf1, layers):
    x = tf1.constant(array(7, 2, 3, 4))
    return {"out": layers.dense(x, 5, activation=tf1.tanh, kernel_initializer=init(8, 4, 5),
                                bias_initializer=init(9, 5))}, None


def case_dense_names(tf1, layers):
    """name=, reuse=, enclosing and re-entered variable scopes, AUTO_REUSE."""
    x = tf1.constant(array(10, 3, 4))
    outputs = {}
    outputs["shared"] = layers.dense(x, 2, name="shared", kernel_initializer=init(11, 4, 2),
                                     kernel_regularizer=l2(0.25))
    # Reused: same variables, and the regularization loss is not added a second time.
    outputs["shared_again"] = layers.dense(x * 2.0, 2, name="shared", reuse=True,
                                           kernel_regularizer=l2(0.25))
    with tf1.variable_scope("tower"):
        outputs["tower"] = layers.dense(x, 3, kernel_initializer=init(12, 4, 3))
        outputs["tower_1"] = layers.dense(x, 3, kernel_initializer=init(13, 4, 3))
    with tf1.variable_scope("tower", reuse=True):
        outputs["tower_reused"] = layers.dense(x + 1.0, 3)
    for index in range(2):
        with tf1.variable_scope("auto", reuse=tf1.AUTO_REUSE):
            outputs["auto_%d" % index] = layers.dense(x, 2, kernel_initializer=init(14, 4, 2))
    outputs["after_scopes"] = layers.dense(x, 1, kernel_initializer=init(15, 4, 1))
    return outputs, None


def case_conv2d_pool(tf1, layers):
    x = tf1.constant(array(20, 2, 6, 6, 3))
    net = layers.conv2d(x, 4, 3, padding="same", activation=tf1.nn.relu,
                        kernel_initializer=init(21, 3, 3, 3, 4), bias_initializer=init(22, 4),
                        kernel_regularizer=l2(0.001))
    pooled = layers.max_pooling2d(net, 2, 2)
    net2 = layers.conv2d(pooled, 2, (2, 2), strides=(1, 1), padding="valid",
                         kernel_initializer=init(23, 2, 2, 4, 2))
    averaged = layers.average_pooling2d(net2, 2, 1, padding="same")
    flat = layers.flatten(averaged)
    logits = layers.dense(flat, 3, kernel_initializer=init(24, 8, 3))
    strided = layers.conv2d(x, 2, 3, strides=2, padding="same",
                            kernel_initializer=init(25, 3, 3, 3, 2))
    return {"conv": net, "pooled": pooled, "conv2": net2, "averaged": averaged, "flat": flat,
            "logits": logits, "strided": strided}, None


def case_conv2d_dilated(tf1, layers):
    x = tf1.constant(array(30, 2, 7, 7, 2))
    return {"out": layers.conv2d(x, 3, 3, dilation_rate=2, padding="same",
                                 kernel_initializer=init(31, 3, 3, 2, 3))}, None


def case_conv1d_pool(tf1, layers):
    x = tf1.constant(array(40, 2, 9, 3))
    causal = layers.conv1d(x, 4, 3, padding="causal", dilation_rate=2, activation=tf1.nn.relu,
                           kernel_initializer=init(41, 3, 3, 4), bias_initializer=init(42, 4))
    pooled = layers.max_pooling1d(causal, 2, 2)
    same = layers.conv1d(pooled, 2, 2, padding="same", kernel_initializer=init(43, 2, 4, 2))
    averaged = layers.average_pooling1d(same, 2, 1, padding="same")
    return {"causal": causal, "pooled": pooled, "same": same, "averaged": averaged}, None


def case_conv3d_pool3d(tf1, layers):
    x = tf1.constant(array(110, 2, 4, 5, 5, 2))
    net = layers.conv3d(x, 3, 2, padding="same", activation=tf1.nn.relu,
                        kernel_initializer=init(111, 2, 2, 2, 2, 3), bias_initializer=init(112, 3))
    pooled = layers.max_pooling3d(net, 2, 2)
    averaged = layers.average_pooling3d(net, (2, 3, 3), 1, padding="same")
    strided = layers.conv3d(x, 2, (1, 2, 2), strides=(1, 2, 2),
                            kernel_initializer=init(113, 1, 2, 2, 2, 2))
    return {"conv": net, "pooled": pooled, "averaged": averaged, "strided": strided}, None


def case_separable_conv2d(tf1, layers):
    x = tf1.constant(array(114, 2, 6, 6, 3))
    plain = layers.separable_conv2d(x, 4, 3, padding="same", depth_multiplier=2,
                                    depthwise_initializer=init(115, 3, 3, 3, 2),
                                    pointwise_initializer=init(116, 1, 1, 6, 4),
                                    bias_initializer=init(117, 4), activation=tf1.nn.relu)
    dilated = layers.separable_conv2d(x, 2, 3, dilation_rate=2, padding="same",
                                      depthwise_initializer=init(118, 3, 3, 3, 1),
                                      pointwise_initializer=init(119, 1, 1, 3, 2))
    strided = layers.separable_conv2d(x, 2, 2, strides=2,
                                      depthwise_initializer=init(120, 2, 2, 3, 1),
                                      pointwise_initializer=init(121, 1, 1, 3, 2))
    return {"plain": plain, "dilated": dilated, "strided": strided}, None


def case_conv2d_transpose(tf1, layers):
    x = tf1.constant(array(50, 2, 3, 3, 2))
    same = layers.conv2d_transpose(x, 3, 3, strides=2, padding="same",
                                   kernel_initializer=init(51, 3, 3, 3, 2),
                                   bias_initializer=init(52, 3))
    valid = layers.conv2d_transpose(x, 1, (2, 3), strides=(1, 2), padding="valid",
                                    kernel_initializer=init(53, 2, 3, 1, 2))
    return {"same": same, "valid": valid}, None


def _bn_after(tf1, layers, x, **kwargs):
    def after():
        inference = layers.batch_normalization(x, training=False, reuse=True, **kwargs)
        return {"inference_after_step": inference}
    return after


def case_batch_norm_fused(tf1, layers):
    x = tf1.constant(array(60, 4, 3, 3, 2) * 3.0 + 1.0)
    out = layers.batch_normalization(x, training=True, gamma_initializer=init(61, 2),
                                     beta_initializer=init(62, 2), gamma_regularizer=l2(0.1))
    return {"train": out}, _bn_after(tf1, layers, x, name="batch_normalization")


def case_batch_norm_plain(tf1, layers):
    x = tf1.constant(array(63, 8, 5) * 2.0 - 0.5)
    out = layers.batch_normalization(x, training=True, momentum=0.9, epsilon=1e-5,
                                     gamma_initializer=init(64, 5), beta_initializer=init(65, 5))
    return {"train": out}, _bn_after(tf1, layers, x, name="batch_normalization", momentum=0.9,
                                     epsilon=1e-5)


def case_batch_norm_unfused_4d(tf1, layers):
    x = tf1.constant(array(66, 3, 2, 2, 3) + 0.25)
    out = layers.batch_normalization(x, training=True, fused=False, name="bn")
    return {"train": out}, _bn_after(tf1, layers, x, name="bn", fused=False)


def case_batch_norm_tensor_training(tf1, layers):
    """training as a boolean tensor (placeholder_with_default): both branches in the graph."""
    x4 = tf1.constant(array(67, 2, 2, 3, 2))
    x2 = tf1.constant(array(68, 6, 3))
    is_training = tf1.placeholder_with_default(True, shape=[])
    fused = layers.batch_normalization(x4, training=is_training)
    plain = layers.batch_normalization(x2, training=is_training, axis=1)
    return {"fused": fused, "plain": plain}, None


def case_batch_norm_inference(tf1, layers):
    """training=False (the TF1 default): moving statistics used, no update ops."""
    x4 = tf1.constant(array(69, 2, 3, 3, 2))
    x2 = tf1.constant(array(70, 4, 3))
    fused = layers.batch_normalization(x4, moving_mean_initializer=init(71, 2),
                                       moving_variance_initializer=tf1.constant_initializer(
                                           np.abs(array(72, 2)) + 0.5))
    plain = layers.batch_normalization(x2, center=False, scale=False,
                                       moving_mean_initializer=init(73, 3))
    return {"fused": fused, "plain": plain}, None


def case_batch_norm_axis1(tf1, layers):
    """channels-first style axis=1 on a rank-3 input (non-fused, broadcast reshape)."""
    x = tf1.constant(array(74, 4, 3, 5))
    out = layers.batch_normalization(x, axis=1, training=True, gamma_initializer=init(75, 3))
    return {"train": out}, None


def case_dropout(tf1, layers):
    tf1.set_random_seed(1234)
    x = tf1.constant(array(80, 6, 8) + 2.0)
    return {
        "dropped": layers.dropout(x, rate=0.3, seed=7, training=True),
        "noise_shape": layers.dropout(x, rate=0.5, noise_shape=[6, 1], seed=8, training=True),
        "not_training": layers.dropout(x, rate=0.3, seed=9),
        "tensor_training": layers.dropout(x, rate=0.25, seed=10,
                                          training=tf1.placeholder_with_default(True, [])),
    }, None


def case_flatten(tf1, layers):
    x = tf1.constant(array(90, 2, 3, 4, 5))
    return {"last": layers.flatten(x),
            "first": layers.flatten(x, data_format="channels_first")}, None


def _layer_norm(layers):
    """tf.contrib.layers.layer_norm on TF 1.15 (tf.layers has none), the bridge's elsewhere."""
    return layers.layer_norm if hasattr(layers, "layer_norm") else tf.contrib.layers.layer_norm


def case_layer_norm(tf1, layers):
    """contrib's layer_norm: BERT's axes, the defaults, a scope, reuse, no centre, activation."""
    layer_norm = _layer_norm(layers)
    x = tf1.constant(array(130, 2, 3, 5) * 3.0 + 1.0)
    images = tf1.constant(array(131, 2, 2, 3, 4) - 0.5)
    return {
        "bert": layer_norm(x, begin_norm_axis=-1, begin_params_axis=-1),
        "default": layer_norm(x),
        "images": layer_norm(images, begin_norm_axis=2, activation_fn=tf1.nn.relu),
        "scoped": layer_norm(x, scope="ln", center=False),
        "reused": layer_norm(x * 0.5, scope="ln", center=False, reuse=True),
        "frozen": layer_norm(x, scale=False, trainable=False, scope="frozen"),
    }, None


def case_layer_objects(tf1, layers):
    """The object API: one object shares its variables across calls; names uniquify per object."""
    x = tf1.constant(array(100, 4, 5))
    images = tf1.constant(array(101, 2, 4, 4, 2))
    dense = layers.Dense(3, activation=tf1.nn.relu, kernel_initializer=init(102, 5, 3),
                         bias_initializer=init(103, 3))
    first, second = dense(x), dense(x * 0.5)
    head = layers.Dense(2, name="head", kernel_initializer=init(104, 3, 2))
    other_head = layers.Dense(2, name="head", kernel_initializer=init(105, 3, 2))
    functional = layers.dense(x, 2, kernel_initializer=init(106, 5, 2))
    conv = layers.Conv2D(3, 3, padding="same", kernel_initializer=init(107, 3, 3, 2, 3))
    pooled = layers.MaxPooling2D(2, 2)(conv(images))
    reconvolved = conv(tf1.concat([images[:, :, :, :1], images[:, :, :, :1]], axis=3))
    flat = layers.Flatten()(pooled)
    norm = layers.BatchNormalization(momentum=0.9, gamma_initializer=init(108, 12))
    normalized = norm(flat, training=True)
    dropped = layers.Dropout(0.25, seed=11)(x, training=True)
    outputs = {"first": first, "second": second, "head": head(first),
               "other_head": other_head(second), "functional": functional,
               "pooled": pooled, "reconvolved": reconvolved, "normalized": normalized,
               "dropped": dropped}

    def after():
        # A constant input: `flat` depends on the conv kernel the step just changed, and graph
        # mode would recompute it while tf.function reuses the value from before the step.
        return {"norm_inference": norm(tf1.constant(array(109, 2, 12)), training=False)}
    return outputs, after


# ---- arguments by name: TF 1.15's layers read them through Keras' get() (issue 17) -------------

ACTIVATION_NAMES = ("relu", "softmax", "elu", "selu", "softplus", "softsign", "tanh", "sigmoid",
                    "exponential", "hard_sigmoid", "linear")
SEEDED_INITIALIZERS = ("glorot_uniform", "glorot_normal", "he_normal", "he_uniform",
                       "lecun_normal", "lecun_uniform", "RandomUniform", "uniform",
                       "random_normal", "TruncatedNormal", "VarianceScaling", "orthogonal")


def case_named_activations(tf1, layers):
    x = tf1.constant(array(110, 4, 5) * 3.0)
    outputs = {name: layers.dense(x, 3, activation=name, kernel_initializer=init(111, 5, 3),
                                  bias_initializer=init(112, 3)) for name in ACTIVATION_NAMES}
    outputs["softmax_rank3"] = layers.dense(tf1.reshape(x, [2, 2, 5]), 3, activation="softmax",
                                            kernel_initializer=init(113, 5, 3))
    outputs["conv_relu"] = layers.conv2d(tf1.constant(array(114, 2, 4, 4, 3)), 4, 3,
                                         activation="relu", kernel_initializer=init(115, 3, 3, 3, 4))
    return outputs, None


def case_named_initializers(tf1, layers):
    x = tf1.constant(array(120, 4, 5))
    outputs = {
        "ones_zeros": layers.dense(x, 3, kernel_initializer="ones", bias_initializer="zeros"),
        "identity": layers.dense(x, 5, kernel_initializer="identity", bias_initializer="one"),
        "constant": layers.dense(x, 2, bias_initializer="constant", kernel_initializer={
            "class_name": "Constant", "config": {"value": 0.3}}),
    }
    for seed, name in enumerate(SEEDED_INITIALIZERS):
        outputs["seeded_" + name] = layers.dense(
            x, 3, name="seeded_" + name, bias_initializer="zeros",
            kernel_initializer={"class_name": name, "config": {"seed": 200 + seed}})
    return outputs, None


def case_named_regularizers(tf1, layers):
    x = tf1.constant(array(130, 4, 5))
    return {
        "l2": layers.dense(x, 3, kernel_regularizer="l2", bias_regularizer="l1",
                           kernel_initializer=init(131, 5, 3), bias_initializer=init(132, 3)),
        "l1_l2": layers.dense(x, 3, kernel_regularizer="l1_l2", activity_regularizer="l2",
                              kernel_initializer=init(133, 5, 3)),
        "config": layers.dense(x, 2, kernel_initializer=init(134, 5, 2), kernel_regularizer={
            "class_name": "L1L2", "config": {"l1": 0.1, "l2": 0.2}}),
        "zero": layers.dense(x, 2, kernel_initializer=init(135, 5, 2), kernel_regularizer="L1L2"),
    }, None


def case_named_constraints(tf1, layers):
    x = tf1.constant(array(140, 4, 5))
    images = tf1.constant(array(141, 2, 5, 5, 2))
    big = lambda seed, *shape: tf1.constant_initializer(array(seed, *shape) * 3.0)  # noqa: E731
    return {
        "max_norm": layers.dense(x, 3, kernel_constraint="max_norm", kernel_initializer=big(142, 5, 3),
                                 bias_constraint="non_neg", bias_initializer=init(143, 3)),
        "unit_norm": layers.dense(x, 3, kernel_constraint="unit_norm",
                                  kernel_initializer=init(144, 5, 3)),
        "min_max_norm": layers.dense(x, 3, kernel_constraint="min_max_norm",
                                     kernel_initializer=big(145, 5, 3)),
        "config": layers.conv2d(images, 3, 3, kernel_initializer=big(146, 3, 3, 2, 3),
                                kernel_constraint={"class_name": "MaxNorm", "config": {
                                    "max_value": 0.5, "axis": [0, 1, 2]}}),
        "radial": layers.conv2d(images, 2, 3, kernel_initializer=init(147, 3, 3, 2, 2),
                                kernel_constraint="radial_constraint"),
    }, None


def case_named_arguments_object_forms(tf1, layers):
    x = tf1.constant(array(150, 4, 5))
    seq = tf1.constant(array(151, 2, 6, 3))
    images = tf1.constant(array(152, 2, 5, 5, 3))
    volume = tf1.constant(array(153, 1, 4, 4, 4, 2))
    conv = layers.Conv2D(4, 3, activation="relu", kernel_initializer={
        "class_name": "he_normal", "config": {"seed": 1}}, kernel_regularizer="l2",
        bias_initializer="ones", padding="same")
    norm = layers.BatchNormalization(beta_initializer="zeros", gamma_initializer="ones",
                                     moving_variance_initializer="ones", beta_regularizer="l2",
                                     gamma_constraint="non_neg")
    return {
        "dense": layers.Dense(3, "tanh", True, "ones", "zeros")(x),
        "conv1d": layers.Conv1D(2, 3, activation="elu", kernel_initializer=init(154, 3, 3, 2),
                                bias_constraint="non_neg")(seq),
        "conv2d": conv(images),
        "conv2d_again": conv(images * 0.5),
        "conv3d": layers.Conv3D(2, 2, activation="sigmoid", kernel_initializer=init(
            155, 2, 2, 2, 2, 2), kernel_constraint="unit_norm")(volume),
        "separable": layers.SeparableConv2D(3, 3, activation="softplus", depthwise_initializer="ones",
                                            pointwise_initializer=init(156, 1, 1, 3, 3),
                                            depthwise_regularizer="l1",
                                            pointwise_constraint="max_norm")(images),
        "separable_fn": layers.separable_conv2d(images, 2, 3, depth_multiplier=2,
                                                activation="relu", depthwise_initializer="ones",
                                                pointwise_initializer="ones"),
        "transposed": layers.Conv2DTranspose(2, 3, activation="relu", kernel_initializer=init(
            157, 3, 3, 2, 3), kernel_regularizer="l1_l2")(images),
        "transposed_fn": layers.conv2d_transpose(images, 2, 2, strides=2, activation="softsign",
                                                 kernel_initializer="ones"),
        "norm": norm(images, training=True),
        "norm_fn": layers.batch_normalization(x, gamma_initializer="ones", beta_regularizer="l1",
                                              training=True),
    }, None


CASES = [(name[len("case_"):], fn) for name, fn in sorted(globals().items())
         if name.startswith("case_") and callable(fn)]


def _tolist(value):
    return np.asarray(value).astype(np.float64).tolist()


def _loss(tf1, outputs):
    terms = [tf1.reduce_mean(tf1.square(tensor)) for tensor in outputs.values()]
    # TF 2.x get_variable stores lazily built losses: build them now, before the train step.
    regularization = [tf1.convert_to_tensor(loss)
                      for loss in tf1.get_collection(tf1.GraphKeys.REGULARIZATION_LOSSES)]
    return tf1.add_n(terms + list(regularization)), regularization


def _train_op(tf1, loss, variables):
    trainable_names = set(v.name for v in tf1.trainable_variables())
    trainable = [v for v in variables if v.name in trainable_names]
    with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
        if not trainable:
            return tf1.no_op()
        return tf1.train.GradientDescentOptimizer(LEARNING_RATE).minimize(loss, var_list=trainable)


def _strip(name, prefix):
    name = name[:-2] if name.endswith(":0") else name
    return name[len(prefix):] if prefix and name.startswith(prefix) else name


def run_graph(build):
    """TF1 style: build in a fresh Graph, run outputs, one train step, then `after` tensors."""
    with tf1.Graph().as_default():
        outputs, after_fn = build(tf1, layers)
        variables = list(tf1.global_variables())
        trainable_names = [_strip(v.name, "") for v in tf1.trainable_variables()]
        loss, regularization = _loss(tf1, outputs)
        update_count = len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS))
        train_op = _train_op(tf1, loss, variables)
        after = after_fn() if after_fn else {}
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            forward, regularization_values = session.run([outputs, regularization])
            session.run(train_op)
            after_values, variable_values = session.run([after, variables])
    return {
        "variables": [[_strip(v.name, ""), v.shape.as_list()] for v in variables],
        "trainable": trainable_names,
        "outputs": {k: _tolist(v) for k, v in forward.items()},
        "regularization": [float(v) for v in regularization_values],
        "update_ops": update_count,
        "after_step": {_strip(v.name, ""): _tolist(value)
                       for v, value in zip(variables, variable_values)},
        "after": {k: _tolist(v) for k, v in after_values.items()},
    }


def run_function(name, build):
    """Current TF: the same case traced by tf.function(autograph=False), as the bridge runs it.

    Variables go through the bridge core's name-keyed VariableCache and every trace starts with
    fresh v1 collections (`begin_trace`), exactly as the bridge's training loop sets up model_fn.
    One fresh cache per case: each case stands for a new TF1 graph.
    """
    from estimator_bridge.runtime.variables import VariableCache

    cache = VariableCache(strategy=None)
    record = {}

    @tf.function(autograph=False)
    def traced():
        cache.begin_trace()
        with cache.scope():
            outputs, after_fn = build(tf1, layers)
            variables = tf1.global_variables()
            trainable = set(v.name for v in tf1.trainable_variables())
            loss, regularization = _loss(tf1, outputs)
            record["update_ops"] = len(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS))
            train_op = _train_op(tf1, loss, variables)
            with tf1.control_dependencies([train_op]):
                after = after_fn() if after_fn else {}
        record["variables"] = variables
        record["trainable"] = [v for v in variables if v.name in trainable]
        return outputs, regularization, after

    forward, regularization_values, after_values = traced()
    variables = record["variables"]
    return {
        "variables": [[_strip(v.name, ""), v.shape.as_list()] for v in variables],
        "trainable": [_strip(v.name, "") for v in record["trainable"]],
        "outputs": {k: _tolist(v) for k, v in forward.items()},
        "regularization": [float(v) for v in regularization_values],
        "update_ops": record["update_ops"],
        "after_step": {_strip(v.name, ""): _tolist(v.numpy()) for v in variables},
        "after": {k: _tolist(v) for k, v in after_values.items()},
    }


def main():
    flavour = sys.argv[1] if len(sys.argv) > 1 else "tf115"
    tf1_behavior = "--tf1-behavior" in sys.argv
    selected = [arg for arg in sys.argv[2:] if not arg.startswith("--")]
    select_flavour(flavour)
    if tf1_behavior:
        # What the compat runner switches on: v1 TensorShape (Dimension objects), v1 equality.
        from estimator_bridge.compat import apply_tf1_behavior

        apply_tf1_behavior()
    results = {"tensorflow": tf.__version__, "flavour": flavour, "cases": {}}
    for name, build in CASES:
        if selected and name not in selected:
            continue
        if flavour == "bridge-function":
            results["cases"][name] = run_function(name, build)
        else:
            results["cases"][name] = run_graph(build)
    print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
