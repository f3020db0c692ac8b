"""Settings from the environment (and `.env`), one class per section with its own prefix.

Secrets have no defaults; a malformed value stops start-up with one line naming the setting.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict


def _config(prefix: str) -> SettingsConfigDict:
    return SettingsConfigDict(
        env_prefix=prefix, env_file=".env", extra="ignore", env_ignore_empty=True
    )


class CoreSettings(BaseSettings):
    model_config = _config("SHUTBOX_")

    data_dir: Path = Path("data")  # the embedded Redis keeps its data file here
    log_level: str = "INFO"
    log_json: bool = False
    sweep_seconds: float = 1.0  # how often this process applies passed deadlines


class RedisSettings(BaseSettings):
    model_config = _config("REDIS_")

    url: str | None = None  # without it the bot starts its own embedded Redis


class DiscordSettings(BaseSettings):
    model_config = _config("DISCORD_")

    token: SecretStr | None = None
    client_id: str | None = None  # the application id, for the invite URL
    api_base: str = "https://discord.com/api/v10"
    gateway_url: str = "wss://gateway.discord.gg/"
    dev_guild: int | None = None  # sync commands to this guild only (instant, for development)
    shard_count: int | None = None
    shard_ids: str | None = None  # e.g. "0,1": the shards this process runs


class SlackSettings(BaseSettings):
    model_config = _config("SLACK_")

    bot_token: SecretStr | None = None
    signing_secret: SecretStr | None = None
    app_token: SecretStr | None = None  # xapp-...: Socket Mode instead of HTTP
    client_id: str | None = None  # with the secret below: many workspaces via OAuth install
    client_secret: SecretStr | None = None
    state_secret: SecretStr | None = None
    api_url: str = "https://slack.com/api/"
    port: int = 3000


class Settings:
    """All sections, read once at start-up."""

    def __init__(self) -> None:
        self.core = CoreSettings()
        self.redis = RedisSettings()
        self.discord = DiscordSettings()
        self.slack = SlackSettings()

    @property
    def discord_enabled(self) -> bool:
        return self.discord.token is not None

    @property
    def slack_enabled(self) -> bool:
        slack = self.slack
        single = slack.bot_token is not None and slack.signing_secret is not None
        return single or (slack.client_id is not None and slack.client_secret is not None)


class SettingsError(Exception):
    """A setting is missing or malformed; `str()` is the one line to show."""


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]).upper() if first["loc"] else "?"
        title = error.title.removesuffix("Settings").upper()
        prefix = {"CORE": "SHUTBOX_"}.get(title, f"{title}_")
        raise SettingsError(f"setting {prefix}{name}: {first['msg']}") from None
