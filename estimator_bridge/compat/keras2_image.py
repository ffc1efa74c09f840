"""Keras 2's `ImageDataGenerator` whose batches a Keras 3 model's `fit` / `evaluate` / `predict` take.

Keras 3 (3.15) no longer exports `keras.preprocessing.image.ImageDataGenerator`; estimator-migrate
(`--keras 3`) serves Keras 2's from tf-keras, whose augmentations are the ones TF 1.x and TF <= 2.15
computed. But its `flow()`, `flow_from_directory()` and `flow_from_dataframe()` return a tf-keras
`Sequence`, which Keras 3's data adapters refuse ("Unrecognized data type"): every program that
trains on `datagen.flow(x, y)` (with `fit_generator`, which the codemod makes `fit`, or `fit`)
stopped at its first epoch. Here each of those iterators is handed out as a `keras.utils.PyDataset`
over the tf-keras one: same batches, same length, `on_epoch_end` forwarded (it reshuffles, as Keras
2's epoch end did), and every other attribute (`n`, `batch_size`, `class_indices`, `filenames`,
`next()`, `reset()`, ...) read from the tf-keras iterator.
"""

from __future__ import annotations

import keras
from tf_keras.preprocessing import image as _keras2_image


class Keras3Batches(keras.utils.PyDataset):
    """A tf-keras (Keras 2) batch iterator as the `PyDataset` Keras 3's fit/evaluate/predict read."""

    def __init__(self, iterator):
        super().__init__()      # workers=1, no multiprocessing: batches made in order, in this process
        self.keras2_iterator = iterator

    def __len__(self):
        return len(self.keras2_iterator)

    def __getitem__(self, index):
        return self.keras2_iterator[index]

    def on_epoch_end(self):
        self.keras2_iterator.on_epoch_end()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.keras2_iterator)

    def __getattr__(self, name):
        if name == "keras2_iterator":        # not set yet (during PyDataset.__init__)
            raise AttributeError(name)
        return getattr(self.keras2_iterator, name)


class ImageDataGenerator(_keras2_image.ImageDataGenerator):
    """tf-keras' `ImageDataGenerator` (Keras 2's transforms, unchanged) whose flows are `Keras3Batches`."""

    def flow(self, *args, **kwargs):
        return Keras3Batches(super().flow(*args, **kwargs))

    def flow_from_directory(self, *args, **kwargs):
        return Keras3Batches(super().flow_from_directory(*args, **kwargs))

    def flow_from_dataframe(self, *args, **kwargs):
        return Keras3Batches(super().flow_from_dataframe(*args, **kwargs))
