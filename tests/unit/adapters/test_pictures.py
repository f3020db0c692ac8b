"""Signed picture URLs: the signature covers the state, and keys derived from a secret differ."""

from __future__ import annotations

from adapters.pictures import PictureLinks, derived_key


def test_a_signature_belongs_to_one_state_and_one_key() -> None:
    links = PictureLinks("https://bot.example.org", derived_key("signing secret"))
    other = PictureLinks("https://bot.example.org", derived_key("another secret"))
    signature = links.sign("9.1ff.53.-.")
    assert links.signed("9.1ff.53.-.", signature)
    assert not links.signed("9.1fe.53.-.", signature)
    assert not other.signed("9.1ff.53.-.", signature)
    assert not links.signed("9.1ff.53.-.", "")
    assert len(signature) == 22


def test_the_key_is_not_the_secret_it_comes_from() -> None:
    """A picture signature never gives away Slack's signing secret: the key is derived."""
    assert derived_key("signing secret") != b"signing secret"
    assert derived_key("signing secret") == derived_key("signing secret")
