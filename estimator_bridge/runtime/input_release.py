"""Deterministic release of a loop's input pipeline when train()/evaluate()/predict() ends.

Why (measured on TensorFlow 2.21, stacks from gdb and py-spy): destroying a tf.data iterator
can block the thread that destroys it for up to a minute. The iterator's root
(`RootDataset::Iterator`) runs tf.data's autotuning model in a thread of its own
(`model::Model::OptimizeLoop`), which sleeps between optimisations for a period that doubles
from 10 ms to 60 s while the iterator lives. The destructor cancels that thread
(`CancellationManager::StartCancel`) and joins it
(`UnboundedThreadPool::LogicalThreadWrapper::~LogicalThreadWrapper` ->
`absl::Notification::WaitForNotification`). The cancel callback wakes the sleeping thread, but
StartCancel marks the manager cancelled only after every callback has returned, so the woken
thread often checks `IsCancelled()` too early, sees false and sleeps for the rest of its period
(a lost wake-up). The destructor then waits up to min(age of the iterator, 60 s): measured 4.6,
19 and 41 s for 3 of 10 plain iterators aged 15-41 s. A distributed iterator has two such roots
(the host pipeline inside the MultiDeviceIterator and the per-device prefetch), and a
MultiDeviceIterator's per-device pipeline is built by tf.distribute, out of reach of the user's
`tf.data.Options`.

Left to Python, a loop's iterator lives as long as its last reference (the next call's bound
loop, an exception's traceback frames) and dies at an arbitrary moment: in the middle of the next
graph construction, or at interpreter exit. Instead, every loop input is owned by an `OwnedInput` for exactly the
duration of the call. When the call ends (return, any exception including KeyboardInterrupt,
a predict generator exhausted, closed or dropped) it

1. unbinds the loops (a bound loop holds the iterator's resource tensors);
2. clears the locals of the finished estimator_bridge and TensorFlow frames of the exception's
   traceback (those frames hold the iterator as an argument). The printed traceback is
   unchanged and user frames (model_fn, input_fn, hooks) keep their locals for post-mortem
   debugging;
3. drops the last references to the iterator and the distributed dataset on a short-lived
   thread of its own. TensorFlow releases the GIL while it destroys a tensor handle, so the
   destructor's wait blocks neither the caller nor a graph being built.

The thread is not a daemon: Python joins it before interpreter shutdown. A daemon thread still
inside TensorFlow's destructor when the interpreter finalises is ended by a forced unwind
through TensorFlow's C++ frames, which aborts the process ("terminate called after throwing an
instance of '' / FATAL: exception not rethrown", SIGABRT). So a program that exits right after a call waits for that call's release: for
young iterators (the usual case) milliseconds; for an iterator older than a minute whose
autotuning thread lost the wake-up, up to the rest of its period (at most 60 s), which is what
destroying it during shutdown would cost anyway.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import weakref

# Frames of these packages hold the iterator while a loop runs; their locals are cleared.
_INTERNAL_DIRS = tuple(
    os.path.dirname(os.path.realpath(importlib.util.find_spec(package).origin)) + os.sep
    for package in (__name__.split(".")[0], "tensorflow"))

_releasing_lock = threading.Lock()
_releasing_threads: list[threading.Thread] = []
_released_iterators = weakref.WeakSet()


class InputReleasedError(RuntimeError):
    """The loop input was used after its train()/evaluate()/predict() call ended."""


class OwnedInput:
    """The iterator of one train()/evaluate()/predict() call, released when the call ends.

    Use as a context manager around everything that reads the iterator; read it through
    `.iterator` each time instead of keeping it in a variable (a local would outlive the call
    in an exception's traceback).

    Args:
      data: the call's `inputs.DistributedInput`; its `dataset` is released with the iterator.
      loops: loop objects with an `unbind()` method that drop what they bound to the iterator.
    """

    def __init__(self, data, loops=()):
        self._data = data
        self._loops = list(loops)
        self._iterator = None

    @property
    def iterator(self):
        if self._data is None:
            raise InputReleasedError(
                "the input pipeline of this train()/evaluate()/predict() call was already "
                "released; call the method again to read its input_fn anew.")
        if self._iterator is None:
            self._iterator = iter(self._data.dataset)
        return self._iterator

    def __enter__(self):
        return self

    def __exit__(self, exc_type, error, traceback):
        self.release(error)
        return False

    def release(self, error=None) -> None:
        """Unbinds the loops, clears internal frames of `error`, drops the pipeline off-thread."""
        if self._data is None:
            return
        for loop in self._loops:
            loop.unbind()
        self._loops = []
        if error is not None:
            clear_internal_frames(error)
        held = [self._iterator, self._data.dataset]
        if self._iterator is not None:
            _released_iterators.add(self._iterator)
        self._iterator = None
        self._data.dataset = None
        self._data = None
        _drop_on_release_thread(held)


def _is_internal(frame) -> bool:
    return os.path.realpath(frame.f_code.co_filename).startswith(_INTERNAL_DIRS)


def clear_internal_frames(error: BaseException) -> None:
    """Clears the locals of finished estimator_bridge/TensorFlow frames in error's tracebacks.

    Follows `__cause__` and `__context__`. Frames still executing (the caller's) are skipped.
    """
    seen, pending = set(), [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        entry = current.__traceback__
        while entry is not None:
            if _is_internal(entry.tb_frame):
                try:
                    entry.tb_frame.clear()
                except RuntimeError:  # still executing: the frame that is releasing
                    pass
            entry = entry.tb_next
        pending += [current.__cause__, current.__context__]


def _drop(held: list) -> None:
    held.clear()


def _drop_on_release_thread(held: list) -> None:
    """Drops `held`'s items on a new thread (their destructors may wait up to a minute).

    Not a daemon: interpreter shutdown must not end it inside TensorFlow (module docstring).
    """
    thread = threading.Thread(target=_drop, args=(held,), daemon=False,
                              name="estimator_bridge input release")
    with _releasing_lock:
        _releasing_threads[:] = [t for t in _releasing_threads if t.is_alive()]
        _releasing_threads.append(thread)
    thread.start()


def wait_for_releases(timeout: float | None = None) -> bool:
    """Waits until every release started so far has finished; True if they all did."""
    with _releasing_lock:
        threads = list(_releasing_threads)
    for thread in threads:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in threads)


def released_iterators_still_referenced() -> int:
    """How many released iterators are still alive (held by something outside the bridge)."""
    return len(_released_iterators)
