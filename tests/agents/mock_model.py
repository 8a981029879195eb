#!/usr/bin/env python3
"""A deterministic mock of the model APIs that coding agents call.

For the agent tests of ltd-native (tests/agents/). Standard library only.
It listens on the host's loopback; in the cage the agents reach it through
ltd-native's provider seam (--proxy-url http://127.0.0.1:PORT, seen inside
as http://host.ltd.internal:PORT). It never calls anything itself.

Served:
  Anthropic  POST /v1/messages                 (SSE when "stream": true, else JSON)
             POST /v1/messages/count_tokens
             GET  /v1/models[/ID]
  OpenAI     POST /v1/responses                 (SSE when "stream": true, else JSON)
             POST /v1/chat/completions          (SSE when "stream": true, else JSON)
             GET  /v1/models
  Gemini     POST /v1beta/models/M:generateContent
             POST /v1beta/models/M:streamGenerateContent?alt=sse
             POST /v1beta/models/M:countTokens
             GET  /v1beta/models[/M]
  anything else: 404 with a JSON error (and a log line, so one sees what an
  agent asked for).

Replies are deterministic. A normal turn answers with a text containing the
marker (default "LTD-MOCK-REPLY"). When the last user message contains a line
"run: COMMAND" and the request offers a shell tool, the mock answers with a
call of that tool (Claude's Bash, Codex's shell_command/exec_command/shell/
local_shell, Gemini's run_shell_command). When the request carries the
tool's result, the mock answers with the final text
"<marker> tool-done: <first line of the output>".

Every request is logged as one JSON line in --log FILE (and summarised on
stderr unless --quiet): time, method, path, the credential headers
(authorization, x-api-key, x-goog-api-key), user-agent, the model, stream,
what the mock answered, and "secret_seen": whether any --secret STRING
appears anywhere in the request (request line, headers or body, raw or
URL-encoded or base64-encoded), so a test can prove that a real key never
left the cage.

Usage:
  mock_model.py [--host 127.0.0.1] [--port 0] [--log FILE] [--secret S]...
                [--port-file FILE] [--marker TEXT] [--quiet]
With --port 0 (the default) the kernel picks a port; it is printed on
stdout as "PORT <n>" (and written to --port-file) once the server listens.
"""

import argparse
import base64
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RUN_RE = re.compile(r"(?im)^\s*(?:please\s+)?run:\s*`?(.+?)`?\s*$")

ANTHROPIC_MODELS = ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"]
OPENAI_MODELS = ["gpt-5", "gpt-5-codex", "mock-model"]
GEMINI_MODELS = ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite"]


class Mock:
    """Configuration and the shared log."""

    def __init__(self, log_path, secrets, marker, quiet):
        self.log_file = open(log_path, "a", buffering=1) if log_path else None
        self.secrets = [s for s in secrets if s]
        self.marker = marker
        self.quiet = quiet
        self.lock = threading.Lock()
        self.counter = 0
        self.dump_dir = None
        self.dumped = 0

    def next_id(self, prefix):
        with self.lock:
            self.counter += 1
            return "%s_mock%06d" % (prefix, self.counter)

    def secret_seen(self, raw):
        for s in self.secrets:
            b = s.encode()
            forms = [b, urllib.parse.quote(s).encode(), urllib.parse.quote_plus(s).encode(),
                     base64.b64encode(b), base64.b64encode(b).rstrip(b"=")]
            if any(f in raw for f in forms):
                return True
        return False

    def log(self, entry):
        line = json.dumps(entry, sort_keys=True)
        with self.lock:
            if self.log_file:
                self.log_file.write(line + "\n")
                self.log_file.flush()
            if not self.quiet:
                sys.stderr.write("mock: %s %s model=%s -> %s%s\n" % (
                    entry["method"], entry["path"], entry.get("model"),
                    entry.get("reply"), " SECRET-SEEN" if entry["secret_seen"] else ""))
                sys.stderr.flush()


