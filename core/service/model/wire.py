"""The JSON of the click path (commit payloads, records, stored replies), through orjson.

Compact, UTF-8 as is: the same text the standard library writes with `separators=(",", ":")`
and `ensure_ascii=False`, in a tenth of the time (tests/bench/bench_commit.py, `payload_*`),
which is a few percent of a click.
"""

from __future__ import annotations

from typing import Any

import orjson


def dumps(data: Any) -> str:
    return orjson.dumps(data).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)
