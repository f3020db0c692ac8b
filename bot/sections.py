"""The settings every process reads (the core's, Redis's), and what each section is built from.

A section is one `BaseSettings` class with its own prefix (`section_config`); each platform's
section lives with the platform (bot/platforms.py lists them). `read_settings` reads them all
at start-up; a malformed value stops it with one line naming the setting.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, TypeVar
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from adapters.web.addresses import parse_networks
from bot.commands import CommandError
from bot.sentinel import SentinelTarget, parse_sentinels
from core.service.model.rate_limits import Limit
from core.service.pipeline.runtime import (
    GAMES_CACHED,
    MEMBERS_CACHED,
    SERVERS_CACHED,
    CacheSizes,
)

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
REDIS_SCHEMES = ("redis", "rediss", "unix")
HOSTNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}")
Port = Annotated[int, Field(ge=0, le=65535)]
Seconds = Annotated[float, Field(gt=0, le=3600, allow_inf_nan=False)]
Delay = Annotated[float, Field(ge=0, le=3600, allow_inf_nan=False)]  # 0: none
Section = TypeVar("Section", bound=BaseSettings)


def web_url(value: str | None, *schemes: str) -> str | None:
    """`value` if it is an absolute URL with one of `schemes` and a host, else ValueError."""
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - reading it checks the port is a number in range
    except ValueError:
        raise ValueError(f"not a URL: {value!r}") from None
    if parts.scheme not in schemes or not parts.hostname:
        raise ValueError(f"must be a {' or '.join(f'{s}://' for s in schemes)} URL with a host")
    return value


def section_config(prefix: str) -> SettingsConfigDict:
    """A section read from variables named `prefix` + field, in the environment or `.env`."""
    return SettingsConfigDict(
        env_prefix=prefix, env_file=".env", extra="ignore", env_ignore_empty=True
    )


class CoreSettings(BaseSettings):
    model_config = section_config("SHUTBOX_")

    data_dir: Path = Path("data")  # the embedded Redis keeps its data file here
    log_level: str = "INFO"
    log_json: bool = False
    sweep_seconds: Seconds = 1.0  # how often this process applies passed deadlines
    # On SIGTERM: not ready at once, requests still taken for the drain, then acknowledged
    # work is given the grace period to finish (below Kubernetes' 30 s before SIGKILL).
    drain_seconds: Delay = 2.0
    grace_seconds: Seconds = 20.0
    # The operator listener: probes and /metrics, never the pages; 0: off.
    health_port: Port = 8080
    health_host: str = "127.0.0.1"  # this machine only; containers open it with 0.0.0.0
    # The public listener: Slack's requests (over HTTP), the board pictures, the servers' pages;
    # 0: none (Slack over HTTP needs it).
    public_port: Port = 3000
    public_host: str = "0.0.0.0"
    # Where chat clients and visitors reach the public listener (through a proxy): https://...
    public_url: str | None = None
    # The proxies whose X-Forwarded-For names the visitor (addresses or CIDRs); none: the peer.
    trusted_proxies: str = ""
    image_secret: SecretStr | None = None  # signs picture URLs (default: from Slack's secret)
    # Per member, shared by every process: commands, and games opened (COUNT/SECONDS, or off).
    rate_limit: str = "50/10"
    game_rate_limit: str = "10/60"
    seasons_kept: Annotated[int, Field(ge=0, le=1000)] = 10  # ended seasons' archives; 0: all
    # Seconds a request's record is kept (a repeated delivery gets its first answer back).
    request_ttl: Annotated[int, Field(ge=900, le=86400)] = 3600
    # What one process keeps of Redis: games, servers (settings, balances), balances per server;
    # beyond these the least recently used is dropped and read again when next needed.
    cache_games: Annotated[int, Field(ge=100)] = GAMES_CACHED
    cache_servers: Annotated[int, Field(ge=10)] = SERVERS_CACHED
    cache_members: Annotated[int, Field(ge=100)] = MEMBERS_CACHED

    @field_validator("rate_limit", "game_rate_limit")
    @classmethod
    def _limit(cls, value: str) -> str:
        Limit.parse(value)
        return value

    def cache_sizes(self) -> CacheSizes:
        return CacheSizes(self.cache_games, self.cache_servers, self.cache_members)

    def limits(self) -> RateLimitSettings:
        """The two limits, read (None where turned off)."""
        return RateLimitSettings(Limit.parse(self.rate_limit), Limit.parse(self.game_rate_limit))

    @field_validator("data_dir")
    @classmethod
    def _usable_dir(cls, value: Path) -> Path:
        if value.exists() and not value.is_dir():
            raise ValueError(f"{value} exists and is not a directory")
        return value

    @field_validator("public_url")
    @classmethod
    def _public(cls, value: str | None) -> str | None:
        checked = web_url(value, "https", "http")
        if checked is not None and ("?" in checked or "#" in checked):
            raise ValueError("the address the bot's pages sit under: no ?query or #fragment")
        return checked

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        parse_networks(value)
        return value

    @field_validator("health_host", "public_host")
    @classmethod
    def _host(cls, value: str) -> str:
        try:
            ipaddress.ip_address(value)
        except ValueError:
            if not HOSTNAME.fullmatch(value):
                raise ValueError(f"not an IP address or host name: {value!r}") from None
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return value.upper()


@dataclass(frozen=True, slots=True)
class RateLimitSettings:
    commands: Limit | None
    games: Limit | None


class RedisSettings(BaseSettings):
    model_config = section_config("REDIS_")

    url: str | None = None  # without it the bot starts its own embedded Redis
    cluster: bool = False  # `url` names one node of a Redis Cluster
    # Connections one process opens to Redis at most; past them a command waits (up to
    # `pool_timeout` seconds) for one to come free, instead of failing at once.
    pool_size: Annotated[int, Field(ge=1, le=10_000)] = 200
    pool_timeout: Seconds = 10.0

    @field_validator("url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        """What redis-py can connect to: redis://, rediss:// or unix:// with a sound port/db."""
        if value is None:
            return None
        from redis.connection import parse_url

        scheme = value.partition("://")[0]
        if scheme not in REDIS_SCHEMES or "://" not in value:
            raise ValueError("must start with redis://, rediss:// or unix:// (e.g. "
                             "redis://localhost:6379/0)")  # fmt: skip
        try:
            parse_url(value)  # type: ignore[no-untyped-call]
            parts = urlsplit(value)
            parts.port  # noqa: B018 - reading it checks the port
        except ValueError as error:
            raise ValueError(f"not a Redis URL ({error})") from None
        if scheme != "unix" and not re.fullmatch(r"/?[0-9]*", parts.path):
            raise ValueError(f"the database after the host is a number, not {parts.path!r}")
        return value

    @field_validator("cluster")
    @classmethod
    def _cluster_needs_url(cls, value: bool, info: ValidationInfo) -> bool:
        if value and not info.data.get("url"):
            raise ValueError("needs REDIS_URL, the address of one node of the cluster")
        return value

    # Redis Sentinel, instead of REDIS_URL: the sentinels' addresses and the master's name.
    sentinels: str | None = None  # host:port,host:port
    sentinel_master: str | None = Field(default=None, validate_default=True)
    password: SecretStr | None = None  # the master's, with sentinels (a URL carries its own)
    sentinel_password: SecretStr | None = None  # the sentinels' own `requirepass`

    @field_validator("sentinels")
    @classmethod
    def _sentinel_addresses(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None:
            parse_sentinels(value)
            if info.data.get("url") or info.data.get("cluster"):
                raise ValueError("set REDIS_SENTINELS or REDIS_URL (and REDIS_CLUSTER), not both")
        return value

    @field_validator("sentinel_master")
    @classmethod
    def _master_with_sentinels(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("sentinels") and not value:
            raise ValueError("needs the name the sentinels monitor the master under")
        return value

    def sentinel_target(self) -> SentinelTarget | None:
        """Where to find the master, when Redis runs behind Sentinel."""
        if not self.sentinels or not self.sentinel_master:
            return None
        return SentinelTarget(
            parse_sentinels(self.sentinels), self.sentinel_master,
            _secret(self.password), _secret(self.sentinel_password),
        )  # fmt: skip


def _secret(value: SecretStr | None) -> str | None:
    return value.get_secret_value() if value is not None else None


class Settings:
    """All sections: the core's and Redis's, and the platforms' (read once at start-up)."""

    def __init__(self, platforms: Iterable[type[BaseSettings]] = ()) -> None:
        self.core = CoreSettings()
        self.redis = RedisSettings()
        self._platforms = {section: section() for section in platforms}

    def section(self, kind: type[Section]) -> Section:
        """A platform's section (read now if it was not read at start-up)."""
        found = self._platforms.get(kind)
        if not isinstance(found, kind):
            found = self._platforms[kind] = kind()
        return found


class SettingsError(CommandError):
    """A setting is missing or malformed; `str()` is the one line to show (exit code 2)."""


def read_settings(platforms: Iterable[type[BaseSettings]]) -> Settings:
    """Every section, or a `SettingsError` naming the first setting that is wrong."""
    platforms = tuple(platforms)
    try:
        return Settings(platforms)
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]).upper() if first["loc"] else "?"
        sections: tuple[type[BaseSettings], ...] = (CoreSettings, RedisSettings, *platforms)
        section = next(kind for kind in sections if kind.__name__ == error.title)
        prefix = section.model_config.get("env_prefix") or ""
        message = first["msg"].removeprefix("Value error, ")
        raise SettingsError(f"setting {prefix}{name}: {message}") from None
