"""Interconnect catalog: bandwidth per direction and per-hop latency.

``bandwidth_gbs`` is the figure the scaling model uses (GB/s per direction,
per GPU for in-box links, per NIC for networks):
- In a box it is the *achieved* GPU-to-GPU figure. The article uses ~50 GB/s
  for PCIe Gen5 on one switch, which is 80 % of the 63 GB/s raw x16 rate; the
  same 80 % is applied to PCIe Gen4 and NVLink so in-box links are comparable.
- Between nodes it is the line rate (the article's own convention: "~25 GB/s
  on 200 Gb/s IB"). 50 GB/s divided by these gives the article's penalties:
  2x (IB 200), 4x (100 GbE) and 16x (25 GbE; the article says 16x).

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
    # NVLink 3 (A100 SXM): 600 GB/s total = 300 GB/s per direction per GPU (12 links);
    # 80 % of it = 240 GB/s, which is also NCCL's planning figure (SM80_NVLINK_BW 20.0 x 12
    # links, src/graph/topo.h). Measured all-reduce busbw on 8 x A100 SXM4 80GB: ~200 GB/s
    # (https://github.com/NVIDIA/nccl-tests/issues/149), 208 GB/s (nccl-tests issue #178).
    Fabric("nvlink3", "NVLink 3 (in a box)", "intra_node", 240.0, 300.0, 0.5,
           "https://www.nvidia.com/en-us/data-center/nvlink/"),
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


# --- Measured collective bandwidth and PCIe topology ---------------------------
# ``bandwidth_gbs`` above is one number per link. What NCCL measures depends on
# where the GPUs sit. All figures are all-reduce bus bandwidth (nccl-tests
# doc/PERFORMANCE.md: busbw = algbw x 2(n-1)/n, "should reflect the speed of the
# hardware bottleneck: NVLink, PCI, QPI, or network"), the B of the ring
# formula the scaling model uses.

# PCIe x16 raw rate per direction (PCI-SIG): Gen4 16 GT/s, Gen5 32 GT/s,
# x 16 lanes x 128/130 / 8 bits.
PCIE_RAW_X16_GBS: Mapping[int, float] = MappingProxyType({4: 31.5, 5: 63.0})
# Achieved share on one PCIe switch (or root complex) with P2P: the article's
# ~50 GB/s of Gen5's 63 (80 %). Measured: 4 x RTX 4090 on one root complex,
# all_reduce_perf busbw 25.95 GB/s at 1 GiB = 82 % of Gen4's 31.5
# (https://github.com/tinygrad/open-gpu-kernel-modules/issues/36, P2P driver).
PCIE_SWITCH_SHARE = 0.80
# NCCL's own planning constants (NVIDIA/nccl src/graph/topo.h, commit
# 069a3d4f95ca488dc63ba7ae659a2db77942a62e): "#define PCI_BW 12.0 // PCI Gen3
# x16" (x2 per generation: Gen4 24, Gen5 48) and, for traffic that crosses the
# CPUs, "SKL_QPI_BW 10.0", "SRP_QPI_BW 22.0", "AMD_ZEN34_BW 24.0",
# "AMD_ZEN5_BW 32.0" (GB/s). They are what NCCL plans with, a low end.
NCCL_PCI_GEN3_GBS = 12.0
INTER_SOCKET_GBS: Mapping[str, float] = MappingProxyType(
    {"intel-skl": 10.0, "intel-spr": 22.0, "amd-zen34": 24.0, "amd-zen5": 32.0})
PCIE_PLACEMENTS = ("switch", "cross_socket")


def nccl_pcie_gbs(gen: int) -> float:
    """NCCL's planning bandwidth for a PCIe x16 link of generation ``gen`` (GB/s)."""
    return NCCL_PCI_GEN3_GBS * 2 ** (gen - 3)


def pcie_allreduce_gbs(gen: int, placement: str = "switch", cpu: str = "intel-spr") -> float:
    """All-reduce bus bandwidth (GB/s) the model expects between GPUs on PCIe.

    ``switch``: GPUs under one PCIe switch / root complex with P2P: 80 % of the
    raw x16 rate (Gen5 50.4, the article's ~50 GB/s; Gen4 25.2).
    ``cross_socket``: the ring crosses the CPU interconnect; NCCL plans with
    the slower of the PCIe link and ``cpu``'s inter-socket figure (SPR 22).
    """
    if placement == "switch":
        return PCIE_SWITCH_SHARE * PCIE_RAW_X16_GBS[gen]
    if placement == "cross_socket":
        return min(nccl_pcie_gbs(gen), INTER_SOCKET_GBS[cpu])
    raise ValueError(placement)


