"""code room."""

__all__: list[str] = []
