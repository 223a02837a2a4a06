"""Interconnect catalog: bandwidth per direction and per-hop latency.

``bandwidth_gbs`` is the figure the scaling model uses (GB/s per direction,
per GPU for in-box links, per NIC for networks):
- In a box it is the *achieved* GPU-to-GPU figure. The article uses ~50 GB/s
  for PCIe Gen5 on one switch, which is 80 % of the 63 GB/s raw x16 rate; the
  same 80 % is applied to PCIe Gen4 and NVLink so in-box links are comparable.
- Between nodes it is the line rate (the article's own convention: "~25 GB/s
  on 200 Gb/s IB"). 50 GB/s divided by these gives the article's penalties:
  2x (IB 200), 4x (100 GbE) and 16x (25 GbE; the article rounds to 15x).

``latency_us`` is the per-step latency alpha of a ring collective:
- NVLink ~0.5 us and PCIe ~1 us: NCCL's own tuning model (hwLat, ring/LL:
  NVLink .47 us, PCI 1.0 us), https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc
- InfiniBand 5 us: NCCL's network latency (hwLat NET: 2.7-9.6 us by protocol)
  and the low end of the article's "5-15 us on tuned RoCE".
- Ethernet (RoCE) 10 us: middle of the article's 5-15 us.
Latency only matters for small messages; at the default workload the
bandwidth term is > 99 % of the communication time.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Fabric:
    id: str
    name: str
    scope: str  # "intra_node" or "inter_node"
    bandwidth_gbs: float
    line_rate_gbs: float
    latency_us: float
    source: str


FABRIC_LIST: tuple[Fabric, ...] = (
    # PCIe 5.0 x16: 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction (PCI-SIG);
    # ~50 GB/s achieved GPU-to-GPU on one switch (the article). NCCL all-reduce on
    # 8 x RTX 5090 without P2P was measured at ~28 GB/s bus bandwidth
    # (https://github.com/NVIDIA/nccl/issues/1639): the article's figure assumes a
    # PCIe switch with P2P enabled.
    Fabric("pcie5", "PCIe 5.0 x16 (in a box)", "intra_node", 50.0, 63.0, 1.0,
           "https://pcisig.com/specifications ; the article (~50 GB/s between GPUs on one switch)"),
    # PCIe 4.0 x16: 16 GT/s -> 31.5 GB/s raw, 25 GB/s at the same 80 %.
    Fabric("pcie4", "PCIe 4.0 x16 (in a box)", "intra_node", 25.0, 31.5, 1.0,
           "https://pcisig.com/specifications"),
    # NVLink 4 (H100/H200): 900 GB/s total = 450 GB/s per direction per GPU.
    # https://www.nvidia.com/en-us/data-center/nvlink/
    Fabric("nvlink", "NVLink 4 (in a box)", "intra_node", 360.0, 450.0, 0.5,
           "https://www.nvidia.com/en-us/data-center/nvlink/"),
    # NVLink 5 (B200): 1.8 TB/s total = 900 GB/s per direction per GPU.
    Fabric("nvlink5", "NVLink 5 (in a box)", "intra_node", 720.0, 900.0, 0.5,
           "https://www.nvidia.com/en-us/data-center/nvlink/"),
    # InfiniBand NDR 400 Gb/s (ConnectX-7) = 50 GB/s per direction per port.
    # https://www.nvidia.com/en-us/networking/infiniband/qm9700/
    Fabric("ib-400", "InfiniBand NDR 400 Gb/s", "inter_node", 50.0, 50.0, 5.0,
           "https://www.nvidia.com/en-us/networking/infiniband/qm9700/"),
    # InfiniBand HDR 200 Gb/s (ConnectX-6) = 25 GB/s per direction per port.
    # https://www.nvidia.com/en-us/networking/infiniband/qm8700/
    Fabric("ib-200", "InfiniBand HDR 200 Gb/s", "inter_node", 25.0, 25.0, 5.0,
           "https://www.nvidia.com/en-us/networking/infiniband/qm8700/"),
    # 100GBASE-R (IEEE 802.3) = 12.5 GB/s per direction; RoCE latency from the article.
    Fabric("eth-100", "Ethernet 100 GbE (RoCE)", "inter_node", 12.5, 12.5, 10.0,
           "IEEE 802.3 100GBASE-R (100 Gb/s line rate); the article (5-15 us on tuned RoCE)"),
    # 25GBASE (IEEE 802.3by) = 3.125 GB/s per direction.
    Fabric("eth-25", "Ethernet 25 GbE (RoCE)", "inter_node", 3.125, 3.125, 10.0,
           "IEEE 802.3by 25GBASE-R (25 Gb/s line rate); the article (5-15 us on tuned RoCE)"),
)

FABRIC_BY_ID: Mapping[str, Fabric] = MappingProxyType({f.id: f for f in FABRIC_LIST})
FABRIC_IDS: tuple[str, ...] = tuple(f.id for f in FABRIC_LIST)
# Order of the efficiency table and the `fabric` input's inter-node choices.
INTER_NODE_TABLE: tuple[str, ...] = ("ib-400", "ib-200", "eth-100", "eth-25")
