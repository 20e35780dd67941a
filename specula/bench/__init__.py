"""bench room: harnesses of the bundled systems, scoring against a task, the campaign runner and
its executors (local pool, Ray), the results store and the leaderboard. Tasks are ``specula.tasks``."""

from specula.bench.harness import harness_systems, run_harness

__all__: list[str] = ["harness_systems", "run_harness"]
