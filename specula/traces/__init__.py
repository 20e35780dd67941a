"""traces room."""

__all__: list[str] = []
