"""Prometheus metrics without a dependency: counters, gauges, fixed-bucket histograms, text format.

registry = Registry()
clicks = registry.counter("shutbox_clicks_total", "Buttons pressed.", ("verb",))
clicks.inc(verb="roll")
registry.render()  # the text exposition format (version 0.0.4) that /metrics serves
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import TypeVar

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds, from a cache hit (well under a millisecond) to a Redis in trouble.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

LabelValues = tuple[str, ...]
Sample = tuple[str, tuple[tuple[str, str], ...], float]  # name suffix, labels, value
M = TypeVar("M", bound="Metric")


class Metric:
    """One named metric family; each distinct set of label values is one series."""

    kind = "untyped"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        self.name = name
        self.help_text = help_text
        self.labels = tuple(labels)

    def _series(self, values: dict[str, str]) -> LabelValues:
        if len(values) != len(self.labels) or not all(label in values for label in self.labels):
            raise ValueError(f"{self.name} takes labels {self.labels}, got {tuple(values)}")
        return tuple([str(values[label]) for label in self.labels])

    def _named(self, series: LabelValues) -> tuple[tuple[str, str], ...]:
        return tuple(zip(self.labels, series, strict=True))

    def samples(self) -> Iterator[Sample]:
        raise NotImplementedError

    def render(self) -> Iterator[str]:
        """The HELP and TYPE lines, then one line per sample."""
        yield f"# HELP {self.name} {_escape_help(self.help_text)}"
        yield f"# TYPE {self.name} {self.kind}"
        for suffix, labels, value in self.samples():
            yield f"{self.name}{suffix}{_label_text(labels)} {_number(value)}"


class Counter(Metric):
    """A count that only goes up (name it `..._total`)."""

    kind = "counter"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labels)
        self._values: dict[LabelValues, float] = {}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        if amount < 0:
            raise ValueError("a counter only goes up")
        series = self._series(labels)
        self._values[series] = self._values.get(series, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(self._series(labels), 0.0)

    def samples(self) -> Iterator[Sample]:
        for series, value in sorted(self._values.items()):
            yield "", self._named(series), value


class Gauge(Metric):
    """A value that goes up and down, set when it is known."""

    kind = "gauge"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labels)
        self._values: dict[LabelValues, float] = {}

    def set(self, value: float, **labels: str) -> None:
        self._values[self._series(labels)] = value

    def value(self, **labels: str) -> float:
        return self._values.get(self._series(labels), 0.0)

    def samples(self) -> Iterator[Sample]:
        for series, value in sorted(self._values.items()):
            yield "", self._named(series), value


class Histogram(Metric):
    """Observations counted into fixed buckets, with their sum and count."""

    kind = "histogram"

    def __init__(
        self,
        name: str,
        help_text: str,
        labels: Sequence[str] = (),
        buckets: Sequence[float] = LATENCY_BUCKETS,
    ) -> None:
        if "le" in labels:
            raise ValueError("`le` is the bucket label of a histogram")
        super().__init__(name, help_text, labels)
        self.buckets = tuple(sorted(buckets))
        self._counts: dict[LabelValues, list[int]] = {}  # per bucket, the last one is +Inf
        self._sums: dict[LabelValues, float] = {}

    def observe(self, value: float, **labels: str) -> None:
        series = self._series(labels)
        counts = self._counts.setdefault(series, [0] * (len(self.buckets) + 1))
        counts[bisect_left(self.buckets, value)] += 1  # `le` is inclusive
        self._sums[series] = self._sums.get(series, 0.0) + value

    def count(self, **labels: str) -> int:
        return sum(self._counts.get(self._series(labels), []))

    def samples(self) -> Iterator[Sample]:
        for series, counts in sorted(self._counts.items()):
            named = self._named(series)
            running = 0
            for bound, count in zip((*self.buckets, math.inf), counts, strict=True):
                running += count
                yield "_bucket", (*named, ("le", _number(bound))), running
            yield "_sum", named, self._sums[series]
            yield "_count", named, running


class Registry:
    """The metrics of one process, rendered together."""

    def __init__(self) -> None:
        self._metrics: dict[str, Metric] = {}

    def counter(self, name: str, help_text: str, labels: Sequence[str] = ()) -> Counter:
        return self._add(Counter(name, help_text, labels))

    def gauge(self, name: str, help_text: str, labels: Sequence[str] = ()) -> Gauge:
        return self._add(Gauge(name, help_text, labels))

    def histogram(
        self,
        name: str,
        help_text: str,
        labels: Sequence[str] = (),
        buckets: Sequence[float] = LATENCY_BUCKETS,
    ) -> Histogram:
        return self._add(Histogram(name, help_text, labels, buckets))

    def _add(self, metric: M) -> M:
        if metric.name in self._metrics:
            raise ValueError(f"metric {metric.name} is registered already")
        self._metrics[metric.name] = metric
        return metric

    def render(self) -> str:
        """Every metric in the Prometheus text exposition format."""
        lines = [line for metric in self._metrics.values() for line in metric.render()]
        return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _label_text(labels: tuple[tuple[str, str], ...]) -> str:
    if not labels:
        return ""
    return "{" + ",".join(f'{name}="{_escape_label(value)}"' for name, value in labels) + "}"
