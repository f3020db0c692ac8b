"""Whose request it is: X-Forwarded-For counts only from a trusted proxy, read from the right."""

from __future__ import annotations

from unittest.mock import Mock

import pytest
from aiohttp.test_utils import make_mocked_request
from aiohttp.web import Request

from adapters.web.addresses import TrustedProxies, parse_networks


def request(peer: str, *forwarded: str) -> Request:
    transport = Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (
        (peer, 40000) if name == "peername" else default
    )
    headers = [("X-Forwarded-For", value) for value in forwarded]
    return make_mocked_request("GET", "/s/", headers=headers, transport=transport)


def test_by_default_the_header_is_nobodys_word() -> None:
    assert TrustedProxies().client(request("127.0.0.1", "203.0.113.9")) == "127.0.0.1"
    assert TrustedProxies().client(request("10.1.2.3", "203.0.113.9")) == "10.1.2.3"


def test_a_trusted_proxy_names_the_hop_before_it() -> None:
    proxies = TrustedProxies.of("10.0.0.0/8, 127.0.0.1")
    assert proxies.client(request("10.1.2.3", "203.0.113.9")) == "203.0.113.9"


def test_an_untrusted_peer_is_itself_whatever_it_writes() -> None:
    proxies = TrustedProxies.of("10.0.0.0/8")
    assert proxies.client(request("198.51.100.7", "203.0.113.9")) == "198.51.100.7"


def test_a_forged_hop_on_the_left_is_never_reached() -> None:
    """The visitor wrote "1.2.3.4"; the proxy appended the address it saw."""
    proxies = TrustedProxies.of("10.0.0.0/8")
    forged = request("10.1.2.3", "1.2.3.4, 203.0.113.9")
    assert proxies.client(forged) == "203.0.113.9"
    chained = request("10.1.2.3", "1.2.3.4, 203.0.113.9, 10.9.9.9")  # two proxies of ours
    assert proxies.client(chained) == "203.0.113.9"
    split = request("10.1.2.3", "1.2.3.4", "203.0.113.9")  # one header line each
    assert proxies.client(split) == "203.0.113.9"


def test_a_hop_that_is_no_address_counts_as_the_proxy() -> None:
    proxies = TrustedProxies.of("10.0.0.0/8")
    assert proxies.client(request("10.1.2.3", "not-an-address")) == "10.1.2.3"


@pytest.mark.parametrize("text", ["10.0.0.0/33", "proxy.example", "10.0.0.1/8/8"])
def test_a_list_with_a_part_that_is_no_network_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not an address or network"):
        parse_networks(f"127.0.0.1, {text}")