def pcie_allreduce_range_gbs(gen: int, placement: str = "switch", cpu: str | None = None) -> tuple[float, float]:
    """(low, high) all-reduce bus bandwidth on PCIe (GB/s) for the uncertainty range.

    ``switch``: NCCL's planning figure (Gen5 48) to the raw x16 rate (63).
    ``cross_socket``: NCCL's inter-socket figure for ``cpu`` (the slowest it
    knows, Skylake UPI 10, when ``cpu`` is None) to the fastest it knows (AMD
    Zen 5, 32), never above the same-switch figure. An 8 x RTX 5090 box on two
    Xeon 8480+ (Sapphire Rapids, 22) measured 28 GB/s
    (https://github.com/NVIDIA/nccl/issues/1639).
    """
    if placement == "switch":
        return nccl_pcie_gbs(gen), PCIE_RAW_X16_GBS[gen]
    if placement == "cross_socket":
        low = INTER_SOCKET_GBS[cpu] if cpu else min(INTER_SOCKET_GBS.values())
        high = min(max(INTER_SOCKET_GBS.values()), pcie_allreduce_gbs(gen, "switch"))
        return min(low, nccl_pcie_gbs(gen)), high
    raise ValueError(placement)


# NVLink: NCCL's per-link planning figure x links: "SM90_NVLINK_BW 20.6" x 18
# NVLink 4 links = 370.8 GB/s, "SM100_NVLINK_BW 40.1" x 18 = 721.8 (topo.h
# above); sjeaugey: "NCCL can get an effective NVLink bandwidth of 370GB/s ...
# with NCCL_ALGO=RING ... allreduce uses NVLink SHARP by default ... On 8 GPUs,
# you should reach a peak busBw of ~480GB/s" (https://github.com/NVIDIA/nccl-tests/issues/212).
NVLINK_RING_GBS: Mapping[str, float] = MappingProxyType(
    {"nvlink3": 20.0 * 12, "nvlink": 20.6 * 18, "nvlink5": 40.1 * 18})
NVLINK4_NVLS_GBS = 480.0
# NVLink 3 (A100): no NVLink SHARP (NVLS needs third-generation NVSwitch, Hopper on);
# measured busbw ~200 GB/s on 8 x A100 SXM4 80GB (nccl-tests issue #149 above).
NVLINK3_MEASURED_GBS = 200.0


def nvlink_allreduce_range_gbs(link: str) -> tuple[float, float]:
    """(low, high) all-reduce bus bandwidth on NVLink (GB/s): the catalog's figure to NVLink SHARP.

    NVLink 3 has no SHARP: from the measured busbw to NCCL's planning figure.
    """
    if link == "nvlink3":
        return NVLINK3_MEASURED_GBS, NVLINK_RING_GBS[link]
    low = FABRIC_BY_ID[link].bandwidth_gbs
    # NVLink 5: the same SHARP gain over the ring as measured on NVLink 4 (an assumption).
    sharp_gain = NVLINK4_NVLS_GBS / NVLINK_RING_GBS["nvlink"]
    high = NVLINK4_NVLS_GBS if link == "nvlink" else NVLINK_RING_GBS[link] * sharp_gain
    return low, high


# Network: achieved per NIC in NCCL all-reduce, against the line rate the
# catalog uses. sjeaugey: "12.2 GB/s (for a 100Gbps card) is as good as you can
# get" (https://github.com/NVIDIA/nccl-tests/issues/29); AddyLaddy: "CX-7 NICs
# at NDR rate (400Gbps) should achieve up to 48-49GB/s per NIC"
# (https://github.com/NVIDIA/nccl-tests/issues/267); 200G HDR: 86-91 GB/s over
# 4 NICs (issues #175, #100), 192 GB/s over 8 on a DGX A100 (NVIDIA/nccl #1576):
# 21.5-24 GB/s per NIC = 86-96 % of 25. Low end: 0.86 of the line rate.
NIC_ACHIEVED_SHARE_RANGE = (0.86, 1.0)


def network_allreduce_range_gbs(fabric: str, nics: int = 1) -> tuple[float, float]:
    """(low, high) cross-node all-reduce bus bandwidth (GB/s) over ``nics`` NICs per node."""
    line = FABRIC_BY_ID[fabric].bandwidth_gbs * nics
    return line * NIC_ACHIEVED_SHARE_RANGE[0], line * NIC_ACHIEVED_SHARE_RANGE[1]
