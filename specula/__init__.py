"""specula: model real concurrent and distributed system code in TLA+."""

__all__ = ["__version__"]

__version__ = "0.1.0"
