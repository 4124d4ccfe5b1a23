"""A checkpoint's chat template (Jinja), rendered as transformers' `apply_chat_template` renders it.

Chat templates come with checkpoints from the Hub, so they are untrusted code: like transformers
(`utils/chat_template_utils.py`), they run in jinja2's ImmutableSandboxedEnvironment (jinja2 >= 3.1.6, which
closes the known sandbox escapes), with trim_blocks and lstrip_blocks, the loop controls extension, and the same
helpers: `raise_exception(message)`, `strftime_now(format)` and a `tojson` that keeps non-ASCII text. The context
is the messages, `add_generation_prompt`, `tools`, `documents`, the tokenizer's special tokens (`bos_token`,
`eos_token`, ...) and any extra keyword. Checked against transformers' apply_chat_template (tokenize=False) on
ChatML and Llama-3 templates (tests/data/test_chat_template.py).
"""
from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment


class ChatTemplateError(ValueError):
    """A template that fails to render, or raises through raise_exception (a role it does not take, ...)."""


def _raise_exception(message: str):
    raise jinja2.exceptions.TemplateError(message)


def _tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False) -> str:
    # Jinja's own tojson escapes HTML characters, which a prompt must keep as they are.
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _strftime_now(format: str) -> str:
    return datetime.now().strftime(format)


@lru_cache(maxsize=16)
def compile_chat_template(template: str) -> jinja2.Template:
    """The template compiled once (a chat renders it every turn)."""
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = _tojson
    env.globals.update(raise_exception=_raise_exception, strftime_now=_strftime_now)
    return env.from_string(template)


def render_chat_template(template: str, messages: list[dict], *, add_generation_prompt: bool = False,
                         tools: list[dict] | None = None, documents: list[dict] | None = None, **context) -> str:
    """The conversation as the model's prompt text. messages: [{"role": "user", "content": "..."}, ...]; keys
    whose value is None are dropped, as transformers drops them (many templates print "None" otherwise);
    add_generation_prompt: end with the header of the assistant's turn, so the model writes its reply."""
    if not messages:
        raise ValueError("messages is empty; expected at least one {'role': ..., 'content': ...}")
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise TypeError(f"messages[{i}] must be a dict with 'role' and 'content', got {type(message).__name__}")
    messages = [{k: v for k, v in m.items() if v is not None} for m in messages]
    try:
        return compile_chat_template(template).render(messages=messages, tools=tools, documents=documents,
                                                      add_generation_prompt=add_generation_prompt, **context)
    except jinja2.exceptions.TemplateError as error:
        raise ChatTemplateError(f"the chat template failed: {error}") from error


def end_of_turn_ids(tokenizer) -> tuple[int, ...]:
    """The ids that end the assistant's reply: the end-of-text token and the special token the template writes
    right after an assistant message (ChatML's <|im_end|>, Llama 3's <|eot_id|>), which instruction-tuned
    checkpoints emit and often do not name as their eos_token. A data.tokenization.Tokenizer with a template."""
    probe = "\x00REPLY\x00"
    text = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}, {"role": "assistant", "content": probe}],
                                         tokenize=False)
    after = text.partition(probe)[2]
    ids = tokenizer.encode(after, add_special_tokens=False) if after else []
    ends = {tokenizer.eos_id} | ({ids[0]} if ids and ids[0] in tokenizer.special_ids else set())
    return tuple(sorted(i for i in ends if i is not None))
