"""Serving: the continuous-batching generation engine that an HTTP server calls (engine.py), and the requests
it takes and the events it streams back (requests.py). The OpenAI-compatible HTTP server (app.py, with
text_routes.py, openai_schema.py, choice_text.py, served.py and audio.py) needs the `serve` extra (FastAPI,
uvicorn) and is imported by name, not from here."""
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
