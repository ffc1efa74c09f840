"""tf.contrib.image's projective transforms (rotate, translate, transform and the transform builders), TF 1.15's code.

TF 1.15's contrib/image/python/ops/image_ops.py built the 8-parameter projective transforms in Python
and ran contrib's ImageProjectiveTransformV2 kernel; that kernel moved into TensorFlow core
(`tf.raw_ops.ImageProjectiveTransformV2`, with a `fill_mode` whose default, CONSTANT, is contrib's
zero fill) and has its gradient registered there, but tf.contrib.image's Python functions have no TF
2 name (tensorflow-addons carried them until TF 2.15); augmentation code of 2018-2020 uses them.
Below is TF 1.15's code with its checks, shapes and name scopes; oracle fixture
tests/migrate/fixtures/contrib/contrib_image (values and gradients against TF 1.15).
"""

from __future__ import annotations

import tensorflow as tf

__all__ = ["rotate", "translate", "transform", "angles_to_projective_transforms",
           "translations_to_projective_transforms"]

_IMAGE_DTYPES = {tf.uint8, tf.int32, tf.int64, tf.float16, tf.float32, tf.float64}


def _batched(image_or_images):
    """TF 1.15's rank handling: (the 4-D batch, a function undoing the added axes)."""
    if image_or_images.dtype.base_dtype not in _IMAGE_DTYPES:
        raise TypeError("Invalid dtype %s." % image_or_images.dtype)
    rank = image_or_images.get_shape().ndims
    if rank is None:
        raise TypeError("image_or_images rank must be statically known")
    if rank == 2:
        return image_or_images[None, :, :, None], lambda output: output[0, :, :, 0]
    if rank == 3:
        return image_or_images[None, :, :, :], lambda output: output[0, :, :, :]
    if rank == 4:
        return image_or_images, lambda output: output
    raise TypeError("Images should have rank between 2 and 4.")


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Rotates images counterclockwise by `angles` (radians, one per image or a scalar)."""
    with tf.name_scope(name or "rotate"):
        batch, unbatched = _batched(tf.convert_to_tensor(images))
        image_height = tf.cast(tf.shape(batch)[1], tf.float32)[None]
        image_width = tf.cast(tf.shape(batch)[2], tf.float32)[None]
        output = transform(batch, angles_to_projective_transforms(angles, image_height, image_width),
                           interpolation=interpolation)
        return unbatched(output)


def translate(images, translations, interpolation="NEAREST", name=None):
    """Translates images by [dx, dy] (one per image or one for all)."""
    with tf.name_scope(name or "translate"):
        return transform(images, translations_to_projective_transforms(translations), interpolation=interpolation)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """The transforms that rotate by `angles` about the image centre."""
    with tf.name_scope(name or "angles_to_projective_transforms"):
        angle_or_angles = tf.convert_to_tensor(angles, name="angles", dtype=tf.float32)
        if len(angle_or_angles.get_shape()) == 0:
            angles = angle_or_angles[None]
        elif len(angle_or_angles.get_shape()) == 1:
            angles = angle_or_angles
        else:
            raise TypeError("Angles should have rank 0 or 1.")
        x_offset = ((image_width - 1) - (tf.cos(angles) * (image_width - 1) - tf.sin(angles) *
                                         (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (tf.sin(angles) * (image_width - 1) + tf.cos(angles) *
                                          (image_height - 1))) / 2.0
        num_angles = tf.shape(angles)[0]
        return tf.concat(values=[tf.cos(angles)[:, None], -tf.sin(angles)[:, None], x_offset[:, None],
                                 tf.sin(angles)[:, None], tf.cos(angles)[:, None], y_offset[:, None],
                                 tf.zeros((num_angles, 2), tf.float32)], axis=1)


def translations_to_projective_transforms(translations, name=None):
    """The transforms that translate by [dx, dy]."""
    with tf.name_scope(name or "translations_to_projective_transforms"):
        translation_or_translations = tf.convert_to_tensor(translations, name="translations", dtype=tf.float32)
        if translation_or_translations.get_shape().ndims is None:
            raise TypeError("translation_or_translations rank must be statically known")
        if len(translation_or_translations.get_shape()) == 1:
            translations = translation_or_translations[None]
        elif len(translation_or_translations.get_shape()) == 2:
            translations = translation_or_translations
        else:
            raise TypeError("Translations should have rank 1 or 2.")
        num_translations = tf.shape(translations)[0]
        return tf.concat(values=[tf.ones((num_translations, 1), tf.float32), tf.zeros((num_translations, 1), tf.float32),
                                 -translations[:, 0, None], tf.zeros((num_translations, 1), tf.float32),
                                 tf.ones((num_translations, 1), tf.float32), -translations[:, 1, None],
                                 tf.zeros((num_translations, 2), tf.float32)], axis=1)


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Applies projective `transforms` ([a0, a1, a2, b0, b1, b2, c0, c1] per image, output -> input
    coordinates); points outside the image are 0."""
    with tf.name_scope(name or "transform"):
        batch, unbatched = _batched(tf.convert_to_tensor(images, name="images"))
        transform_or_transforms = tf.convert_to_tensor(transforms, name="transforms", dtype=tf.float32)
        if output_shape is None:
            output_shape = tf.shape(batch)[1:3]
            if not tf.executing_eagerly():
                output_shape_value = tf.get_static_value(output_shape)
                if output_shape_value is not None:
                    output_shape = output_shape_value
        output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
        if not output_shape.get_shape().is_compatible_with([2]):
            raise ValueError("output_shape must be a 1-D Tensor of 2 elements: new_height, new_width")
        if len(transform_or_transforms.get_shape()) == 1:
            transforms = transform_or_transforms[None]
        elif transform_or_transforms.get_shape().ndims is None:
            raise TypeError("transform_or_transforms rank must be statically known")
        elif len(transform_or_transforms.get_shape()) == 2:
            transforms = transform_or_transforms
        else:
            raise TypeError("Transforms should have rank 1 or 2.")
        output = tf.raw_ops.ImageProjectiveTransformV2(images=batch, transforms=transforms, output_shape=output_shape,
                                                       interpolation=interpolation.upper(), fill_mode="CONSTANT")
        return unbatched(output)
