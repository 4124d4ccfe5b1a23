"""Serving: the continuous-batching generation engine that an HTTP server calls (engine.py), and the requests
it takes and the events it streams back (requests.py)."""
from zoo.serving.engine import Engine, StepEvent
from zoo.serving.requests import (
    Choice,
    EngineClosed,
    Finished,
    InvalidRequest,
    QueueFull,
    RequestHandle,
    RequestOptions,
    TokenEvent,
)

__all__ = ["Choice", "Engine", "EngineClosed", "Finished", "InvalidRequest", "QueueFull", "RequestHandle",
           "RequestOptions", "StepEvent", "TokenEvent"]