# ---------------------------------------------------------------- helpers

def text_of(content):
    """Flatten a message content (string, or list of blocks/parts) to text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    out = []
    for block in content:
        if isinstance(block, str):
            out.append(block)
        elif isinstance(block, dict):
            for key in ("text", "input_text", "output_text"):
                if isinstance(block.get(key), str):
                    out.append(block[key])
            if "content" in block and block.get("type") in ("tool_result",):
                out.append(text_of(block["content"]))
    return "\n".join(out)


def wanted_command(text):
    """The command of the last 'run: CMD' line in text, or None."""
    found = RUN_RE.findall(text or "")
    return found[-1].strip() if found else None


def first_line(s, limit=200):
    s = (s or "").strip()
    return s.splitlines()[0][:limit] if s else ""


def example_from_schema(schema, depth=0):
    """A minimal JSON value that satisfies a (JSON or OpenAPI-style) schema.

    Agents ask for structured output on side requests (gemini-cli's model
    router asks for {"complexity_reasoning": str, "complexity_score": int});
    a text reply there makes them retry for a minute or more."""
    if not isinstance(schema, dict) or depth > 8:
        return None
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return example_from_schema(schema[key][0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if str(k).lower() != "null"), kind[0] if kind else None)
    kind = str(kind or ("object" if "properties" in schema else "string")).lower()
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: example_from_schema(sub, depth + 1) for name, sub in props.items()}
    if kind == "array":
        return []
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return False
    return "mock"


def sse(events, named=True):
    """Serialise (event_name, data) pairs as a text/event-stream body."""
    out = []
    for name, data in events:
        if named and name:
            out.append("event: %s\n" % name)
        out.append("data: %s\n\n" % (data if isinstance(data, str) else json.dumps(data)))
    return "".join(out).encode()


# ---------------------------------------------------------------- Anthropic

def anthropic_plan(mock, body):
    """Decide the reply: ('text', str) or ('tool', name, input)."""
    # Claude Code may append role "system" messages after the user's turn
    # (its mid-conversation-system beta): look at the last user/assistant one.
    messages = [m for m in body.get("messages") or [] if m.get("role") in ("user", "assistant")]
    last = messages[-1] if messages else {}
    content = last.get("content")
    if isinstance(content, list):
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        if results:
            return ("text", "%s tool-done: %s" % (mock.marker, first_line(text_of(results[-1].get("content")))))
    cmd = wanted_command(text_of(content)) if last.get("role") == "user" else None
    tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    if cmd and "Bash" in tools:
        return ("tool", "Bash", {"command": cmd, "description": "Run the requested command"})
    return ("text", "%s from the anthropic mock (model %s)" % (mock.marker, body.get("model")))


def anthropic_messages(mock, body):
    plan = anthropic_plan(mock, body)
    msg_id = mock.next_id("msg")
    model = body.get("model") or "claude-mock"
    usage = {"input_tokens": 10, "output_tokens": 5,
             "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    if plan[0] == "text":
        block = {"type": "text", "text": plan[1]}
        stop = "end_turn"
        summary = "text"
    else:
        block = {"type": "tool_use", "id": mock.next_id("toolu"), "name": plan[1], "input": plan[2]}
        stop = "tool_use"
        summary = "tool_use %s: %s" % (plan[1], plan[2].get("command"))
    message = {"id": msg_id, "type": "message", "role": "assistant", "model": model,
               "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}
    if not body.get("stream"):
        return 200, "application/json", json.dumps(message).encode(), summary
    start = dict(message, content=[], stop_reason=None, usage=dict(usage, output_tokens=1))
    events = [("message_start", {"type": "message_start", "message": start})]
    if block["type"] == "text":
        events.append(("content_block_start", {"type": "content_block_start", "index": 0,
                                               "content_block": {"type": "text", "text": ""}}))
        events.append(("ping", {"type": "ping"}))
        text = block["text"]
        half = len(text) // 2
        for piece in (text[:half], text[half:]):
            events.append(("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                   "delta": {"type": "text_delta", "text": piece}}))
    else:
        events.append(("content_block_start", {"type": "content_block_start", "index": 0,
                                               "content_block": dict(block, input={})}))
        events.append(("content_block_delta", {"type": "content_block_delta", "index": 0,
                                               "delta": {"type": "input_json_delta",
                                                         "partial_json": json.dumps(block["input"])}}))
    events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 5}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return 200, "text/event-stream", sse(events), summary


# ---------------------------------------------------------------- OpenAI Responses

SHELL_TOOLS = ("shell_command", "exec_command", "shell", "local_shell")


def responses_plan(mock, body):
    items = body.get("input")
    if isinstance(items, str):
        items = [{"type": "message", "role": "user", "content": items}]
    items = items or []
    last = items[-1] if items else {}
    if last.get("type") in ("function_call_output", "local_shell_call_output", "custom_tool_call_output"):
        out = last.get("output")
        if isinstance(out, dict):
            out = out.get("content") or json.dumps(out)
        elif isinstance(out, list):
            out = text_of(out)
        # codex wraps outputs as "Exit code: 0\nWall time: ...\nOutput:\n..." for
        # some tools: report the line after "Output:" when there is one.
        text = out or ""
        m = re.search(r"(?m)^Output:\s*\n(.*)", text)
        return ("text", "%s tool-done: %s" % (mock.marker, first_line(m.group(1) if m else text)))
    user_msgs = [i for i in items if i.get("type", "message") == "message" and i.get("role") == "user"]
    cmd = wanted_command(text_of(user_msgs[-1].get("content"))) if user_msgs else None
    if cmd:
        offered = {}
        for t in body.get("tools") or []:
            name = t.get("name") or (t.get("function") or {}).get("name") or t.get("type")
            offered[name] = t
        for name in SHELL_TOOLS:
            if name in offered:
                return ("tool", name, cmd)
    return ("text", "%s from the openai mock (model %s)" % (mock.marker, body.get("model")))


def responses_tool_item(mock, name, cmd):
    call_id = mock.next_id("call")
    if name == "local_shell":
        return {"type": "local_shell_call", "id": mock.next_id("lsh"), "call_id": call_id,
                "status": "completed",
                "action": {"type": "exec", "command": ["bash", "-lc", cmd]}}
    if name == "shell_command":
        args = {"command": cmd}
    elif name == "exec_command":
        args = {"cmd": cmd}
    else:  # "shell": argv form
        args = {"command": ["bash", "-lc", cmd]}
    return {"type": "function_call", "id": mock.next_id("fc"), "call_id": call_id,
            "name": name, "arguments": json.dumps(args), "status": "completed"}


def openai_responses(mock, body):
    fmt = (body.get("text") or {}).get("format") or {}
    if fmt.get("type") == "json_schema" and fmt.get("schema"):
        plan = ("text", json.dumps(example_from_schema(fmt["schema"])))
    else:
        plan = responses_plan(mock, body)
    resp_id = mock.next_id("resp")
    model = body.get("model") or "mock-model"
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": 15}
    if plan[0] == "text":
        item = {"type": "message", "id": mock.next_id("msg"), "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": plan[1], "annotations": []}]}
        summary = "text"
    else:
        item = responses_tool_item(mock, plan[1], plan[2])
        summary = "tool_call %s: %s" % (plan[1], plan[2])
    response = {"id": resp_id, "object": "response", "created_at": int(time.time()),
                "status": "completed", "model": model, "output": [item], "usage": usage,
                "error": None, "incomplete_details": None}
    if not body.get("stream"):
        return 200, "application/json", json.dumps(response).encode(), summary
    pending = dict(response, status="in_progress", output=[], usage=None)
    seq = iter(range(1000))
    events = [("response.created", {"type": "response.created", "sequence_number": next(seq), "response": pending}),
              ("response.in_progress", {"type": "response.in_progress", "sequence_number": next(seq), "response": pending})]
    if item["type"] == "message":
        text = item["content"][0]["text"]
        added = dict(item, status="in_progress", content=[])
        events.append(("response.output_item.added", {"type": "response.output_item.added", "sequence_number": next(seq),
                                                      "output_index": 0, "item": added}))
        events.append(("response.content_part.added", {"type": "response.content_part.added", "sequence_number": next(seq),
                                                       "item_id": item["id"], "output_index": 0, "content_index": 0,
                                                       "part": {"type": "output_text", "text": "", "annotations": []}}))
        half = len(text) // 2
        for piece in (text[:half], text[half:]):
            events.append(("response.output_text.delta", {"type": "response.output_text.delta", "sequence_number": next(seq),
                                                          "item_id": item["id"], "output_index": 0,
                                                          "content_index": 0, "delta": piece}))
        events.append(("response.output_text.done", {"type": "response.output_text.done", "sequence_number": next(seq),
                                                      "item_id": item["id"], "output_index": 0,
                                                      "content_index": 0, "text": text}))
        events.append(("response.content_part.done", {"type": "response.content_part.done", "sequence_number": next(seq),
                                                      "item_id": item["id"], "output_index": 0, "content_index": 0,
                                                      "part": item["content"][0]}))
    else:
        events.append(("response.output_item.added", {"type": "response.output_item.added", "sequence_number": next(seq),
                                                      "output_index": 0, "item": item}))
    events.append(("response.output_item.done", {"type": "response.output_item.done", "sequence_number": next(seq),
                                                 "output_index": 0, "item": item}))
    events.append(("response.completed", {"type": "response.completed", "sequence_number": next(seq), "response": response}))
    return 200, "text/event-stream", sse(events), summary


# ---------------------------------------------------------------- OpenAI Chat Completions

def openai_chat(mock, body):
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    tools = {(t.get("function") or {}).get("name") for t in body.get("tools") or []}
    cmd = wanted_command(text_of(last.get("content"))) if last.get("role") == "user" else None
    model = body.get("model") or "mock-model"
    cid = mock.next_id("chatcmpl")
    if last.get("role") == "tool":
        msg = {"role": "assistant", "content": "%s tool-done: %s" % (mock.marker, first_line(text_of(last.get("content"))))}
        finish, summary = "stop", "text"
    elif cmd and tools & {"bash", "shell", "run_shell_command", "shell_command"}:
        name = sorted(tools & {"bash", "shell", "run_shell_command", "shell_command"})[0]
        msg = {"role": "assistant", "content": None,
               "tool_calls": [{"id": mock.next_id("call"), "type": "function",
                               "function": {"name": name, "arguments": json.dumps({"command": cmd})}}]}
        finish, summary = "tool_calls", "tool_call %s: %s" % (name, cmd)
    else:
        msg = {"role": "assistant", "content": "%s from the openai chat mock (model %s)" % (mock.marker, model)}
        finish, summary = "stop", "text"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if not body.get("stream"):
        out = {"id": cid, "object": "chat.completion", "created": int(time.time()), "model": model,
               "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage}
        return 200, "application/json", json.dumps(out).encode(), summary
    base = {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
    delta = {"role": "assistant"}
    if msg.get("content"):
        delta["content"] = msg["content"]
    if msg.get("tool_calls"):
        delta["tool_calls"] = [dict(tc, index=i) for i, tc in enumerate(msg["tool_calls"])]
    chunks = [dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
              dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)]
    return 200, "text/event-stream", sse([(None, c) for c in chunks] + [(None, "[DONE]")], named=False), summary


# ---------------------------------------------------------------- Gemini

def gemini_plan(mock, body, model):
    contents = body.get("contents") or []
    last = contents[-1] if contents else {}
    parts = last.get("parts") or []
    responses = [p["functionResponse"] for p in parts if isinstance(p, dict) and "functionResponse" in p]
    if responses:
        resp = responses[-1].get("response") or {}
        out = resp.get("output") if isinstance(resp, dict) else resp
        if not isinstance(out, str):
            out = json.dumps(out)
        # gemini-cli's shell tool reports "Command: ...\nDirectory: ...\nOutput: hi\n..."
        m = re.search(r"(?m)^Output:\s*(.*)", out)
        return ("text", "%s tool-done: %s" % (mock.marker, first_line(m.group(1) if m else out)))
    cmd = wanted_command(text_of(parts)) if last.get("role", "user") == "user" else None
    names = set()
    for t in body.get("tools") or []:
        for fd in t.get("functionDeclarations") or t.get("function_declarations") or []:
            names.add(fd.get("name"))
    if cmd and "run_shell_command" in names:
        return ("tool", "run_shell_command", cmd)
    return ("text", "%s from the gemini mock (model %s)" % (mock.marker, model))


def gemini_generate(mock, body, model, stream):
    gen = body.get("generationConfig") or {}
    schema = gen.get("responseJsonSchema") or gen.get("responseSchema")
    if gen.get("responseMimeType") == "application/json" and schema:
        plan = ("text", json.dumps(example_from_schema(schema)))
    else:
        plan = gemini_plan(mock, body, model)
    if plan[0] == "text":
        part = {"text": plan[1]}
        summary = "text"
    else:
        part = {"functionCall": {"name": plan[1], "args": {"command": plan[2], "description": "Run the requested command"}}}
        summary = "functionCall %s: %s" % (plan[1], plan[2])
    out = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
           "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
           "modelVersion": model, "responseId": mock.next_id("gem")}
    if not stream:
        return 200, "application/json", json.dumps(out).encode(), summary
    return 200, "text/event-stream", sse([(None, out)], named=False), summary


# ---------------------------------------------------------------- HTTP

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ltd-mock-model/1"
    mock = None  # set in main()

    def log_message(self, fmt, *args):  # silence the default access log
        pass

    def _read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def _send(self, status, ctype, payload):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        if ctype == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
        self.send_header("request-id", "req_mock")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)
            self.wfile.flush()

    def _handle(self):
        mock = self.mock
        raw_body = self._read_body()
        if self.headers.get("Content-Encoding", "").lower() == "gzip" and raw_body:
            import gzip
            try:
                raw_body = gzip.decompress(raw_body)
            except OSError:
                pass
        elif self.headers.get("Content-Encoding", "").lower() == "zstd":
            pass  # not in the stdlib: the body stays opaque
        raw = (self.requestline + "\r\n" + str(self.headers)).encode("latin-1", "replace") + b"\r\n" + raw_body
        try:
            body = json.loads(raw_body) if raw_body else {}
            if not isinstance(body, dict):
                body = {}
        except ValueError:
            body = {}
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        query = urllib.parse.parse_qs(url.query)
        model = body.get("model")
        status, ctype, payload, summary = 404, "application/json", b"", "404"
        try:
            if self.command == "POST" and path.endswith("/v1/messages"):
                status, ctype, payload, summary = anthropic_messages(mock, body)
            elif self.command == "POST" and path.endswith("/v1/messages/count_tokens"):
                status, ctype, payload, summary = 200, "application/json", json.dumps({"input_tokens": 42}).encode(), "count_tokens"
            elif self.command == "POST" and path.endswith("/responses"):
                status, ctype, payload, summary = openai_responses(mock, body)
            elif self.command == "POST" and path.endswith("/chat/completions"):
                status, ctype, payload, summary = openai_chat(mock, body)
            elif "/models/" in path and ":" in path.rsplit("/", 1)[-1] and self.command == "POST":
                model, _, method = path.rsplit("/", 1)[-1].partition(":")
                model = urllib.parse.unquote(model)
                if method == "generateContent":
                    status, ctype, payload, summary = gemini_generate(mock, body, model, False)
                elif method == "streamGenerateContent":
                    status, ctype, payload, summary = gemini_generate(mock, body, model, "sse" in query.get("alt", []))
                    if ctype == "application/json":  # no alt=sse: a JSON array of chunks
                        payload = b"[" + payload + b"]"
                elif method == "countTokens":
                    status, ctype, payload, summary = 200, "application/json", json.dumps({"totalTokens": 42}).encode(), "countTokens"
            elif self.command == "GET" and re.search(r"/v1beta/models/?$", path):
                payload = json.dumps({"models": [{"name": "models/" + m, "displayName": m,
                                                  "supportedGenerationMethods": ["generateContent", "streamGenerateContent", "countTokens"]}
                                                 for m in GEMINI_MODELS]}).encode()
                status, summary = 200, "models"
            elif self.command == "GET" and re.search(r"/v1/models/?$", path):
                names = ANTHROPIC_MODELS if ("x-api-key" in self.headers or "anthropic-version" in self.headers) else OPENAI_MODELS
                data = [{"id": m, "type": "model", "object": "model", "display_name": m,
                         "created_at": "2025-01-01T00:00:00Z", "created": 1735689600, "owned_by": "mock"} for m in names]
                payload = json.dumps({"object": "list", "data": data, "models": [], "has_more": False,
                                      "first_id": names[0], "last_id": names[-1]}).encode()
                status, summary = 200, "models"
            elif self.command == "GET" and re.search(r"/v1/models/[^/]+$", path):
                mid = urllib.parse.unquote(path.rsplit("/", 1)[-1])
                payload = json.dumps({"id": mid, "type": "model", "object": "model", "display_name": mid,
                                      "created_at": "2025-01-01T00:00:00Z"}).encode()
                status, summary = 200, "model"
        except Exception as exc:  # a bug in the mock must show, not hang the client
            status, ctype, summary = 500, "application/json", "500 %r" % exc
            payload = json.dumps({"error": {"type": "mock_error", "message": repr(exc)}}).encode()
        if status == 404:
            payload = json.dumps({"type": "error", "error": {"type": "not_found_error", "code": 404,
                                                             "message": "mock: no route for %s %s" % (self.command, path)}}).encode()
        if mock.dump_dir:
            with mock.lock:
                mock.dumped += 1
                n = mock.dumped
            with open("%s/%04d.json" % (mock.dump_dir, n), "w") as f:
                json.dump({"method": self.command, "path": self.path, "headers": dict(self.headers),
                           "body": body if body else raw_body.decode("utf-8", "replace")}, f, indent=1)
        mock.log({
            "ts": round(time.time(), 3),
            "method": self.command,
            "path": self.path,
            "authorization": self.headers.get("Authorization"),
            "x_api_key": self.headers.get("x-api-key"),
            "x_goog_api_key": self.headers.get("x-goog-api-key"),
            "user_agent": self.headers.get("User-Agent"),
            "model": model,
            "stream": bool(body.get("stream")) or "alt=sse" in url.query,
            "status": status,
            "reply": summary,
            "secret_seen": mock.secret_seen(raw),
        })
        self._send(status, ctype, payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _handle


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=0, help="port (default 0: the kernel picks one, printed as 'PORT n')")
    ap.add_argument("--port-file", help="write the port number to this file once listening")
    ap.add_argument("--log", help="append one JSON line per request to this file")
    ap.add_argument("--secret", action="append", default=[], help="flag requests that contain this string (repeatable)")
    ap.add_argument("--marker", default="LTD-MOCK-REPLY", help="text that every reply contains")
    ap.add_argument("--quiet", action="store_true", help="no per-request line on stderr")
    ap.add_argument("--dump-dir", help="also save each request's headers and body as DIR/NNNN.json (for debugging)")
    args = ap.parse_args(argv)

    Handler.mock = Mock(args.log, args.secret, args.marker, args.quiet)
    Handler.mock.dump_dir = args.dump_dir
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write("%d\n" % port)
        os.replace(args.port_file + ".tmp", args.port_file)
    print("PORT %d" % port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
