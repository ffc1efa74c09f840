"""tf.contrib.image's projective transforms on TensorFlow's own kernel.

`transform` warps a batch of images by 8-parameter projective maps [a0, a1, a2, b0, b1, b2, c0, c1]
(each takes an output pixel (x, y) to the input point ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k),
k = c0 x + c1 y + 1; points outside the image read 0); `rotate` and `translate` build those maps.
TensorFlow core has the kernel and its gradient (`tf.raw_ops.ImageProjectiveTransformV2`, whose
CONSTANT fill is contrib's zero fill) but no public function for it since tf.contrib went
(tensorflow-addons served them until TF 2.15). Augmentation code of 2018-2020 calls them
(tensorflow/moonlight glyph_patches.py, tensorflow/lucid optvis/transform.py). Images may be one
image [H, W], [H, W, C] or a batch [N, H, W, C]; the result has the input's rank.
Oracle fixture: tests/migrate/fixtures/contrib/contrib_image.
"""

from __future__ import annotations

import tensorflow as tf

__all__ = ["rotate", "translate", "transform", "angles_to_projective_transforms",
           "translations_to_projective_transforms"]

_IMAGE_DTYPES = (tf.uint8, tf.int32, tf.int64, tf.float16, tf.float32, tf.float64)
# rank of an image argument -> (index that makes it a 4-D batch, index that undoes it)
_TO_BATCH = {2: ((None, Ellipsis, None), (0, Ellipsis, 0)), 3: ((None,), (0,)), 4: ((), ())}


def _one_or_many(value, rank_of_one, what):
    """`value` (float32) with a leading axis: one item of rank `rank_of_one`, or a batch of them."""
    value = tf.convert_to_tensor(value, tf.float32, name=what)
    rank = value.shape.ndims
    if rank is None:
        raise TypeError(f"{what} rank must be statically known")
    if rank not in (rank_of_one, rank_of_one + 1):
        raise TypeError(f"{what.capitalize()} should have rank {rank_of_one} or {rank_of_one + 1}.")
    return value[None] if rank == rank_of_one else value


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Applies one projective map per image (or one for all); see the module docstring."""
    with tf.name_scope(name or "transform"):
        images = tf.convert_to_tensor(images, name="images")
        if images.dtype.base_dtype not in _IMAGE_DTYPES:
            raise TypeError(f"Invalid dtype {images.dtype}.")
        rank = images.shape.ndims
        if rank is None:
            raise TypeError("image_or_images rank must be statically known")
        if rank not in _TO_BATCH:
            raise TypeError("Images should have rank between 2 and 4.")
        to_batch, from_batch = _TO_BATCH[rank]
        batch = images[to_batch]
        if output_shape is None:
            static = tf.get_static_value(tf.shape(batch)[1:3]) if not tf.executing_eagerly() else None
            output_shape = static if static is not None else tf.shape(batch)[1:3]
        output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
        if not output_shape.shape.is_compatible_with([2]):
            raise ValueError("output_shape must be a 1-D Tensor of 2 elements: new_height, new_width")
        output = tf.raw_ops.ImageProjectiveTransformV2(
            images=batch, transforms=_one_or_many(transforms, 1, "transforms"), output_shape=output_shape,
            interpolation=interpolation.upper(), fill_mode="CONSTANT")
        return output[from_batch]


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """The maps that rotate counterclockwise by `angles` (radians) about the image centre."""
    with tf.name_scope(name or "angles_to_projective_transforms"):
        angles = _one_or_many(angles, 0, "angles")
        cos, sin = tf.cos(angles), tf.sin(angles)
        last_x, last_y = image_width - 1, image_height - 1
        x_offset = (last_x - (cos * last_x - sin * last_y)) / 2.0
        y_offset = (last_y - (sin * last_x + cos * last_y)) / 2.0
        zero = tf.zeros_like(angles)
        return tf.stack([cos, -sin, x_offset, sin, cos, y_offset, zero, zero], axis=1)


def translations_to_projective_transforms(translations, name=None):
    """The maps that move images by [dx, dy] (one pair, or one per image)."""
    with tf.name_scope(name or "translations_to_projective_transforms"):
        translations = _one_or_many(translations, 1, "translations")
        one, zero = tf.ones_like(translations[:, 0]), tf.zeros_like(translations[:, 0])
        return tf.stack([one, zero, -translations[:, 0], zero, one, -translations[:, 1], zero, zero], axis=1)


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Rotates images counterclockwise by `angles` (radians: a scalar, or one per image)."""
    with tf.name_scope(name or "rotate"):
        images = tf.convert_to_tensor(images)
        height_and_width = tf.cast(tf.shape(images)[-3:-1] if images.shape.ndims != 2 else tf.shape(images),
                                   tf.float32)
        maps = angles_to_projective_transforms(angles, height_and_width[0], height_and_width[1])
        return transform(images, maps, interpolation=interpolation)


def translate(images, translations, interpolation="NEAREST", name=None):
    """Translates images by [dx, dy] (one pair, or one per image)."""
    with tf.name_scope(name or "translate"):
        return transform(images, translations_to_projective_transforms(translations), interpolation=interpolation)
