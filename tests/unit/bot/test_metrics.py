"""bot/metrics.py: counters, gauges and histograms in the Prometheus text format."""

from __future__ import annotations

import pytest

from bot.metrics import Registry


def test_counter_renders_help_type_and_one_line_per_series() -> None:
    """A counter lists HELP and TYPE, then each label combination with its count."""
    registry = Registry()
    actions = registry.counter("shutbox_actions_total", "Actions handled.", ("action", "outcome"))
    actions.inc(action="click.roll", outcome="ok")
    actions.inc(2, action="click.roll", outcome="ok")
    actions.inc(action="start", outcome="refused")
    assert registry.render().splitlines() == [
        "# HELP shutbox_actions_total Actions handled.",
        "# TYPE shutbox_actions_total counter",
        'shutbox_actions_total{action="click.roll",outcome="ok"} 3',
        'shutbox_actions_total{action="start",outcome="refused"} 1',
    ]


def test_histogram_buckets_are_cumulative_with_inf_sum_and_count() -> None:
    """Each bucket counts observations up to and including its bound; +Inf counts them all."""
    registry = Registry()
    latency = registry.histogram("t_seconds", "Time.", buckets=(0.1, 1.0))
    for value in (0.05, 0.1, 0.5, 3.0):
        latency.observe(value)
    assert registry.render().splitlines()[2:] == [
        't_seconds_bucket{le="0.1"} 2',
        't_seconds_bucket{le="1"} 3',
        't_seconds_bucket{le="+Inf"} 4',
        "t_seconds_sum 3.65",
        "t_seconds_count 4",
    ]
    assert latency.count() == 4


def test_histogram_labels_come_before_le() -> None:
    """A labelled histogram keeps its labels on every bucket line, `le` last."""
    registry = Registry()
    registry.histogram("h", "H.", ("action",), buckets=(1.0,)).observe(0.5, action="roll")
    assert 'h_bucket{action="roll",le="1"} 1' in registry.render()


def test_gauge_is_set_not_added() -> None:
    """A gauge shows the last value set."""
    registry = Registry()
    games = registry.gauge("games", "Games.")
    games.set(5)
    games.set(2)
    assert registry.render().splitlines()[-1] == "games 2"


def test_label_values_are_escaped() -> None:
    """Quotes, backslashes and newlines in label values cannot break the format."""
    registry = Registry()
    registry.counter("c_total", "C.", ("name",)).inc(name='a"b\\c\nd')
    assert 'c_total{name="a\\"b\\\\c\\nd"} 1' in registry.render()


def test_wrong_labels_and_duplicate_names_are_refused() -> None:
    """A series must name exactly the declared labels, and a name is registered once."""
    registry = Registry()
    counter = registry.counter("c_total", "C.", ("action",))
    with pytest.raises(ValueError, match="takes labels"):
        counter.inc(verb="roll")
    with pytest.raises(ValueError, match="only goes up"):
        counter.inc(-1, action="roll")
    with pytest.raises(ValueError, match="registered already"):
        registry.gauge("c_total", "Again.")


def test_empty_metrics_render_only_their_header() -> None:
    """A metric with no series yet still tells Prometheus its type."""
    registry = Registry()
    registry.counter("none_total", "Nothing yet.")
    assert registry.render() == "# HELP none_total Nothing yet.\n# TYPE none_total counter\n"
