"""tf.contrib.tpu's device_assignment() as TF 1.15 computed it, on TF 2's four-axis TPU topology.

TF 1.x's TPU runtime described a slice as a 3-D mesh [x, y, cores per chip] and programs wrote their
computation shapes in it ({1: [1, 1, 1], 2: [1, 1, 2], 4: [1, 2, 2], 8: [2, 2, 2]}). TF 2's topology is [x, y, z, cores]: TF 2.21's device_assignment
refuses a three-entry shape, and on the four-axis mesh it also orders replicas differently (measured
on a 2-host, 8-core slice: with 1 or 2 cores per replica, replicas 1-3 land on other hosts and
ordinals than TF 1.15 put them). A program that builds its own infeed per host relies on TF 1.15's
order, so for TF 1.x shapes (three entries, or none) on a slice whose z is 1 (every v2/v3 slice) this
module assigns the cores as TF 1.x did (replicas on a grid as near a cube as fits, filled cores axis
first; for two-core computations filling the slice, rings of chips) on the [x, y, cores] view and
returns TF 2's DeviceAssignment of the same cores. Anything else (four-entry shapes, a 3-D
torus) is TF 2.21's device_assignment. Oracle fixture tests/migrate/fixtures/contrib/tpu_low_level:
the same host and ordinal for every replica and logical core as TF 1.15, for 1, 2 and 4 cores per
replica.
"""

from __future__ import annotations

import math

import numpy as np
from tensorflow.python.tpu import device_assignment as _tf2_device_assignment
from tensorflow.python.tpu.topology import Topology

__all__ = ["device_assignment"]


def device_assignment(topology, computation_shape=None, computation_stride=None, num_replicas=1):
    """TF 1.15's signature and assignment (see the module docstring)."""
    if isinstance(topology, bytes):
        topology = Topology(serialized=topology)
    mesh = [int(size) for size in topology.mesh_shape]
    tf1_shapes = all(value is None or len(value) == 3 for value in (computation_shape, computation_stride))
    if len(mesh) != 4 or mesh[2] != 1 or not tf1_shapes:
        return _tf2_device_assignment.device_assignment(topology, computation_shape=computation_shape,
                                                        computation_stride=computation_stride,
                                                        num_replicas=num_replicas)
    cores = _tf1_assignment(np.array([mesh[0], mesh[1], mesh[3]], dtype=np.int32), computation_shape,
                            computation_stride, num_replicas)
    return _tf2_device_assignment.DeviceAssignment(topology, core_assignment=np.insert(cores, 2, 0, axis=-1))


def _ring(rows, cols):
    """The tour of a rows x cols grid TF 1.x's two-core tiling walked: column by column when one
    side is 1 or `rows` is odd; otherwise from (0, 0) along each pair of rows (out on the first,
    back on the second, over columns 1..) and back up column 0."""
    if rows == 1 or cols == 1 or rows % 2:
        return [(i % rows, i // rows) for i in range(rows * cols)]
    tour = [(0, 0)]
    for row in range(0, rows, 2):
        tour += [(row, col) for col in range(1, cols)] + [(row + 1, col) for col in range(cols - 1, 0, -1)]
    return tour + [(row, 0) for row in range(rows - 1, 0, -1)]


def _replica_grid(replica_counts, num_replicas):
    """Replicas per axis, as near a cube as the counts allow: the axes with the fewest possible
    replicas are sized first (the cores axis before y before x among equals), each to the
    remaining number's n-th root over the n axes left."""
    grid = [0] * len(replica_counts)
    remaining = num_replicas
    order = sorted(range(len(replica_counts)), key=lambda axis: (replica_counts[axis], -axis))
    for axes_left, axis in zip(range(len(order), 0, -1), order):
        grid[axis] = min(int(math.ceil(remaining ** (1.0 / axes_left))), replica_counts[axis])
        remaining = -(-remaining // grid[axis])
    return grid


def _tf1_assignment(mesh_shape, computation_shape, computation_stride, num_replicas):
    """The [replicas, cores, 3] core coordinates TF 1.x assigned on an [x, y, cores] mesh."""
    shape = np.ones(3, np.int32) if computation_shape is None else np.asarray(computation_shape, np.int32)
    stride = np.ones(3, np.int32) if computation_stride is None else np.asarray(computation_stride, np.int32)
    if (shape < 1).any() or (stride < 1).any():
        raise ValueError(f"computation_shape and computation_stride must be positive; got {shape}, {stride}")
    footprint = shape * stride
    if (footprint > mesh_shape).any():
        raise ValueError(f"computation footprint {footprint} does not fit in TPU topology shape "
                         f"{mesh_shape} (TF 1.x's [x, y, cores] view)")
    replica_counts = mesh_shape // footprint * stride
    if num_replicas > np.prod(replica_counts):
        raise ValueError(f"requested {num_replicas} replicas but only {np.prod(replica_counts)} replicas with "
                         f"shape {shape} and computation_stride {stride} fit in a TPU mesh of shape "
                         f"{mesh_shape} (TF 1.x's [x, y, cores] view)")
    if num_replicas <= 0:
        return np.zeros([0, int(np.prod(shape)), 3], np.int32)
    grid = _replica_grid(replica_counts, num_replicas)
    if shape[2] == 2 and (stride == 1).all() and num_replicas == np.prod(replica_counts):
        # Two cores per replica filling the slice: replicas along a ring of chips, each replica's
        # chips along a ring of its own, both cores of a chip next to each other.
        inner = _ring(shape[0], shape[1])
        return np.array([[(outer[0] * shape[0] + inner[core // 2][0], outer[1] * shape[1] + inner[core // 2][1],
                           core % 2) for core in range(int(np.prod(shape)))]
                         for outer in _ring(grid[0], grid[1])[:num_replicas]], np.int32)
    # Replica r at grid position r (cores axis fastest), its logical cores stride apart inside it.
    position = np.stack(np.unravel_index(np.arange(num_replicas), grid), axis=-1)
    offsets = position // stride * footprint + position % stride
    cores = np.stack(np.unravel_index(np.arange(int(np.prod(shape))), shape), axis=-1) * stride
    return (cores[np.newaxis] + offsets[:, np.newaxis]).astype(np.int32)
