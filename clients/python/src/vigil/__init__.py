"""
Vigil server-side library: track events from your Python backend and read the device risk insights
Vigil answers with. ``Vigil(url, write_key).set_ip(ip).identify(user).track("login")``.
"""

from ._core.batch_sender import CloseResult
from ._core.errors import ErrorCode, VigilError
from ._core.insights import RISK_TAGS, Behavior, Insights
from ._version import __version__
from .client import Vigil

__all__ = ["Vigil", "Insights", "Behavior", "VigilError", "ErrorCode", "CloseResult", "RISK_TAGS", "__version__"]
