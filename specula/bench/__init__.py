"""bench room."""

__all__: list[str] = []
