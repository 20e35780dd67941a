"""bench room."""

from specula.bench.harness import HarnessSpec, SystemTask, discover_systems, load_system, run_harness

__all__: list[str] = ["HarnessSpec", "SystemTask", "discover_systems", "load_system", "run_harness"]
