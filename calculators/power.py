"""Power a node draws from the wall: its GPUs' board power plus an allowance for the rest.

node_w = gpus x board_w + NODE_REST_BASE_W + NODE_REST_SHARE x gpus x board_w
(assumptions.py: the allowance is fitted exactly on DGX H100's 10.2 kW and DGX
B200's 14.3 kW maximum system power; board_w per GPU from the datasheets in
catalog/gpus.py). Maximum figures: what a rack's power and cooling are sized for.
"""

from . import assumptions as A
from .catalog.gpus import Gpu


def node_kw(gpu: Gpu, gpus: int) -> float:
    """Maximum draw of one node with ``gpus`` GPUs, kW (GPUs + the rest of the node)."""
    board = gpus * gpu.board_w
    return (board + A.NODE_REST_BASE_W + A.NODE_REST_SHARE * board) / 1000.0
