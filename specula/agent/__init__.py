"""agent room."""

__all__: list[str] = []
