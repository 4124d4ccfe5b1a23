"""Tokenizer.apply_chat_template renders a checkpoint's chat template as transformers' apply_chat_template does
(tokenize=False: the same text; tokenize=True: the same ids), on real-world templates written into a tokenizer
directory: ChatML (Qwen2.5's), Llama 3's, one with tools, dates and raise_exception."""
import json

import pytest
import transformers

from data.chat_template import ChatTemplateError
from data.text import KJV_EXTRACT
from data.tokenization import EOT, load_tokenizer, train_bpe

CHATML = ("{%- for message in messages %}{%- if loop.first and message['role'] != 'system' %}"
          "{{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}{%- endif %}"
          "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}"
          "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}")
LLAMA3 = ("{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = "
          "'<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'+ message['content'] | trim + "
          "'<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}"
          "{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}"
          "{% endif %}")
# Llama 3.2's features in a few lines: a date from strftime_now, tools as JSON, roles that must alternate.
TOOLS_AND_DATES = """{{- bos_token }}
{%- if not date_string is defined %}
    {%- set date_string = strftime_now("%d %b %Y") %}
{%- endif %}
{{- "<|start_header_id|>system<|end_header_id|>\\n\\nToday Date: " + date_string + "\\n" }}
{%- if tools is not none %}
    {%- for t in tools %}
        {{- t | tojson(indent=4) }}
        {{- "\\n\\n" }}
    {%- endfor %}
{%- endif %}
{{- "<|eot_id|>" }}
{%- for message in messages %}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}
        {{- raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}
    {%- endif %}
    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + message['content']|trim + '<|eot_id|>' }}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}
{%- endif %}
"""
SPECIALS = [EOT, "<|begin_of_text|>", "<|im_start|>", "<|im_end|>", "<|start_header_id|>", "<|end_header_id|>",
            "<|eot_id|>"]
CHAT = [{"role": "user", "content": "Who said «let there be light»? <b>&</b>"},
        {"role": "assistant", "content": "  God, in Genesis 1:3.  "},
        {"role": "user", "content": "And then?", "name": None}]
TOOL = {"type": "function", "function": {"name": "verse", "description": "Look up a verse (é, 日本)",
                                         "parameters": {"type": "object", "properties": {"ref": {"type": "string"}}}}}


@pytest.fixture(scope="module")
def tokenizer():
    return train_bpe([open(KJV_EXTRACT).read()[:50_000]], vocab_size=400, special_tokens=SPECIALS)


def directory(path, tokenizer, template, in_config: bool):
    """The tokenizer saved as transformers 5 saves a template (chat_template.jinja) or as older ones did."""
    tokenizer.chat_template = None if in_config else template
    tokenizer.save(path)
    if in_config:
        config = json.loads((path / "tokenizer_config.json").read_text())
        (path / "tokenizer_config.json").write_text(json.dumps({**config, "chat_template": template}))
    return path


@pytest.mark.parametrize("template", [CHATML, LLAMA3, TOOLS_AND_DATES], ids=["chatml", "llama3", "tools"])
@pytest.mark.parametrize("in_config", [False, True], ids=["jinja-file", "tokenizer-config"])
@pytest.mark.parametrize("add_generation_prompt", [True, False])
def test_rendered_prompt_equals_transformers(tmp_path, tokenizer, template, in_config, add_generation_prompt):
    path = directory(tmp_path, tokenizer, template, in_config)
    ours, theirs = load_tokenizer(path), transformers.AutoTokenizer.from_pretrained(path)
    messages = CHAT if add_generation_prompt else CHAT[:2]
    extra = {"tools": [TOOL]} if template is TOOLS_AND_DATES else {}
    text = ours.apply_chat_template(messages, add_generation_prompt=add_generation_prompt, tokenize=False, **extra)
    assert text == theirs.apply_chat_template(messages, add_generation_prompt=add_generation_prompt,
                                              tokenize=False, **extra)
    assert ours.apply_chat_template(messages, add_generation_prompt=add_generation_prompt, **extra) == list(
        theirs.apply_chat_template(messages, add_generation_prompt=add_generation_prompt, **extra)["input_ids"])
    assert ("<|begin_of_text|>" in text) == (template is not CHATML)  # bos_token from the tokenizer's config


def test_errors_name_the_cause(tmp_path, tokenizer):
    ours = load_tokenizer(directory(tmp_path, tokenizer, TOOLS_AND_DATES, False))
    with pytest.raises(ChatTemplateError, match="roles must alternate"):  # the template's raise_exception
        ours.apply_chat_template([{"role": "assistant", "content": "hi"}], tokenize=False)
    with pytest.raises(ValueError, match="messages is empty"):
        ours.apply_chat_template([], tokenize=False)
    tokenizer.chat_template = None
    with pytest.raises(ValueError, match="this tokenizer has no chat template: .*chat_template.jinja"):
        tokenizer.apply_chat_template(CHAT)
    assert tokenizer.apply_chat_template(CHAT[:1], chat_template=CHATML, tokenize=False).startswith("<|im_start|>")


def test_the_sandbox_refuses_unsafe_attributes(tokenizer):
    with pytest.raises(Exception, match="unsafe|access to attribute"):
        tokenizer.apply_chat_template(CHAT, chat_template="{{ messages.__class__.__mro__ }}", tokenize=False)
