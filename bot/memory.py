"""The process's size and the container's memory limit, which `/healthz` compares (unhealthy before memory is gone)."""

from __future__ import annotations

from pathlib import Path

#: cgroup v2, then v1: the container's memory limit (a huge number or "max" means none).
CGROUP_LIMIT_FILES = (Path("/sys/fs/cgroup/memory.max"), Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"))


def rss_bytes(status: Path = Path("/proc/self/status")) -> int | None:
    """This process's resident memory (`VmRSS`), or None where /proc does not say."""
    try:
        for line in status.read_text(encoding="ascii").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def cgroup_memory_limit(files: tuple[Path, ...] = CGROUP_LIMIT_FILES) -> int | None:
    """The memory limit of the container this process runs in, in bytes; None without one."""
    for path in files:
        try:
            text = path.read_text(encoding="ascii").strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:
            return int(text)
        return None
    return None
