"""Board pictures by URL (Slack's image blocks, Discord's embeds): the bot's public address and
its signing key.

Pictures need SHUTBOX_PUBLIC_URL, where chat clients reach this bot's web server, and a key every
process of the bot shares: SHUTBOX_IMAGE_SECRET, else one derived from SLACK_SIGNING_SECRET.
Without them Slack shows the emoji board (`config style=image` says why) and Discord uploads
the picture with each edit.
"""

from __future__ import annotations

import logging

from pydantic import SecretStr
from pydantic_settings import BaseSettings

from adapters.pictures import PictureLinks, derived_key
from bot.sections import Settings, section_config

log = logging.getLogger("shutbox.pictures")


class SlackSecret(BaseSettings):
    """SLACK_SIGNING_SECRET, read as the Slack section reads it (bot/commands/slack.py), by a
    process that may serve pictures without running Slack (its health server)."""

    model_config = section_config("SLACK_")

    signing_secret: SecretStr | None = None


def picture_links(settings: Settings) -> PictureLinks | None:
    """The signed picture URLs this process hands out and serves, if it has an address."""
    public_url = settings.core.public_url
    if public_url is None:
        return None
    secret = settings.core.image_secret or settings.section(SlackSecret).signing_secret
    if secret is None:
        log.warning("SHUTBOX_PUBLIC_URL is set but there is no key to sign picture URLs with: "
                    "set SHUTBOX_IMAGE_SECRET; until then Slack shows boards as emoji and "
                    "Discord uploads each picture")  # fmt: skip
        return None
    return PictureLinks(public_url, derived_key(secret.get_secret_value()))
