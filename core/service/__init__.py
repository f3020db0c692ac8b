"""The game manager: the one platform-neutral API the adapters call (see `manager.GameManager`)."""
