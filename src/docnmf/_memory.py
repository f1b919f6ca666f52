"""How much memory this machine has or can give, and a refusal before allocating beyond it."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["available_memory", "physical_memory", "refuse_beyond_memory"]


def physical_memory() -> int | None:
    """Bytes of physical memory; None where the system does not say."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return total if total > 0 else None


def available_memory() -> int | None:
    """Bytes the system can give this process: Linux's MemAvailable (free memory and the
    caches it can drop; MemFree alone refused work that fit), within a cgroup's limit; None
    where the system does not say."""
    available = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text(encoding="ascii").strip()
        used = int(Path("/sys/fs/cgroup/memory.current").read_text(encoding="ascii"))
        if limit != "max":
            room = int(limit) - used
            available = room if available is None else min(available, room)
    except (OSError, ValueError):
        pass
    return available


def refuse_beyond_memory(n_bytes: int, what: str, *, available: bool = False) -> None:
    """MemoryError, before allocating, when ``n_bytes`` exceed this machine's physical memory
    (a floor on a cost: sizes no machine could hold) or, with ``available``, the memory it can
    give now (a cost's actual peak); nothing where the system does not say."""
    limit = available_memory() if available else physical_memory()
    if limit is None or n_bytes <= limit:
        return
    where = (f"where {limit / 2**30:.1f} GiB are available" if available
             else f"more than this machine's {limit / 2**30:,.0f} GiB")
    size = f"{n_bytes / 2**30:.1f}" if available else f"{n_bytes / 2**30:,.0f}"
    raise MemoryError(f"{what} would need {'about ' if available else ''}{size} GiB, {where}")
