"""Scale fixtures: the same real Redis the integration tests use (for two bot processes)."""

from tests.integration.conftest import redis, redis_url, store

__all__ = ["redis", "redis_url", "store"]
