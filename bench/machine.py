"""The machine a benchmark ran on, for the write-up (docs/BENCHMARKS.md)."""

from __future__ import annotations

import os
import platform
import subprocess


def describe() -> dict:
    """CPU model, logical CPUs, load average, Python version and implementation."""
    model = platform.processor() or "unknown"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in lscpu.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return {
        "cpu": model,
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
