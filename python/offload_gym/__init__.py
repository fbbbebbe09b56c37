"""The offload simulator as a learning environment (docs/env.md).

OffloadEnv(scenario=None, offload="offload") is one environment,
VectorOffloadEnv(n, scenario=None, offload="offload") n of them in one
server process; both follow Gymnasium's signatures without needing
gymnasium. Pure standard library; numpy is used when installed.
"""

from ._wire import PROTOCOL, VERSION, ServerError
from .env import OffloadEnv, VectorOffloadEnv
from .spaces import Box, Discrete

__all__ = ["OffloadEnv", "VectorOffloadEnv", "Box", "Discrete", "ServerError", "PROTOCOL", "VERSION"]
__version__ = "1.0.0"
