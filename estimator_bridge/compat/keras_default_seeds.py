"""Keras 3's (and tf-keras') unseeded layers take their seeds without drawing from the program's `random`.

Keras 3 gives every initializer (and random layer) built without a seed one drawn with Python's
global `random.randint` (`keras.src.random.seed_generator.make_default_seed`; tf-keras 2.21's
`RandomGenerator` does the same); TF 1.x's Keras drew nothing there. TF 1.x did read that generator
for the order of a Sequence's batches (OrderedEnqueuer's `random.shuffle`, which
keras_tf1_sequence.stream reproduces), so a program that seeded `random` and then built its model
trained on other batches after migration: Home-Monitor's 11-TrainTPU.py (2019: `flow_from_directory`,
17 layers, `fit_generator`) took another first batch. Here those default seeds come from a
generator of their own, seeded from the global generator's state without advancing it (and the
number of seeds drawn since `random.seed` was last called), so `random.seed(n)` (and
`keras.utils.set_random_seed(n)`) still makes them repeatable, and each draw differs.
"""

from __future__ import annotations

import random

_drawn: dict[int, int] = {}   # hash of a global `random` state -> default seeds drawn at it since random.seed


class _SeedsOfTheirOwn:
    """The `random` module for Keras' seed code: `randint` from a generator of its own, the rest Python's."""

    def __getattr__(self, name):
        return getattr(random, name)

    @staticmethod
    def randint(low: int, high: int) -> int:
        state = hash(random.getstate())
        count = _drawn.get(state, 0)
        _drawn[state] = count + 1
        return random.Random(f"{state}:{count}").randint(low, high)


SEEDS = _SeedsOfTheirOwn()
# (module, the name it calls Python's `random` by): where Keras 3 and tf-keras draw a default seed
MODULES = (("keras.src.random.seed_generator", "python_random"), ("tf_keras.src.backend", "random"))


def _seed_and_recount(seed_function):
    def seed(*args, **kwargs):
        _drawn.clear()   # the same state again draws the same seeds again, as Keras' own did
        return seed_function(*args, **kwargs)

    seed._keras_default_seeds = True
    return seed


def install() -> None:
    """Give those modules the generator above (each one that is installed); idempotent."""
    import importlib

    if not getattr(random.seed, "_keras_default_seeds", False):
        random.seed = _seed_and_recount(random.seed)

    for module_name, name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # tf-keras is optional (`--keras 2`)
            continue
        if getattr(module, name, None) is random:
            setattr(module, name, SEEDS)
