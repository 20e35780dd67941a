"""tla room."""

__all__: list[str] = []
