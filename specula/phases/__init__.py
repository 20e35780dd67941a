"""phases room."""

__all__: list[str] = []
