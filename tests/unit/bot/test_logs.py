"""bot/logs.py and the action log line: readable text, or one JSON object per line."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.instrument import ActionRecord, Outcome
from bot.logs import setup_logging
from bot.telemetry import log_action
from core.service.model.commit import Scope


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """Capture the root logger, and put it back as it was afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    out = io.StringIO()
    yield out
    root.handlers[:] = handlers
    root.setLevel(level)


def roll(outcome: Outcome = Outcome.OK, error: str = "") -> ActionRecord:
    scope = Scope("discord", "42")
    return ActionRecord("click.roll", outcome, 0.0031, scope, "c1", "u7", "req-1", error)


def test_json_lines_carry_the_action_fields(stream: io.StringIO) -> None:
    """With SHUTBOX_LOG_JSON each action is one JSON object with its request id and outcome."""
    setup_logging("INFO", json=True, stream=stream)
    log_action(roll())
    entry = json.loads(stream.getvalue())
    assert entry["level"] == "INFO" and entry["logger"] == "shutbox.action"
    assert entry["request_id"] == "req-1" and entry["action"] == "click.roll"
    assert entry["outcome"] == "ok" and entry["ms"] == 3.1
    assert entry["server"] == "discord:42" and entry["channel"] == "c1" and entry["user"] == "u7"
    assert entry["time"].endswith("+00:00")


def test_text_lines_are_readable_and_name_the_request(stream: io.StringIO) -> None:
    """Without JSON an action is one readable line that still names the request id."""
    setup_logging("INFO", json=False, stream=stream)
    log_action(roll(Outcome.REFUSED, "error.not_your_turn"))
    line = stream.getvalue().strip()
    assert "\n" not in line
    assert "shutbox.action: click.roll refused (error.not_your_turn) in 3.10 ms" in line
    assert "request=req-1 server=discord:42 channel=c1 user=u7" in line


def test_errors_are_warnings_and_exceptions_stay_on_one_json_line(stream: io.StringIO) -> None:
    """A failed action logs at WARNING; a traceback goes inside the JSON object."""
    setup_logging("WARNING", json=True, stream=stream)
    log_action(roll())  # INFO: below the level
    log_action(roll(Outcome.ERROR, "error.redis"))
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("shutbox").exception("sweep failed")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0])["level"] == "WARNING"
    assert "RuntimeError: boom" in json.loads(lines[1])["exc_info"]


def test_json_lines_keep_the_stack_and_the_exception(stream: io.StringIO) -> None:
    """`stack_info=True` and `exc_info` both survive into the JSON object, beside the extras."""
    setup_logging("INFO", json=True, stream=stream)
    log = logging.getLogger("shutbox.health")
    log.warning("where am I", stack_info=True, extra={"request_id": "req-9"})
    try:
        raise ValueError("bad tile")
    except ValueError:
        log.error("failed", exc_info=True, stack_info=True)
    where, failed = (json.loads(line) for line in stream.getvalue().splitlines())
    assert where["stack_info"].startswith("Stack (most recent call last):")
    assert "test_json_lines_keep_the_stack_and_the_exception" in where["stack_info"]
    assert where["request_id"] == "req-9" and "exc_info" not in where
    assert "ValueError: bad tile" in failed["exc_info"] and "stack_info" in failed
    assert failed["level"] == "ERROR" and failed["logger"] == "shutbox.health"


def test_every_line_while_serving_a_request_names_it(stream: io.StringIO) -> None:
    """A line written while a request is served (an ERROR deep in an adapter, say) carries its
    request id, server, channel and user: in text after the message, in JSON as fields."""
    import contextvars

    from adapters.logcontext import bind

    def serve() -> None:
        bind(request_id="req-7", server="slack:T1", channel="C1", user="U1")
        logging.getLogger("adapters.slack.handlers").error("chat.update failed")

    setup_logging("INFO", json=False, stream=stream)
    contextvars.copy_context().run(serve)
    logging.getLogger("shutbox").info("outside any request")
    served, outside = stream.getvalue().splitlines()
    assert served.endswith("chat.update failed [request=req-7 server=slack:T1 channel=C1 user=U1]")
    assert outside.endswith("shutbox: outside any request")
    stream.truncate(0)
    stream.seek(0)
    setup_logging("INFO", json=True, stream=stream)
    contextvars.copy_context().run(serve)
    entry = json.loads(stream.getvalue())
    assert (entry["request_id"], entry["server"], entry["user"]) == ("req-7", "slack:T1", "U1")
    assert "request" not in entry


def test_text_lines_are_utc_with_the_offset(stream: io.StringIO) -> None:
    """`2026-12-02T01:02:03.456+00:00 INFO ...` whatever the machine's time zone."""
    import re

    setup_logging("INFO", json=False, stream=stream)
    logging.getLogger("shutbox").info("hello")
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00 INFO shutbox: hello$",
                    stream.getvalue().strip())  # fmt: skip


def test_malformed_http_is_one_warning_a_minute_without_traceback(stream: io.StringIO) -> None:
    """aiohttp's traceback for an unparsable request becomes one WARNING line; the next ones
    within the minute are left out and counted on the next line."""
    from aiohttp.http_exceptions import BadHttpMessage

    setup_logging("INFO", json=False, stream=stream)
    server = logging.getLogger("aiohttp.server")
    for _ in range(200):
        try:
            raise BadHttpMessage("Invalid request line")
        except BadHttpMessage as error:
            server.exception("Error handling request from %s", "127.0.0.1", exc_info=error)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    refused = "WARNING aiohttp.server: malformed HTTP request refused: Invalid request line"
    assert refused in lines[0]
