"""tf.contrib.tpu's device_assignment() as TF 1.15 computed it, on TF 2's four-axis TPU topology.

TF 1.x's TPU runtime described a slice as a 3-D mesh [x, y, cores per chip] and programs wrote their
computation shapes in it ({1: [1, 1, 1], 2: [1, 1, 2], 4: [1, 2, 2], 8: [2, 2, 2]}). TF 2's topology is [x, y, z, cores]: TF 2.21's device_assignment
refuses a three-entry shape, and on the four-axis mesh it also orders replicas differently (measured
on a 2-host, 8-core slice: with 1 or 2 cores per replica, replicas 1-3 land on other hosts and
ordinals than TF 1.15 put them). A program that builds its own infeed per host relies on TF 1.15's
order, so for TF 1.x shapes (three entries, or none) on a slice whose z is 1 (every v2/v3 slice) this
module runs TF 1.15's algorithm (tensorflow/python/tpu/device_assignment.py of 1.15, below: the
"equal cube" replica shape and the 2-D ring tiling for two-core computations) on the [x, y, cores]
view and returns TF 2's DeviceAssignment of the same cores. Anything else (four-entry shapes, a 3-D
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


def _ring_2d(height, width):
    """TF 1.15's ring order of a height x width mesh: [y, x] pairs."""
    if height == 1:
        return [(0, i) for i in range(width)]
    if width == 1:
        return [(i, 0) for i in range(height)]
    if height % 2 != 0:
        return [(i % height, i // height) for i in range(width * height)]
    ret = [(0, 0)]
    for i in range(height // 2):
        for j in range(1, width):
            ret.append((2 * i, j))
        for j in range(width - 1, 0, -1):
            ret.append((2 * i + 1, j))
    for i in range(height - 1, 0, -1):
        ret.append((i, 0))
    return ret


def _tf1_assignment(mesh_shape, computation_shape, computation_stride, num_replicas):
    """TF 1.15's device_assignment body on a rank-3 mesh: the [replicas, cores, 3] core coordinates."""
    topology_rank = len(mesh_shape)
    computation_shape = (np.array([1] * topology_rank, dtype=np.int32) if computation_shape is None
                         else np.asarray(computation_shape, dtype=np.int32))
    computation_stride = (np.array([1] * topology_rank, dtype=np.int32) if computation_stride is None
                          else np.asarray(computation_stride, dtype=np.int32))
    if any(computation_shape < 1) or any(computation_stride < 1):
        raise ValueError(f"computation_shape and computation_stride must be positive; got {computation_shape}, "
                         f"{computation_stride}")
    computation_footprint = computation_shape * computation_stride
    if any(computation_footprint > mesh_shape):
        raise ValueError(f"computation footprint {computation_footprint} does not fit in TPU topology shape "
                         f"{mesh_shape} (TF 1.x's [x, y, cores] view)")
    block_counts = mesh_shape // computation_footprint
    replica_counts = block_counts * computation_stride
    max_replicas = np.prod(replica_counts)
    if num_replicas > max_replicas:
        raise ValueError(f"requested {num_replicas} replicas but only {max_replicas} replicas with shape "
                         f"{computation_shape} and computation_stride {computation_stride} fit in a TPU mesh of "
                         f"shape {mesh_shape} (TF 1.x's [x, y, cores] view)")

    def ceil_of_ratio(n, m):
        return (n + m - 1) // m

    replica_shape = [0] * topology_rank
    if num_replicas > 0:
        remaining_replicas = num_replicas
        remaining_dims = topology_rank
        # Dimensions in increasing size, then in reverse order (both cores of a chip first).
        for x, ni in sorted(((x, -i) for (i, x) in enumerate(replica_counts))):
            i = -ni
            target_size = int(math.ceil(remaining_replicas ** (1.0 / remaining_dims)))
            replica_shape[i] = min(target_size, x)
            remaining_replicas = ceil_of_ratio(remaining_replicas, replica_shape[i])
            remaining_dims -= 1
        assert remaining_replicas == 1 and remaining_dims == 0

    replica_offsets = np.full([num_replicas, topology_rank], -1, dtype=np.int32)
    enable_2d_tiling = (topology_rank == 3 and computation_shape[-1] == 2 and np.prod(computation_stride) == 1
                        and num_replicas == max_replicas)
    if enable_2d_tiling:
        assignment = []
        inner_ring = _ring_2d(computation_shape[0], computation_shape[1])
        outer_ring = _ring_2d(replica_shape[0], replica_shape[1])
        for replica in range(num_replicas):
            outer_x, outer_y = outer_ring[replica]
            per_replica_assignment = []
            for index in range(np.prod(computation_shape)):
                inner_x, inner_y = inner_ring[index // 2]
                px = outer_x * computation_shape[0] + inner_x
                py = outer_y * computation_shape[1] + inner_y
                pz = index % 2
                per_replica_assignment.append([px, py, pz])
            assignment.append(per_replica_assignment)
        return np.array(assignment, dtype=np.int32)
    for replica in range(num_replicas):
        t = replica
        pos = []
        for dim in replica_shape[::-1]:
            pos.append(t % dim)
            t //= dim
        replica_pos = np.array(pos[::-1], dtype=np.int32)
        outer = replica_pos // computation_stride
        inner = replica_pos % computation_stride
        replica_offsets[replica, :] = outer * computation_footprint + inner
    indices = [np.arange(0, computation_shape[i] * computation_stride[i], computation_stride[i])
               for i in range(topology_rank)]
    indices = np.concatenate([i[..., np.newaxis] for i in np.meshgrid(*indices, indexing="ij")], axis=-1)
    indices = indices.reshape((-1, topology_rank))
    return indices + replica_offsets[:, np.newaxis, :]
