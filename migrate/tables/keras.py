"""Keras 2 argument spellings that Keras 3 rejects (`lr=` -> `learning_rate=`)."""

from migrate.tables.entries import Replacement

_OPTIMIZERS = ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl")

KERAS = {
    f"keras.optimizers.{name}": Replacement(f"keras.optimizers.{name}", rename_kwargs={"lr": "learning_rate"},
                                            unsupported_kwargs=("decay",))
    for name in _OPTIMIZERS
}
